// Session search ("what did I say about …"): BM25 over what users said — delivered user messages
// of captured turns and driven agents' user rows — never assistant, tool or hook text. Rows are
// added by the writer in the transaction that seals the turn or admits the prompt.
import {
  buildSessionSearchQuery,
  planSessionSearch,
  quoteFtsTerm,
  sessionSearchTerms,
} from '../../memory/fts-query.js';
import { maskSecrets, maskSnippet } from '../../memory/listing-mask.js';
import { type SessionSearchInput, searchRequestFrom } from '../../memory/session-search-request.js';
import type { SessionSearchResult } from '../../api/capture.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import type { IndexedText } from './indexed-text.js';

export interface SearchRequest {
  query: string;
  sinceMs?: number | undefined;
  untilMs?: number | undefined;
  client?: string | undefined;
  limit: number;
  /** Every matching turn, repeats included: extraction selects turns, it does not show a page. */
  keepRepeats?: boolean | undefined;
  /** With keepRepeats: each hit carries the user text it matched, and no snippet (extraction's repetition pass compares it). */
  withBody?: boolean | undefined;
  /** Only turns holding every term (AND, not OR), first indexed first, no ranking: looking for a statement said again, not for a topic. */
  allTerms?: boolean | undefined;
  /** The time the query's words ("last Tuesday", "two weeks ago") are read against; the clock when absent. */
  nowMs?: number | undefined;
  /**
   * sinceMs/untilMs are seal instants (an extraction's selection, which windows turns by them), not
   * when the text was typed (a person's search: --since, --until, "last Tuesday").
   */
  sealedWindow?: boolean | undefined;
}

export interface SearchHit {
  sessionKey: string;
  turnKey: string;
  client: string;
  recordedAt: string;
  /** When the user typed it: the client's own time of the message, else when it was recorded. */
  typedAt: string;
  snippet: string;
  /** Internal pointer ("m:<message>" or "t:<timeline sequence>"), for planning. */
  ref: string;
  /** The FTS row, to make its snippet again with markers (the masked snippet of `sessionSearch`). */
  rowid: number;
  recordedAtMs: number;
  typedAtMs: number;
  /** Only when the request asked `withBody`. */
  body?: string;
}

export function indexUserText(tx: Tx, row: IndexedText): void {
  prepared(
    tx.db,
    'INSERT INTO session_search (body, ref, client, session_key, turn_key, recorded_at_ms, typed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(row.body, row.ref, row.client, row.sessionKey, row.turnKey, row.recordedAtMs, row.typedAtMs);
}

/**
 * Best first (BM25), ties newest first; a text said again word for word is one result, its
 * first-ranked turn: ten copies of "run the tests again" would otherwise fill the page and push the
 * one turn that answers the question off it. A query of stop words only finds nothing; FTS5
 * syntax in it is only text.
 */
export function searchSessions(db: Db, request: SearchRequest): SearchHit[] {
  const terms = request.allTerms ? sessionSearchTerms(request.query) : [];
  // Selecting turns for extraction matches the words as typed; a person's search is planned.
  const plan =
    request.allTerms || request.keepRepeats ? null : planSessionSearch(request.query, request.nowMs ?? Date.now());
  const match = request.allTerms
    ? terms.length === 0
      ? null
      : terms.map(quoteFtsTerm).join(' AND ')
    : (plan?.match ?? buildSessionSearchQuery(request.query));
  if (match === null) return [];
  const filters = [
    request.sinceMs ?? null,
    request.sinceMs ?? null,
    request.untilMs ?? null,
    request.untilMs ?? null,
    request.client ?? null,
    request.client ?? null,
  ];
  const at = request.sealedWindow ? 'recorded_at_ms' : 'typed_at_ms';
  const where = `WHERE session_search MATCH ?
    AND (? IS NULL OR ${at} >= ?) AND (? IS NULL OR ${at} < ?) AND (? IS NULL OR client = ?)`;
  // FTS5 reads its matches in rowid order (the order rows were indexed): that order with a LIMIT
  // stops early, where any other order would read and sort every match first.
  const order = request.allTerms ? 'ORDER BY rowid' : `ORDER BY bm25(session_search), ${at} DESC, ref`;
  type Row = Omit<SearchHit, 'recordedAt' | 'typedAt'>;
  const withDate = (row: Row): SearchHit => ({
    ...row,
    recordedAt: new Date(row.recordedAtMs).toISOString(),
    typedAt: new Date(row.typedAtMs).toISOString(),
  });
  if (request.keepRepeats)
    return (
      prepared(
        db,
        `SELECT ${request.withBody ? BODY_COLUMNS : HIT_COLUMNS} FROM session_search ${where} ${order} LIMIT ?`,
      ).all(match, ...filters, request.limit) as Row[]
    ).map(withDate);
  // A turn said in a window the query names ranks as if it matched WINDOW_BOOST times better
  // (BM25 is negative, lower first): a preference, not a filter, as people misremember days.
  const windows = plan?.windows ?? [];
  const inWindow = windows.map(() => `(${at} >= ? AND ${at} < ?)`).join(' OR ');
  const ranking =
    windows.length === 0
      ? order
      : `ORDER BY bm25(session_search) * CASE WHEN ${inWindow} THEN ${WINDOW_BOOST} ELSE 1 END, ${at} DESC, ref`;
  // One ranking pass, read lazily until the page has `limit` distinct texts; the snippets are
  // made afterwards for the rows kept only. The CAST matters: FTS5 ignores a rowid constraint
  // bound as a REAL (which a JavaScript number is) and would return every matching row.
  const ranked = db
    // Only what collapsing needs: the sort holds every matching row, so each column costs at 100k rows.
    .prepare(`SELECT rowid AS id, body FROM session_search ${where} ${ranking}`)
    .iterate(
      match,
      ...filters,
      ...windows.flatMap((window) => [window.sinceMs, window.untilMs]),
    ) as IterableIterator<RankedRow>;
  let kept = firstOfEachText(ranked, (row) => row.body, request.limit);
  if (plan?.follow) kept = withFollowers(db, kept, request.limit);
  const hit = prepared(
    db,
    `SELECT ${HIT_COLUMNS} FROM session_search WHERE session_search MATCH ? AND rowid = CAST(? AS INTEGER)`,
  );
  // A follower need not hold a query word, so it has no snippet of matches: its text stands in.
  const plain = prepared(db, `SELECT ${FOLLOWER_COLUMNS} FROM session_search WHERE rowid = CAST(? AS INTEGER)`);
  return kept.map(({ id }) => withDate((hit.get(match, id) ?? plain.get(id)) as Row));
}

interface RankedRow {
  id: number;
  body: string;
}

/** Of the best FOLLOWED_HITS hits, how many are followed to the next turn of their session. */
const FOLLOWED_HITS = 3;
/** How far past a hit its session's next turn is looked for, in rows indexed after it. */
const FOLLOW_SPAN_ROWS = 1000;

/**
 * A question about what came after ("what did I say next") is answered by the turn after the
 * one its words describe: each of the best hits is preceded on the page by its session's next
 * turn (looked for in the rows indexed after it, as turns are indexed in the order they are said).
 */
function withFollowers(db: Db, kept: RankedRow[], limit: number): RankedRow[] {
  const session = prepared(db, 'SELECT session_key FROM session_search WHERE rowid = CAST(? AS INTEGER)').pluck();
  const next = prepared(
    db,
    `SELECT rowid AS id, body FROM session_search
     WHERE rowid > CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER) AND session_key = ? ORDER BY rowid LIMIT 1`,
  );
  const page: RankedRow[] = [];
  for (const [index, row] of kept.entries()) {
    const follower =
      index < FOLLOWED_HITS
        ? (next.get(row.id, row.id + FOLLOW_SPAN_ROWS, session.get(row.id)) as RankedRow | undefined)
        : undefined;
    if (follower) page.push(follower);
    page.push(row);
  }
  const seen = new Set<number>();
  return page.filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, limit);
}

