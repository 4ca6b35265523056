// v12: consolidation patches (issue 28). A consolidation task is a row of `tasks` (kind
// 'consolidation', allowed since v1); the patch its runner submitted, once accepted, is kept here
// for review: one row per task, with the owner it covers, the runner, the canonical patch JSON and
// how many operations it holds. `status` is pending until a person acts on it (later: prepared,
// discarded); a patch found stale at submission is never stored — the submission is refused.
import type { Db } from '../../database.js';

export function migrateToConsolidationPatches(db: Db): void {
  db.exec(`
        CREATE TABLE consolidation_patches (
          task_id TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          scope TEXT NOT NULL CHECK (scope IN ('project', 'user')),
          runner TEXT NOT NULL,
          patch_json TEXT NOT NULL,
          operations INTEGER NOT NULL CHECK (operations >= 0),
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'discarded', 'prepared')),
          created_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX consolidation_patches_by_owner ON consolidation_patches (repository_key, worktree_key, status, created_at_ms);
      `);
}
