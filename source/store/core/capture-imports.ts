// Writer commands and reads of imported conversations (seed 002's imports beside live capture):
// one step of one transcript file — the turns its parser closed and the cursor after them — in one
// BEGIN IMMEDIATE transaction, as live capture seals its steps, but kept apart: the file's watch and
// session carry origin 'imported', each turn its source line, and no prompt candidate is asked for
// (there was no hook when the client wrote it). Identity is the client's own: a turn whose host
// session and turn id are already stored, live or from another file, is skipped, never stored twice.
import { z } from 'zod';
import { sha256Hex, sessionKeyOf } from '../../ground/digests.js';
import { command } from '../command.js';
import type { Db } from '../database.js';
import type { Tx } from '../transaction.js';
import { checkCapacity, lastSealInstant, messageColumns, nextSealInstant, turnDigest } from './capture-sessions.js';
import { capacity } from './capture-capacity.js';
import { indexUserText } from './session-search.js';
import { typedAtMs } from './indexed-text.js';

/** The process instance of every imported activation: no client process was watched. */
export const IMPORT_INSTANCE = 'import';

const importClient = z.enum(['claude', 'codex', 'pi']);

const importStepInput = z
  .object({
    client: importClient,
    sourcePath: z.string().min(1),
    /** The parser's session key (Claude subagents: `<session>:agent-<id>`). */
    hostSessionId: z.string().min(1),
    cwd: z.string().nullable(),
    /** The first timestamp the step's turns recorded, else the import's instant. */
    startedAtMs: z.number().int(),
    watch: z.object({
      fromBytes: z.number().int().nonnegative(),
      toBytes: z.number().int().nonnegative(),
      state: z.string(),
    }),
    turns: z.array(
      z.object({
        key: z.string().min(1),
        state: z.enum(['settled', 'failed', 'interrupted']),
        error: z.string().nullable(),
        messages: z.number().int().nonnegative(),
        firstLine: z.number().int().nonnegative(),
      }),
    ),
    messages: messageColumns,
  })
  .refine((step) => step.turns.reduce((sum, turn) => sum + turn.messages, 0) === step.messages.key.length, {
    message: 'turn message counts do not add up to the message columns',
  });

export type ImportStepInput = z.infer<typeof importStepInput>;

export type ImportStepOutcome =
  /** `skippedLive`: of the `skipped` turns, those live capture stored. */
  | { outcome: 'applied'; sealed: number; skipped: number; skippedLive: number; sessionKey: string | null }
  /** Another import moved this file's cursor first: nothing written. */
  | { outcome: 'stale' }
  /** Live capture watches this very file: it is captured there, never imported. */
  | { outcome: 'live' }
  | { outcome: 'rejected'; code: RejectionCode; detail: string };

type RejectionCode = 'turn_conflict' | 'transcript_session_mismatch' | 'import_over_capacity';

class Rejected extends Error {
  constructor(
    readonly code: RejectionCode,
    readonly detail: string,
  ) {
    super(detail);
  }
}

