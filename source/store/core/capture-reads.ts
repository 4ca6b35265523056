// Reads of host capture: the drain's work units and the status view (never a body).
// Plain SQL over any connection (the drain's and the API's read-only ones).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { homeWriteProblem } from '../../home.js';
import { RECOVERY_PAGE_SIZE, STATUS_SESSIONS_MAX } from '../../limits.js';
import { CmError } from '../../errors.js';
import type {
  CaptureSessionState,
  CaptureSessionView,
  CaptureStatus,
  CaptureStatusRequest,
  RecoveryItemView,
} from '../../api/capture.js';
import { type CaptureClient, recoveryIdText } from '../../api/common.js';
import { recoveryCursor } from '../../api/request-checks.js';
import { capacity, totalBodyBytes } from './capture-capacity.js';
import type Database from 'better-sqlite3';
import type { Db } from '../database.js';

export interface ActivationRow {
  activationId: number;
  client: CaptureClient;
  hostSessionId: string;
  sessionKey: string;
  state: 'active' | 'ended';
  watchId: number | null;
}

export interface WatchRow {
  watchId: number;
  transcriptPath: string;
  consumedBytes: number;
  capturedBytes: number;
  parserState: string | null;
}

export interface EnvelopeRow {
  id: number;
  event: string;
  watchId: number | null;
  tailState: 'none' | 'captured' | 'missing' | 'over_limit' | 'cursor_mismatch' | 'unreadable';
  tailFrom: number | null;
  tailTo: number | null;
}

/** The activation of the oldest pending envelope that no recovery item holds. */
export function nextActivation(db: Db): number | undefined {
  const row = db
    .prepare(
      `SELECT i.activation_id AS id FROM inbox i
       WHERE i.state = 'pending' AND i.activation_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM recovery_items r WHERE r.activation_id = i.activation_id AND r.state = 'open')
       ORDER BY i.id LIMIT 1`,
    )
    .get() as { id: number } | undefined;
  return row?.id;
}

export function readActivation(db: Db, activationId: number): ActivationRow | undefined {
  return db
    .prepare(
      `SELECT activation_id AS activationId, client, host_session_id AS hostSessionId, session_key AS sessionKey, state, watch_id AS watchId
       FROM capture_activations WHERE activation_id = ?`,
    )
    .get(activationId) as ActivationRow | undefined;
}

export function readWatch(db: Db, watchId: number): WatchRow | undefined {
  return db
    .prepare(
      `SELECT watch_id AS watchId, transcript_path AS transcriptPath, consumed_bytes AS consumedBytes, captured_bytes AS capturedBytes, parser_state AS parserState
       FROM capture_watches WHERE watch_id = ?`,
    )
    .get(watchId) as WatchRow | undefined;
}

/**
 * Pending envelopes of one activation in order after `afterId`, at most `maxEnvelopes` and about
 * `maxBytes` of tails (always at least one). The tails themselves are read with `readTailChunks`.
 */
export function readPendingEnvelopes(
  db: Db,
  activationId: number,
  maxEnvelopes: number,
  maxBytes: number,
  afterId = 0,
): EnvelopeRow[] {
  const rows = db
    .prepare(
      `SELECT id, event, watch_id AS watchId, tail_state AS tailState, tail_from AS tailFrom, tail_to AS tailTo
       FROM inbox WHERE activation_id = ? AND state = 'pending' AND id > ? ORDER BY id LIMIT ?`,
    )
    .all(activationId, afterId, maxEnvelopes) as EnvelopeRow[];
  const picked: EnvelopeRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size =
      row.tailState === 'captured' && row.tailFrom !== null && row.tailTo !== null ? row.tailTo - row.tailFrom : 0;
    if (picked.length > 0 && bytes + size > maxBytes) break;
    bytes += size;
    picked.push(row);
  }
  return picked;
}

/** The bytes an envelope kept, in order, one bounded row at a time. */
export function readTailChunks(db: Db, inboxId: number): IterableIterator<Buffer> {
  let statement = tailCache.get(db);
  if (statement === undefined) {
    statement = db.prepare('SELECT bytes FROM inbox_tails WHERE inbox_id = ? ORDER BY seq').pluck();
    tailCache.set(db, statement);
  }
  return statement.iterate(inboxId) as IterableIterator<Buffer>;
}

