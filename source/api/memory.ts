// The memory area: the memory pipeline — extraction runs, status, the review listing and recall —
// the approved projection, and the human gate: confirm, discard, prepare, approve, promote.
import { z } from 'zod';
import { CAPTURE_CLIENTS } from './common.js';
import { entryIdText, proposalFields, proposalOrigin } from './proposal.js';
import {
  type MemoryExtractReport,
  type MemoryExtractRun,
  type MemoryReverifyResult,
  type MemoryReverifyRun,
  memoryExtractReportSchema,
  memoryExtractRunSchema,
  memoryReverifyResultSchema,
  memoryReverifyRunSchema,
  memoryStatusSchema,
} from './memory-runs.js';
import {
  type ConsolidationReview,
  consolidationReviewSchema,
  type MemoryConsolidateResult,
  memoryConsolidateResultSchema,
  type MemoryConfirmResult,
  type MemoryDiscardResult,
  type MemoryEntryView,
  type MemoryPlanView,
  type MemoryPromoteResult,
  type MemoryProposeResult,
  type MemoryRecallResult,
  type MemoryReview,
  type MemorySearchResult,
  type MemorySyncResult,
  type MemoryVoidResult,
  memoryConfirmResultSchema,
  memoryDiscardResultSchema,
  memoryEntryViewSchema,
  memoryPlanViewSchema,
  memoryPromoteResultSchema,
  memoryProposeResultSchema,
  memoryRecallResultSchema,
  memoryReviewSchema,
  memorySearchResultSchema,
  memorySyncResultSchema,
  memoryVoidResultSchema,
  type MemoryAnchorRun,
  memoryAnchorRunSchema,
  type MemoryStaleResult,
  memoryStaleResultSchema,
  reviewScope,
} from './memory-views.js';
import { body, read, readByBody, write } from './route.js';
import {
  type MemorySuggestions,
  type MemorySuggestionsRequest,
  memorySuggestionsBody,
  memorySuggestionsSchema,
} from './memory-usage.js';

/** The caller's directory: its repository (or the user scope outside git) is the request's scope. */
const cwd = z.string().min(1).max(4096);
const candidateId = z.string().min(1).max(200);
const planId = z.string().min(1).max(200);

/** What an extraction run is asked for: the body of memoryExtract and memoryExtractStart. */
const extractBody = z.strictObject({
  cwd,
  /** Canonical UTC; without --since, since the last run of this scope. */
  since: z.string().optional(),
  until: z.string().optional(),
  query: z.string().max(4096).optional(),
  client: z.enum(CAPTURE_CLIENTS).optional(),
  sessions: z.array(z.string().min(1).max(200)).max(100).optional(),
  runner: z.string().max(64).optional(),
  /** An approval of one plan (or of a run's only plan) by its digest. */
  approvePlan: z.string().max(128).optional(),
  /** An approval of every plan of a run by its manifest's digest. */
  approveManifest: z.string().max(128).optional(),
  /** Extraction tasks this run works on, 1..8. */
  limit: z.number().optional(),
});
export type MemoryExtractRequest = z.infer<typeof extractBody>;

const reviewBody = z.strictObject({
  cwd,
  scope: reviewScope.optional(),
  /** Page size, 1–200 (default 50). */
  limit: z.number().describe('1..200').optional(),
  /** The previous page's nextAfter: the page starts after that candidate. */
  after: z.string().max(200).optional(),
});
export type MemoryReviewRequest = z.infer<typeof reviewBody>;

const recallBody = z.strictObject({ text: z.string(), cwd, limit: z.number().optional() });
export type MemoryRecallRequest = z.infer<typeof recallBody>;

const searchBody = z.strictObject({ query: z.string().max(4096), cwd, limit: z.number().optional() });
export type MemorySearchRequest = z.infer<typeof searchBody>;

const getBody = z.strictObject({ entryId: entryIdText, cwd });

const confirmBody = z.strictObject({ candidateId, statementId: z.string().min(1).max(200), cwd });
export type MemoryConfirmRequest = z.infer<typeof confirmBody>;

/** One memory an agent proposes through `memory_propose`; the owner is the repository of `cwd`. */
const proposeBody = z.strictObject({
  cwd,
  ...proposalFields,
  appliesWhen: proposalFields.appliesWhen.nullable(),
  origin: proposalOrigin,
  /** An approved entry this candidate rewrites (the Memory screen's "edit through a candidate"): promote updates that entry's file. */
  revises: entryIdText.optional(),
});
export type MemoryProposeRequest = z.infer<typeof proposeBody>;

const discardBody = z.strictObject({ candidateId, cwd });
export type MemoryDiscardRequest = z.infer<typeof discardBody>;

const prepareBody = z.strictObject({
  /** Empty with `patch`: a consolidation patch's plan carries no candidate. */
  candidateIds: z.array(candidateId).max(200),
  /**
   * A consolidation patch (memory review lists them) instead of candidates: the operations a person
   * accepted, by their number in the patch (from 1); without them, all of them.
   */
  patch: z
    .strictObject({
      taskId: z.string().min(1).max(200),
      operations: z.array(z.number().int().min(1)).min(1).max(2000).optional(),
    })
    .optional(),
  /** Default: the candidates' own scope (their repository's worktree, or the user's for one from outside git). */
  scope: z.enum(['project', 'user']).optional(),
  /** The caller's directory. The plan goes to the candidates' own scope, never this directory's. */
  cwd,
});
export type MemoryPrepareRequest = z.infer<typeof prepareBody>;