function applyImportStep(tx: Tx, input: ImportStepInput): ImportStepOutcome {
  const { db, nowMs } = tx;
  let watch = db
    .prepare(
      'SELECT watch_id AS watchId, origin, consumed_bytes AS consumed, host_session_id AS hostSessionId FROM capture_watches WHERE client = ? AND transcript_path = ?',
    )
    .get(input.client, input.sourcePath) as
    | { watchId: number; origin: string; consumed: number; hostSessionId: string }
    | undefined;
  if (watch?.origin === 'live') return { outcome: 'live' };
  if ((watch?.consumed ?? 0) !== input.watch.fromBytes) return { outcome: 'stale' };
  if (watch && watch.hostSessionId !== input.hostSessionId)
    throw new Rejected('transcript_session_mismatch', 'the file now belongs to another session than it did');
  if (!watch) {
    const watchId = db
      .prepare(
        "INSERT INTO capture_watches (client, transcript_path, host_session_id, origin) VALUES (?, ?, ?, 'imported')",
      )
      .run(input.client, input.sourcePath, input.hostSessionId).lastInsertRowid as number;
    watch = { watchId, origin: 'imported', consumed: 0, hostSessionId: input.hostSessionId };
  }
  db.prepare(
    'UPDATE capture_watches SET consumed_bytes = ?, captured_bytes = max(captured_bytes, ?), parser_state = ? WHERE watch_id = ?',
  ).run(input.watch.toBytes, input.watch.toBytes, input.watch.state, watch.watchId);

  const findOwn = db.prepare('SELECT state, digest FROM capture_turns WHERE watch_id = ? AND turn_key = ?');
  // The same host session's turn in any other file, live or imported: the client's own identity.
  const findElsewhere = db
    .prepare(
      `SELECT w.origin FROM capture_turns t JOIN capture_watches w ON w.watch_id = t.watch_id
     WHERE w.client = ? AND w.host_session_id = ? AND t.turn_key = ? AND t.watch_id <> ? AND t.state <> 'incomplete' LIMIT 1`,
    )
    .pluck();
  const insertBatch = db.prepare(
    "INSERT INTO capture_batches (activation_id, state, sealed_at_ms) VALUES (?, 'ready', ?)",
  );
  const insertTurn = db.prepare(
    'INSERT INTO capture_turns (activation_id, watch_id, turn_key, state, digest, error, batch_id, message_count, recorded_at_ms, source_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertMessage = db.prepare(
    'INSERT INTO capture_messages (turn_id, position, message_key, role, classification, kind, digest, body, candidate_id, line, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), NULL, ?, ?)',
  );
  const m = input.messages;
  const bodies = Buffer.from(m.bodies.buffer, m.bodies.byteOffset, m.bodies.byteLength);
  const body = (i: number) => bodies.subarray(i === 0 ? 0 : m.bodyEnds[i - 1], m.bodyEnds[i]);
  let activation: { activationId: number; sessionKey: string } | undefined;
  let lastSeal = lastSealInstant(db);
  let sealed = 0;
  let skipped = 0;
  let skippedLive = 0;
  let bodyBytes = 0;
  let row = 0;
  for (const turn of input.turns) {
    const from = row;
    const to = (row += turn.messages);
    const bodyDigests: string[] = [];
    for (let i = from; i < to; i++) bodyDigests.push(sha256Hex(body(i)));
    const digest = turnDigest(turn.state, turn.error, m, from, to, bodyDigests);
    const own = findOwn.get(watch.watchId, turn.key) as { state: string; digest: string | null } | undefined;
    if (own) {
      if (own.digest === digest) continue; // the same turn again: a no-op
      throw new Rejected('turn_conflict', `turn ${turn.key} was imported before with different content`);
    }
    const elsewhere = findElsewhere.get(input.client, input.hostSessionId, turn.key, watch.watchId) as
      | string
      | undefined;
    if (elsewhere !== undefined) {
      skipped += 1;
      if (elsewhere === 'live') skippedLive += 1;
      continue;
    }
    activation ??= importedActivation(tx, input, watch.watchId);
    const sealedAtMs = (lastSeal = nextSealInstant(nowMs, lastSeal));
    const batchId = insertBatch.run(activation.activationId, nowMs).lastInsertRowid as number;
    const turnId = insertTurn.run(
      activation.activationId,
      watch.watchId,
      turn.key,
      turn.state,
      digest,
      turn.error,
      batchId,
      turn.messages,
      sealedAtMs,
      turn.firstLine,
    ).lastInsertRowid as number;
    for (let i = from; i < to; i++) {
      const bytes = body(i);
      const messageId = insertMessage.run(
        turnId,
        i - from,
        m.key[i],
        m.role[i],
        m.classification[i],
        m.kind[i],
        bodyDigests[i - from],
        bytes,
        m.line[i],
        m.timestamp[i],
      ).lastInsertRowid as number;
      // What the parser classifies as the user's own words is evidence, exactly as live; it is
      // searchable from the transaction that stores it.
      if (m.classification[i] === 'evidence')
        indexUserText(tx, {
          body: bytes.toString('utf8'),
          ref: `m:${messageId}`,
          client: input.client,
          sessionKey: activation.sessionKey,
          turnKey: turn.key,
          recordedAtMs: sealedAtMs,
          typedAtMs: typedAtMs(m.timestamp[i]) ?? sealedAtMs,
        });
      bodyBytes += bytes.byteLength;
    }
    sealed += 1;
  }
  if (activation) {
    db.prepare(
      'INSERT INTO capture_sessions (activation_id, updated_at_ms) VALUES (?, ?) ON CONFLICT (activation_id) DO NOTHING',
    ).run(activation.activationId, nowMs);
    db.prepare(
      'UPDATE capture_sessions SET body_bytes = body_bytes + ?, buffered_turns = 0, updated_at_ms = ? WHERE activation_id = ?',
    ).run(bodyBytes, nowMs, activation.activationId);
    // One long session over its capacity is that file's problem (quarantined, the rest imports);
    // the whole store over its capacity stops the import (checkCapacity raises it).
    const held = db
      .prepare('SELECT body_bytes FROM capture_sessions WHERE activation_id = ?')
      .pluck()
      .get(activation.activationId) as number;
    const { sessionBytes } = capacity();
    if (held > sessionBytes)
      throw new Rejected(
        'import_over_capacity',
        `its session would hold ${held} bytes of bodies, over the ${sessionBytes}-byte capacity of one session; the turns before this step are kept`,
      );
    checkCapacity(tx, activation.activationId);
  }
  // A file that reads again resolves its quarantine (a later failure opens it again).
  db.prepare(
    "UPDATE import_quarantine SET state = 'resolved', updated_at_ms = ? WHERE client = ? AND source_path = ? AND state = 'open'",
  ).run(nowMs, input.client, input.sourcePath);
  return { outcome: 'applied', sealed, skipped, skippedLive, sessionKey: activation?.sessionKey ?? null };
}