/** How much better a turn in a named window ranks than its BM25 alone. */
const WINDOW_BOOST = 3;

const HIT_COLUMNS = `rowid, ref, client, session_key AS sessionKey, turn_key AS turnKey, recorded_at_ms AS recordedAtMs, typed_at_ms AS typedAtMs,
  snippet(session_search, 0, '[', ']', '…', 16) AS snippet`;
/** A follower's whole text as its snippet: sessionSearch masks it whole, then shortens it (a cut first could split a secret). */
const FOLLOWER_COLUMNS = `rowid, ref, client, session_key AS sessionKey, turn_key AS turnKey, recorded_at_ms AS recordedAtMs, typed_at_ms AS typedAtMs,
  body AS snippet`;
/** A hit with the whole text it matched instead of a snippet (nobody is shown it; making snippets costs). */
const BODY_COLUMNS = `ref, client, session_key AS sessionKey, turn_key AS turnKey, recorded_at_ms AS recordedAtMs, typed_at_ms AS typedAtMs,
  '' AS snippet, body`;

/** The first `limit` rows of a ranked sequence, keeping only the first row of each distinct text; reads no further. */
export function firstOfEachText<T>(ranked: Iterable<T>, textOf: (row: T) => string, limit: number): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  if (limit < 1) return kept;
  for (const row of ranked) {
    const text = textOf(row);
    if (seen.has(text)) continue;
    seen.add(text);
    kept.push(row);
    if (kept.length === limit) break;
  }
  return kept;
}

const FOLLOWER_SNIPPET_CHARS = 120;
const shorten = (text: string) =>
  text.length > FOLLOWER_SNIPPET_CHARS ? `${text.slice(0, FOLLOWER_SNIPPET_CHARS)}…` : text;

/**
 * The search contract of MEMORY.md: turn references with a short snippet, in which what the secret
 * lint finds is masked (listing-mask.ts): the snippet is made again with markers that let it be
 * matched back to its text, so a token cut by the snippet's edge or split by a highlight is masked too.
 */
export function sessionSearch(db: Db, input: SessionSearchInput): SessionSearchResult {
  const request = searchRequestFrom(input);
  const nowMs = Date.now();
  const hits = searchSessions(db, { ...request, nowMs });
  const { match } = planSessionSearch(request.query, nowMs);
  const marked =
    match === null
      ? null
      : prepared(
          db,
          `SELECT body, snippet(session_search, 0, char(1), char(2), char(3), 16) AS snippet
           FROM session_search WHERE session_search MATCH ? AND rowid = CAST(? AS INTEGER)`,
        );
  return {
    results: hits.map(({ sessionKey, turnKey, client, recordedAt, typedAt, snippet, rowid }) => {
      const row = marked?.get(match, rowid) as { body: string; snippet: string } | undefined;
      return {
        sessionKey,
        turnKey,
        client,
        recordedAt,
        typedAt,
        // A follower (no query word) or a row gone between the two reads: masked as it is, then shortened.
        snippet: row ? maskSnippet(row.body, row.snippet) : shorten(maskSecrets(snippet).text),
      };
    }),
  };
}
