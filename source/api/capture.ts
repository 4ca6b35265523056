// The capture area: sessions captured from Codex, Claude Code and pi, the inbox's drain, recovery
// items, and reading and searching what was captured.
import { z } from 'zod';
import { captureClientSchema, errorSchema, nullableText } from './common-schemas.js';
import { body, flag, optionalNumber, optionalText, read, readByBody, write } from './route.js';

const drainBody = z.strictObject({ recover: z.string().max(64).describe('"rec-<n>"').optional() });

const sessionSearchBody = z.strictObject({
  query: z.string(),
  /** Canonical UTC instants (2026-08-01 or 2026-08-01T09:30:00Z); until is exclusive. */
  since: z.string().optional(),
  until: z.string().optional(),
  client: z.string().optional(),
  limit: z.number().optional(),
});
export type SessionSearchRequest = z.infer<typeof sessionSearchBody>;

const flushBody = z.strictObject({
  /** Also draft candidates from every sealed turn not yet extracted (the builtin runner's automatic pass a running host makes). */
  extract: z.boolean().optional(),
});
export type FlushRequest = z.infer<typeof flushBody>;

/** active: the host session still runs; pending: envelopes wait for the drain; isolated: a recovery item holds it; incomplete: ended with an unfinished turn; complete: everything sealed. */
export const captureSessionStateSchema = z.enum(['active', 'pending', 'isolated', 'incomplete', 'complete']);
export type CaptureSessionState = z.infer<typeof captureSessionStateSchema>;

const captureSessionFields = {
  client: captureClientSchema,
  sessionKey: z.string(),
  hostSessionId: z.string(),
  state: captureSessionStateSchema,
  /** live: captured by the hooks or pi's extension; imported: read by `import` from a transcript the client stored. */
  origin: z.enum(['live', 'imported']),
  cwd: nullableText,
  startedAt: z.string(),
  /** settled: sealed turns (settled, failed and interrupted ones, each its own batch); buffered: open in a running session; incomplete: open when the session ended. */
  turns: z.strictObject({
    settled: z.number(),
    failed: z.number(),
    interrupted: z.number(),
    buffered: z.number(),
    incomplete: z.number(),
  }),
  inbox: z.number(),
  bodyBytes: z.number(),
};
export const captureSessionViewSchema = z.strictObject(captureSessionFields);
export type CaptureSessionView = z.infer<typeof captureSessionViewSchema>;

export const recoveryItemViewSchema = z.strictObject({
  /** Stable across retries: "rec-<n>". */
  id: z.string(),
  code: z.string(),
  client: captureClientSchema,
  sessionKey: z.string(),
  inboxId: z.number(),
  attempts: z.number(),
  detail: z.string(),
  createdAt: z.string(),
});
export type RecoveryItemView = z.infer<typeof recoveryItemViewSchema>;

/** Two independent keyset cursors: the recovery page and the sessions page, each as status printed it. */
export interface CaptureStatusRequest {
  afterRecovery?: string | undefined;
  afterSession?: string | undefined;
}