/** The imported session of this file, created with its first stored turn (an ended activation). */
function importedActivation(
  tx: Tx,
  input: ImportStepInput,
  watchId: number,
): { activationId: number; sessionKey: string } {
  const { db } = tx;
  const existing = db
    .prepare(
      "SELECT activation_id AS activationId, session_key AS sessionKey FROM capture_activations WHERE watch_id = ? AND origin = 'imported'",
    )
    .get(watchId) as { activationId: number; sessionKey: string } | undefined;
  if (existing) return existing;
  // A session id in two files: each file is its own imported activation, the next ordinal.
  const ordinal = db
    .prepare(
      'SELECT coalesce(max(ordinal), 0) + 1 FROM capture_activations WHERE client = ? AND process_instance = ? AND host_session_id = ?',
    )
    .pluck()
    .get(input.client, IMPORT_INSTANCE, input.hostSessionId) as number;
  const sessionKey = sessionKeyOf(input.client, IMPORT_INSTANCE, input.hostSessionId, ordinal);
  const activationId = db
    .prepare(
      `INSERT INTO capture_activations (session_key, client, process_instance, host_session_id, ordinal, cwd, watch_id, state, started_at_ms, ended_at_ms, origin)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'ended', ?, ?, 'imported')`,
    )
    .run(
      sessionKey,
      input.client,
      IMPORT_INSTANCE,
      input.hostSessionId,
      ordinal,
      input.cwd,
      watchId,
      input.startedAtMs,
      tx.nowMs,
    ).lastInsertRowid as number;
  return { activationId, sessionKey };
}

const quarantineInput = z.object({
  client: importClient,
  sourcePath: z.string().min(1),
  sourceBytes: z.number().int().nonnegative(),
  code: z.string().min(1).max(64),
  detail: z.string().max(1000),
});

