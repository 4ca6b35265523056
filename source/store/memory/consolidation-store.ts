// Writer commands of consolidation tasks (issue 28) on memory-state, through the task machinery
// extraction uses (task-store.ts): plan a task over one owner's approved entries (idempotent: the
// same entries at the same revisions are the same task; a new one makes the owner's earlier open
// tasks stale), then — after a claim — submit the runner's ConsolidationPatch@v1: a replay with
// the same bytes returns the stored outcome, a different answer is audited and refused, a patch
// that does not hold together is a failed attempt, and a patch resting on any entry whose revision
// changed since the task was made is refused as stale (the task is stale for good: plan anew).
// An accepted patch with at least one operation is kept in consolidation_patches for review.
import { z } from 'zod';
import { CmError } from '../../errors.js';
import { canonicalJson } from '../../ground/canonical-json.js';
import { parseRunnerOutput } from '../../memory/contracts.js';
import { consolidationPatchSchema } from '../../memory/consolidation/patch-schema.js';
import {
  CONSOLIDATION_FORMATS,
  type ConsolidationPatch,
  checkOperation,
  staleEntries,
} from '../../memory/consolidation/patch.js';
import { contentProblem, type OperationFinding, screenOperations } from '../../memory/consolidation/patch-content.js';
import {
  BUILTIN_CONSOLIDATION_RUNNER,
  type ConsolidationTask,
  consolidationTask,
} from '../../memory/consolidation/task.js';
import { memoryCommand } from '../command.js';
import { prepared } from '../database.js';
import type { Tx } from '../transaction.js';
import { acceptSubmission, beginSubmission, failAttempt, readTask, type StoredTask } from './task-store.js';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

const sceneInput = z
  .object({
    name: z.string().min(1).max(200),
    title: z.string().max(1000),
    appliesWhen: z.string().max(2000).nullable(),
    entries: z.array(z.string().max(200)).max(1000),
    body: z.string().max(64 * 1024),
    text: z.string().max(64 * 1024),
    contentDigest: hex64,
  })
  .strict();

const planInput = z
  .object({
    owner: z.object({ scope: z.enum(['project', 'user']), repositoryKey: hex64, worktreeKey: hex64 }).strict(),
    /** The external runner the task is made for (its profile name); absent: the built-in runner. */
    runner: z.string().min(1).max(200).optional(),
    /** The scene files of the scope's memory root, as read just before (none: an empty list). */
    scenes: z.array(sceneInput).max(500).default([]),
  })
  .strict();

interface EntryRow {
  entry_id: string;
  revision: number;
  content_digest: string;
  frontmatter_json: string;
  body_text: string;
}

/** The owner's approved entries at their current revisions, as a consolidation task lists them. */
function currentEntries(tx: Tx<'memory'>, owner: { repositoryKey: string; worktreeKey: string }) {
  const rows = prepared(
    tx.db,
    `SELECT entry_id, revision, content_digest, frontmatter_json, body_text FROM approved_entries
      WHERE repository_key = ? AND worktree_key = ? ORDER BY entry_id`,
  ).all(owner.repositoryKey, owner.worktreeKey) as EntryRow[];
  return rows.map((row) => {
    const fields = JSON.parse(row.frontmatter_json) as {
      type?: string;
      title?: string;
      appliesWhen?: string | null;
      supersedes?: string[];
    };
    return {
      id: row.entry_id,
      revision: row.revision,
      contentDigest: row.content_digest,
      type: fields.type ?? 'work_fact',
      title: fields.title ?? row.entry_id,
      appliesWhen: fields.appliesWhen ?? null,
      body: row.body_text,
      supersedes: Array.isArray(fields.supersedes) ? fields.supersedes : [],
    };
  });
}

function memoryStateUuid(tx: Tx<'memory'>): string {
  return prepared(tx.db, "SELECT value FROM memory_state_meta WHERE key = 'memory_state_uuid'").pluck().get() as string;
}

function plan(tx: Tx<'memory'>, input: z.infer<typeof planInput>) {
  const { scope, ...owner } = input.owner;
  const task = consolidationTask({
    memoryStateUuid: memoryStateUuid(tx),
    owner,
    scope,
    entries: currentEntries(tx, owner),
    scenes: input.scenes,
    ...(input.runner === undefined ? {} : { runner: input.runner }),
  });
  const inserted = prepared(
    tx.db,
    `INSERT OR IGNORE INTO tasks (task_id, kind, repository_key, worktree_key, task_json, created_at_ms)
     VALUES (?, 'consolidation', ?, ?, ?, ?)`,
  ).run(task.taskId, owner.repositoryKey, owner.worktreeKey, JSON.stringify({ task }), tx.nowMs).changes;
  // The owner's earlier open consolidation tasks rest on revisions that are no longer all current.
  const superseded = prepared(
    tx.db,
    `UPDATE tasks SET status = 'stale', superseded_by = ?, lease_holder = NULL, claim_token = NULL, lease_expires_at_ms = NULL
      WHERE kind = 'consolidation' AND repository_key = ? AND worktree_key = ? AND task_id != ? AND status IN ('pending', 'claimed')`,
  ).run(task.taskId, owner.repositoryKey, owner.worktreeKey, task.taskId).changes;
  const row = readTask(tx, task.taskId)!;
  return { taskId: task.taskId, created: inserted > 0, status: row.status, superseded, task };
}