/** The approved entry to retire (memory retire): its file is removed by a plan, approved like any. */
const retireBody = z.strictObject({
  entryId: entryIdText,
  /** Default: the caller's worktree's memory root, then the user's. */
  scope: z.enum(['project', 'user']).optional(),
  cwd,
});
export type MemoryRetireRequest = z.infer<typeof retireBody>;

const consolidateBody = z.strictObject({
  /** Default: the caller's scope (its repository inside a git worktree, else the user's). */
  scope: z.enum(['project', 'user']).optional(),
  /** Only make the task (MCP memory_consolidate_preview): nothing runs; `memory consolidate` runs it. */
  preview: z.boolean().optional(),
  /** A profile of runners.json instead of the built-in runner: its plan is approved by digest first. */
  runner: z.string().min(1).max(128).optional(),
  approvePlan: z.string().max(128).optional(),
  approveManifest: z.string().max(128).optional(),
  cwd,
});
export type MemoryConsolidateRequest = z.infer<typeof consolidateBody>;

const planBody = z.strictObject({ planId });
const patchBody = z.strictObject({ taskId: planId });
export type MemoryPromoteRequest = z.infer<typeof planBody>;

/** The planDigest the person read: approval binds exactly these bytes. */
const approveBody = z.strictObject({ planId, digest: z.string().min(1).max(200) });
export type MemoryApproveRequest = z.infer<typeof approveBody>;

/** A task given a fresh attempt budget. */
const retryResultSchema = z.strictObject({ taskId: z.string(), attempts: z.number() });

