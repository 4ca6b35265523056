// Writer commands of host capture (seed 002): apply one drain step of one activation — seal every
// settled/failed/interrupted turn as one batch, store its messages, consume the envelopes and
// candidates, advance the watch cursor — or isolate the activation with a recovery item.
// One command = one BEGIN IMMEDIATE transaction; capacity is checked before it commits.
import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { CmError } from '../../errors.js';
import { sha256Hex } from '../../ground/digests.js';
import { capacity, totalBodyBytes } from './capture-capacity.js';
import { findCandidate } from './capture-reads.js';
import { indexUserText } from './session-search.js';
import { typedAtMs } from './indexed-text.js';
import { command } from '../command.js';
import { prepared } from '../database.js';
import type { Tx } from '../transaction.js';

const id = z.number().int().positive();

/**
 * The step's messages in columns, in turn order (turn i owns the next `turns[i].messages` rows).
 * Why columns and not one object per message: a step carries tens of thousands of messages across
 * the thread boundary; columns clone as a few arrays instead of one keyed object each, and
 * validate as arrays of primitives (measured: serialisation, deserialisation and zod all dropped).
 * Why the bodies are one UTF-8 buffer: it is transferred, not copied, and the drain writes each
 * body into it as its turn closes, so the strings die young (measured on the 100 MB drain: 7% less
 * wall time, 13% fewer page faults); the writer hashes and stores the bytes.
 */
/** Context kinds a host submits through UserPromptSubmit: matched to their prompt candidate as context. */
const SUBMITTED_AS_CONTEXT = new Set<string>(['task_notification', 'queued_prompt']);

export interface MessageColumns {
  key: string[];
  role: string[];
  classification: Array<'evidence' | 'context'>;
  kind: string[];
  /** Every body, back to back: body i is bytes bodyEnds[i - 1] (0 for the first) to bodyEnds[i]. */
  bodies: Uint8Array;
  bodyEnds: number[];
  line: number[];
  timestamp: Array<string | null>;
}

const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;

/** The same rules a zod object per message would check, as one loop per column (zod costs ~30x more per element here). */
function validColumns(value: unknown): value is MessageColumns {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  const bodies = m['bodies'];
  if (!(bodies instanceof Uint8Array)) return false;
  const columns = [m['key'], m['role'], m['classification'], m['kind'], m['bodyEnds'], m['line'], m['timestamp']];
  if (!columns.every(Array.isArray)) return false;
  const [key, role, classification, kind, bodyEnds, line, timestamp] = columns as unknown[][];
  const n = key!.length;
  if (!columns.every((column) => (column as unknown[]).length === n)) return false;
  let end = 0;
  for (let i = 0; i < n; i++) {
    if (!nonEmpty(key![i]) || !nonEmpty(role![i]) || !nonEmpty(kind![i])) return false;
    if (classification![i] !== 'evidence' && classification![i] !== 'context') return false;
    const next = bodyEnds![i];
    if (!Number.isSafeInteger(next) || (next as number) < end) return false;
    end = next as number;
    const at = line![i];
    if (!Number.isSafeInteger(at) || (at as number) < 0) return false;
    const stamp = timestamp![i];
    if (stamp !== null && typeof stamp !== 'string') return false;
  }
  // Stored as TEXT: the bytes must be exactly the bodies, and UTF-8.
  return end === bodies.byteLength && isUtf8(bodies);
}

export const messageColumns = z.custom<MessageColumns>(validColumns, { message: 'invalid message columns' });

export interface StepTurn {
  key: string;
  state: 'settled' | 'failed' | 'interrupted';
  error: string | null;
  /** How many rows of the message columns belong to this turn. */
  messages: number;
}

const SEALED_STATES = new Set<unknown>(['settled', 'failed', 'interrupted']);

/** The rules a zod object per turn would check, as one loop (a drain of 100 MB validates thousands of turns). */
function validTurns(value: unknown): value is StepTurn[] {
  if (!Array.isArray(value)) return false;
  for (const turn of value as unknown[]) {
    if (typeof turn !== 'object' || turn === null) return false;
    const t = turn as Record<string, unknown>;
    if (!nonEmpty(t['key']) || !SEALED_STATES.has(t['state'])) return false;
    if (t['error'] !== null && typeof t['error'] !== 'string') return false;
    if (!Number.isSafeInteger(t['messages']) || (t['messages'] as number) < 0) return false;
  }
  return true;
}

