// The exact-repeat step of adjudication: a pending draft whose content is, character for character,
// the content of a candidate already in the owner's dedup pool folds into that candidate before any
// recall is run or any runner shown it. It is the decision adjudication reaches for it anyway: the
// built-in rules skip a draft onto an equal text, and a draft that restates a candidate folds into
// the survivor, which for the very same text is the candidate already there (survivorOrder). So a
// rule said again in every session costs an index probe, not two recalls and a runner's answer; the
// candidate cites the new turns too (restatement-store.ts).
//
// The step stands aside, leaving the draft to the full path, wherever that path could decide
// otherwise: two pooled candidates with that content, an approved entry of the owner's scopes that
// says the same after normalisation (recall would offer it beside the candidate), or content longer
// than the pool summary adjudication compares with. A pooled candidate that says the same in other
// characters is not looked for: the rules fold a restatement when it arrives, so beside an equal
// candidate there is none under the built-in runner.
import { sha256Hex } from '../../ground/digests.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import { normalizeStatement } from '../../memory/adjudication-rules.js';
import { POOL_SUMMARY_MAX_CHARS } from '../../memory/contracts.js';
import type { Owner } from './recall.js';
import { USER_SCOPE } from '../../effects/repository.js';
import { foldInto, recordProvenance, settleDecided } from './restatement-store.js';

interface PendingRow {
  id: string;
  revision: number;
  taskId: string;
  content: string;
}

/** Normalised summaries of the approved entries recall looks at for this owner (its worktree's and the user scope's). */
function approvedTexts(db: Db, owner: Owner): Set<string> {
  const bodies = prepared(
    db,
    `SELECT body_text FROM approved_entries
     WHERE (repository_key = ? AND worktree_key = ?) OR (repository_key = ? AND worktree_key = ?)`,
  )
    .pluck()
    .all(owner.repositoryKey, owner.worktreeKey, USER_SCOPE.repositoryKey, USER_SCOPE.worktreeKey) as string[];
  return new Set(bodies.map((body) => normalizeStatement(body.slice(0, POOL_SUMMARY_MAX_CHARS))));
}

/**
 * Folds the owner's pending drafts (those of `ids` when given) that repeat a pooled candidate word
 * for word; returns the ids folded. Runs where no adjudication task holds a pending draft.
 */
export function foldExactRepeats(tx: Tx<'memory'>, owner: Owner, ids?: readonly string[]): string[] {
  const { db } = tx;
  const pending = prepared(
    db,
    `SELECT candidate_id AS id, revision, task_id AS taskId, json_extract(payload_json, '$.content') AS content
     FROM candidates WHERE repository_key = ? AND worktree_key = ? AND status = 'draft' AND adjudication = 'pending'
     ORDER BY created_at_ms, candidate_id`,
  ).all(owner.repositoryKey, owner.worktreeKey) as PendingRow[];
  const chosen = ids ? pending.filter((row) => ids.includes(row.id)) : pending;
  // The pool's candidates with this very content (candidates_pooled_by_content).
  const twins = prepared(
    db,
    `SELECT candidate_id AS id, json_extract(payload_json, '$.content') AS content FROM candidates
     WHERE repository_key = ? AND worktree_key = ? AND content_digest = ?
       AND status = 'draft' AND adjudication = 'done' AND decision IN ('store', 'update', 'merge')
     LIMIT 2`,
  );
  let approved: Set<string> | undefined;
  const folded: string[] = [];
  for (const row of chosen) {
    if (row.content.length > POOL_SUMMARY_MAX_CHARS) continue;
    const found = twins.all(owner.repositoryKey, owner.worktreeKey, sha256Hex(row.content)) as Array<{
      id: string;
      content: string;
    }>;
    if (found.length !== 1 || found[0]!.content !== row.content) continue;
    approved ??= approvedTexts(db, owner);
    if (approved.has(normalizeStatement(row.content))) continue;
    foldInto(tx, row.id, found[0]!.id, 'skip');
    recordProvenance(tx, row.id, found[0]!.id, 'skip', row.taskId, row.revision);
    folded.push(row.id);
  }
  if (folded.length > 0) settleDecided(db, owner, folded);
  return folded;
}
