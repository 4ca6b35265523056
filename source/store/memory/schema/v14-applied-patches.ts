// v14: a consolidation patch knows its plan (issue 28). `plan_id` is the plan last prepared from
// it (null while pending), and `status` gains 'applied': the patch's plan was promoted, so neither
// review nor prepare offers it again. SQLite cannot change a CHECK constraint in place, so the
// table is made again with every row carried over (a prepared patch's plan is not known: null).
import type { Db } from '../../database.js';

export function migrateToAppliedPatches(db: Db): void {
  db.exec(`
        CREATE TABLE consolidation_patches_v14 (
          task_id TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          scope TEXT NOT NULL CHECK (scope IN ('project', 'user')),
          runner TEXT NOT NULL,
          patch_json TEXT NOT NULL,
          operations INTEGER NOT NULL CHECK (operations >= 0),
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'discarded', 'prepared', 'applied')),
          created_at_ms INTEGER NOT NULL,
          plan_id TEXT
        ) STRICT;
        INSERT INTO consolidation_patches_v14
          SELECT task_id, repository_key, worktree_key, scope, runner, patch_json, operations, status, created_at_ms, NULL
          FROM consolidation_patches;
        DROP TABLE consolidation_patches;
        ALTER TABLE consolidation_patches_v14 RENAME TO consolidation_patches;
        CREATE INDEX consolidation_patches_by_owner ON consolidation_patches (repository_key, worktree_key, status, created_at_ms);
      `);
}