const stepInput = z
  .object({
    activationId: id,
    envelopeIds: z.array(id).min(1),
    /** Set when this step is an explicit retry of a recovery item: success consumes it. */
    recoveryId: id.nullable(),
    watch: z
      .object({
        watchId: id,
        /** The cursor the step was parsed from; anything else means another step got there first. */
        fromBytes: z.number().int().nonnegative(),
        toBytes: z.number().int().nonnegative(),
        state: z.string(),
      })
      .nullable(),
    turns: z.custom<StepTurn[]>(validTurns, { message: 'invalid turns' }),
    messages: messageColumns,
    /** Turns still open when the activation ended: recorded as incomplete, not sealed. */
    incompleteKeys: z.array(z.string().min(1)),
    /** Open turns after the step; null keeps the previous count (no transcript bytes in this step). */
    bufferedTurns: z.number().int().nonnegative().nullable(),
  })
  .refine((step) => step.turns.reduce((sum, turn) => sum + turn.messages, 0) === step.messages.key.length, {
    message: 'turn message counts do not add up to the message columns',
  });

export type CaptureStepInput = z.infer<typeof stepInput>;

/** Fixed recovery codes produced by the writer; the drain adds the transcript and delivery codes. */
export type StepOutcome =
  | { outcome: 'applied'; sealed: number; replayed: boolean }
  | { outcome: 'stale' }
  | { outcome: 'rejected'; code: RejectionCode; detail: string };

type RejectionCode = 'turn_conflict' | 'delivery_unconfirmed' | 'delivery_conflict';