/**
 * Prepared once per connection: the drain reads every envelope's tail with it. (One iteration at a
 * time: the drain consumes each envelope's rows before it reads the next.)
 */
const tailCache = new WeakMap<Db, Database.Statement<unknown[]>>();

export function firstPendingEnvelope(db: Db, activationId: number): number | undefined {
  return db
    .prepare("SELECT min(id) FROM inbox WHERE activation_id = ? AND state = 'pending'")
    .pluck()
    .get(activationId) as number | undefined;
}

/**
 * The oldest pending candidate of the host session with this digest (and turn, when the host names
 * one). Run by the writer inside a drain step: candidates it delivered earlier in the step are no
 * longer pending, so identical prompts match their candidates in order.
 */
export function findCandidate(
  db: Db,
  client: string,
  hostSessionId: string,
  digest: string,
  turnRef: string | null,
): number | undefined {
  const statements = candidateStatements(db);
  return (
    turnRef !== null
      ? statements.byTurn.get(client, hostSessionId, turnRef, digest)
      : statements.oldest.get(client, hostSessionId, digest)
  ) as number | undefined;
}

type Statement = Database.Statement<unknown[]>;
const candidateCache = new WeakMap<Db, { byTurn: Statement; oldest: Statement }>();

/** Prepared once per connection: a drain step looks up one candidate per prompt, thousands per step. */
function candidateStatements(db: Db): { byTurn: Statement; oldest: Statement } {
  let statements = candidateCache.get(db);
  if (statements === undefined) {
    statements = {
      byTurn: db
        .prepare(
          `SELECT candidate_id FROM prompt_candidates
           WHERE client = ? AND host_session_id = ? AND turn_ref = ? AND digest = ? AND state = 'pending'
           ORDER BY candidate_id LIMIT 1`,
        )
        .pluck(),
      oldest: db
        .prepare(
          `SELECT candidate_id FROM prompt_candidates
           WHERE client = ? AND host_session_id = ? AND digest = ? AND state = 'pending'
           ORDER BY candidate_id LIMIT 1`,
        )
        .pluck(),
    };
    candidateCache.set(db, statements);
  }
  return statements;
}

export interface RecoveryRow {
  recoveryId: number;
  activationId: number;
  inboxId: number;
  state: 'open' | 'resolved';
}

export function readRecoveryItem(db: Db, recoveryId: number): RecoveryRow | undefined {
  return db
    .prepare(
      'SELECT recovery_id AS recoveryId, activation_id AS activationId, inbox_id AS inboxId, state FROM recovery_items WHERE recovery_id = ?',
    )
    .get(recoveryId) as RecoveryRow | undefined;
}

// ---- status ----

export interface Remaining {
  buffered: number;
  inbox: number;
  watch: number;
  isolated: number;
}

export function readRemaining(db: Db): Remaining {
  return db
    .prepare(
      `SELECT
        (SELECT coalesce(sum(buffered_turns), 0) FROM capture_sessions) AS buffered,
        (SELECT count(*) FROM inbox i WHERE i.state = 'pending'
           AND NOT EXISTS (SELECT 1 FROM recovery_items r WHERE r.activation_id = i.activation_id AND r.state = 'open')) AS inbox,
        (SELECT count(*) FROM capture_activations WHERE state = 'active' AND watch_id IS NOT NULL) AS watch,
        (SELECT count(*) FROM recovery_items WHERE state = 'open') AS isolated`,
    )
    .get() as Remaining;
}

/**
 * What waits to be processed: captured events the drain has not turned into turns yet (isolated
 * ones excepted: status lists those), and turns sealed at or after `sealedSinceMs` that no
 * automatic extraction has read.
 */
export function readWaiting(db: Db, sealedSinceMs: number): { events: number; turns: number } {
  return db
    .prepare(
      `SELECT
        (SELECT count(*) FROM inbox i WHERE i.state = 'pending'
           AND NOT EXISTS (SELECT 1 FROM recovery_items r WHERE r.activation_id = i.activation_id AND r.state = 'open')) AS events,
        (SELECT count(*) FROM capture_turns WHERE state IN ('settled', 'failed', 'interrupted') AND recorded_at_ms >= ?) AS turns`,
    )
    .get(sealedSinceMs) as { events: number; turns: number };
}

