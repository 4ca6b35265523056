// Adjudication on memory-state (seed 004 §2, tx-adjudication-submit): a task carries the drafts
// awaiting a decision, the recall set of each and the pool those sets came from. Its submission
// runs in one BEGIN IMMEDIATE transaction that re-runs recall, compares the result-set digest and
// every pool item's revision, and only then applies store / skip / update / merge. If anything
// moved, nothing is applied: the task becomes stale and a new task is created from the current
// state. Update and merge supersede with provenance; nothing is deleted; a draft never mutates a
// sibling draft of its own batch.
import { z } from 'zod';
import { sha256Hex } from '../../ground/digests.js';
import { memoryCommand } from '../command.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import { canonicalJson } from '../../ground/canonical-json.js';
import {
  adjudicationResult,
  ANALYZER_VERSION,
  CONTRACT_SCHEMA_VERSION,
  FORMATS,
  memoryDigest,
  parseRunnerOutput,
  POOL_SUMMARY_MAX_CHARS,
  PROMPT_VERSION,
  type AdjudicationTask,
  type Draft,
} from '../../memory/contracts.js';
import { recall, type Owner, type RecallItem } from './recall.js';
import { indexRecallRow, unindexRecallRow } from './recall-terms.js';
import { RECALL_ALGORITHM } from '../../memory/rrf.js';
import { foldExactRepeats } from './exact-repeat.js';
import { foldInto, recordProvenance, settleDecided } from './restatement-store.js';
import { acceptSubmission, beginSubmission, failAttempt, ownerInput } from './task-store.js';
import { restates, survivorOrder } from '../../memory/adjudication-rules.js';
import { recordReteach } from './usage-store.js';

/** Drafts one adjudication task decides (seed 004 §9: 8 chunks × 8 drafts). */
export const ADJUDICATION_DRAFTS_MAX = 64;

interface DraftRow {
  candidate_id: string;
  rowid: number;
  revision: number;
  payload_json: string;
  chunk_ref: string;
}

const generationOf = (db: Db, table: 'candidate_projection' | 'approved_projection', owner: Owner) =>
  (
    db
      .prepare(`SELECT generation FROM ${table} WHERE repository_key = ? AND worktree_key = ?`)
      .get(owner.repositoryKey, owner.worktreeKey) as { generation: number } | undefined
  )?.generation ?? 0;

function pendingDrafts(db: Db, owner: Owner, ids?: readonly string[]): DraftRow[] {
  const rows = db
    .prepare(
      `SELECT candidate_id, rowid, revision, payload_json, chunk_ref FROM candidates
       WHERE repository_key = ? AND worktree_key = ? AND status = 'draft' AND adjudication = 'pending'
       ORDER BY created_at_ms, candidate_id`,
    )
    .all(owner.repositoryKey, owner.worktreeKey) as DraftRow[];
  const chosen = ids ? rows.filter((row) => ids.includes(row.candidate_id)) : rows;
  return chosen.slice(0, ADJUDICATION_DRAFTS_MAX);
}

const draftOf = (row: DraftRow): Draft => {
  const { content, type, priority, confidence, scene, statements } = JSON.parse(row.payload_json) as Draft;
  return { content, type, priority, confidence, scene, statements };
};

interface RecallSnapshot {
  recallSets: AdjudicationTask['recallSets'];
  pool: AdjudicationTask['pool'];
  poolItemRevisions: AdjudicationTask['binding']['poolItemRevisions'];
  recallQueryDigest: string;
  resultSetDigest: string;
}

/** Recall of every draft against the pool as it is now (drafts awaiting a decision are never in it). */
function snapshot(db: Db, owner: Owner, drafts: readonly DraftRow[]): RecallSnapshot {
  const pool = new Map<string, RecallItem>();
  const recallSets: RecallSnapshot['recallSets'] = [];
  const queryDigests: string[] = [];
  const resultDigests: string[] = [];
  for (const row of drafts) {
    const result = recall(db, owner, draftOf(row).content);
    queryDigests.push(result.recallQueryDigest);
    resultDigests.push(result.resultSetDigest);
    recallSets.push({
      draftRef: row.candidate_id,
      ordered: result.items.map((item) => ({ rank: item.rank, sourceKind: item.sourceKind, id: item.id })),
    });
    for (const item of result.items) pool.set(`${item.sourceKind}\0${item.id}`, item);
  }
  const items = [...pool.values()].sort((a, b) => (a.sourceKind + a.id < b.sourceKind + b.id ? -1 : 1));
  return {
    recallSets,
    pool: items.map((item) => ({
      sourceKind: item.sourceKind,
      id: item.id,
      revision: item.revision,
      contentDigest: item.contentDigest,
      state: item.state,
      summary: item.content.slice(0, POOL_SUMMARY_MAX_CHARS),
    })),
    poolItemRevisions: items.map((item) => ({ sourceKind: item.sourceKind, id: item.id, revision: item.revision })),
    recallQueryDigest: memoryDigest(queryDigests),
    resultSetDigest: memoryDigest(resultDigests),
  };
}