class Rejected extends Error {
  constructor(
    readonly code: RejectionCode,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The digest of a sealed turn: what a replay must match. `from`..`to` are its rows; `bodyDigests` their digests, computed once. */
export function turnDigest(
  state: string,
  error: string | null,
  m: MessageColumns,
  from: number,
  to: number,
  bodyDigests: string[],
): string {
  let text = `${state}\0${error ?? ''}\0`;
  for (let i = from; i < to; i++)
    text += `${m.key[i]}\0${m.role[i]}\0${m.classification[i]}\0${m.kind[i]}\0${bodyDigests[i - from]}\n`;
  return sha256Hex(text);
}

/**
 * Every sealed turn gets its own instant, strictly after every instant stored before: the clock
 * reading, or 1 ms after the last instant when the clock has not moved on (many turns in one drain
 * step, or a clock set back). An extraction selection is a time window refused over
 * SELECTION_MAX_TURNS turns, never cut; distinct instants mean some window always holds at most
 * that many, so explicit windows and the host's automatic passes can reach every turn. A store
 * from before v7 had collisions re-stamped by its migration. Kept simple on purpose: a
 * (recorded_at_ms, turn_id) cursor would reach every turn too, but only through a second
 * selection shape that users could not type as --since/--until.
 */
export const nextSealInstant = (nowMs: number, lastMs: number): number => Math.max(nowMs, lastMs + 1);

/** The latest instant of any capture turn (index capture_turns_by_recorded_at); -1 when there is none. */
export const lastSealInstant = (db: Tx['db']): number =>
  (prepared(db, 'SELECT max(recorded_at_ms) AS last FROM capture_turns').get() as { last: number | null }).last ?? -1;

export function applyStep(tx: Tx, input: CaptureStepInput): StepOutcome {
  const { db, nowMs } = tx;
  const placeholders = input.envelopeIds.map(() => '?').join(',');
  const envelopes = prepared(db, `SELECT id, activation_id, state FROM inbox WHERE id IN (${placeholders})`).all(
    ...input.envelopeIds,
  ) as Array<{ id: number; activation_id: number | null; state: string }>;
  if (envelopes.length !== input.envelopeIds.length || envelopes.some((e) => e.activation_id !== input.activationId)) {
    throw new CmError('invalid_input', 'captureApplyStep: envelopes do not belong to the activation.');
  }
  // Replaying a committed step returns its result and creates nothing.
  if (envelopes.every((e) => e.state === 'processed')) return { outcome: 'applied', sealed: 0, replayed: true };
  if (envelopes.some((e) => e.state !== 'pending')) return { outcome: 'stale' };
  // Steps commit in envelope order: an earlier envelope still pending means an earlier step of
  // this activation did not apply (the drain plans ahead while the previous step commits).
  const earlier = prepared(
    db,
    "SELECT 1 FROM inbox WHERE activation_id = ? AND state = 'pending' AND id < ? LIMIT 1",
  ).get(input.activationId, Math.min(...input.envelopeIds));
  if (earlier !== undefined) return { outcome: 'stale' };
  const open = prepared(db, "SELECT recovery_id FROM recovery_items WHERE activation_id = ? AND state = 'open'").get(
    input.activationId,
  ) as { recovery_id: number } | undefined;
  if ((open?.recovery_id ?? null) !== input.recoveryId) return { outcome: 'stale' };

  let bodyBytes = 0;
  let sealed = 0;
  if (input.watch) {
    const watch = prepared(db, 'SELECT consumed_bytes FROM capture_watches WHERE watch_id = ?').get(
      input.watch.watchId,
    ) as { consumed_bytes: number } | undefined;
    if (!watch || watch.consumed_bytes !== input.watch.fromBytes) return { outcome: 'stale' };
    prepared(
      db,
      'UPDATE capture_watches SET consumed_bytes = ?, parser_state = ?, captured_bytes = max(captured_bytes, ?) WHERE watch_id = ?',
    ).run(input.watch.toBytes, input.watch.state, input.watch.toBytes, input.watch.watchId);
    const findTurn = prepared(
      db,
      'SELECT turn_id, state, digest FROM capture_turns WHERE watch_id = ? AND turn_key = ?',
    );
    const insertBatch = prepared(
      db,
      "INSERT INTO capture_batches (activation_id, state, sealed_at_ms) VALUES (?, 'ready', ?)",
    );
    const insertTurn = prepared(
      db,
      'INSERT INTO capture_turns (activation_id, watch_id, turn_key, state, digest, error, batch_id, message_count, recorded_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const sealIncomplete = prepared(
      db,
      'UPDATE capture_turns SET activation_id = ?, state = ?, digest = ?, error = ?, batch_id = ?, message_count = ?, recorded_at_ms = ? WHERE turn_id = ?',
    );
    const insertMessage = prepared(
      db,
      'INSERT INTO capture_messages (turn_id, position, message_key, role, classification, kind, digest, body, candidate_id, line, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?, ?)',
    );
    const deliver = prepared(
      db,
      "UPDATE prompt_candidates SET state = 'delivered', body = NULL, delivered_message_id = ? WHERE candidate_id = ? AND state = 'pending'",
    );
    const activation = prepared(
      db,
      'SELECT client, host_session_id, session_key FROM capture_activations WHERE activation_id = ?',
    ).get(input.activationId) as { client: string; host_session_id: string; session_key: string };
    const m = input.messages;
    let lastSeal = lastSealInstant(db);
    // A transferred buffer arrives as a plain Uint8Array; bodies are views into it, bound as BLOBs and stored as TEXT.
    const bodies = Buffer.from(m.bodies.buffer, m.bodies.byteOffset, m.bodies.byteLength);
    const body = (i: number) => bodies.subarray(i === 0 ? 0 : m.bodyEnds[i - 1], m.bodyEnds[i]);
    let row = 0;
    for (const turn of input.turns) {
      const from = row;
      const to = row + turn.messages;
      row = to;
      // The same digest as textDigest of the body's text: SHA-256 of its UTF-8 bytes.
      const bodyDigests: string[] = [];
      for (let i = from; i < to; i++) bodyDigests.push(sha256Hex(body(i)));
      const digest = turnDigest(turn.state, turn.error, m, from, to, bodyDigests);
      const existing = findTurn.get(input.watch.watchId, turn.key) as
        | { turn_id: number; state: string; digest: string | null }
        | undefined;
      if (existing && existing.state !== 'incomplete') {
        if (existing.digest === digest) continue; // the same turn again: a no-op
        throw new Rejected('turn_conflict', `turn ${turn.key} was sealed before with different content`);
      }
      const sealedAtMs = (lastSeal = nextSealInstant(nowMs, lastSeal));
      const batchId = insertBatch.run(input.activationId, nowMs).lastInsertRowid as number;
      let turnId: number;
      if (existing) {
        sealIncomplete.run(
          input.activationId,
          turn.state,
          digest,
          turn.error,
          batchId,
          turn.messages,
          sealedAtMs,
          existing.turn_id,
        );
        turnId = existing.turn_id;
      } else {
        turnId = insertTurn.run(
          input.activationId,
          input.watch.watchId,
          turn.key,
          turn.state,
          digest,
          turn.error,
          batchId,
          turn.messages,
          sealedAtMs,
        ).lastInsertRowid as number;
      }
      for (let i = from; i < to; i++) {
        const bytes = body(i);
        // Delivery authentication: an evidence prompt counts only as the delivery of a prompt a
        // UserPromptSubmit hook recorded, matched by digest (and turn, when the host names one).
        let candidateId: number | null = null;
        if (m.classification[i] === 'evidence') {
          const turnRef = activation.client === 'codex' ? turn.key : null;
          candidateId =
            findCandidate(db, activation.client, activation.host_session_id, bodyDigests[i - from]!, turnRef) ?? null;
          if (candidateId === null)
            throw new Rejected(
              'delivery_unconfirmed',
              `turn ${turn.key}: the user message at line ${m.line[i]} matches no prompt a UserPromptSubmit hook recorded`,
            );
        } else if (SUBMITTED_AS_CONTEXT.has(m.kind[i]!)) {
          // Submitted through UserPromptSubmit, recorded by the host as context (a task
          // notification, a prompt queued into a running turn): its candidate is consumed here,
          // its body freed, and it is never evidence. Without a candidate it is plain context.
          candidateId =
            findCandidate(db, activation.client, activation.host_session_id, bodyDigests[i - from]!, null) ?? null;
        }
        const messageId = insertMessage.run(
          turnId,
          i - from,
          m.key[i],
          m.role[i],
          m.classification[i],
          m.kind[i],
          bodyDigests[i - from],
          bytes,
          candidateId,
          m.line[i],
          m.timestamp[i],
        ).lastInsertRowid as number;
        // Evidence is searchable from the transaction that seals it (context never is).
        if (candidateId !== null && m.classification[i] === 'evidence') {
          indexUserText(tx, {
            body: bytes.toString('utf8'),
            ref: `m:${messageId}`,
            client: activation.client,
            sessionKey: activation.session_key,
            turnKey: turn.key,
            recordedAtMs: sealedAtMs,
            typedAtMs: typedAtMs(m.timestamp[i]) ?? sealedAtMs,
          });
        }
        bodyBytes += bytes.byteLength;
        if (candidateId !== null && deliver.run(messageId, candidateId).changes !== 1) {
          throw new Rejected(
            'delivery_conflict',
            `turn ${turn.key}: its prompt candidate was already delivered to another message`,
          );
        }
      }
      sealed += 1;
    }
    const incomplete = prepared(
      db,
      "INSERT INTO capture_turns (activation_id, watch_id, turn_key, state, recorded_at_ms) VALUES (?, ?, ?, 'incomplete', ?) ON CONFLICT (watch_id, turn_key) DO NOTHING",
    );
    for (const key of input.incompleteKeys) incomplete.run(input.activationId, input.watch.watchId, key, nowMs);
  }

  // The envelope copies are consumed: their transcript bytes now live in messages.
  prepared(db, `UPDATE inbox SET state = 'processed', processed_at_ms = ? WHERE id IN (${placeholders})`).run(
    nowMs,
    ...input.envelopeIds,
  );
  prepared(db, `DELETE FROM inbox_tails WHERE inbox_id IN (${placeholders})`).run(...input.envelopeIds);
  if (input.recoveryId !== null) {
    prepared(
      db,
      "UPDATE recovery_items SET state = 'resolved', resolved_at_ms = ?, updated_at_ms = ? WHERE recovery_id = ?",
    ).run(nowMs, nowMs, input.recoveryId);
  }
  prepared(
    db,
    'INSERT INTO capture_sessions (activation_id, updated_at_ms) VALUES (?, ?) ON CONFLICT (activation_id) DO NOTHING',
  ).run(input.activationId, nowMs);
  prepared(
    db,
    'UPDATE capture_sessions SET body_bytes = body_bytes + ?, buffered_turns = coalesce(?, buffered_turns), updated_at_ms = ? WHERE activation_id = ?',
  ).run(bodyBytes, input.bufferedTurns, nowMs, input.activationId);
  checkCapacity(tx, input.activationId);
  return { outcome: 'applied', sealed, replayed: false };
}

/** Over capacity, the whole transaction rolls back; existing data and cursors stay where they were. */
export function checkCapacity(tx: Tx, activationId: number): void {
  // Read at each check, not once per module: a command's writer runs on a thread that may have
  // loaded this module long before (a test process setting the override between hosts).
  const limits = capacity();
  const { body_bytes: session } = prepared(
    tx.db,
    'SELECT body_bytes FROM capture_sessions WHERE activation_id = ?',
  ).get(activationId) as { body_bytes: number };
  if (session > limits.sessionBytes) {
    throw new CmError(
      'limit_exceeded',
      `A capture session would hold ${session} bytes of bodies, over its capacity of ${limits.sessionBytes}; nothing was written and its envelopes stay queued.`,
    );
  }
  const total = totalBodyBytes(tx);
  if (total > limits.totalBytes) {
    throw new CmError(
      'limit_exceeded',
      `Captured bodies would total ${total} bytes, over the capacity of ${limits.totalBytes}; nothing was written and the envelopes stay queued.`,
    );
  }
}

export function isolate(
  tx: Tx,
  input: { activationId: number; inboxId: number; code: string; detail: string; recoveryId: number | null },
): { outcome: 'isolated'; recoveryId: number } | { outcome: 'stale' } {
  const { db, nowMs } = tx;
  // Re-checked inside the transaction: a concurrent success must never be followed by a stale isolation.
  const row = db.prepare('SELECT state, activation_id FROM inbox WHERE id = ?').get(input.inboxId) as
    | { state: string; activation_id: number | null }
    | undefined;
  if (!row || row.state !== 'pending' || row.activation_id !== input.activationId) return { outcome: 'stale' };
  const open = db
    .prepare("SELECT recovery_id FROM recovery_items WHERE activation_id = ? AND state = 'open'")
    .get(input.activationId) as { recovery_id: number } | undefined;
  if (open) {
    if (input.recoveryId !== null && open.recovery_id !== input.recoveryId) return { outcome: 'stale' };
    // A retry that failed again keeps its ID; the code and detail say what failed this time.
    if (input.recoveryId !== null) {
      db.prepare(
        'UPDATE recovery_items SET attempts = attempts + 1, code = ?, detail = ?, updated_at_ms = ? WHERE recovery_id = ?',
      ).run(input.code, input.detail, nowMs, open.recovery_id);
    }
    return { outcome: 'isolated', recoveryId: open.recovery_id };
  }
  if (input.recoveryId !== null) return { outcome: 'stale' };
  const recoveryId = db
    .prepare(
      "INSERT INTO recovery_items (activation_id, inbox_id, code, detail, state, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, 'open', ?, ?)",
    )
    .run(input.activationId, input.inboxId, input.code, input.detail, nowMs, nowMs).lastInsertRowid as number;
  return { outcome: 'isolated', recoveryId };
}

export const captureCommands = {
  captureApplyStep: command({
    schema: stepInput,
    run: (tx, _context, input): StepOutcome => {
      // A savepoint inside the command's transaction: a rejected step rolls back whole and is
      // reported as a value, so the drain can isolate the activation in its next command.
      try {
        return tx.db.transaction(() => applyStep(tx, input))();
      } catch (error) {
        if (error instanceof Rejected) return { outcome: 'rejected', code: error.code, detail: error.detail };
        throw error;
      }
    },
  }),
  captureIsolate: command({
    schema: z.object({
      activationId: id,
      inboxId: id,
      code: z.string().min(1).max(64),
      detail: z.string().max(1000),
      recoveryId: id.nullable(),
    }),
    run: (tx, _context, input) => isolate(tx, input),
  }),
};