export const memoryApi = {
  /**
   * One extraction run over the caller's repository (the scope comes from its directory, never
   * wider), answered when it ends. The HTTP client does not wait on this: it starts the run and
   * follows it (memoryExtractStart, memoryExtractRun), so no request lasts as long as a runner.
   */
  memoryExtract: write<MemoryExtractRequest, MemoryExtractReport>('/v1/memory/extract', memoryExtractReportSchema, {
    body: body(extractBody),
    created: (report) => report.candidates.created > 0,
  }),
  /** Starts an extraction run and answers at once with its id; memoryExtractRun follows it. */
  memoryExtractStart: write<MemoryExtractRequest, MemoryExtractRun>('/v1/memory/extract/runs', memoryExtractRunSchema, {
    body: body(extractBody),
    created: () => true,
  }),
  /** A run memoryExtractStart started: its state and progress, its report once done (a short read). */
  memoryExtractRun: read<{ runId: string }, MemoryExtractRun>('/v1/memory/extract/runs/:runId', memoryExtractRunSchema),
  memoryStatus: read('/v1/memory/status', memoryStatusSchema),
  /**
   * Runs a runner profile's deny-all conformance probe again, whatever its cache says; answered when
   * it ends. The HTTP client starts it and follows it instead (memoryReverifyStart, memoryReverifyProbe).
   */
  memoryReverifyRunner: write<{ runner: string }, MemoryReverifyResult>(
    '/v1/memory/runners/:runner/reverify',
    memoryReverifyResultSchema,
  ),
  /** Starts the probe and answers at once with its id. */
  memoryReverifyStart: write<{ runner: string }, MemoryReverifyRun>(
    '/v1/memory/runners/:runner/probes',
    memoryReverifyRunSchema,
    {
      created: () => true,
    },
  ),
  /** A probe memoryReverifyStart started: its state, its result once done (a short read). */
  memoryReverifyProbe: read<{ probeId: string }, MemoryReverifyRun>(
    '/v1/memory/probes/:probeId',
    memoryReverifyRunSchema,
  ),
  /** Gives a task that spent its attempt budget a fresh one. */
  memoryRetry: write<{ taskId: string }, z.infer<typeof retryResultSchema>>(
    '/v1/memory/tasks/:taskId/retry',
    retryResultSchema,
  ),
  /** A page of draft and quarantined candidates, every scope's or one's (read-only; findings masked). */
  memoryReview: readByBody<MemoryReviewRequest, MemoryReview>(
    '/v1/memory/review',
    body(reviewBody),
    memoryReviewSchema,
  ),
  memoryRecall: readByBody<MemoryRecallRequest, MemoryRecallResult>(
    '/v1/memory/recall',
    body(recallBody),
    memoryRecallResultSchema,
  ),
  /** Scans the caller's memory roots (its worktree's and the user's) into the approved projection. */
  memorySync: write<{ cwd: string }, MemorySyncResult>('/v1/memory/sync', memorySyncResultSchema, {
    body: body(z.strictObject({ cwd })),
    created: (result) => result.scopes.some((scope) => scope.outcome === 'replaced'),
  }),
  /**
   * Verifies the anchors of the approved entries of the caller's worktree against it and stores
   * the verdicts (docs/memory-staleness.md): what `memory status` runs before it counts.
   */
  memoryVerify: write<{ cwd: string }, MemoryAnchorRun>('/v1/memory/verify', memoryAnchorRunSchema, {
    body: body(z.strictObject({ cwd })),
  }),
  /** The stale entries of the caller's worktree with their failed anchors (the last verification's verdicts). */
  memoryStale: readByBody<{ cwd: string }, MemoryStaleResult>(
    '/v1/memory/stale',
    body(z.strictObject({ cwd })),
    memoryStaleResultSchema,
  ),
  /** BM25 over the approved entries of the caller's worktree and the user scope, with generation and coverage. */
  memorySearch: readByBody<MemorySearchRequest, MemorySearchResult>(
    '/v1/memory/search',
    body(searchBody),
    memorySearchResultSchema,
  ),
  /** One approved entry by id, from the caller's worktree or the user scope. */
  memoryGet: readByBody<z.infer<typeof getBody>, MemoryEntryView>(
    '/v1/memory/entry',
    body(getBody),
    memoryEntryViewSchema,
  ),
  /** Marks one statement of a candidate human-confirmed, if its text and citations are what was assessed. */
  memoryConfirm: write<MemoryConfirmRequest, MemoryConfirmResult>('/v1/memory/confirm', memoryConfirmResultSchema, {
    body: body(confirmBody),
  }),
  /** An agent's proposal (MCP memory_propose) → a draft candidate of the caller's repository, for a person to review. */
  memoryPropose: write<MemoryProposeRequest, MemoryProposeResult>('/v1/memory/propose', memoryProposeResultSchema, {
    body: body(proposeBody),
    created: (result) => result.created,
  }),
  /** A draft or quarantined candidate leaves the queue and the dedup pool; it is kept, never deleted. */
  memoryDiscard: write<MemoryDiscardRequest, MemoryDiscardResult>('/v1/memory/discard', memoryDiscardResultSchema, {
    body: body(discardBody),
  }),
  /** A promotion plan for candidates of the caller's repository: exact bytes, blob OIDs, a diff; status generated. */
  memoryPrepare: write<MemoryPrepareRequest, MemoryPlanView>('/v1/memory/prepare', memoryPlanViewSchema, {
    body: body(prepareBody),
    created: () => true,
  }),
  /**
   * A retirement plan: removes one approved entry's file (its exact bytes and blob recorded), status
   * generated, approved and promoted like any plan (docs/memory-staleness.md).
   */
  memoryRetire: write<MemoryRetireRequest, MemoryPlanView>('/v1/memory/retire', memoryPlanViewSchema, {
    body: body(retireBody),
    created: () => true,
  }),
  /**
   * A consolidation task over one scope's approved entries, run by the built-in runner; its patch
   * (scenes, merges, retirements) is submitted with a compare-and-swap on every entry's revision and
   * waits in the review queue as one item. Nothing in the memory root changes.
   */
  memoryConsolidate: write<MemoryConsolidateRequest, MemoryConsolidateResult>(
    '/v1/memory/consolidate',
    memoryConsolidateResultSchema,
    { body: body(consolidateBody), created: (result) => result.outcome === 'accepted' },
  ),
  /** One plan as the journal holds it (its diff, files and status). */
  memoryPlan: readByBody<z.infer<typeof planBody>, MemoryPlanView>(
    '/v1/memory/plan',
    body(planBody),
    memoryPlanViewSchema,
  ),
  /** One consolidation patch by its id, whatever its status: its operations, what each rests on, its plan. */
  memoryPatch: readByBody<z.infer<typeof patchBody>, ConsolidationReview>(
    '/v1/memory/patch',
    body(patchBody),
    consolidationReviewSchema,
  ),
  /** The person's approval of a generated plan, bound to its digest. */
  memoryApprove: write<MemoryApproveRequest, MemoryPlanView>('/v1/memory/approve', memoryPlanViewSchema, {
    body: body(approveBody),
  }),
  /**
   * A person withdraws a plan not yet written (generated or approved): voided, never approved or
   * promoted again; its candidates stay in the queue. A plan being written or applied is refused.
   */
  memoryVoid: write<MemoryPromoteRequest, MemoryVoidResult>('/v1/memory/void', memoryVoidResultSchema, {
    body: body(planBody),
  }),
  /** Writes an approved plan's exact bytes into the memory root (or finishes an interrupted one), then syncs. */
  memoryPromote: write<MemoryPromoteRequest, MemoryPromoteResult>('/v1/memory/promote', memoryPromoteResultSchema, {
    body: body(planBody),
  }),
  /**
   * Approved entries of the caller's worktree and the user scope to consider retiring, each with why:
   * stale anchors, or neither read nor re-taught in `days` days. Lists only; retires nothing.
   */
  memorySuggestions: readByBody<MemorySuggestionsRequest, MemorySuggestions>(
    '/v1/memory/suggestions',
    body(memorySuggestionsBody),
    memorySuggestionsSchema,
  ),
};

export type MemoryRoutes = typeof memoryApi;
