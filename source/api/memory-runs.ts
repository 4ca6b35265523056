// The memory area's extraction side, as callers see it: runner execution plans and their
// approval, extraction reports and runs, conformance probes, and the pipeline's status.
import type { ErrorCode } from '../errors.js';

/** What an external runner would receive for one task, shown before anything is sent. */
export interface InputCoverageItem {
  sourceKind: 'transcript' | 'context' | 'draft' | 'candidate-pool' | 'prompt';
  opaqueSourceId: string;
  revision: number | null;
  contentDigest: string;
  bytes: number;
  truncated: boolean;
}

export interface RunnerExecutionPlan {
  format: 'common-memory-runner-execution-plan@v1';
  planDigest: string;
  taskKind: 'extraction' | 'adjudication';
  taskId: string;
  runnerInputDigest: string;
  inputCoverageDigest: string;
  inputCoverage: InputCoverageItem[];
  runnerProfile: string;
  provider: string;
  model: string;
  endpoint: string;
  bytesToSend: number;
  localSessionPersistence: 'none';
  providerRetention: 'unknown' | 'no-retention' | 'provider-policy';
  /** Secret findings in the task's texts before the bytes were built (masked: never the secret). */
  inputFindings: RunnerInputFinding[];
  /** Blocking findings replaced by `[secret:<rule>]` before the bytes were digested (the bytes above hold none). */
  secretsReplaced: number;
  authorization: 'pending' | 'approved';
}

/** A secret finding in a runner's input, as its plan lists it. */
export interface RunnerInputFinding {
  rule: string;
  severity: 'block' | 'warn';
  /** Which text of the task: the chunk's transcript, an earlier turn sent as context, a draft, a pool summary. */
  source: 'transcript' | 'context' | 'draft' | 'pool';
  /** The captured turn the finding is in (transcript and context); null for drafts and pool items. */
  turn: string | null;
  /** The chunk, the context turn, the candidate id or the pool item (`approved:<id>`, `candidate:<id>`). */
  ref: string;
  /** Position in that text (1-based; columns in UTF-16 code units). */
  line: number;
  column: number;
  /** The masked secret: at most its first four characters, then its length. */
  excerpt: string;
  /** True for a blocking finding: the runner gets `[secret:<rule>]` in its place. */
  replaced: boolean;
  /** How the lint saw through a disguise (`zero-width`, `base64`, …), when it did. */
  transform?: string;
}

export interface AuthorizationManifest {
  format: 'common-memory-authorization-manifest@v1';
  manifestDigest: string;
  plans: Array<{ planDigest: string; taskKind: 'extraction' | 'adjudication'; taskId: string; bytesToSend: number }>;
  totalBytes: number;
  authorization: 'pending' | 'approved';
}

/** A run stopped before sending: these plans need an approval by digest. */
export interface PendingAuthorization {
  runner: string;
  /** needed: nothing was approved yet; mismatch: the digest given is not this plan's (it changed, or is another's). */
  reason: 'authorisation-needed' | 'digest-mismatch';
  given: string | null;
  manifest: AuthorizationManifest;
  plans: RunnerExecutionPlan[];
  /** The flag that approves exactly these plans. */
  approveWith: string;
}

/** `memory reverify-runner`: the probe passed (a failure is an error naming the item). */
export interface MemoryReverifyResult {
  runner: string;
  passed: true;
  cached: boolean;
  probeVersion: string;
}

/** A conformance probe a client follows (memory reverify-runner through a host): as slow as its runner. */
export interface MemoryReverifyRun {
  probeId: string;
  state: 'running' | 'done' | 'failed';
  result: MemoryReverifyResult | null;
  error: { code: ErrorCode; message: string } | null;
}

export interface MemoryExtractReport {
  runIds: string[];
  window: { since: string; until: string };
  turns: number;
  chunks: number;
  tasks: {
    planned: number;
    created: number;
    submitted: number;
    failed: number;
    pending: number;
    waitingForRetry: number;
    stale: number;
  };
  candidates: {
    created: number;
    skipped: number;
    updated: number;
    merged: number;
    stored: number;
    quarantined: number;
  };
  failures: string[];
  /**
   * The repetition pass (statements said in two or more sessions), answered offline beside the
   * runner's tasks: its tasks are in `tasks.planned`/`created` but not in `submitted`, its drafts not
   * in `candidates.created`; they are adjudicated with the rest. Absent when it answered nothing.
   */
  repetition?: { tasks: number; candidates: number };
  /** Present when an external runner's plans wait for an approval: nothing was sent for them. */
  pendingPlan?: PendingAuthorization;
}

/**
 * An extraction run followed by its id: `memory extract` through a host starts one and reads it
 * until it ends (no request waits for the run itself, so a run may last as long as its runners).
 */
export interface MemoryExtractRun {
  /** The run's id, as `memory status` shows it (activeRun, lastRun). */
  runId: string;
  /**
   * waiting: another run (the host's own, automatic) goes first; running; done: `report` holds the
   * result; failed: `error` says why; stopped: the process that ran it stopped before it ended
   * (`stoppedBecause`) — what it finished is kept.
   */
  state: 'waiting' | 'running' | 'done' | 'failed' | 'stopped';
  /** What the run last reported while running: its phase (plan, extract, adjudicate) and counts. */
  progress: { phase: string; done: number; total: number } | null;
  startedAt: string;
  finishedAt: string | null;
  report: MemoryExtractReport | null;
  error: { code: ErrorCode; message: string } | null;
  stoppedBecause: string | null;
}

export interface MemoryRunView {
  runId: string;
  runner: string;
  scope: 'project' | 'user';
  state: 'running' | 'done' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  summary: Partial<MemoryExtractReport> | null;
}

export interface MemoryStatus {
  /** unavailable: memory-state cannot be read (the reason says why); capture is not affected. */
  state: 'ready' | 'empty' | 'unavailable';
  reason: string | null;
  chunks: { pending: number; drafted: number; extracted: number; stale: number };
  tasks: { pending: number; claimed: number; submitted: number; stale: number; waitingForRetry: number };
  candidates: {
    draft: number;
    quarantined: number;
    promoted: number;
    discarded: number;
    superseded: number;
    awaitingAdjudication: number;
  };
  /** The builtin runner and each profile of runners.json, with its budgets and what it sent today (UTC). */
  runners: Array<{
    name: string;
    offline: boolean;
    provider?: string;
    model?: string;
    endpoint?: string;
    budget?: { runBytes: number; dayBytes: number };
    sentToday?: number;
  }>;
  /** Why runners.json could not be read (its profiles are then not listed), or null. */
  runnersProblem: string | null;
  /** Bytes sent to external runners on the current UTC day, in all and by profile. */
  spend: { day: string; bytesSent: number; byProfile: Array<{ profile: string; bytes: number; tasks: number }> };
  lastRun: MemoryRunView | null;
  activeRun: { runId: string; phase: string; done: number; total: number } | null;
  autoExtract: boolean;
  /** Promotion plans by status; `applying` ones were interrupted and finish at the next open. */
  promotions: { generated: number; approved: number; applying: number; applied: number; voided: number };
}
