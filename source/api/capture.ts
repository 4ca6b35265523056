// The capture area: sessions captured from Codex, Claude Code and pi, the inbox's drain, recovery
// items, and reading and searching what was captured.
import { z } from 'zod';
import type { CaptureClient } from './common.js';
import { body, flag, optionalNumber, optionalText, read, readByBody, write } from './route.js';

const drainBody = z.object({ recover: z.string().max(64).describe('"rec-<n>"').optional() }).strict();

const sessionSearchBody = z
  .object({
    query: z.string(),
    /** Canonical UTC instants (2026-08-01 or 2026-08-01T09:30:00Z); until is exclusive. */
    since: z.string().optional(),
    until: z.string().optional(),
    client: z.string().optional(),
    limit: z.number().optional(),
  })
  .strict();
export type SessionSearchRequest = z.infer<typeof sessionSearchBody>;

const flushBody = z
  .object({
    /** Also draft candidates from every sealed turn not yet extracted (the builtin runner's automatic pass a running host makes). */
    extract: z.boolean().optional(),
  })
  .strict();
export type FlushRequest = z.infer<typeof flushBody>;

export const captureApi = {
  captureStatus: read<CaptureStatusRequest, CaptureStatus>('/v1/capture/status', {
    afterRecovery: optionalText('after-recovery'),
    afterSession: optionalText('after-session'),
  }),
  /** Drains the inbox now; with `recover`, retries exactly that recovery item. */
  sessionDrain: write<z.infer<typeof drainBody>, DrainReport>('/v1/capture/drain', { body: body(drainBody) }),
  /** Drains the inbox; with `extract`, then drafts candidates from every sealed turn (what a host does by itself). */
  flush: write<FlushRequest, FlushReport>('/v1/capture/flush', { body: body(flushBody) }),
  /** Captured sessions, newest first, with each one's first prompt line. */
  listSessions: read<SessionListRequest, SessionList>('/v1/sessions', {
    client: optionalText('client'),
    limit: optionalNumber('limit'),
    after: optionalText('after'),
  }),
  /** One session's turns: what the user said in full (secrets masked unless `reveal`); context folded unless asked for. */
  readSession: read<SessionReadRequest, SessionView>('/v1/sessions/:sessionKey', {
    context: flag('context'),
    reveal: flag('reveal'),
  }),
  /** BM25 over what users said (delivered user turns, driven agents' user rows). */
  sessionSearch: readByBody<SessionSearchRequest, SessionSearchResult>('/v1/search', body(sessionSearchBody)),
};

export type CaptureRoutes = typeof captureApi;

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

/** What flush's extraction did: the automatic pass over every turn sealed since the last one. */
export interface FlushExtraction {
  /** done: the pass ran; off: COMMON_MEMORY_AUTO_EXTRACT turns automatic extraction off; failed: it stopped (`error`). */
  state: 'done' | 'off' | 'failed';
  /** Runs made (one per repository and pass); turns read in the window. */
  runs: number;
  turns: number;
  candidates: { created: number; updated: number; merged: number; quarantined: number };
  /** Tasks still to do (pending or waiting for a retry) and tasks that failed in this flush. */
  tasksLeft: number;
  tasksFailed: number;
  error: string | null;
}

export interface FlushReport extends DrainReport {
  /** True when everything settled is processed and nothing remains buffered, inboxed, watched or isolated (and, when extracting, no task is left or failed). */
  complete: boolean;
  remaining: { buffered: number; inbox: number; watch: number; isolated: number };
  /** Present when the flush extracted too (FlushRequest.extract). */
  extraction?: FlushExtraction;
}

const RECOVERY_ID = /^rec-([1-9][0-9]{0,15})$/;
export const recoveryIdText = (id: number): string => `rec-${id}`;
/** The row number of a recovery ID, or undefined when the text is not one. */
export const parseRecoveryId = (text: string): number | undefined => {
  const match = RECOVERY_ID.exec(text);
  return match ? Number(match[1]) : undefined;
};

// ---- session search ----

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
  /** When the turn was sealed (processed by the drain). */
  recordedAt: string;
  /** When it was typed: the client record's own time of its first message with one (the user's words first); null when the client wrote none. */
  typedAt: string | null;
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
