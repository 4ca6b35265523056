// v2: the approved projection keeps each entry's scope and paths, and per owner the last
// complete scan (for the unchanged-tree short circuit) and the last scan's problems.
import type { Db } from '../../database.js';

export function migrateToApprovedScope(db: Db): void {
  db.exec(`
        ALTER TABLE approved_entries ADD COLUMN scope TEXT NOT NULL DEFAULT 'project' CHECK (scope IN ('project', 'user'));
        ALTER TABLE approved_entries ADD COLUMN paths_json TEXT NOT NULL DEFAULT '[]';
        CREATE INDEX approved_entries_by_owner ON approved_entries (repository_key, worktree_key);
        ALTER TABLE approved_projection ADD COLUMN scope TEXT NOT NULL DEFAULT 'project' CHECK (scope IN ('project', 'user'));
        ALTER TABLE approved_projection ADD COLUMN scan_json TEXT;
        ALTER TABLE approved_projection ADD COLUMN problems_json TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE approved_projection ADD COLUMN synced_at_ms INTEGER;
      `);
}
