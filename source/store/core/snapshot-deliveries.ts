// What SessionStart snapshots gave, read for the usefulness counts of memory-state (v10): each
// activation keeps the snapshot text it was given at its start (capture_activations.snapshot), so
// the activations after a cursor are the deliveries not yet counted. Read inside a memory command's
// transaction on the writer's core connection (MemoryContext.core).
import { prepared, type Db } from '../database.js';

export interface SnapshotDelivery {
  activationId: number;
  snapshot: string | null;
  state: 'active' | 'ended';
  startedAtMs: number;
}

/** The activations after `afterId`, oldest first, at most `limit`. */
export function readSnapshotDeliveries(db: Db, afterId: number, limit: number): SnapshotDelivery[] {
  return prepared(
    db,
    `SELECT activation_id AS activationId, snapshot, state, started_at_ms AS startedAtMs
     FROM capture_activations WHERE activation_id > ? ORDER BY activation_id LIMIT ?`,
  ).all(afterId, limit) as SnapshotDelivery[];
}

/** The highest activation id there is (0 for none): a cursor above it means core.sqlite was reset. */
export function lastActivationId(db: Db): number {
  return (prepared(db, 'SELECT coalesce(max(activation_id), 0) FROM capture_activations').pluck().get() as number) ?? 0;
}