const submitInput = z
  .object({
    taskId: z.string(),
    claimToken: z.string(),
    runner: z.string().min(1).max(200),
    /** The runner's whole answer, as it gave it. */
    output: z.string(),
  })
  .strict();

export type ConsolidationSubmission =
  | {
      outcome: 'accepted';
      taskId: string;
      operations: number;
      /** Operations left out for a blocking lint finding (never stored), and every finding (masked). */
      blocked: number;
      findings: OperationFinding[];
      replayed?: true;
    }
  | { outcome: 'stale'; taskId: string; reason: string; stale: Array<{ entryId: string; revision: number }> }
  | { outcome: 'lease_lost' | 'conflict'; reason: string }
  | { outcome: 'rejected'; reason: string; attempts: number };

/** Why a well-formed patch does not answer its task, or null. */
function patchProblem(task: ConsolidationTask, patch: ConsolidationPatch, runner: string): string | null {
  if (patch.taskId !== task.taskId) return `the patch answers task ${patch.taskId}, not ${task.taskId}`;
  if (canonicalJson(patch.binding) !== canonicalJson(task.binding))
    return 'the patch does not return the task binding as given';
  const given = new Map(task.entries.map((entry) => [entry.id, entry.revision]));
  const ids = new Set(given.keys());
  for (const [index, operation] of patch.operations.entries()) {
    const problem = checkOperation(operation);
    if (problem) return `operation ${index + 1}: ${problem}`;
    // Doctrine is prose only a model writes, and must cite what it rests on; the built-in runner writes none.
    if (operation.target === 'doctrine' && runner === BUILTIN_CONSOLIDATION_RUNNER)
      return `operation ${index + 1}: the built-in runner writes no doctrine`;
    const content = contentProblem(operation, ids);
    if (content) return `operation ${index + 1}: ${content}`;
    for (const item of operation.basedOn) {
      if (given.get(item.entryId) !== item.revision)
        return `operation ${index + 1} rests on ${item.entryId}@${item.revision}, which the task did not give`;
    }
    if (operation.op === 'retire' && operation.name === operation.supersededBy)
      return `operation ${index + 1} retires ${operation.name} in favour of itself`;
  }
  return null;
}

function submit(tx: Tx<'memory'>, input: z.infer<typeof submitInput>): ConsolidationSubmission {
  const begun = beginSubmission(tx, input.taskId, input.claimToken, input.output);
  if (begun.replay) return begun.replay as ConsolidationSubmission;
  if (begun.refusal) return begun.refusal;
  const { task: row, digest } = begun;
  if (row.kind !== 'consolidation')
    throw new CmError('usage', `Task ${input.taskId} is an ${row.kind} task, not a consolidation task.`);
  const task = (JSON.parse(row.task_json) as StoredTask).task as unknown as ConsolidationTask;
  const parsed = parseRunnerOutput(input.output, consolidationPatchSchema, CONSOLIDATION_FORMATS.patch);
  if (!parsed.ok) return failAttempt(tx, row, parsed.reason);
  const patch = parsed.value as ConsolidationPatch;
  const problem = patchProblem(task, patch, input.runner);
  if (problem) return failAttempt(tx, row, problem);
  // Compare-and-swap on every entry the patch rests on: the revisions now in the projection.
  const now = new Map(currentEntries(tx, task.binding.owner).map((entry) => [entry.id, entry.revision]));
  const stale = staleEntries(patch, now);
  if (stale.length > 0) {
    const reason = `${stale.length} entr${stale.length === 1 ? 'y' : 'ies'} the patch rests on changed since the task was made (${stale
      .slice(0, 5)
      .map((item) => `${item.entryId}@${item.revision}`)
      .join(', ')}${stale.length > 5 ? ', …' : ''}); run memory consolidate again`;
    prepared(
      tx.db,
      "UPDATE tasks SET status = 'stale', last_error = ?, lease_holder = NULL, claim_token = NULL, lease_expires_at_ms = NULL WHERE task_id = ?",
    ).run(reason, row.task_id);
    return { outcome: 'stale', taskId: row.task_id, reason, stale };
  }
  // The memory lint, as on an entry's text: an operation with a blocking finding is not kept.
  const screened = screenOperations(patch.operations);
  const kept: ConsolidationPatch = { ...patch, operations: screened.kept };
  const outcome = {
    outcome: 'accepted' as const,
    taskId: row.task_id,
    operations: kept.operations.length,
    blocked: screened.blocked,
    findings: screened.findings,
  };
  acceptSubmission(tx, row, digest, outcome);
  // A patch of no operation answers its task (done), but there is nothing for a person to review.
  if (patch.operations.length === 0) return outcome;
  prepared(
    tx.db,
    `INSERT INTO consolidation_patches (task_id, repository_key, worktree_key, scope, runner, patch_json, operations, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.task_id,
    task.binding.owner.repositoryKey,
    task.binding.owner.worktreeKey,
    task.binding.scope,
    input.runner,
    canonicalJson(kept),
    kept.operations.length,
    tx.nowMs,
  );
  return outcome;
}

export const consolidationCommands = {
  memoryPlanConsolidation: memoryCommand({
    schema: planInput,
    run: (tx, _context, input) => plan(tx, input),
  }),
  memorySubmitConsolidation: memoryCommand({
    schema: submitInput,
    run: (tx, _context, input) => submit(tx, input),
  }),
};
