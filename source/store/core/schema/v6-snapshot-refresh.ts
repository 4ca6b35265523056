// v6: a refreshed session-start snapshot waits for delivery. `memory refresh` replaces an active
// activation's frozen snapshot and sets snapshot_pending; the activation's next UserPromptSubmit or
// PostToolUse hook gives the new snapshot to the model once and clears it, in its own transaction.
import type { Db } from '../../database.js';

export function migrateToSnapshotRefresh(db: Db): void {
  db.exec(`
    ALTER TABLE capture_activations
      ADD COLUMN snapshot_pending INTEGER NOT NULL DEFAULT 0 CHECK (snapshot_pending IN (0, 1));
  `);
}