/** Builds and stores an adjudication task for the given drafts (all pending ones of the owner by default). */
function createTask(
  tx: Tx<'memory'>,
  memoryStateUuid: string,
  owner: Owner,
  runId: string | null,
  ids?: readonly string[],
): string | null {
  const drafts = pendingDrafts(tx.db, owner, ids);
  if (drafts.length === 0) return null;
  const snap = snapshot(tx.db, owner, drafts);
  const draftBatchDigest = memoryDigest(drafts.map((row) => [row.candidate_id, row.revision]));
  const candidateGeneration = generationOf(tx.db, 'candidate_projection', owner);
  const taskId = `adj-${sha256Hex(`${draftBatchDigest}\0${snap.resultSetDigest}\0${candidateGeneration}`).slice(0, 24)}`;
  const task: AdjudicationTask = {
    format: FORMATS.adjudicationTask,
    taskId,
    binding: {
      memoryStateUuid,
      owner,
      draftBatchDigest,
      approvedProjection: {
        generation: generationOf(tx.db, 'approved_projection', owner),
        analyzerVersion: ANALYZER_VERSION,
      },
      candidateProjection: { generation: candidateGeneration, analyzerVersion: ANALYZER_VERSION },
      recallAlgorithmVersion: RECALL_ALGORITHM,
      recallQueryDigest: snap.recallQueryDigest,
      resultSetDigest: snap.resultSetDigest,
      poolItemRevisions: snap.poolItemRevisions,
      promptVersion: PROMPT_VERSION,
      schemaVersion: CONTRACT_SCHEMA_VERSION,
    },
    drafts: drafts.map((row) => ({ ...draftOf(row), candidateId: row.candidate_id })),
    recallSets: snap.recallSets,
    pool: snap.pool,
    contract: { resultSchema: FORMATS.adjudicationResult, promptVersion: PROMPT_VERSION },
  };
  prepared(
    tx.db,
    `INSERT INTO tasks (task_id, kind, run_id, repository_key, worktree_key, draft_batch_ref, task_json, created_at_ms)
    VALUES (?, 'adjudication', ?, ?, ?, ?, ?, ?) ON CONFLICT (task_id) DO NOTHING`,
  ).run(taskId, runId, owner.repositoryKey, owner.worktreeKey, draftBatchDigest, JSON.stringify({ task }), tx.nowMs);
  return taskId;
}

const planInput = z
  .object({
    owner: ownerInput,
    runId: z.string().nullable(),
    candidateIds: z.array(z.string()).max(ADJUDICATION_DRAFTS_MAX).optional(),
  })
  .strict();

/**
 * The open adjudication task of the owner, or a new one over its pending drafts; null when none
 * waits. `folded`: drafts decided on the way, as repeats of the pool (counted as skipped).
 */
function planAdjudication(
  tx: Tx<'memory'>,
  memoryStateUuid: string,
  input: z.infer<typeof planInput>,
): { taskId: string | null; folded: number } {
  const open = tx.db
    .prepare(
      "SELECT task_id AS taskId FROM tasks WHERE kind = 'adjudication' AND repository_key = ? AND worktree_key = ? AND status IN ('pending', 'claimed') ORDER BY created_at_ms LIMIT 1",
    )
    .get(input.owner.repositoryKey, input.owner.worktreeKey) as { taskId: string } | undefined;
  if (open) return { ...open, folded: 0 };
  // No task holds a pending draft now: word-for-word repeats of the pool fold first (exact-repeat.ts).
  const folded = foldExactRepeats(tx, input.owner, input.candidateIds).length;
  return { taskId: createTask(tx, memoryStateUuid, input.owner, input.runId, input.candidateIds), folded };
}

export type AdjudicationOutcome =
  | {
      outcome: 'accepted';
      taskId: string;
      stored: number;
      skipped: number;
      updated: number;
      merged: number;
      replayed: boolean;
    }
  | { outcome: 'stale'; taskId: string; reason: string; newTaskId: string | null };

