// Recall (`recall-rrf@1`): what memory already holds that a text may duplicate. Two BM25 lists —
// approved entries (the worktree's and the user scope's) and live candidates of the same owner —
// of 3·k each, fused by reciprocal rank fusion. Both query by the text's rarest terms only
// (recall-terms.ts), so the rows FTS5 scores stay bounded however common the text's words are. The query and the result set have digests: adjudication re-runs recall inside its
// transaction and applies only when the digest and every item's revision are unchanged.
import { prepared, type Db } from '../database.js';
import { recallFtsQuery } from './recall-terms.js';
import { USER_SCOPE } from '../../effects/repository.js';
import { fuseRrf, recallQueryDigest, resultSetDigest } from '../../memory/rrf.js';

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

/** A listed row; its content is read for the fused items only (a candidate's is parsed out of its JSON). */
interface Row {
  id: string;
  rowid: number;
  revision: number;
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
  /** The content of one row by rowid. */
  content: string;
  owned: string;
  order: string;
}

const APPROVED: ListQuery = {
  fts: 'approved_fts',
  from: 'approved_entries a',
  select: 'a.entry_id AS id, a.rowid, a.revision, a.content_digest AS contentDigest, a.status AS state',
  content: 'SELECT body_text AS content FROM approved_entries WHERE rowid = ?',
  // The worktree's entries and the user scope's (the same owner for a session outside git).
  owned: '((a.repository_key = ? AND a.worktree_key = ?) OR (a.repository_key = ? AND a.worktree_key = ?))',
  order: 'a.scope, a.entry_id',
};

const CANDIDATES: ListQuery = {
  fts: 'candidate_fts',
  from: 'candidates c',
  select: 'c.candidate_id AS id, c.rowid, c.revision, c.content_digest AS contentDigest, c.status AS state',
  content: "SELECT json_extract(payload_json, '$.content') AS content FROM candidates WHERE rowid = ?",
  owned: '(c.repository_key = ? AND c.worktree_key = ?)',
  order: 'c.candidate_id',
};

/** The owner's best `limit` rows of one index by bm25, ties by the list's own order. */
function list(db: Db, query: ListQuery, ownerArgs: string[], match: string, limit: number): Row[] {
  const alias = query.from.split(' ')[1]!;
  const look = FIRST_LOOK_FACTOR * limit;
  // Every hit of the first look says whether it is the owner's: fewer hits than looked for means
  // FTS5 matched no more, and the owner's rows among them are all there are (no second query).
  // LEFT JOIN: a hit counts even if its row were gone (the outer loop stays the hits, as CROSS JOIN).
  const hits = prepared(
    db,
    `WITH hits AS MATERIALIZED (
       SELECT rowid, bm25(${query.fts}) AS score FROM ${query.fts} WHERE ${query.fts} MATCH ? ORDER BY score LIMIT ?
     )
     SELECT ${query.select}, ${query.owned} AS owned FROM hits LEFT JOIN ${query.from} ON ${alias}.rowid = hits.rowid
     ORDER BY hits.score, ${query.order}`,
  ).all(match, look, ...ownerArgs) as Array<Row & { owned: number | null }>;
  const owned: Row[] = [];
  for (const { owned: isOwned, ...row } of hits) if (isOwned && owned.length < limit) owned.push(row);
  if (owned.length === limit || hits.length < look) return owned;
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
  type Listed = Row & { sourceKind: RecallItem['sourceKind'] };
  const approved = list(db, APPROVED, approvedOwners, match, 3 * k).map(
    (row): Listed => ({ ...row, sourceKind: 'approved' }),
  );
  const candidates = list(db, CANDIDATES, [owner.repositoryKey, owner.worktreeKey], match, 3 * k).map(
    (row): Listed => ({ ...row, sourceKind: 'candidate' }),
  );
  const byKey = new Map([...approved, ...candidates].map((row) => [`${row.sourceKind}\0${row.id}`, row]));
  const items = fuseRrf([approved, candidates])
    .slice(0, k)
    .map((fused): RecallItem => {
      const { rowid, ...row } = byKey.get(`${fused.sourceKind}\0${fused.id}`)!;
      const query = row.sourceKind === 'approved' ? APPROVED : CANDIDATES;
      const { content } = prepared(db, query.content).get(rowid) as { content: string };
      return { ...row, content, rank: fused.rank };
    });
  return { recallQueryDigest: queryDigest, resultSetDigest: resultSetDigest(items), items };
}