/** When the last hook event of each client reached the store (ms), or null when none ever did. */
export function readLastEvents(db: Db): { codex: number | null; claude: number | null } {
  const last = db.prepare(
    `SELECT max(ms) FROM (
       SELECT max(received_at_ms) AS ms FROM inbox WHERE client = @client
       UNION ALL SELECT max(started_at_ms) FROM capture_activations WHERE client = @client)`,
  );
  return {
    codex: last.pluck().get({ client: 'codex' }) as number | null,
    claude: last.pluck().get({ client: 'claude' }) as number | null,
  };
}

/** readLastEvents as ISO instants. */
export function lastEventsAt(db: Db): { codex: string | null; claude: string | null } {
  const { codex, claude } = readLastEvents(db);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return { codex: iso(codex), claude: iso(claude) };
}

interface SessionRow {
  client: CaptureClient;
  sessionKey: string;
  hostSessionId: string;
  activationState: 'active' | 'ended';
  origin: 'live' | 'imported';
  cwd: string | null;
  startedAtMs: number;
  buffered: number;
  bodyBytes: number;
  settled: number;
  failed: number;
  interrupted: number;
  incomplete: number;
  inbox: number;
  isolated: number;
}

function sessionState(row: SessionRow): CaptureSessionState {
  if (row.isolated) return 'isolated';
  if (row.inbox > 0) return 'pending';
  if (row.activationState === 'active') return 'active';
  if (row.incomplete > 0 || row.buffered > 0) return 'incomplete';
  return 'complete';
}

/** A session's columns and counts, for the activations named by `picked` (a table of activation_id). */
const SESSION_COLUMNS = `SELECT a.client, a.session_key AS sessionKey, a.host_session_id AS hostSessionId, a.state AS activationState, a.origin, a.cwd, a.started_at_ms AS startedAtMs,
        coalesce(s.buffered_turns, 0) AS buffered, coalesce(s.body_bytes, 0) AS bodyBytes,
        (SELECT count(*) FROM capture_turns t WHERE t.activation_id = a.activation_id AND t.state = 'settled') AS settled,
        (SELECT count(*) FROM capture_turns t WHERE t.activation_id = a.activation_id AND t.state = 'failed') AS failed,
        (SELECT count(*) FROM capture_turns t WHERE t.activation_id = a.activation_id AND t.state = 'interrupted') AS interrupted,
        (SELECT count(*) FROM capture_turns t WHERE t.activation_id = a.activation_id AND t.state = 'incomplete') AS incomplete,
        (SELECT count(*) FROM inbox i WHERE i.activation_id = a.activation_id AND i.state = 'pending') AS inbox,
        EXISTS (SELECT 1 FROM recovery_items r WHERE r.activation_id = a.activation_id AND r.state = 'open') AS isolated
       FROM picked JOIN capture_activations a ON a.activation_id = picked.activation_id
       LEFT JOIN capture_sessions s ON s.activation_id = a.activation_id`;

/**
 * The page query of readSessions: the page's activations first, so the counts are read for its rows
 * only. A later page (`after`) starts below its cursor's place in the start-time index: a seek. One
 * query for both, with "no cursor, or below it" as an OR, walked the index from the newest session
 * down to the cursor (a page past the 25,000th of 50,000 read half the table).
 */
export const sessionsPageSql = (after: boolean): string =>
  `WITH picked AS (
     SELECT activation_id, started_at_ms FROM capture_activations
     WHERE ${after ? '(started_at_ms, activation_id) < (SELECT started_at_ms, activation_id FROM capture_activations WHERE activation_id = ?) AND' : ''}
       (? IS NULL OR client = ?)
     ORDER BY started_at_ms DESC, activation_id DESC LIMIT ?)
   ${SESSION_COLUMNS}
   ORDER BY picked.started_at_ms DESC, a.activation_id DESC`;

/**
 * One keyset page of sessions, newest first, after activation `before` in that order (0: the
 * newest page). Newest is by when the session started — its first event live, its first turn as
 * the transcript records it when imported — not by when it was captured: an import of months
 * stores old sessions last. Sessions that started in the same millisecond, newest captured first.
 */
