// The memory area's extraction side, as callers see it: runner execution plans and their
// approval, extraction reports and runs, conformance probes, and the pipeline's status.
import { z } from 'zod';
import { errorSchema, nullableText, projectOrUser } from './common-schemas.js';
import { usageSummarySchema } from './memory-usage.js';

const taskKind = z.enum(['extraction', 'adjudication', 'consolidation']);
const authorization = z.enum(['pending', 'approved']);

/** What an external runner would receive for one task, shown before anything is sent. */
export const inputCoverageItemSchema = z.strictObject({
  sourceKind: z.enum(['transcript', 'context', 'draft', 'candidate-pool', 'entry', 'scene', 'prompt']),
  opaqueSourceId: z.string(),
  revision: z.number().nullable(),
  contentDigest: z.string(),
  bytes: z.number(),
  truncated: z.boolean(),
});
export type InputCoverageItem = z.infer<typeof inputCoverageItemSchema>;

/** A secret finding in a runner's input, as its plan lists it. */
export const runnerInputFindingSchema = z.strictObject({
  rule: z.string(),
  severity: z.enum(['block', 'warn']),
  /** Which text of the task: the chunk's transcript, an earlier turn as context, a draft, a pool summary, an approved entry or scene (consolidation). */
  source: z.enum(['transcript', 'context', 'draft', 'pool', 'entry', 'scene']),
  /** The captured turn the finding is in (transcript and context); null for drafts and pool items. */
  turn: nullableText,
  /** The chunk, the context turn, the candidate id, the pool item (`approved:<id>`, `candidate:<id>`), the entry id or the scene name. */
  ref: z.string(),
  /** Position in that text (1-based; columns in UTF-16 code units). */
  line: z.number(),
  column: z.number(),
  /** The masked secret: at most its first four characters, then its length. */
  excerpt: z.string(),
  /** True for a blocking finding: the runner gets `[secret:<rule>]` in its place. */
  replaced: z.boolean(),
  /** How the lint saw through a disguise (`zero-width`, `base64`, …), when it did. */
  transform: z.string().optional(),
});
export type RunnerInputFinding = z.infer<typeof runnerInputFindingSchema>;

export const runnerExecutionPlanSchema = z.strictObject({
  format: z.literal('common-memory-runner-execution-plan@v1'),
  planDigest: z.string(),
  taskKind,
  taskId: z.string(),
  runnerInputDigest: z.string(),
  inputCoverageDigest: z.string(),
  inputCoverage: z.array(inputCoverageItemSchema),
  runnerProfile: z.string(),
  provider: z.string(),
  model: z.string(),
  endpoint: z.string(),
  bytesToSend: z.number(),
  localSessionPersistence: z.literal('none'),
  providerRetention: z.enum(['unknown', 'no-retention', 'provider-policy']),
  /** Secret findings in the task's texts before the bytes were built (masked: never the secret). */
  inputFindings: z.array(runnerInputFindingSchema),
  /** Blocking findings replaced by `[secret:<rule>]` before the bytes were digested (the bytes above hold none). */
  secretsReplaced: z.number(),
  authorization,
});
export type RunnerExecutionPlan = z.infer<typeof runnerExecutionPlanSchema>;

export const authorizationManifestSchema = z.strictObject({
  format: z.literal('common-memory-authorization-manifest@v1'),
  manifestDigest: z.string(),
  plans: z.array(z.strictObject({ planDigest: z.string(), taskKind, taskId: z.string(), bytesToSend: z.number() })),
  totalBytes: z.number(),
  authorization,
});
export type AuthorizationManifest = z.infer<typeof authorizationManifestSchema>;

/** A run stopped before sending: these plans need an approval by digest. */
export const pendingAuthorizationSchema = z.strictObject({
  runner: z.string(),
  /** needed: nothing was approved yet; mismatch: the digest given is not this plan's (it changed, or is another's). */
  reason: z.enum(['authorisation-needed', 'digest-mismatch']),
  given: nullableText,
  manifest: authorizationManifestSchema,
  plans: z.array(runnerExecutionPlanSchema),
  /** The flag that approves exactly these plans. */
  approveWith: z.string(),
});
export type PendingAuthorization = z.infer<typeof pendingAuthorizationSchema>;

/** `memory reverify-runner`: the probe passed (a failure is an error naming the item). */
export const memoryReverifyResultSchema = z.strictObject({
  runner: z.string(),
  passed: z.literal(true),
  cached: z.boolean(),
  probeVersion: z.string(),
});
export type MemoryReverifyResult = z.infer<typeof memoryReverifyResultSchema>;

/** A conformance probe a client follows (memory reverify-runner through a host): as slow as its runner. */
export const memoryReverifyRunSchema = z.strictObject({
  probeId: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  result: memoryReverifyResultSchema.nullable(),
  error: errorSchema.nullable(),
});
export type MemoryReverifyRun = z.infer<typeof memoryReverifyRunSchema>;

export const memoryExtractReportSchema = z.strictObject({
  runIds: z.array(z.string()),
  window: z.strictObject({ since: z.string(), until: z.string() }),
  turns: z.number(),
  chunks: z.number(),
  tasks: z.strictObject({
    planned: z.number(),
    created: z.number(),
    submitted: z.number(),
    failed: z.number(),
    pending: z.number(),
    waitingForRetry: z.number(),
    stale: z.number(),
  }),
  candidates: z.strictObject({
    created: z.number(),
    skipped: z.number(),
    updated: z.number(),
    merged: z.number(),
    stored: z.number(),
    quarantined: z.number(),
  }),
  failures: z.array(z.string()),
  /**
   * The repetition pass (statements said in two or more sessions), answered offline beside the
   * runner's tasks: its tasks are in `tasks.planned`/`created` but not in `submitted`, its drafts not
   * in `candidates.created`; they are adjudicated with the rest. Absent when it answered nothing.
   */
  repetition: z.strictObject({ tasks: z.number(), candidates: z.number() }).optional(),
  /** Present when an external runner's plans wait for an approval: nothing was sent for them. */
  pendingPlan: pendingAuthorizationSchema.optional(),
});
export type MemoryExtractReport = z.infer<typeof memoryExtractReportSchema>;

