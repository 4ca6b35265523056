// The memory area: session search and the memory pipeline — extraction runs, status, the
// review listing and recall — and the human gate: confirm, discard, prepare, approve, promote.
import { z } from 'zod';
import type {
  MemoryApproveRequest,
  MemoryConfirmRequest,
  MemoryConfirmResult,
  MemoryDiscardRequest,
  MemoryDiscardResult,
  MemoryEntryView,
  MemoryPlanView,
  MemoryPrepareRequest,
  MemoryPromoteRequest,
  MemoryPromoteResult,
  MemoryProposeRequest,
  MemoryProposeResult,
  MemoryExtractReport,
  MemoryExtractRequest,
  MemoryExtractRun,
  MemoryRecallResult,
  MemoryReverifyResult,
  MemoryReverifyRun,
  MemoryReview,
  MemoryReviewRequest,
  MemorySearchResult,
  MemoryStatus,
  MemorySyncResult,
  SessionSearchRequest,
  SessionSearchResult,
} from '../protocol.js';
import { proposalFields, proposalOrigin } from '../store/memory/proposal.js';
import { read, readByBody, write } from './route.js';

/** What an extraction run is asked for: the body of memoryExtract and memoryExtractStart. */
const extractBody = {
  schema: z
    .object({
      since: z.string().optional(),
      until: z.string().optional(),
      query: z.string().max(4096).optional(),
      client: z.enum(['codex', 'claude', 'pi']).optional(),
      sessions: z.array(z.string().min(1).max(200)).max(100).optional(),
      runner: z.string().max(64).optional(),
      approvePlan: z.string().max(128).optional(),
      approveManifest: z.string().max(128).optional(),
      limit: z.number().optional(),
      cwd: z.string().min(1).max(4096),
    })
    .strict(),
  shape:
    '{"cwd": string, "since"?, "until"?, "query"?, "client"?, "sessions"?, "runner"?, "approvePlan"?, "approveManifest"?, "limit"?}',
};