const submitInput = z.object({ taskId: z.string(), claimToken: z.string(), output: z.string() }).strict();

function submitAdjudication(tx: Tx<'memory'>, memoryStateUuid: string, input: z.infer<typeof submitInput>) {
  const begun = beginSubmission(tx, input.taskId, input.claimToken, input.output);
  if (begun.replay) return begun.replay as AdjudicationOutcome;
  if (begun.refusal) return begun.refusal;
  const { task, digest } = begun;
  const stored = (JSON.parse(task.task_json) as { task: AdjudicationTask }).task;
  const parsed = parseRunnerOutput(input.output, adjudicationResult, FORMATS.adjudicationResult);
  if (!parsed.ok) return failAttempt(tx, task, parsed.reason);
  const result = parsed.value;
  if (result.taskId !== task.task_id)
    return failAttempt(tx, task, `the result names task ${result.taskId}, not ${task.task_id}`);
  if (canonicalJson(result.binding) !== canonicalJson(stored.binding))
    return failAttempt(tx, task, "the result's binding is not the task's binding, returned unchanged");

  const draftIds = stored.drafts.map((d) => d.candidateId);
  const siblings = new Set(draftIds);
  const pool = new Map(stored.pool.map((item) => [item.id, item]));
  const decisions = new Map(result.adjudications.map((a) => [a.draftRef, a]));
  if (
    decisions.size !== result.adjudications.length ||
    draftIds.some((id) => !decisions.has(id)) ||
    decisions.size !== draftIds.length
  ) {
    return failAttempt(tx, task, 'the result must decide every draft of the task exactly once');
  }
  for (const a of result.adjudications) {
    const target = a.targetIds[0];
    if (a.action === 'store') {
      if (target !== undefined) return failAttempt(tx, task, `draft ${a.draftRef}: store takes no target`);
      continue;
    }
    if (target === undefined) return failAttempt(tx, task, `draft ${a.draftRef}: ${a.action} needs one target`);
    if (siblings.has(target)) {
      // A duplicate inside the batch converges on a sibling by skip; a sibling is never mutated.
      if (a.action !== 'skip')
        return failAttempt(
          tx,
          task,
          `draft ${a.draftRef}: ${a.action} targets ${target}, a draft of the same batch; only existing memory can be updated or merged`,
        );
      if (target === a.draftRef || decisions.get(target)!.action === 'skip')
        return failAttempt(tx, task, `draft ${a.draftRef}: skip must converge on a draft that is kept`);
      continue;
    }
    if (!pool.has(target))
      return failAttempt(tx, task, `draft ${a.draftRef}: target ${target} is not in the task's pool`);
  }

  // Compare-and-swap: the pool must be exactly what the runner saw.
  const owner = stored.binding.owner;
  const current = pendingDrafts(tx.db, owner, draftIds);
  const moved =
    current.length !== draftIds.length
      ? 'a draft of the task was decided or changed meanwhile'
      : staleReason(tx.db, owner, current, stored);
  if (moved !== null) {
    prepared(
      tx.db,
      "UPDATE tasks SET status = 'stale', last_error = ?, lease_expires_at_ms = NULL WHERE task_id = ?",
    ).run(moved, task.task_id);
    const remaining = pendingDrafts(tx.db, owner, draftIds).map((row) => row.candidate_id);
    const newTaskId = remaining.length > 0 ? createTask(tx, memoryStateUuid, owner, task.run_id, remaining) : null;
    prepared(tx.db, 'UPDATE tasks SET superseded_by = ? WHERE task_id = ?').run(newTaskId, task.task_id);
    return { outcome: 'stale' as const, taskId: task.task_id, reason: moved, newTaskId };
  }

  const counts = { stored: 0, skipped: 0, updated: 0, merged: 0 };
  const rows = new Map(current.map((row) => [row.candidate_id, row]));
  const folded = new Map<string, string>();
  // Decisions against existing memory first, then skips onto a sibling of the batch (which is decided by then).
  const onSibling = (a: Decision) => siblings.has(a.targetIds[0] ?? '');
  for (const a of [...result.adjudications.filter((a) => !onSibling(a)), ...result.adjudications.filter(onSibling)]) {
    const kind = onSibling(a) ? 'candidate' : pool.get(a.targetIds[0] ?? '')?.sourceKind;
    applyDecision(tx, task.task_id, rows.get(a.draftRef)!, a, kind, counts, folded, siblings, owner);
  }
  convergeBatch(tx, task.task_id, draftIds, counts, folded);
  settleDecided(tx.db, owner, draftIds);
  const outcome = { outcome: 'accepted' as const, taskId: task.task_id, ...counts };
  acceptSubmission(tx, task, digest, outcome);
  return { ...outcome, replayed: false };
}

