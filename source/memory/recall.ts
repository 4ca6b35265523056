// Recall (`recall-rrf@1`): what memory already holds that a text may duplicate. Two BM25 lists —
// approved entries (the worktree's and the user scope's) and live candidates of the same owner —
// of 3·k each, fused by reciprocal rank fusion. Both query by the text's rarest terms only
// (recall-terms.ts), so the rows FTS5 scores stay bounded however common the text's words are. The query and the result set have digests: adjudication re-runs recall inside its
// transaction and applies only when the digest and every item's revision are unchanged.
import { prepared, type Db } from '../store/database.js';
import { ownedMatch, recallFtsQuery } from './recall-terms.js';
import { USER_SCOPE } from './repository.js';
import { fuseRrf, recallQueryDigest, resultSetDigest } from './rrf.js';

/** Items a recall returns: enough neighbours for a dedup decision, few enough to show a runner. */
export const RECALL_K = 10;

export interface Owner {
  repositoryKey: string;
  worktreeKey: string;
}

export interface RecallItem {
  rank: number;
  sourceKind: 'approved' | 'candidate';
  id: string;
  revision: number;
  content: string;
  contentDigest: string;
  state: string;
}

export interface RecallResult {
  recallQueryDigest: string;
  resultSetDigest: string;
  items: RecallItem[];
}

interface Row {
  id: string;
  revision: number;
  content: string;
  contentDigest: string;
  state: string;
}

/**
 * The owners' best `limit` rows of one recall index, chosen inside FTS5 (bm25 over the text
 * column only; ties by rowid), then joined: the tables are read for those rows alone.
 */
const bestRows = (index: 'approved_fts' | 'candidate_fts') =>
  `WITH hits AS MATERIALIZED (
     SELECT rowid, bm25(${index}, 1.0, 0.0) AS score FROM ${index} WHERE ${index} MATCH ? ORDER BY score, rowid LIMIT ?
   )`;

/** Approved entries a session reads: its worktree's and the user scope's (one owner when they are the same). */
function approvedList(db: Db, owner: Owner, terms: string, limit: number): Row[] {
  const owners = owner.worktreeKey === USER_SCOPE.worktreeKey ? [owner] : [owner, USER_SCOPE];
  return prepared(
    db,
    `${bestRows('approved_fts')}
     SELECT a.entry_id AS id, a.revision, a.body_text AS content, a.content_digest AS contentDigest, a.status AS state
     FROM hits JOIN approved_entries a ON a.rowid = hits.rowid
     ORDER BY hits.score, a.scope, a.entry_id`,
  ).all(ownedMatch(terms, owners), limit) as Row[];
}

function candidateList(db: Db, owner: Owner, terms: string, limit: number): Row[] {
  return prepared(
    db,
    `${bestRows('candidate_fts')}
     SELECT c.candidate_id AS id, c.revision, json_extract(c.payload_json, '$.content') AS content, c.content_digest AS contentDigest, c.status AS state
     FROM hits JOIN candidates c ON c.rowid = hits.rowid
     ORDER BY hits.score, c.candidate_id`,
  ).all(ownedMatch(terms, [owner]), limit) as Row[];
}

export function recall(db: Db, owner: Owner, text: string, k = RECALL_K): RecallResult {
  const match = recallFtsQuery(db, text);
  const queryDigest = recallQueryDigest({ ftsQuery: match, perListLimit: 3 * k, limit: k });
  if (match === null) return { recallQueryDigest: queryDigest, resultSetDigest: resultSetDigest([]), items: [] };
  const approved = approvedList(db, owner, match, 3 * k).map(
    (row): Omit<RecallItem, 'rank'> => ({ ...row, sourceKind: 'approved' }),
  );
  const candidates = candidateList(db, owner, match, 3 * k).map(
    (row): Omit<RecallItem, 'rank'> => ({ ...row, sourceKind: 'candidate' }),
  );
  const byKey = new Map([...approved, ...candidates].map((row) => [`${row.sourceKind}\0${row.id}`, row]));
  const items = fuseRrf([approved, candidates])
    .slice(0, k)
    .map((fused) => ({ ...byKey.get(`${fused.sourceKind}\0${fused.id}`)!, rank: fused.rank }));
  return { recallQueryDigest: queryDigest, resultSetDigest: resultSetDigest(items), items };
}