export const memoryApi = {
  /** BM25 over what users said (delivered user turns, driven agents' user rows). */
  sessionSearch: readByBody<SessionSearchRequest, SessionSearchResult>('/v1/search', {
    schema: z
      .object({
        query: z.string(),
        since: z.string().optional(),
        until: z.string().optional(),
        client: z.string().optional(),
        limit: z.number().optional(),
      })
      .strict(),
    shape: '{"query": string, "since"?, "until"?, "client"?, "limit"?: number}',
  }),
  /**
   * One extraction run over the caller's repository (the scope comes from its directory, never
   * wider), answered when it ends. The HTTP client does not wait on this: it starts the run and
   * follows it (memoryExtractStart, memoryExtractRun), so no request lasts as long as a runner.
   */
  memoryExtract: write<MemoryExtractRequest, MemoryExtractReport>('/v1/memory/extract', {
    body: extractBody,
    created: (report) => report.candidates.created > 0,
  }),
  /** Starts an extraction run and answers at once with its id; memoryExtractRun follows it. */
  memoryExtractStart: write<MemoryExtractRequest, MemoryExtractRun>('/v1/memory/extract/runs', {
    body: extractBody,
    created: () => true,
  }),
  /** A run memoryExtractStart started: its state and progress, its report once done (a short read). */
  memoryExtractRun: read<{ runId: string }, MemoryExtractRun>('/v1/memory/extract/runs/:runId'),
  memoryStatus: read<void, MemoryStatus>('/v1/memory/status'),
  /**
   * Runs a runner profile's deny-all conformance probe again, whatever its cache says; answered when
   * it ends. The HTTP client starts it and follows it instead (memoryReverifyStart, memoryReverifyProbe).
   */
  memoryReverifyRunner: write<{ runner: string }, MemoryReverifyResult>('/v1/memory/runners/:runner/reverify'),
  /** Starts the probe and answers at once with its id. */
  memoryReverifyStart: write<{ runner: string }, MemoryReverifyRun>('/v1/memory/runners/:runner/probes', {
    created: () => true,
  }),
  /** A probe memoryReverifyStart started: its state, its result once done (a short read). */
  memoryReverifyProbe: read<{ probeId: string }, MemoryReverifyRun>('/v1/memory/probes/:probeId'),
  /** Gives a task that spent its attempt budget a fresh one. */
  memoryRetry: write<{ taskId: string }, { taskId: string; attempts: number }>('/v1/memory/tasks/:taskId/retry'),
  /** A page of draft and quarantined candidates, every scope's or one's (read-only; findings masked). */
  memoryReview: readByBody<MemoryReviewRequest, MemoryReview>('/v1/memory/review', {
    schema: z
      .object({
        cwd: z.string().min(1).max(4096),
        scope: z.enum(['all', 'user', 'project', 'here']).optional(),
        limit: z.number().optional(),
        after: z.string().max(200).optional(),
      })
      .strict(),
    shape: '{"cwd": string, "scope"?: "all"|"user"|"project"|"here", "limit"?: 1..200, "after"?: string}',
  }),
  memoryRecall: readByBody<{ text: string; cwd: string; limit?: number | undefined }, MemoryRecallResult>(
    '/v1/memory/recall',
    {
      schema: z.object({ text: z.string(), cwd: z.string().min(1).max(4096), limit: z.number().optional() }).strict(),
      shape: '{"text": string, "cwd": string, "limit"?: number}',
    },
  ),
  /** Scans the caller's memory roots (its worktree's and the user's) into the approved projection. */
  memorySync: write<{ cwd: string }, MemorySyncResult>('/v1/memory/sync', {
    body: { schema: z.object({ cwd: z.string().min(1).max(4096) }).strict(), shape: '{"cwd": string}' },
    created: (result) => result.scopes.some((scope) => scope.outcome === 'replaced'),
  }),
  /** BM25 over the approved entries of the caller's worktree and the user scope, with generation and coverage. */
  memorySearch: readByBody<{ query: string; cwd: string; limit?: number | undefined }, MemorySearchResult>(
    '/v1/memory/search',
    {
      schema: z
        .object({ query: z.string().max(4096), cwd: z.string().min(1).max(4096), limit: z.number().optional() })
        .strict(),
      shape: '{"query": string, "cwd": string, "limit"?: number}',
    },
  ),
  /** One approved entry by id, from the caller's worktree or the user scope. */
  memoryGet: readByBody<{ entryId: string; cwd: string }, MemoryEntryView>('/v1/memory/entry', {
    schema: z.object({ entryId: z.string().min(1).max(256), cwd: z.string().min(1).max(4096) }).strict(),
    shape: '{"entryId": string, "cwd": string}',
  }),
  /** Marks one statement of a candidate human-confirmed, if its text and citations are what was assessed. */
  memoryConfirm: write<MemoryConfirmRequest, MemoryConfirmResult>('/v1/memory/confirm', {
    body: {
      schema: z
        .object({
          candidateId: z.string().min(1).max(200),
          statementId: z.string().min(1).max(200),
          cwd: z.string().min(1).max(4096),
        })
        .strict(),
      shape: '{"candidateId": string, "statementId": string, "cwd": string}',
    },
  }),
  /** An agent's proposal (MCP memory_propose) → a draft candidate of the caller's repository, for a person to review. */
  memoryPropose: write<MemoryProposeRequest, MemoryProposeResult>('/v1/memory/propose', {
    body: {
      schema: z
        .object({
          cwd: z.string().min(1).max(4096),
          ...proposalFields,
          appliesWhen: proposalFields.appliesWhen.nullable(),
          origin: proposalOrigin,
        })
        .strict(),
      shape:
        '{"cwd": string, "title": string, "content": string, "type": "work_fact"|"work_task"|"work_method"|"work_artifact", "appliesWhen": string|null, "origin": {"client", "clientVersion", "conversation"}}',
    },
    created: (result) => result.created,
  }),
  /** A draft or quarantined candidate leaves the queue and the dedup pool; it is kept, never deleted. */
  memoryDiscard: write<MemoryDiscardRequest, MemoryDiscardResult>('/v1/memory/discard', {
    body: {
      schema: z.object({ candidateId: z.string().min(1).max(200), cwd: z.string().min(1).max(4096) }).strict(),
      shape: '{"candidateId": string, "cwd": string}',
    },
  }),
  /** A promotion plan for candidates of the caller's repository: exact bytes, blob OIDs, a diff; status generated. */
  memoryPrepare: write<MemoryPrepareRequest, MemoryPlanView>('/v1/memory/prepare', {
    body: {
      schema: z
        .object({
          candidateIds: z.array(z.string().min(1).max(200)).min(1).max(200),
          scope: z.enum(['project', 'user']).optional(),
          cwd: z.string().min(1).max(4096),
        })
        .strict(),
      shape: '{"candidateIds": string[], "scope"?: "project"|"user", "cwd": string}',
    },
    created: () => true,
  }),
  /** One plan as the journal holds it (its diff, files and status). */
  memoryPlan: readByBody<{ planId: string }, MemoryPlanView>('/v1/memory/plan', {
    schema: z.object({ planId: z.string().min(1).max(200) }).strict(),
    shape: '{"planId": string}',
  }),
  /** The person's approval of a generated plan, bound to its digest. */
  memoryApprove: write<MemoryApproveRequest, MemoryPlanView>('/v1/memory/approve', {
    body: {
      schema: z.object({ planId: z.string().min(1).max(200), digest: z.string().min(1).max(200) }).strict(),
      shape: '{"planId": string, "digest": string}',
    },
  }),
  /** Writes an approved plan's exact bytes into the memory root (or finishes an interrupted one), then syncs. */
  memoryPromote: write<MemoryPromoteRequest, MemoryPromoteResult>('/v1/memory/promote', {
    body: { schema: z.object({ planId: z.string().min(1).max(200) }).strict(), shape: '{"planId": string}' },
  }),
};