function staleReason(db: Db, owner: Owner, drafts: DraftRow[], stored: AdjudicationTask): string | null {
  const snap = snapshot(db, owner, drafts);
  if (snap.resultSetDigest !== stored.binding.resultSetDigest)
    return 'recall finds other items now than when the task was made (the pool changed)';
  if (canonicalJson(snap.poolItemRevisions) !== canonicalJson(stored.binding.poolItemRevisions))
    return 'an item of the pool has a new revision';
  return null;
}

type Decision = z.infer<typeof adjudicationResult>['adjudications'][number];
type Counts = Record<'stored' | 'skipped' | 'updated' | 'merged', number>;

/** Where a candidate folded in this transaction went (followed to the end of the chain). */
const survivorOf = (folded: ReadonlyMap<string, string>, id: string): string => {
  let current = id;
  for (let hops = 0; folded.has(current) && hops <= folded.size; hops++) current = folded.get(current)!;
  return current;
};

const contentOf = (db: Db, candidateId: string) =>
  prepared(db, "SELECT json_extract(payload_json, '$.content') FROM candidates WHERE candidate_id = ?")
    .pluck()
    .get(candidateId) as string;

const revisionOf = (db: Db, candidateId: string) =>
  prepared(db, 'SELECT revision FROM candidates WHERE candidate_id = ?').pluck().get(candidateId) as number;

/** The draft loses to `winner`, a candidate that says the same: it is superseded and its turns become the winner's evidence. */
function foldDraft(
  tx: Tx<'memory'>,
  taskId: string,
  row: DraftRow,
  winner: string,
  counts: Counts,
  folded: Map<string, string>,
) {
  foldInto(tx, row.candidate_id, winner, 'skip');
  recordProvenance(tx, row.candidate_id, winner, 'skip', taskId, row.revision);
  folded.set(row.candidate_id, winner);
  counts.skipped += 1;
}

