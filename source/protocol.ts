// The application's public language: the DTOs that the host API, the CLI and the screens share.
// Pure types and tiny pure helpers; no store, no I/O. The methods that carry them are declared in
// source/api/.
import type { ErrorCode } from './errors.js';

export type Stream = 'journal' | 'timeline';

export interface Receipt {
  storeId: string;
  operationId: string;
  /** Always the journal position of the operation's intent. */
  sequence: number;
  /** True when this answer is the original receipt of an earlier identical request. */
  replayed: boolean;
}

export interface JournalRow {
  sequence: number;
  eventId: string;
  kind: string;
  agentId: string | null;
  generationId: string | null;
  operationId: string | null;
  wireStream: 'stdout' | 'stderr' | null;
  wireOrdinal: number | null;
  payload: unknown;
  canonicalMessageId: string | null;
  recordedAt: string;
}

export interface TimelineRow {
  sequence: number;
  messageId: string;
  agentId: string | null;
  generationId: string | null;
  operationId: string | null;
  role: string;
  payload: unknown;
  sourceJournalSequence: number;
  recordedAt: string;
}

export interface PageRequest {
  after: number;
  limit: number;
  agentId?: string | undefined;
  /** The store the caller's cursor belongs to; a different store is a 409. */
  storeId?: string | undefined;
}

export interface Page<Row> {
  storeId: string;
  stream: Stream;
  agentId: string | null;
  rows: Row[];
  /** The last included row's sequence, or the request's `after` on an empty page. */
  nextAfter: number;
  /** The stream's head when the page was read. A short page is not the end: read until an empty page. */
  head: number;
}

export interface HistoryCursor {
  storeId: string;
  stream: Stream;
  after: number;
  agentId: string | null;
}

export interface HostStatus {
  storeId: string;
  hostId: string;
  pid: number;
  startedAt: string;
  /** host: a running host; local: this command holds the lease alone; read-only: no lease, reads only. */
  mode: 'host' | 'local' | 'read-only';
  heads: { journal: number; timeline: number };
  /** The read ledger's health (counts only), as `status` shows it. */
  ledger: CaptureStatus['ledger'];
}

export interface MessageView {
  message: TimelineRow;
  source: JournalRow;
  observations: JournalRow[];
  operation: OperationView | null;
}

export interface OperationView {
  operationId: string;
  kind: string;
  agentId: string | null;
  generationId: string | null;
  state: string;
  outcome: string | null;
  targetOperationId: string | null;
  journalSequence: number;
  userMessageId: string | null;
  createdAt: string;
  updatedAt: string;
  /** On `operation` reads: what happened, in one line (pi's refusal, the provider's error, retries, an abort). */
  detail?: string | null;
  /** The same, with pi's or the provider's error text whole (its line breaks kept). */
  detailText?: string | null;
}

export interface NoteInput {
  text: string;
  operationId?: string | undefined;
}

export type GenerationState = 'starting' | 'running' | 'stopping' | 'stopped' | 'interrupted';

export interface AgentView {
  agentId: string;
  name: string;
  model: string | null;
  /**
   * The current (latest) generation, if the agent was ever started. endReason: why it ended (a
   * stop request, pi exiting, a storage failure, an oversized record …); null while it runs.
   */
  generation: {
    generationId: string;
    number: number;
    state: GenerationState;
    pid: number | null;
    projectionError: string | null;
    endReason: string | null;
  } | null;
  /** The prompt operation the agent is working on; null when idle. */
  activeOperationId: string | null;
  createdAt: string;
}

export interface CreateAgentInput {
  name: string;
  model?: string | undefined;
  /** A pi agent dir whose models.json/auth.json/settings.json are copied into the agent's private dir. */
  piConfigDir?: string | undefined;
  operationId?: string | undefined;
}

export interface PromptInput {
  agent: string;
  text: string;
  operationId?: string | undefined;
}

export interface PromptReceipt extends Receipt {
  /** The canonical user message created at admission. */
  messageId: string;
}