export function readSessions(
  db: Db,
  before = 0,
  limit = STATUS_SESSIONS_MAX,
  client: string | null = null,
): { sessions: CaptureSessionView[]; total: number; nextSessionKey: string | null } {
  const rows = (
    before === 0
      ? db.prepare(sessionsPageSql(false)).all(client, client, limit + 1)
      : db.prepare(sessionsPageSql(true)).all(before, client, client, limit + 1)
  ) as SessionRow[];
  const total = db
    .prepare('SELECT count(*) FROM capture_activations WHERE ? IS NULL OR client = ?')
    .pluck()
    .get(client, client) as number;
  const page = rows.slice(0, limit);
  return {
    total,
    nextSessionKey: rows.length > limit ? (page[page.length - 1]?.sessionKey ?? null) : null,
    sessions: page.map(sessionView),
  };
}

/** One session by its activation, as a page of sessions shows it (undefined: no such activation). */
export function readSessionSummary(db: Db, activationId: number): CaptureSessionView | undefined {
  const row = db.prepare(`WITH picked AS (SELECT ? AS activation_id) ${SESSION_COLUMNS}`).get(activationId) as
    | SessionRow
    | undefined;
  return row && sessionView(row);
}

function sessionView(row: SessionRow): CaptureSessionView {
  return {
    client: row.client,
    sessionKey: row.sessionKey,
    hostSessionId: row.hostSessionId,
    state: sessionState(row),
    origin: row.origin,
    cwd: row.cwd,
    startedAt: new Date(row.startedAtMs).toISOString(),
    turns: {
      settled: row.settled,
      failed: row.failed,
      interrupted: row.interrupted,
      buffered: row.activationState === 'active' || row.inbox > 0 ? row.buffered : 0,
      incomplete: row.incomplete,
    },
    inbox: row.inbox,
    bodyBytes: row.bodyBytes,
  };
}

/** One keyset page of open recovery items after `after` (a row number); the total is counted, never truncated. */
export function readRecoveryPage(db: Db, after: number, size = RECOVERY_PAGE_SIZE): CaptureStatus['recovery'] {
  const rows = db
    .prepare(
      `SELECT r.recovery_id AS recoveryId, r.code, r.detail, r.inbox_id AS inboxId, r.attempts, r.created_at_ms AS createdAtMs, a.client, a.session_key AS sessionKey
       FROM recovery_items r JOIN capture_activations a ON a.activation_id = r.activation_id
       WHERE r.state = 'open' AND r.recovery_id > ? ORDER BY r.recovery_id LIMIT ?`,
    )
    .all(after, size + 1) as Array<{
    recoveryId: number;
    code: string;
    detail: string;
    inboxId: number;
    attempts: number;
    createdAtMs: number;
    client: CaptureClient;
    sessionKey: string;
  }>;
  const total = db.prepare("SELECT count(*) FROM recovery_items WHERE state = 'open'").pluck().get() as number;
  const page = rows.slice(0, size);
  const items: RecoveryItemView[] = page.map((row) => ({
    id: recoveryIdText(row.recoveryId),
    code: row.code,
    client: row.client,
    sessionKey: row.sessionKey,
    inboxId: row.inboxId,
    attempts: row.attempts,
    detail: row.detail,
    createdAt: new Date(row.createdAtMs).toISOString(),
  }));
  const last = page[page.length - 1];
  return { total, items, nextRecoveryId: rows.length > size && last ? recoveryIdText(last.recoveryId) : null };
}

function readHookErrors(path: string): { count: number; last: CaptureStatus['host']['lastHookError'] } {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { count: 0, last: null };
  }
  // A failure line names its quarantine (keptAs); a later line "resolved" names one whose event is
  // in the inbox now (kept late by its own hook, or replayed): only unresolved failures count.
  type Failure = NonNullable<CaptureStatus['host']['lastHookError']> & { keptAs: string | null };
  const failures: Failure[] = [];
  const resolved = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (typeof parsed['resolved'] === 'string') resolved.add(parsed['resolved']);
      else {
        const keptAs = parsed['keptAs'] ?? parsed['quarantined'];
        const failure: Failure = {
          at: String(parsed['at'] ?? ''),
          code: String(parsed['code'] ?? ''),
          keptAs: typeof keptAs === 'string' ? keptAs : null,
        };
        // A broken installation is the user's to repair: what is wrong and the command that fixes it.
        if (failure.code === 'install_broken') {
          failure.message = String(parsed['message'] ?? '');
          failure.fix = String(parsed['fix'] ?? '');
        }
        failures.push(failure);
      }
    } catch {
      failures.push({ at: '', code: 'unreadable', keptAs: null });
    }
  }
  const open = failures.filter((failure) => failure.keptAs === null || !resolved.has(failure.keptAs));
  const last = open[open.length - 1];
  if (last === undefined) return { count: 0, last: null };
  const { keptAs: _keptAs, ...shown } = last;
  return { count: open.length, last: shown };
}

