// The application's public language: the DTOs that the host API, the CLI and the screens share.
// Pure types and tiny pure helpers; no store, no I/O. The methods that carry them are declared in
// source/api/.

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
  generation: { generationId: string; number: number; state: GenerationState; pid: number | null; projectionError: string | null; endReason: string | null } | null;
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
  /** Queue states of capture work (no bodies). */
  queue: { inboxPending: number; inboxProcessed: number; inboxLegacy: number; batchesReady: number; candidatesPending: number; candidatesDelivered: number };
  /** inbox: envelopes waiting (not isolated); watch: transcripts of running sessions; isolated: open recovery items; hookErrors: hook runs that could not reach the store. */
  host: { inbox: number; watch: number; isolated: number; hookErrors: number; lastHookError: { at: string; code: string } | null };
  capacity: { bodyBytes: number; totalBytes: number; sessionBytes: number };
  recovery: { total: number; items: RecoveryItemView[]; nextRecoveryId: string | null };
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