/** Files a parser refused: one row per file; failing again counts an attempt and says what failed this time. */
function quarantine(tx: Tx, input: z.infer<typeof quarantineInput>): { quarantineId: number; attempts: number } {
  return tx.db
    .prepare(
      `INSERT INTO import_quarantine (client, source_path, source_bytes, code, detail, state, created_at_ms, updated_at_ms)
       VALUES (@client, @sourcePath, @sourceBytes, @code, @detail, 'open', @now, @now)
       ON CONFLICT (client, source_path) DO UPDATE SET
         source_bytes = excluded.source_bytes, code = excluded.code, detail = excluded.detail, state = 'open',
         attempts = attempts + 1, updated_at_ms = excluded.updated_at_ms
       RETURNING quarantine_id AS quarantineId, attempts`,
    )
    .get({ ...input, now: tx.nowMs }) as { quarantineId: number; attempts: number };
}

export const importCommands = {
  captureImportStep: command({
    schema: importStepInput,
    run: (tx, _context, input): ImportStepOutcome => {
      try {
        return tx.db.transaction(() => applyImportStep(tx, input))();
      } catch (error) {
        if (error instanceof Rejected) return { outcome: 'rejected', code: error.code, detail: error.detail };
        throw error;
      }
    },
  }),
  captureImportQuarantine: command({ schema: quarantineInput, run: (tx, _context, input) => quarantine(tx, input) }),
};

/**
 * Where an import of this file goes on: its watch (live or imported), cursor and parser state, and
 * where its session's turns are stored — by this file's import (`imported`, or another file's),
 * by live capture (`live`: pi's extension, the hooks on a copy), or nowhere yet (null).
 */
export function readImportWatch(
  db: Db,
  client: string,
  sourcePath: string,
):
  | {
      origin: 'live' | 'imported';
      consumedBytes: number;
      parserState: string | null;
      stored: 'live' | 'imported' | null;
    }
  | undefined {
  return db
    .prepare(
      `SELECT origin, consumed_bytes AS consumedBytes, parser_state AS parserState,
         CASE
           WHEN EXISTS (SELECT 1 FROM capture_turns t WHERE t.watch_id = w.watch_id) THEN 'imported'
           WHEN EXISTS (SELECT 1 FROM capture_watches o JOIN capture_turns t ON t.watch_id = o.watch_id
                        WHERE o.client = w.client AND o.host_session_id = w.host_session_id AND o.origin = 'live') THEN 'live'
           WHEN EXISTS (SELECT 1 FROM capture_watches o JOIN capture_turns t ON t.watch_id = o.watch_id
                        WHERE o.client = w.client AND o.host_session_id = w.host_session_id) THEN 'imported'
         END AS stored
       FROM capture_watches w WHERE client = ? AND transcript_path = ?`,
    )
    .get(client, sourcePath) as
    | {
        origin: 'live' | 'imported';
        consumedBytes: number;
        parserState: string | null;
        stored: 'live' | 'imported' | null;
      }
    | undefined;
}

/**
 * Where each of these turns of a host session is stored already, for a dry run: `own` in this very
 * file's watch, else the origin of the watch that holds it (`live` or `imported`); absent: not stored.
 * The same identity the import applies (client, the client's session id, its turn id).
 */
export function readStoredTurns(
  db: Db,
  client: string,
  hostSessionId: string,
  sourcePath: string,
  turnKeys: string[],
): Map<string, 'own' | 'live' | 'imported'> {
  const find = db.prepare(
    `SELECT w.transcript_path AS path, w.origin FROM capture_turns t JOIN capture_watches w ON w.watch_id = t.watch_id
     WHERE w.client = ? AND w.host_session_id = ? AND t.turn_key = ? AND t.state <> 'incomplete'
     ORDER BY w.transcript_path = ? DESC LIMIT 1`,
  );
  const stored = new Map<string, 'own' | 'live' | 'imported'>();
  for (const key of turnKeys) {
    const row = find.get(client, hostSessionId, key, sourcePath) as { path: string; origin: string } | undefined;
    if (row) stored.set(key, row.path === sourcePath ? 'own' : row.origin === 'live' ? 'live' : 'imported');
  }
  return stored;
}
