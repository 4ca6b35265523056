// Reads of consolidation patches for review (a read-only connection, no zod: `memory review` is a
// read that scripts call in loops). Pending patches of one owner, or of every owner, newest first;
// one patch by id whatever its status (prepared and applied ones name their plan).
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
  status: 'pending' | 'discarded' | 'prepared' | 'applied';
  /** Since v14: the plan last prepared from the patch. */
  plan_id?: string | null;
}

const toView = (row: PatchRow): ConsolidationReview => ({
  taskId: row.task_id,
  scope: row.scope,
  repositoryKey: row.repository_key,
  runner: row.runner,
  createdAt: new Date(row.created_at_ms).toISOString(),
  status: row.status,
  planId: row.plan_id ?? null,
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

/**
 * A consolidation task that holds no patch, by its whole id or a unique start of it (as patch ids
 * are typed): one answered with no operation keeps none, one not run yet or stale has none yet.
 * Undefined when no such task, or more than one, starts with `typed`.
 */
export function consolidationTaskWithoutPatch(db: Db, typed: string): { taskId: string; status: string } | undefined {
  const rows = prepared(
    db,
    `SELECT t.task_id AS taskId, t.status FROM tasks t
      WHERE t.kind = 'consolidation' AND t.task_id >= ? AND t.task_id < ?
        AND NOT EXISTS (SELECT 1 FROM consolidation_patches p WHERE p.task_id = t.task_id)
      ORDER BY t.task_id LIMIT 2`,
  ).all(typed, `${typed}\uffff`) as Array<{ taskId: string; status: string }>;
  return rows.find((row) => row.taskId === typed) ?? (rows.length === 1 ? rows[0] : undefined);
}

/** A stored patch with what prepare needs: its owner, status, operations and its task's binding. */
export interface PatchToPrepare {
  taskId: string;
  scope: 'project' | 'user';
  repositoryKey: string;
  worktreeKey: string;
  status: string;
  /** The plan last prepared from it (null: none yet, or prepared before v14). */
  planId: string | null;
  operations: ConsolidationPatch['operations'];
  task: {
    entries: Array<{ id: string; revision: number; contentDigest: string }>;
    scenes: Array<{ name: string; contentDigest: string }>;
  };
}

export function readPatchToPrepare(db: Db, taskId: string): PatchToPrepare | undefined {
  const row = prepared(
    db,
    `SELECT p.task_id, p.scope, p.repository_key, p.worktree_key, p.status, p.plan_id, p.patch_json, t.task_json
       FROM consolidation_patches p JOIN tasks t USING (task_id) WHERE p.task_id = ?`,
  ).get(taskId) as
    | (Omit<PatchRow, 'runner' | 'created_at_ms'> & { worktree_key: string; task_json: string })
    | undefined;
  if (!row) return undefined;
  const { task } = JSON.parse(row.task_json) as {
    task: {
      entries: Array<{ id: string; revision: number; contentDigest: string }>;
      scenes?: Array<{ name: string; contentDigest: string }>;
    };
  };
  return {
    taskId: row.task_id,
    scope: row.scope,
    repositoryKey: row.repository_key,
    worktreeKey: row.worktree_key,
    status: row.status,
    planId: row.plan_id ?? null,
    operations: (JSON.parse(row.patch_json) as ConsolidationPatch).operations,
    task: {
      entries: task.entries.map(({ id, revision, contentDigest }) => ({ id, revision, contentDigest })),
      scenes: (task.scenes ?? []).map(({ name, contentDigest }) => ({ name, contentDigest })),
    },
  };
}

/** Each approved entry of one owner with its revision in memory-state now. */
export function readEntryRevisions(db: Db, owner: { repositoryKey: string; worktreeKey: string }): Map<string, number> {
  const rows = prepared(
    db,
    'SELECT entry_id AS id, revision FROM approved_entries WHERE repository_key = ? AND worktree_key = ?',
  ).all(owner.repositoryKey, owner.worktreeKey) as Array<{ id: string; revision: number }>;
  return new Map(rows.map((row) => [row.id, row.revision]));
}