export interface AbortReceipt extends Receipt {
  /** The prompt operation the abort was pinned to. */
  targetOperationId: string;
}

/** What a caller is told of a prompt admission; the pi request and generation stay inside the host. */
export function promptReceiptOf(admission: PromptReceipt): PromptReceipt {
  const { storeId, operationId, sequence, replayed, messageId } = admission;
  return { storeId, operationId, sequence, replayed, messageId };
}

/** What a caller is told of an abort admission; the pi request and generation stay inside the host. */
export function abortReceiptOf(admission: AbortReceipt): AbortReceipt {
  const { storeId, operationId, sequence, replayed, targetOperationId } = admission;
  return { storeId, operationId, sequence, replayed, targetOperationId };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** Operation IDs are caller-chosen identities: safe characters only, bounded. */
export const OPERATION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

// ---- host capture: sessions, turns, inbox, recovery items ----

export type CaptureClient = 'codex' | 'claude' | 'pi';

/** active: the host session still runs; pending: envelopes wait for the drain; isolated: a recovery item holds it; incomplete: ended with an unfinished turn; complete: everything sealed. */
export type CaptureSessionState = 'active' | 'pending' | 'isolated' | 'incomplete' | 'complete';

export interface CaptureSessionView {
  client: CaptureClient;
  sessionKey: string;
  hostSessionId: string;
  state: CaptureSessionState;
  cwd: string | null;
  startedAt: string;
  /** settled: sealed turns (settled, failed and interrupted ones, each its own batch); buffered: open in a running session; incomplete: open when the session ended. */
  turns: { settled: number; failed: number; interrupted: number; buffered: number; incomplete: number };
  inbox: number;
  bodyBytes: number;
}

export interface RecoveryItemView {
  /** Stable across retries: "rec-<n>". */
  id: string;
  code: string;
  client: CaptureClient;
  sessionKey: string;
  inboxId: number;
  attempts: number;
  detail: string;
  createdAt: string;
}

/** Two independent keyset cursors: the recovery page and the sessions page, each as status printed it. */
export interface CaptureStatusRequest {
  afterRecovery?: string | undefined;
  afterSession?: string | undefined;
}

export interface CaptureStatus {
  storeId: string;
  mode: 'host' | 'local' | 'read-only';
  /** One page, newest first (at most STATUS_SESSIONS_MAX). */
  sessions: CaptureSessionView[];
  sessionsTotal: number;
  /** The session key the next page starts after (`--after-session`); null on the last page. */
  nextSessionKey: string | null;
  /**
   * Queue states of capture work (no bodies). candidatesAsContext: prompts the host recorded as
   * context (a task notification), matched and consumed. candidatesUnconfirmed: prompts of ended,
   * drained sessions that no sealed turn delivered (none matched, or its turn stayed incomplete) —
   * unconfirmed delivery, bodies kept.
   */
  queue: {
    inboxPending: number;
    inboxProcessed: number;
    inboxLegacy: number;
    batchesReady: number;
    candidatesPending: number;
    candidatesDelivered: number;
    candidatesAsContext: number;
    candidatesUnconfirmed: number;
  };
  /** inbox: envelopes waiting (not isolated); watch: transcripts of running sessions; isolated: open recovery items; hookErrors: hook runs that could not reach the store. */
  host: {
    inbox: number;
    watch: number;
    isolated: number;
    hookErrors: number;
    /** `message` and `fix` only for `install_broken`: the installation cannot run, and how to repair it. */
    lastHookError: { at: string; code: string; message?: string; fix?: string } | null;
    /** Why nothing can be written into the data home (then no hook can record its failure there), or null. */
    notWritable: string | null;
  };
  capacity: { bodyBytes: number; totalBytes: number; sessionBytes: number };
  recovery: { total: number; items: RecoveryItemView[]; nextRecoveryId: string | null };
  /** The read ledger: roots and entries kept, `unavailable` with its reason, the last failure a hook met. */
  ledger: {
    state: 'ready' | 'empty' | 'unavailable';
    reason: string | null;
    roots: number;
    activeRoots: number;
    entries: number;
    lastError: { at: string; event: string; code: string } | null;
  };
}

export interface DrainReport {
  steps: number;
  sealedTurns: number;
  /** Recovery items opened or kept by this run. */
  isolated: string[];
  /** For --recover: the item was consumed (true) or is still open with the same ID (false). */
  recovered: boolean | null;
}

export interface FlushReport extends DrainReport {
  /** True when everything settled is processed and nothing remains buffered, inboxed, watched or isolated. */
  complete: boolean;
  remaining: { buffered: number; inbox: number; watch: number; isolated: number };
}

const RECOVERY_ID = /^rec-([1-9][0-9]{0,15})$/;
export const recoveryIdText = (id: number): string => `rec-${id}`;
/** The row number of a recovery ID, or undefined when the text is not one. */
export const parseRecoveryId = (text: string): number | undefined => {
  const match = RECOVERY_ID.exec(text);
  return match ? Number(match[1]) : undefined;
};

// ---- the memory half: session search ----

export interface SessionSearchRequest {
  query: string;
  /** Canonical UTC instants (2026-08-01 or 2026-08-01T09:30:00Z); until is exclusive. */
  since?: string | undefined;
  until?: string | undefined;
  client?: string | undefined;
  limit?: number | undefined;
}

export interface SessionSearchResult {
  results: Array<{ sessionKey: string; turnKey: string; client: string; recordedAt: string; snippet: string }>;
}

// ---- reading what was captured: sessions and their turns (bodies only on these explicit reads) ----

export interface SessionListRequest {
  client?: string | undefined;
  /** Page size, 1–100 (default 20). */
  limit?: number | undefined;
  /** The session key the page starts after (the previous page's nextAfter). */
  after?: string | undefined;
}

export interface SessionSummary extends CaptureSessionView {
  /** The first line of the first thing the user said (at most 200 characters), or null before any; secrets masked. */
  firstPrompt: string | null;
}

export interface SessionList {
  sessions: SessionSummary[];
  total: number;
  /** Give it as `after` for the next (older) page; null on the last page. */
  nextAfter: string | null;
}

export interface SessionReadRequest {
  /** A session key, or a unique start of one (4 characters or more). */
  sessionKey: string;
  /** Include the assistant, tool and harness messages' text (folded into a count without it). */
  context?: boolean | undefined;
  /** Show the text as typed; without it, what the secret lint finds is masked. */
  reveal?: boolean | undefined;
}

export interface SessionMessageView {
  role: string;
  kind: string;
  classification: 'evidence' | 'context';
  /** The message's text: always for what the user said; for context only when asked for. */
  text: string | null;
  timestamp: string | null;
}

export interface SessionTurnView {
  turnKey: string;
  state: string;
  error: string | null;
  recordedAt: string;
  messages: SessionMessageView[];
  /** Context messages left out (without `context`), by kind: { answer: 1, tool_call: 2 }. */
  folded: Record<string, number>;
}

export interface SessionView {
  session: SessionSummary;
  turns: SessionTurnView[];
  /** True when asked to reveal: the text is as typed, nothing masked. */
  revealed: boolean;
  /** Secret findings masked in the messages' text (0 when revealed). */
  secretsMasked: number;
}

// ---- the memory half: extraction, candidates, recall ----

export interface MemoryExtractRequest {
  /** Canonical UTC; without --since, since the last run of this scope. */
  since?: string | undefined;
  until?: string | undefined;
  query?: string | undefined;
  client?: string | undefined;
  sessions?: string[] | undefined;
  runner?: string | undefined;
  /** An approval of one plan (or of a run's only plan) by its digest. */
  approvePlan?: string | undefined;
  /** An approval of every plan of a run by its manifest's digest. */
  approveManifest?: string | undefined;
  /** Extraction tasks this run works on, 1..8. */
  limit?: number | undefined;
  /** The caller's directory: its repository (or the user scope outside git) is the run's scope. */
  cwd: string;
}

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

export interface MemoryFindingView {
  field: string;
  line: number;
  column: number;
  rule: string;
  severity: 'block' | 'warn';
  excerpt: string;
}

export interface MemoryReviewCandidate {
  candidateId: string;
  status: 'draft' | 'quarantined';
  adjudication: 'pending' | 'done' | 'failed';
  decision: string | null;
  /** Masked wherever a finding is. */
  content: string;
  /** A proposal's own title (masked like content); null for an extraction draft (its first line is the title). */
  title: string | null;
  type: string;
  priority: number;
  confidence: string;
  /** The signals that made the runner draft it ("imperative", "scope", "-now" counted against); empty when it gave none. */
  signals?: string[];
  statements: Array<{
    statementId: string;
    text: string;
    evidence: Array<{ evidenceId: string; client: string; sessionKey: string; turnKey: string }>;
    claimSupport: string;
  }>;
  findings: MemoryFindingView[];
  createdAt: string;
  /** Where it came from: a runner's extraction from captured turns, or an agent's memory_propose. */
  origin: MemoryCandidateOrigin;
  /** The scope it belongs to: a repository's (`project`) or the user scope. */
  scope: 'project' | 'user';
  repositoryKey: string;
  /** The name of its worktree's directory (never a path); null for the user scope or an unknown binding. */
  repository: string | null;
  /**
   * The lines it would give in the SessionStart snapshot once promoted (masked like content), hidden
   * characters written as ⟨U+XXXX⟩: what the model will read. Absent from a host older than this field.
   */
  snapshot?: string;
}

export type MemoryCandidateOrigin =
  | { kind: 'extraction' }
  | {
      kind: 'proposal';
      /** The client as it named itself to the MCP server (e.g. "claude-code", "codex-mcp-client"). */
      client: string;
      clientVersion: string | null;
      /** SHA-256 of the proposing conversation's reference; null when the client gave none. */
      conversation: string | null;
    };

/** One memory an agent proposes through `memory_propose`; the owner is the repository of `cwd`. */
export interface MemoryProposeRequest {
  cwd: string;
  title: string;
  content: string;
  type: 'work_fact' | 'work_task' | 'work_method' | 'work_artifact';
  appliesWhen: string | null;
  origin: { client: string; clientVersion: string | null; conversation: string | null };
}

export interface MemoryProposeResult {
  candidateId: string;
  status: 'draft' | 'quarantined';
  created: boolean;
  /** Rules of the blocking secret findings that quarantined it (never the secret). */
  blockedBy: string[];
}

/**
 * Which candidates a review lists: `all` (the default) the user scope's and every repository's;
 * `user` the user scope's; `project` the caller's repository's; `here` the caller's own scope (its
 * repository, or the user scope outside git) — the one confirm, discard and prepare act on.
 */
export type MemoryReviewScope = 'all' | 'user' | 'project' | 'here';

export interface MemoryReviewRequest {
  cwd: string;
  scope?: MemoryReviewScope | undefined;
  /** Page size, 1–200 (default 50). */
  limit?: number | undefined;
  /** The previous page's nextAfter: the page starts after that candidate. */
  after?: string | undefined;
}

export interface MemoryReview {
  /** The filter the page was read with. */
  scope: MemoryReviewScope;
  /** The scope of the caller's directory (`project` inside a git worktree) and its repository key. */
  callerScope: 'project' | 'user';
  repositoryKey: string;
  /** Newest first. */
  candidates: MemoryReviewCandidate[];
  /** Draft and quarantined candidates the filter matches, on every page. */
  total: number;
  /** Give it as `after` (`--after`) for the next, older page; null on the last page. */
  nextAfter: string | null;
}

export interface MemoryRecallResult {
  recallQueryDigest: string;
  resultSetDigest: string;
  items: Array<{ rank: number; sourceKind: string; id: string }>;
}

// ---- the memory half: the approved projection ----

export interface MemoryProblemView {
  scope: 'project' | 'user';
  kind: string;
  /** Relative to the scope's memory root. */
  path: string;
  line: number | null;
  message: string;
}

/** One owner of approved memory as the projection knows it. */
export interface MemoryScopeView {
  scope: 'project' | 'user';
  generation: number;
  coverage: 'complete' | 'partial';
  entries: number;
}

export interface MemorySyncResult {
  /** The sum of the scopes' generations: it grows whenever either scope's projection changes. */
  generation: number;
  /** partial when any scope's last scan was partial (its previous projection is kept). */
  coverage: 'complete' | 'partial';
  entries: number;
  problems: MemoryProblemView[];
  scopes: Array<MemoryScopeView & { outcome: 'replaced' | 'unchanged' | 'partial' }>;
}

export interface MemorySearchResult {
  generation: number;
  coverage: 'complete' | 'partial';
  results: Array<{ entryId: string; title: string; scope: 'project' | 'user'; path: string }>;
  scopes: MemoryScopeView[];
}

export interface MemoryEntryView {
  id: string;
  title: string;
  appliesWhen: string | null;
  /** sha256 of the file's bytes. */
  contentDigest: string;
  sources: Array<{ scope: 'project' | 'user'; path: string }>;
  body: string;
  type: string;
  priority: number;
}

// ---- the memory half: the human gate (confirm, discard, prepare, approve, promote) ----

export interface MemoryConfirmRequest {
  candidateId: string;
  statementId: string;
  cwd: string;
}

export interface MemoryConfirmResult {
  candidateId: string;
  statementId: string;
  claimSupport: 'human-confirmed';
  /** The assessment's revision after the confirmation. */
  revision: number;
  /** The statement was confirmed already: nothing changed. */
  replayed: boolean;
}

export interface MemoryDiscardRequest {
  candidateId: string;
  cwd: string;
}

export interface MemoryDiscardResult {
  candidateId: string;
  status: 'discarded';
  revision: number;
  /** The candidate was discarded already: nothing changed. */
  replayed: boolean;
}

export interface MemoryPrepareRequest {
  candidateIds: string[];
  /** Default: the candidates' own scope (their repository's worktree, or the user's for one from outside git). */
  scope?: 'project' | 'user' | undefined;
  /** The caller's directory. The plan goes to the candidates' own scope, never this directory's. */
  cwd: string;
}

export type MemoryPlanStatus = 'generated' | 'approved' | 'applying' | 'applied' | 'voided';

export interface MemoryPlanFileView {
  /** Relative to the scope's memory root. */
  path: string;
  entryId: string;
  action: 'create' | 'update';
  candidateIds: string[];
  /** The target's git blob OID when the plan was made; null for a new file. */
  targetBlobHash: string | null;
  /** sha256 of the exact bytes approval binds. */
  sanitizedContentDigest: string;
  bytes: number;
  /** pending until promote reaches it; skipped: it already held the approved bytes; drifted: it changed since prepare. */
  state: 'pending' | 'written' | 'skipped' | 'drifted';
  /** Lint findings below `block` in these bytes (masked). */
  findings: Array<{ line: number; column: number; rule: string; severity: 'block' | 'warn'; excerpt: string }>;
}

export interface MemoryPlanView {
  planId: string;
  planDigest: string;
  status: MemoryPlanStatus;
  scope: 'project' | 'user';
  candidates: Array<{ candidateId: string; revision: number }>;
  files: MemoryPlanFileView[];
  /** Unified diff of every target, before → after. */
  diff: string;
  /** Why a voided plan was voided (a drifted target, a candidate that changed). */
  voidReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MemoryApproveRequest {
  planId: string;
  /** The planDigest the person read: approval binds exactly these bytes. */
  digest: string;
}

export interface MemoryPromoteRequest {
  planId: string;
}

export type MemoryPromoteResult = MemoryPlanView & {
  /** The approved projection after promotion (promote runs sync). */
  sync: { generation: number; coverage: 'complete' | 'partial'; entries: number } | null;
};
