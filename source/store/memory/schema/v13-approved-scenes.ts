// v13: the scenes of each owner's projection (issue 28, item 4). A scene file (`scenes/<name>.md`,
// memory/consolidation/scene-format.ts) is read with the entry files by the scan that syncs an
// owner, and kept here, so that what is given back — the SessionStart snapshot's scene index,
// `get scene:<name>`, search — reads one short row per scene and never parses a file. `file_entries_json`
// holds the ids the file names, in its order; `entry_ids_json` and `entries` those of them the same
// complete projection holds (what a reader can open), counted when the scan was stored.
import type { Db } from '../../database.js';

export function migrateToApprovedScenes(db: Db): void {
  db.exec(`
        CREATE TABLE approved_scenes (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          name TEXT NOT NULL,
          scope TEXT NOT NULL CHECK (scope IN ('project', 'user')),
          title TEXT NOT NULL,
          applies_when TEXT,
          summary TEXT NOT NULL,
          file_entries_json TEXT NOT NULL,
          entry_ids_json TEXT NOT NULL,
          entries INTEGER NOT NULL CHECK (entries >= 0),
          path TEXT NOT NULL,
          content_digest TEXT NOT NULL,
          PRIMARY KEY (repository_key, worktree_key, name)
        ) STRICT, WITHOUT ROWID;
      `);
}