function applyDecision(
  tx: Tx<'memory'>,
  taskId: string,
  row: DraftRow,
  a: Decision,
  targetKind: string | undefined,
  counts: Counts,
  folded: Map<string, string>,
  siblings: ReadonlySet<string>,
  owner: Owner,
): void {
  const { db, nowMs } = tx;
  const draftContent = (JSON.parse(row.payload_json) as Draft).content;
  // A candidate target folded earlier in this transaction is now its survivor.
  const target =
    a.targetIds[0] !== undefined && targetKind === 'candidate' ? survivorOf(folded, a.targetIds[0]) : a.targetIds[0];
  if (a.action === 'skip' && targetKind !== 'candidate') {
    // Said already by an approved entry: the draft is kept, superseded by it (a file gains no evidence).
    const targetRef = `approved:${target}`;
    db.prepare(
      "UPDATE candidates SET status = 'superseded', superseded_by = ?, adjudication = 'done', decision = 'skip', updated_at_ms = ? WHERE candidate_id = ?",
    ).run(targetRef, nowMs, row.candidate_id);
    recordProvenance(tx, row.candidate_id, targetRef, 'skip', taskId, row.revision);
    // The user said again what the entry says: the entry did not do its job (usage-store.ts).
    if (target !== undefined) recordReteach(tx, row.candidate_id, target, owner);
    counts.skipped += 1;
    return;
  }
  // Two candidates that say the same thing: the survivor is chosen by the fixed rule, never by
  // which came first, so a restatement and its original converge on one candidate in any order.
  const restatement = (a.action === 'skip' || a.action === 'merge') && targetKind === 'candidate';
  if (restatement && survivorOrder(draftContent, contentOf(db, target!)) >= 0) {
    foldDraft(tx, taskId, row, target!, counts, folded);
    return;
  }
  let payload = JSON.parse(row.payload_json) as Draft & Record<string, unknown>;
  let revision = row.revision;
  if (a.mergedFields) {
    payload = { ...payload, ...a.mergedFields };
    revision += 1;
  }
  const action = restatement ? 'merge' : a.action;
  db.prepare(
    "UPDATE candidates SET adjudication = 'done', decision = ?, revision = ?, payload_json = ?, content_digest = ?, updated_at_ms = ? WHERE candidate_id = ?",
  ).run(action, revision, JSON.stringify(payload), sha256Hex(payload.content), nowMs, row.candidate_id);
  indexRecallRow(db, 'candidate', row.rowid, payload.content);
  if ((action === 'update' || action === 'merge') && target !== undefined) {
    if (targetKind === 'candidate') {
      const fromRevision = revisionOf(db, target);
      if (action === 'merge') {
        // The draft says more: it supersedes the target and cites the target's turns too.
        if (siblings.has(target)) {
          // A sibling decided earlier in this batch: it is counted as skipped now, not as what it was.
          const was = prepared(db, 'SELECT decision FROM candidates WHERE candidate_id = ?').pluck().get(target);
          counts[was === 'update' ? 'updated' : was === 'merge' ? 'merged' : 'stored'] -= 1;
          counts.skipped += 1;
        }
        foldInto(tx, target, row.candidate_id, 'skip', { sameBatch: siblings.has(target) });
        folded.set(target, row.candidate_id);
      } else {
        const old = db
          .prepare(
            "SELECT rowid, json_extract(payload_json, '$.content') AS content FROM candidates WHERE candidate_id = ?",
          )
          .get(target) as { rowid: number; content: string };
        db.prepare(
          "UPDATE candidates SET status = 'superseded', superseded_by = ?, revision = revision + 1, updated_at_ms = ? WHERE candidate_id = ?",
        ).run(row.candidate_id, nowMs, target);
        unindexRecallRow(db, 'candidate', old.rowid, old.content);
      }
      recordProvenance(tx, row.candidate_id, target, action, taskId, fromRevision);
    } else {
      // An approved entry changes only by a person's promotion; the draft records what it revises.
      recordProvenance(tx, row.candidate_id, `approved:${target}`, action, taskId, 0);
      // A merge says all the entry says and more: the entry was re-taught too. An update says
      // otherwise: a correction, not a repetition.
      if (action === 'merge') recordReteach(tx, row.candidate_id, target, owner);
    }
  }
  counts[action === 'store' ? 'stored' : action === 'update' ? 'updated' : 'merged'] += 1;
}

/**
 * Drafts of one batch that restate each other converge on one candidate whatever the runner
 * decided about them (a runner may only skip onto a sibling, so a longer sibling after a shorter
 * one would otherwise stand beside it): the kept drafts, best survivor first by the fixed rule,
 * each folds the later ones that restate it.
 */
function convergeBatch(
  tx: Tx<'memory'>,
  taskId: string,
  draftIds: readonly string[],
  counts: Counts,
  folded: Map<string, string>,
) {
  const kept = draftIds
    .filter((id) => !folded.has(id))
    .map((id) => ({
      id,
      row: prepared(
        tx.db,
        "SELECT revision, decision, json_extract(payload_json, '$.content') AS content FROM candidates WHERE candidate_id = ? AND status = 'draft' AND adjudication = 'done'",
      ).get(id) as { revision: number; decision: string; content: string } | undefined,
    }))
    .filter((entry): entry is { id: string; row: { revision: number; decision: string; content: string } } =>
      Boolean(entry.row),
    )
    .sort((x, y) => survivorOrder(x.row.content, y.row.content) || (x.id < y.id ? -1 : 1));
  for (const [index, winner] of kept.entries()) {
    if (folded.has(winner.id)) continue;
    for (const loser of kept.slice(index + 1)) {
      if (folded.has(loser.id) || !restates(winner.row.content, loser.row.content)) continue;
      foldInto(tx, loser.id, winner.id, 'skip', { sameBatch: true });
      recordProvenance(tx, loser.id, winner.id, 'skip', taskId, loser.row.revision);
      folded.set(loser.id, winner.id);
      const was = loser.row.decision === 'store' ? 'stored' : loser.row.decision === 'update' ? 'updated' : 'merged';
      counts[was] -= 1;
      counts.skipped += 1;
    }
  }
}

export const adjudicationCommands = {
  memoryPlanAdjudication: memoryCommand({
    replayable: true,
    schema: planInput,
    run: (tx, context, input) => planAdjudication(tx, context.memoryStateUuid, input),
  }),
  memorySubmitAdjudication: memoryCommand({
    replayable: true,
    schema: submitInput,
    run: (tx, context, input) => submitAdjudication(tx, context.memoryStateUuid, input),
  }),
};
