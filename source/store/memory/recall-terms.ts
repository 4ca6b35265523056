// The recall indexes (candidate_fts, approved_fts) and, beside them, how many rows hold each
// search term (recall_terms), kept in the same transaction as the FTS rows. Recall uses the counts
// to query by the rarest terms of a draft only: a word that most rows contain adds next to
// nothing to a BM25 rank (its IDF is near zero), yet makes FTS5 score every one of those rows.
// Terms are counted as ftsTerms writes them (lower-cased words, before the porter stemmer), so an
// inflection the index never saw counts as rare: the query is then slower, never wrong.
import { prepared, type Db } from '../database.js';
import { ftsTerms, quoteFtsTerm } from '../../memory/fts-query.js';

export type RecallIndex = 'candidate' | 'approved';

/** Distinct terms of one indexed row that are counted; a longer row's rarer tail goes uncounted. */
const COUNTED_TERMS_PER_ROW = 512;

/**
 * Rows FTS5 may have to score for one recall, summed over both indexes: the rarest terms of the
 * text are kept while their row counts fit. The rarest term is always kept, so a text of common
 * words only still finds something.
 */
export const RECALL_ROW_BUDGET = 1000;

/** Terms of one recall query at most, rarest first. */
export const RECALL_MAX_TERMS = 12;

const table = (index: RecallIndex) => (index === 'candidate' ? 'candidate_fts' : 'approved_fts');

/** Counts (or, with -1, uncounts) the terms of one indexed row. */
export function countRecallTerms(db: Db, index: RecallIndex, text: string, delta: 1 | -1 = 1): void {
  const terms = JSON.stringify(ftsTerms(text, COUNTED_TERMS_PER_ROW));
  if (delta === 1)
    prepared(
      db,
      `INSERT INTO recall_terms (term, source_kind, rows) SELECT value, ?, 1 FROM json_each(?) WHERE true
       ON CONFLICT (term, source_kind) DO UPDATE SET rows = rows + 1`,
    ).run(index, terms);
  else {
    prepared(
      db,
      'DELETE FROM recall_terms WHERE source_kind = ? AND rows = 1 AND term IN (SELECT value FROM json_each(?))',
    ).run(index, terms);
    prepared(
      db,
      'UPDATE recall_terms SET rows = rows - 1 WHERE source_kind = ? AND term IN (SELECT value FROM json_each(?))',
    ).run(index, terms);
  }
}

/** Adds a row to a recall index and counts its terms. */
export function indexRecallRow(db: Db, index: RecallIndex, rowid: number | bigint, text: string): void {
  prepared(db, `INSERT INTO ${table(index)} (rowid, searchable_text) VALUES (?, ?)`).run(rowid, text);
  countRecallTerms(db, index, text, 1);
}

/** Removes a row from a recall index; `text` is what was indexed for it (the index keeps no text). */
export function unindexRecallRow(db: Db, index: RecallIndex, rowid: number | bigint, text: string): void {
  prepared(db, `DELETE FROM ${table(index)} WHERE rowid = ?`).run(rowid);
  countRecallTerms(db, index, text, -1);
}

/** Takes a candidate out of the dedup pool, if it is in it (decided store/update/merge, still a draft). */
export function unpoolCandidate(db: Db, rowid: number | bigint): void {
  const pooled = prepared(
    db,
    `SELECT json_extract(payload_json, '$.content') FROM candidates
     WHERE rowid = ? AND status = 'draft' AND adjudication = 'done' AND decision IN ('store', 'update', 'merge')`,
  )
    .pluck()
    .get(rowid) as string | undefined;
  if (pooled !== undefined) unindexRecallRow(db, 'candidate', rowid, pooled);
}

/** The terms of `text` recall queries by: the rarest ones that fit the row budget, in the text's order. */
export function recallTerms(db: Db, text: string): string[] {
  const terms = ftsTerms(text);
  if (terms.length === 0) return [];
  const rows = new Map(
    (
      prepared(
        db,
        'SELECT term, sum(rows) AS rows FROM recall_terms WHERE term IN (SELECT value FROM json_each(?)) GROUP BY term',
      ).all(JSON.stringify(terms)) as Array<{ term: string; rows: number }>
    ).map((row) => [row.term, row.rows]),
  );
  const order = terms
    .map((term, position) => ({ term, position, rows: rows.get(term) ?? 0 }))
    .sort((a, b) => a.rows - b.rows || a.position - b.position);
  const kept = new Set<string>();
  let budget = RECALL_ROW_BUDGET;
  for (const { term, rows: n } of order) {
    if (kept.size === RECALL_MAX_TERMS || (kept.size > 0 && n > budget)) break;
    kept.add(term);
    budget -= n;
  }
  return terms.filter((term) => kept.has(term));
}

/** The FTS5 expression of recallTerms, or null when the text has no searchable word. */
export function recallFtsQuery(db: Db, text: string): string | null {
  const terms = recallTerms(db, text);
  return terms.length === 0 ? null : terms.map(quoteFtsTerm).join(' OR ');
}

/** What an approved entry is found by: its title, when it applies, and its body. */
export const approvedSearchableText = (entry: { title: string; appliesWhen: string | null; body: string }): string =>
  [entry.title, entry.appliesWhen ?? '', entry.body].join('\n');
