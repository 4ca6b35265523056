// v7: how many entries each owner's projection holds, kept by the sync that replaces them, so
// that the SessionStart hook says "N more" without counting every entry of the owner. A table
// of its own: a column of approved_projection would sit behind scan_json, whose overflow pages
// (a large root's scan) SQLite walks to reach it.
import type { Db } from '../../database.js';

export function migrateToEntryCounts(db: Db): void {
  db.exec(`
        CREATE TABLE approved_entry_counts (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          entries INTEGER NOT NULL CHECK (entries >= 0),
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO approved_entry_counts (repository_key, worktree_key, entries)
          SELECT repository_key, worktree_key, count(*) FROM approved_entries GROUP BY repository_key, worktree_key;
      `);
}