export const captureStatusSchema = z.strictObject({
  storeId: z.string(),
  mode: z.enum(['host', 'local', 'read-only']),
  /** One page, newest first (at most STATUS_SESSIONS_MAX). */
  sessions: z.array(captureSessionViewSchema),
  sessionsTotal: z.number(),
  /** The session key the next page starts after (`--after-session`); null on the last page. */
  nextSessionKey: nullableText,
  /**
   * Queue states of capture work (no bodies). candidatesAsContext: prompts the host recorded as
   * context (a task notification), matched and consumed. candidatesUnconfirmed: prompts of ended,
   * drained sessions that no sealed turn delivered (none matched, or its turn stayed incomplete) —
   * unconfirmed delivery, bodies kept.
   */
  queue: z.strictObject({
    inboxPending: z.number(),
    inboxProcessed: z.number(),
    inboxLegacy: z.number(),
    batchesReady: z.number(),
    candidatesPending: z.number(),
    candidatesDelivered: z.number(),
    candidatesAsContext: z.number(),
    candidatesUnconfirmed: z.number(),
  }),
  /** inbox: envelopes waiting (not isolated); watch: transcripts of running sessions; isolated: open recovery items; hookErrors: hook runs that could not reach the store. */
  host: z.strictObject({
    inbox: z.number(),
    watch: z.number(),
    isolated: z.number(),
    hookErrors: z.number(),
    /** `message` and `fix` only for `install_broken`: the installation cannot run, and how to repair it. */
    lastHookError: z
      .strictObject({ at: z.string(), code: z.string(), message: z.string().optional(), fix: z.string().optional() })
      .nullable(),
    /** Why nothing can be written into the data home (then no hook can record its failure there), or null. */
    notWritable: nullableText,
  }),
  capacity: z.strictObject({ bodyBytes: z.number(), totalBytes: z.number(), sessionBytes: z.number() }),
  /** Sessions captured live by the hooks beside those imported from stored transcripts (`import`), and files an import quarantined. */
  imports: z.strictObject({
    liveSessions: z.number(),
    sessions: z.number(),
    turns: z.number(),
    quarantined: z.number(),
  }),
  recovery: z.strictObject({ total: z.number(), items: z.array(recoveryItemViewSchema), nextRecoveryId: nullableText }),
  /** The read ledger: roots and entries kept, `unavailable` with its reason, the last failure a hook met. */
  ledger: z.strictObject({
    state: z.enum(['ready', 'empty', 'unavailable']),
    reason: nullableText,
    roots: z.number(),
    activeRoots: z.number(),
    entries: z.number(),
    lastError: z.strictObject({ at: z.string(), event: z.string(), code: z.string() }).nullable(),
  }),
});
export type CaptureStatus = z.infer<typeof captureStatusSchema>;

const drainReportFields = {
  steps: z.number(),
  sealedTurns: z.number(),
  /** Recovery items opened or kept by this run. */
  isolated: z.array(z.string()),
  /** For --recover: the item was consumed (true) or is still open with the same ID (false). */
  recovered: z.boolean().nullable(),
};
export const drainReportSchema = z.strictObject(drainReportFields);
export type DrainReport = z.infer<typeof drainReportSchema>;

/** What flush's extraction did: the automatic pass over every turn sealed since the last one. */
export const flushExtractionSchema = z.strictObject({
  /** done: the pass ran; off: COMMON_MEMORY_AUTO_EXTRACT turns automatic extraction off; failed: it stopped (`error`). */
  state: z.enum(['done', 'off', 'failed']),
  /** Runs made (one per repository and pass); turns read in the window. */
  runs: z.number(),
  turns: z.number(),
  candidates: z.strictObject({ created: z.number(), updated: z.number(), merged: z.number(), quarantined: z.number() }),
  /** Tasks still to do (pending or waiting for a retry) and tasks that failed in this flush. */
  tasksLeft: z.number(),
  tasksFailed: z.number(),
  error: nullableText,
});
export type FlushExtraction = z.infer<typeof flushExtractionSchema>;

export const flushReportSchema = z.strictObject({
  ...drainReportFields,
  /** True when everything settled is processed and nothing remains buffered, inboxed, watched or isolated (and, when extracting, no task is left or failed). */
  complete: z.boolean(),
  remaining: z.strictObject({ buffered: z.number(), inbox: z.number(), watch: z.number(), isolated: z.number() }),
  /** Present when the flush extracted too (FlushRequest.extract). */
  extraction: flushExtractionSchema.optional(),
});
export type FlushReport = z.infer<typeof flushReportSchema>;

// ---- imports: conversations a client stored before common-memory was installed ----

