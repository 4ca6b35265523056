// `memory refresh`'s rows (hook/refresh.ts decides which activation and reads the selection):
// the running activations it may name, and the replaced snapshot, left pending for the hook
// (inbox-writes.ts) or pi's extension (pi-inbox.ts) to give once. Reads take the caller's
// transaction too, so the activation found is the one whose snapshot is replaced.
import type { Db } from '../database.js';
import type { Tx } from '../transaction.js';

export interface RefreshActivation {
  activation_id: number;
  session_key: string;
  client: string;
  cwd: string | null;
  state: string;
}

const COLUMNS = 'activation_id, session_key, client, cwd, state';

/** The activation of a session key, whatever its state; undefined for none. */
export function activationByKey(db: Db, sessionKey: string): RefreshActivation | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM capture_activations WHERE session_key = ?`).get(sessionKey) as
    | RefreshActivation
    | undefined;
}

/** pi's running activation of a process instance and session (the newest, should there be two). */
export function activePiActivation(db: Db, instance: string, sessionId: string): RefreshActivation | undefined {
  return db
    .prepare(
      `SELECT ${COLUMNS} FROM capture_activations WHERE state = 'active' AND client = 'pi' AND process_instance = ?
       AND host_session_id = ? ORDER BY activation_id DESC LIMIT 1`,
    )
    .get(instance, sessionId) as RefreshActivation | undefined;
}

/** The running Codex and Claude Code activations of any of these process instances, with their host session ids. */
export function activeHookActivations(
  db: Db,
  instances: readonly string[],
): Array<RefreshActivation & { host_session_id: string }> {
  const marks = instances.map(() => '?').join(', ');
  return db
    .prepare(
      `SELECT ${COLUMNS}, host_session_id FROM capture_activations
       WHERE state = 'active' AND client IN ('codex', 'claude') AND process_instance IN (${marks})`,
    )
    .all(...instances) as Array<RefreshActivation & { host_session_id: string }>;
}

/** Replaces the activation's snapshot, pending until its next delivery. */
export function replaceSnapshot(tx: Tx<'core'>, activationId: number, snapshot: string): void {
  tx.db
    .prepare('UPDATE capture_activations SET snapshot = ?, snapshot_pending = 1 WHERE activation_id = ?')
    .run(snapshot, activationId);
}