/**
 * An extraction run followed by its id: `memory extract` through a host starts one and reads it
 * until it ends (no request waits for the run itself, so a run may last as long as its runners).
 */
export const memoryExtractRunSchema = z.strictObject({
  /** The run's id, as `memory status` shows it (activeRun, lastRun). */
  runId: z.string(),
  /**
   * waiting: another run (the host's own, automatic) goes first; running; done: `report` holds the
   * result; failed: `error` says why; stopped: the process that ran it stopped before it ended
   * (`stoppedBecause`) — what it finished is kept.
   */
  state: z.enum(['waiting', 'running', 'done', 'failed', 'stopped']),
  /** What the run last reported while running: its phase (plan, extract, adjudicate) and counts. */
  progress: z.strictObject({ phase: z.string(), done: z.number(), total: z.number() }).nullable(),
  startedAt: z.string(),
  finishedAt: nullableText,
  report: memoryExtractReportSchema.nullable(),
  error: errorSchema.nullable(),
  stoppedBecause: nullableText,
});
export type MemoryExtractRun = z.infer<typeof memoryExtractRunSchema>;

export const memoryRunViewSchema = z.strictObject({
  runId: z.string(),
  runner: z.string(),
  scope: projectOrUser,
  state: z.enum(['running', 'done', 'failed']),
  startedAt: z.string(),
  finishedAt: nullableText,
  summary: memoryExtractReportSchema.partial().nullable(),
});
export type MemoryRunView = z.infer<typeof memoryRunViewSchema>;

/** An object of counts, one number per name. */
const counts = <const Names extends readonly string[]>(...names: Names) =>
  z.strictObject(Object.fromEntries(names.map((name) => [name, z.number()])) as { [N in Names[number]]: z.ZodNumber });

export const memoryStatusSchema = z.strictObject({
  /** unavailable: memory-state cannot be read (the reason says why); capture is not affected. */
  state: z.enum(['ready', 'empty', 'unavailable']),
  reason: nullableText,
  chunks: counts('pending', 'drafted', 'extracted', 'stale'),
  tasks: counts('pending', 'claimed', 'submitted', 'stale', 'waitingForRetry'),
  candidates: counts('draft', 'quarantined', 'promoted', 'discarded', 'superseded', 'awaitingAdjudication'),
  /** The builtin runner and each profile of runners.json, with its budgets and what it sent today (UTC). */
  runners: z.array(
    z.strictObject({
      name: z.string(),
      offline: z.boolean(),
      provider: z.string().optional(),
      model: z.string().optional(),
      endpoint: z.string().optional(),
      budget: z.strictObject({ runBytes: z.number(), dayBytes: z.number() }).optional(),
      sentToday: z.number().optional(),
    }),
  ),
  /** Why runners.json could not be read (its profiles are then not listed), or null. */
  runnersProblem: nullableText,
  /** Bytes sent to external runners on the current UTC day, in all and by profile. */
  spend: z.strictObject({
    day: z.string(),
    bytesSent: z.number(),
    byProfile: z.array(z.strictObject({ profile: z.string(), bytes: z.number(), tasks: z.number() })),
  }),
  lastRun: memoryRunViewSchema.nullable(),
  activeRun: z.strictObject({ runId: z.string(), phase: z.string(), done: z.number(), total: z.number() }).nullable(),
  autoExtract: z.boolean(),
  /** Promotion plans by status; `applying` ones were interrupted and finish at the next open. */
  promotions: counts('generated', 'approved', 'applying', 'applied', 'voided'),
  /**
   * Approved entries whose anchors (paths, scripts, commits … they name) no longer hold, per scope,
   * from the last verification run (docs/memory-staleness.md). unverified: no run yet; unavailable:
   * the verdicts cannot be read (the reason says why) — never "everything is stale".
   */
  anchors: z.strictObject({
    state: z.enum(['verified', 'unverified', 'unavailable']),
    reason: nullableText,
    staleEntries: counts('project', 'user'),
    verifiedAt: nullableText,
  }),
  /** Whether approved memory helps: given, read and re-taught totals, the most re-taught entries per scope (absent from a host older than it). */
  usage: usageSummarySchema.optional(),
  /**
   * Files of a memory root that nothing gives back, as the last scan of each root left them out:
   * an entry, scene or doctrine file blocked by the memory lint (`rule`), or a scene or doctrine
   * file malformed or misplaced; each with what to do (absent from a host older than it).
   */
  leftOutFiles: z
    .array(
      z.strictObject({
        scope: projectOrUser,
        repositoryKey: z.string(),
        /** The worktree directory's name (never a path); null for the user scope. */
        repository: nullableText,
        /** Relative to the memory root (`.common-memory/memory/` of the worktree, or the data home's `memory/`). */
        path: z.string(),
        kind: z.string(),
        line: z.number().nullable(),
        rule: nullableText,
        message: z.string(),
        fix: z.string(),
        /** A blocked entry file: the id its header declares (its file may be named for its title). */
        entryId: z.string().optional(),
      }),
    )
    .optional(),
});
export type MemoryStatus = z.infer<typeof memoryStatusSchema>;