/** The activation a sessions page starts before: 0 for the first page, else the one `key` names. */
export function sessionCursor(
  db: Db,
  key: string | undefined,
  printedBy = 'use the nextSessionKey that status printed',
): number {
  if (key === undefined) return 0;
  const id = db.prepare('SELECT activation_id FROM capture_activations WHERE session_key = ?').pluck().get(key) as
    | number
    | undefined;
  if (id === undefined)
    throw new CmError('invalid_cursor', `"${key}" is not a session key of this store; ${printedBy}.`);
  return id;
}

/**
 * `afterRecovery`: the recovery ID the recovery page starts after; `afterSession`: the session key
 * the sessions page starts after — each as status printed it (absent: the first page).
 */
export function readCaptureStatus(
  db: Db,
  options: CaptureStatusRequest & {
    storeId: string;
    mode: CaptureStatus['mode'];
    hookErrorsPath: string;
    ledger: () => CaptureStatus['ledger'];
  },
): CaptureStatus {
  const after = recoveryCursor(options.afterRecovery);
  // One read transaction: every count and the page describe the same moment.
  return db.transaction((): CaptureStatus => {
    const { sessions, total, nextSessionKey } = readSessions(db, sessionCursor(db, options.afterSession));
    const queue = db
      .prepare(
        `SELECT
          (SELECT count(*) FROM inbox WHERE state = 'pending') AS inboxPending,
          (SELECT count(*) FROM inbox WHERE state = 'processed') AS inboxProcessed,
          (SELECT count(*) FROM inbox WHERE state = 'legacy') AS inboxLegacy,
          (SELECT count(*) FROM capture_batches WHERE state = 'ready') AS batchesReady,
          (SELECT count(*) FROM prompt_candidates WHERE state = 'pending') AS candidatesPending,
          (SELECT count(*) FROM prompt_candidates WHERE state = 'delivered') AS candidatesDelivered,
          (SELECT count(*) FROM prompt_candidates p JOIN capture_messages m ON m.message_id = p.delivered_message_id
            WHERE p.state = 'delivered' AND m.classification = 'context') AS candidatesAsContext,
          (SELECT count(*) FROM prompt_candidates p JOIN capture_activations a ON a.activation_id = p.activation_id
            WHERE p.state = 'pending' AND a.state = 'ended'
              AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.activation_id = a.activation_id AND i.state = 'pending')) AS candidatesUnconfirmed`,
      )
      .get() as CaptureStatus['queue'];
    const remaining = readRemaining(db);
    const hookErrors = readHookErrors(options.hookErrorsPath);
    const limits = capacity();
    const imported = readImportCounts(db);
    return {
      storeId: options.storeId,
      mode: options.mode,
      sessions,
      sessionsTotal: total,
      nextSessionKey,
      queue,
      host: {
        inbox: remaining.inbox,
        watch: remaining.watch,
        isolated: remaining.isolated,
        hookErrors: hookErrors.count,
        lastHookError: hookErrors.last,
        // hook-errors.jsonl lives in the data home: its directory is the home.
        notWritable: homeWriteProblem(dirname(options.hookErrorsPath)),
      },
      capacity: { bodyBytes: totalBodyBytes({ db }), totalBytes: limits.totalBytes, sessionBytes: limits.sessionBytes },
      imports: { liveSessions: total - imported.sessions, ...imported },
      recovery: readRecoveryPage(db, after),
      ledger: options.ledger(),
    };
  })();
}

/** Imported sessions, their sealed turns and the files in quarantine: what status counts apart from live capture. */
export function readImportCounts(db: Db): { sessions: number; turns: number; quarantined: number } {
  return db
    .prepare(
      `SELECT (SELECT count(*) FROM capture_activations WHERE origin = 'imported') AS sessions,
              (SELECT count(*) FROM capture_turns t JOIN capture_activations a USING (activation_id)
                 WHERE a.origin = 'imported' AND t.state <> 'incomplete') AS turns,
              (SELECT count(*) FROM import_quarantine WHERE state = 'open') AS quarantined`,
    )
    .get() as { sessions: number; turns: number; quarantined: number };
}
