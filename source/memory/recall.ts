// Recall (`recall-rrf@1`): what memory already holds that a text may duplicate. Two BM25 lists —
// approved entries (the worktree's and the user scope's) and live candidates of the same owner —
// of 3·k each, fused by reciprocal rank fusion. Both query by the text's rarest terms only
// (recall-terms.ts), so the rows FTS5 scores stay bounded however common the text's words are. The query and the result set have digests: adjudication re-runs recall inside its
// transaction and applies only when the digest and every item's revision are unchanged.
import { prepared, type Db } from '../store/database.js';
import { recallFtsQuery } from './recall-terms.js';
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
 * FTS rows a list looks at first, best by bm25 over every owner: a few times the rows it keeps,
 * so that the tables are read for those alone. Only when fewer than `limit` of them are the
 * owner's, and FTS5 matched more, does the list read every match (bounded by recall-terms).
 * CROSS JOIN keeps the FTS rows the outer loop: with the owner index, SQLite would otherwise
 * walk every entry of the owner and probe the hits.
 */
const FIRST_LOOK_FACTOR = 4;

interface ListQuery {
  /** The table and its alias. */
  from: string;
  fts: 'approved_fts' | 'candidate_fts';
  select: string;
  owned: string;
  order: string;
}

const APPROVED: ListQuery = {
  fts: 'approved_fts',
  from: 'approved_entries a',
  select: 'a.entry_id AS id, a.revision, a.body_text AS content, a.content_digest AS contentDigest, a.status AS state',
  // The worktree's entries and the user scope's (the same owner for a session outside git).
  owned: '((a.repository_key = ? AND a.worktree_key = ?) OR (a.repository_key = ? AND a.worktree_key = ?))',
  order: 'a.scope, a.entry_id',
};

const CANDIDATES: ListQuery = {
  fts: 'candidate_fts',
  from: 'candidates c',
  select:
    "c.candidate_id AS id, c.revision, json_extract(c.payload_json, '$.content') AS content, c.content_digest AS contentDigest, c.status AS state",
  owned: '(c.repository_key = ? AND c.worktree_key = ?)',
  order: 'c.candidate_id',
};

/** The owner's best `limit` rows of one index by bm25, ties by the list's own order. */
function list(db: Db, query: ListQuery, ownerArgs: string[], match: string, limit: number): Row[] {
  const alias = query.from.split(' ')[1]!;
  const firstLook = prepared(
    db,
    `WITH hits AS MATERIALIZED (
       SELECT rowid, bm25(${query.fts}) AS score FROM ${query.fts} WHERE ${query.fts} MATCH ? ORDER BY score LIMIT ?
     )
     SELECT ${query.select} FROM hits CROSS JOIN ${query.from} ON ${alias}.rowid = hits.rowid
     WHERE ${query.owned} ORDER BY hits.score, ${query.order} LIMIT ?`,
  ).all(match, FIRST_LOOK_FACTOR * limit, ...ownerArgs, limit) as Row[];
  if (firstLook.length === limit) return firstLook;
  const matched = prepared(db, `SELECT count(*) FROM (SELECT 1 FROM ${query.fts} WHERE ${query.fts} MATCH ? LIMIT ?)`)
    .pluck()
    .get(match, FIRST_LOOK_FACTOR * limit) as number;
  if (matched < FIRST_LOOK_FACTOR * limit) return firstLook;
  return prepared(
    db,
    `SELECT ${query.select} FROM ${query.fts} CROSS JOIN ${query.from} ON ${alias}.rowid = ${query.fts}.rowid
     WHERE ${query.fts} MATCH ? AND ${query.owned} ORDER BY bm25(${query.fts}), ${query.order} LIMIT ?`,
  ).all(match, ...ownerArgs, limit) as Row[];
}

export function recall(db: Db, owner: Owner, text: string, k = RECALL_K): RecallResult {
  const match = recallFtsQuery(db, text);
  const queryDigest = recallQueryDigest({ ftsQuery: match, perListLimit: 3 * k, limit: k });
  if (match === null) return { recallQueryDigest: queryDigest, resultSetDigest: resultSetDigest([]), items: [] };
  const approvedOwners = [owner.repositoryKey, owner.worktreeKey, USER_SCOPE.repositoryKey, USER_SCOPE.worktreeKey];
  const approved = list(db, APPROVED, approvedOwners, match, 3 * k).map(
    (row): Omit<RecallItem, 'rank'> => ({ ...row, sourceKind: 'approved' }),
  );
  const candidates = list(db, CANDIDATES, [owner.repositoryKey, owner.worktreeKey], match, 3 * k).map(
    (row): Omit<RecallItem, 'rank'> => ({ ...row, sourceKind: 'candidate' }),
  );
  const byKey = new Map([...approved, ...candidates].map((row) => [`${row.sourceKind}\0${row.id}`, row]));
  const items = fuseRrf([approved, candidates])
    .slice(0, k)
    .map((fused) => ({ ...byKey.get(`${fused.sourceKind}\0${fused.id}`)!, rank: fused.rank }));
  return { recallQueryDigest: queryDigest, resultSetDigest: resultSetDigest(items), items };
}