const importBody = z.strictObject({
  client: z.enum(['claude', 'codex', 'pi']),
  /** The client's transcript folder, absolute (Claude Code: <config dir>/projects; Codex: $CODEX_HOME/sessions; pi: <agent dir>/sessions). */
  root: z.string().min(1),
  /** Canonical UTC instants; a file is in the range when it was last written in [since, until). */
  since: z.string().optional(),
  until: z.string().optional(),
  /** Only sessions whose recorded working directory is this absolute path or under it. */
  repository: z.string().optional(),
  /** Draft candidates from what was imported, as a host does after live capture (default true). */
  extract: z.boolean().optional(),
});
export type ImportRequest = z.infer<typeof importBody>;

/** One file the import passed over or could not read whole, and why. */
export const importNoteSchema = z.strictObject({
  path: z.string(),
  what: z.enum(['skipped', 'quarantined', 'partial', 'open']),
  reason: z.string(),
});
export type ImportNote = z.infer<typeof importNoteSchema>;

export const importReportSchema = z.strictObject({
  client: z.enum(['claude', 'codex', 'pi']),
  root: z.string(),
  /** True for what an import would do (nothing written). */
  dryRun: z.boolean(),
  /** Transcript files read (new bytes parsed). */
  files: z.number(),
  /** Sessions with at least one turn imported (dry run: found). */
  sessions: z.number(),
  /** Turns imported (dry run: found), settled, failed or interrupted. */
  turns: z.number(),
  /** Files passed over: links, FIFOs, unreadable directories. */
  skipped: z.number(),
  /** Files a parser refused, or over the byte bound: recorded, the file itself untouched. */
  quarantined: z.number(),
  /** Transcript bytes parsed. */
  bytes: z.number(),
  /** Turns whose session and turn id were already stored (captured live, or imported from another file): not stored again. */
  turnsAlreadyStored: z.number(),
  /** Sessions with nothing new to import: every byte of their file imported before, or every turn read stored by an import of another file. */
  alreadyImported: z.number(),
  /** Sessions live capture has: their file watched by the hooks, or every turn read stored live. */
  capturedLive: z.number(),
  /** Turns with no end recorded yet: read again by the next import. */
  openTurns: z.number(),
  /** The first and last instants the imported turns recorded. */
  firstAt: nullableText,
  lastAt: nullableText,
  /** Where the sessions ran; `exists` false: the directory is gone, so its memory binds to the user scope. */
  repositories: z.array(z.strictObject({ cwd: nullableText, sessions: z.number(), exists: z.boolean() })),
  notes: z.array(importNoteSchema),
  extraction: flushExtractionSchema.nullable(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const importProgressSchema = z.strictObject({
  filesDone: z.number(),
  filesTotal: z.number(),
  sessions: z.number(),
  turns: z.number(),
  bytes: z.number(),
  elapsedMs: z.number(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

export const importRunSchema = z.strictObject({
  importId: z.string(),
  state: z.enum(['running', 'extracting', 'done', 'failed']),
  progress: importProgressSchema,
  report: importReportSchema.nullable(),
  error: errorSchema.nullable(),
});
export type ImportRun = z.infer<typeof importRunSchema>;

// ---- session search ----

export const sessionSearchResultSchema = z.strictObject({
  results: z.array(
    z.strictObject({
      sessionKey: z.string(),
      turnKey: z.string(),
      client: z.string(),
      recordedAt: z.string(),
      /** When the user typed it: the client's own time of the message, else when it was recorded. */
      typedAt: z.string(),
      snippet: z.string(),
    }),
  ),
});
export type SessionSearchResult = z.infer<typeof sessionSearchResultSchema>;

// ---- reading what was captured: sessions and their turns (bodies only on these explicit reads) ----

export interface SessionListRequest {
  client?: string | undefined;
  /** Page size, 1–100 (default 20). */
  limit?: number | undefined;
  /** The session key the page starts after (the previous page's nextAfter). */
  after?: string | undefined;
}

export const sessionSummarySchema = z.strictObject({
  ...captureSessionFields,
  /** The first line of the first thing the user said (at most 200 characters), or null before any; secrets masked. */
  firstPrompt: nullableText,
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const sessionListSchema = z.strictObject({
  sessions: z.array(sessionSummarySchema),
  total: z.number(),
  /** Give it as `after` for the next (older) page; null on the last page. */
  nextAfter: nullableText,
});
export type SessionList = z.infer<typeof sessionListSchema>;

export interface SessionReadRequest {
  /** A session key, or a unique start of one (4 characters or more). */
  sessionKey: string;
  /** Include the assistant, tool and harness messages' text (folded into a count without it). */
  context?: boolean | undefined;
  /** Show the text as typed; without it, what the secret lint finds is masked. */
  reveal?: boolean | undefined;
}

export const sessionMessageViewSchema = z.strictObject({
  role: z.string(),
  kind: z.string(),
  classification: z.enum(['evidence', 'context']),
  /** The message's text: always for what the user said; for context only when asked for. */
  text: nullableText,
  timestamp: nullableText,
});
export type SessionMessageView = z.infer<typeof sessionMessageViewSchema>;

export const sessionTurnViewSchema = z.strictObject({
  turnKey: z.string(),
  state: z.string(),
  error: nullableText,
  /** When the turn was sealed (processed by the drain). */
  recordedAt: z.string(),
  /** When it was typed: the client record's own time of its first message with one (the user's words first); null when the client wrote none. */
  typedAt: nullableText,
  messages: z.array(sessionMessageViewSchema),
  /** Context messages left out (without `context`), by kind: { answer: 1, tool_call: 2 }. */
  folded: z.record(z.string(), z.number()),
});
export type SessionTurnView = z.infer<typeof sessionTurnViewSchema>;

export const sessionViewSchema = z.strictObject({
  session: sessionSummarySchema,
  turns: z.array(sessionTurnViewSchema),
  /** True when asked to reveal: the text is as typed, nothing masked. */
  revealed: z.boolean(),
  /** Secret findings masked in the messages' text (0 when revealed). */
  secretsMasked: z.number(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

export const captureApi = {
  captureStatus: read<CaptureStatusRequest, CaptureStatus>('/v1/capture/status', captureStatusSchema, {
    afterRecovery: optionalText('after-recovery'),
    afterSession: optionalText('after-session'),
  }),
  /** Drains the inbox now; with `recover`, retries exactly that recovery item. */
  sessionDrain: write<z.infer<typeof drainBody>, DrainReport>('/v1/capture/drain', drainReportSchema, {
    body: body(drainBody),
  }),
  /** Drains the inbox; with `extract`, then drafts candidates from every sealed turn (what a host does by itself). */
  flush: write<FlushRequest, FlushReport>('/v1/capture/flush', flushReportSchema, { body: body(flushBody) }),
  /** Starts importing a client's stored transcripts and answers at once with the run's id (captureImportRun follows it). */
  captureImportStart: write<ImportRequest, ImportRun>('/v1/capture/imports', importRunSchema, {
    body: body(importBody),
    created: () => true,
  }),
  /** An import captureImportStart started: its progress, its report once done (a short read). */
  captureImportRun: read<{ importId: string }, ImportRun>('/v1/capture/imports/:importId', importRunSchema),
  /** Captured sessions, newest first, with each one's first prompt line. */
  listSessions: read<SessionListRequest, SessionList>('/v1/sessions', sessionListSchema, {
    client: optionalText('client'),
    limit: optionalNumber('limit'),
    after: optionalText('after'),
  }),
  /** One session's turns: what the user said in full (secrets masked unless `reveal`); context folded unless asked for. */
  readSession: read<SessionReadRequest, SessionView>('/v1/sessions/:sessionKey', sessionViewSchema, {
    context: flag('context'),
    reveal: flag('reveal'),
  }),
  /** BM25 over what users said (delivered user turns, driven agents' user rows). */
  sessionSearch: readByBody<SessionSearchRequest, SessionSearchResult>(
    '/v1/search',
    body(sessionSearchBody),
    sessionSearchResultSchema,
  ),
};

export type CaptureRoutes = typeof captureApi;
