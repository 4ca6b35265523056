// pi's inbox writes, beside the hook clients' (inbox-writes.ts): pi has no transcript of its own
// that we read, so each event is one JSON line appended to the activation's own event stream (a
// watch named `pi-events:<session key>`) and one envelope pointing at it; the user's input is kept
// once, as a prompt candidate. And pi's side of a refreshed snapshot (snapshot-refresh.ts): its
// extension takes the new snapshot once, at its next before_agent_start. The hook's fast path
// (hook/pi-capture.ts, hook/pi-channel.ts) imports this module: it loads only hook-safe modules.
import { sessionKeyOf } from '../../ground/digests.js';
import type { FaultPoint } from '../../ground/faults.js';
import { HOOK_TAIL_MAX_BYTES } from '../../limits.js';
import { prepared, type Db } from '../database.js';
import { commit } from '../transaction.js';
import { endActivation, openActivation, storeTail } from './inbox-writes.js';

const SQL = {
  ordinal: 'SELECT ordinal FROM capture_activations WHERE activation_id = ?',
  insertStream: "INSERT INTO capture_watches (client, transcript_path, host_session_id) VALUES ('pi', ?, ?)",
  setActivationWatch: 'UPDATE capture_activations SET watch_id = ? WHERE activation_id = ?',
  capturedBytes: 'SELECT captured_bytes FROM capture_watches WHERE watch_id = ?',
  insertInbox: `INSERT INTO inbox (client, event, received_at_ms, payload, state, activation_id, host_session_id, process_instance, watch_id, tail_state, tail_from, tail_to)
    VALUES ('pi', ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)`,
  advanceWatch: 'UPDATE capture_watches SET captured_bytes = ? WHERE watch_id = ?',
  insertCandidate: `INSERT INTO prompt_candidates (activation_id, client, host_session_id, turn_ref, digest, body, scope, inbox_id, state)
    VALUES (?, 'pi', ?, ?, ?, ?, ?, ?, 'pending')`,
  pendingSnapshot: `SELECT activation_id AS id, snapshot FROM capture_activations
    WHERE client = 'pi' AND process_instance = ? AND host_session_id = ? AND state = 'active' AND snapshot_pending = 1`,
  takeSnapshot: 'UPDATE capture_activations SET snapshot_pending = 0 WHERE activation_id = ?',
};

/** One pi event, as the hook made it: its line for the stream, and the user's input when it is one. */
export interface PiEvent {
  instance: string;
  sessionId: string;
  cwd: string | null;
  event: string;
  /** The event's line (the input's text replaced by its digest). */
  line: Buffer;
  /** The input's text and its digest, kept as a prompt candidate; null for any other event. */
  prompt: { text: string; digest: string } | null;
}

/** The event's envelope in one transaction: the activation (opened or joined), its stream, the line, the prompt. */
export function appendPiEvent(db: Db, event: PiEvent, fault?: FaultPoint): { inboxId: number; activationId: number } {
  const { instance, sessionId, cwd, line, prompt } = event;
  // Over the bound is an explicit state (the drain files it as a recovery item), never a cut line.
  const over = line.length > HOOK_TAIL_MAX_BYTES;
  return commit(
    db,
    'hookCapture',
    (tx) => {
      const now = tx.nowMs;
      const activation = openActivation(db, 'pi', instance, sessionId, cwd, now);
      if (activation.watch_id === null) {
        const { ordinal } = prepared(db, SQL.ordinal).get(activation.activation_id) as { ordinal: number };
        const stream = `pi-events:${sessionKeyOf('pi', instance, sessionId, ordinal)}`;
        activation.watch_id = prepared(db, SQL.insertStream).run(stream, sessionId).lastInsertRowid as number;
        prepared(db, SQL.setActivationWatch).run(activation.watch_id, activation.activation_id);
      }
      const { captured_bytes: from } = prepared(db, SQL.capturedBytes).get(activation.watch_id) as {
        captured_bytes: number;
      };
      const to = over ? from : from + line.length;
      const stored = JSON.stringify({
        hook_event_name: event.event,
        session_id: sessionId,
        cwd,
        lineBytes: line.length,
      });
      const inboxId = prepared(db, SQL.insertInbox).run(
        event.event,
        now,
        stored,
        activation.activation_id,
        sessionId,
        instance,
        activation.watch_id,
        over ? 'over_limit' : 'captured',
        from,
        to,
      ).lastInsertRowid as number;
      if (!over) {
        storeTail(db, inboxId, line);
        prepared(db, SQL.advanceWatch).run(to, activation.watch_id);
      }
      if (prompt !== null)
        prepared(db, SQL.insertCandidate).run(
          activation.activation_id,
          sessionId,
          `input-${inboxId}`,
          prompt.digest,
          prompt.text,
          cwd,
          inboxId,
        );
      if (event.event === 'SessionEnd') endActivation(db, activation.activation_id, now);
      return { inboxId, activationId: activation.activation_id };
    },
    fault,
  );
}

/**
 * The snapshot `memory refresh` left for pi's activation (instance + session), taken once: its
 * pending mark is cleared in the same transaction. Null when none waits. A plain read of one row
 * first, so the write lock is taken only when a refresh waits.
 */
export function takePiRefreshedSnapshot(db: Db, instance: string, sessionId: string): string | null {
  const find = prepared(db, SQL.pendingSnapshot);
  if (find.get(instance, sessionId) === undefined) return null;
  return db
    .transaction(() => {
      // Read again under the write lock: a second refresh between the look and the take wins.
      const row = find.get(instance, sessionId) as { id: number; snapshot: string | null } | undefined;
      if (row === undefined) return null;
      prepared(db, SQL.takeSnapshot).run(row.id);
      return row.snapshot ?? '';
    })
    .immediate();
}
