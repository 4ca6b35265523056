// Reads of consolidation patches for review (a read-only connection, no zod: `memory review` is a
// read that scripts call in loops). Pending patches of one owner, or of every owner, newest first.
import type { ConsolidationReview } from '../../api/memory-views.js';
import type { ConsolidationPatch } from '../../memory/consolidation/patch.js';
import { type Db, prepared } from '../database.js';

/** At most this many patches in one review: each is a whole scope's consolidation. */
export const REVIEW_PATCHES_MAX = 20;

interface PatchRow {
  task_id: string;
  repository_key: string;
  scope: 'project' | 'user';
  runner: string;
  patch_json: string;
  created_at_ms: number;
}

const toView = (row: PatchRow): ConsolidationReview => ({
  taskId: row.task_id,
  scope: row.scope,
  repositoryKey: row.repository_key,
  runner: row.runner,
  createdAt: new Date(row.created_at_ms).toISOString(),
  operations: (JSON.parse(row.patch_json) as ConsolidationPatch).operations,
});

export function readConsolidationReview(
  db: Db,
  owner: { repositoryKey: string; worktreeKey: string } | null,
): ConsolidationReview[] {
  const exists = prepared(
    db,
    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'consolidation_patches'",
  ).get();
  if (!exists) return [];
  const rows = (
    owner === null
      ? prepared(
          db,
          "SELECT * FROM consolidation_patches WHERE status = 'pending' ORDER BY created_at_ms DESC, task_id LIMIT ?",
        ).all(REVIEW_PATCHES_MAX)
      : prepared(
          db,
          `SELECT * FROM consolidation_patches WHERE status = 'pending' AND repository_key = ? AND worktree_key = ?
            ORDER BY created_at_ms DESC, task_id LIMIT ?`,
        ).all(owner.repositoryKey, owner.worktreeKey, REVIEW_PATCHES_MAX)
  ) as PatchRow[];
  return rows.map(toView);
}

/** One stored patch by its task, whatever its status; undefined when memory-state holds none. */
export function readConsolidationPatch(db: Db, taskId: string): ConsolidationReview | undefined {
  const row = prepared(db, 'SELECT * FROM consolidation_patches WHERE task_id = ?').get(taskId) as PatchRow | undefined;
  return row && toView(row);
}
