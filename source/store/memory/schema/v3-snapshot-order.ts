// v3: the session-start snapshot's order per owner (snapshot-read.ts), so that the SessionStart
// hook reads the few entries that fit its budget without sorting every entry of the owner.
import type { Db } from '../../database.js';

export function migrateToSnapshotOrder(db: Db): void {
  db.exec(`
        CREATE INDEX approved_entries_snapshot_order ON approved_entries (
          repository_key, worktree_key,
          json_extract(frontmatter_json, '$.priority') DESC,
          json_extract(frontmatter_json, '$.created') DESC,
          entry_id);
      `);
}
