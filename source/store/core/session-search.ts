// Session search ("what did I say about …"): BM25 over what users said — delivered user messages
// of captured turns and driven agents' user rows — never assistant, tool or hook text. Rows are
// added by the writer in the transaction that seals the turn or admits the prompt.
import { CmError } from '../../errors.js';
import { SEARCH_QUERY_MAX_CHARS } from '../../limits.js';
import { buildSessionSearchQuery, quoteFtsTerm, sessionSearchTerms } from '../../memory/fts-query.js';
import { maskSecrets, maskSnippet } from '../../memory/listing-mask.js';
import { parseUtc } from '../../memory/window.js';
import type { SessionSearchResult } from '../../protocol.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';

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
}

export interface SearchHit {
  sessionKey: string;
  turnKey: string;
  client: string;
  recordedAt: string;
  snippet: string;
  /** Internal pointer ("m:<message>" or "t:<timeline sequence>"), for planning. */
  ref: string;
  /** The FTS row, to make its snippet again with markers (the masked snippet of `sessionSearch`). */
  rowid: number;
  recordedAtMs: number;
  /** Only when the request asked `withBody`. */
  body?: string;
}

export function indexUserText(
  tx: Tx,
  row: { body: string; ref: string; client: string; sessionKey: string; turnKey: string; recordedAtMs: number },
): void {
  prepared(
    tx.db,
    'INSERT INTO session_search (body, ref, client, session_key, turn_key, recorded_at_ms) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(row.body, row.ref, row.client, row.sessionKey, row.turnKey, row.recordedAtMs);
}

/**
 * Best first (BM25), ties newest first; a text said again word for word is one result, its
 * first-ranked turn: ten copies of "run the tests again" would otherwise fill the page and push the
 * one turn that answers the question off it. A query of stop words only finds nothing; FTS5
 * syntax in it is only text.
 */
export function searchSessions(db: Db, request: SearchRequest): SearchHit[] {
  const terms = request.allTerms ? sessionSearchTerms(request.query) : [];
  const match = request.allTerms
    ? terms.length === 0
      ? null
      : terms.map(quoteFtsTerm).join(' AND ')
    : buildSessionSearchQuery(request.query);
  if (match === null) return [];
  const filters = [
    request.sinceMs ?? null,
    request.sinceMs ?? null,
    request.untilMs ?? null,
    request.untilMs ?? null,
    request.client ?? null,
    request.client ?? null,
  ];
  const where = `WHERE session_search MATCH ?
    AND (? IS NULL OR recorded_at_ms >= ?) AND (? IS NULL OR recorded_at_ms < ?) AND (? IS NULL OR client = ?)`;
  // FTS5 reads its matches in rowid order (the order rows were indexed): that order with a LIMIT
  // stops early, where any other order would read and sort every match first.
  const order = request.allTerms ? 'ORDER BY rowid' : 'ORDER BY bm25(session_search), recorded_at_ms DESC, ref';
  type Row = Omit<SearchHit, 'recordedAt'>;
  const withDate = (row: Row): SearchHit => ({ ...row, recordedAt: new Date(row.recordedAtMs).toISOString() });
  if (request.keepRepeats)
    return (
      prepared(
        db,
        `SELECT ${request.withBody ? BODY_COLUMNS : HIT_COLUMNS} FROM session_search ${where} ${order} LIMIT ?`,
      ).all(match, ...filters, request.limit) as Row[]
    ).map(withDate);
  // One ranking pass, read lazily until the page has `limit` distinct texts; the snippets are
  // made afterwards for the rows kept only. The CAST matters: FTS5 ignores a rowid constraint
  // bound as a REAL (which a JavaScript number is) and would return every matching row.
  const ranked = db
    .prepare(`SELECT rowid AS id, body FROM session_search ${where} ${order}`)
    .iterate(match, ...filters) as IterableIterator<{ id: number; body: string }>;
  const kept = firstOfEachText(ranked, (row) => row.body, request.limit);
  const hit = prepared(
    db,
    `SELECT ${HIT_COLUMNS} FROM session_search WHERE session_search MATCH ? AND rowid = CAST(? AS INTEGER)`,
  );
  return kept.map(({ id }) => withDate(hit.get(match, id) as Row));
}

const HIT_COLUMNS = `rowid, ref, client, session_key AS sessionKey, turn_key AS turnKey, recorded_at_ms AS recordedAtMs,
  snippet(session_search, 0, '[', ']', '…', 16) AS snippet`;
/** A hit with the whole text it matched instead of a snippet (nobody is shown it; making snippets costs). */
const BODY_COLUMNS = `ref, client, session_key AS sessionKey, turn_key AS turnKey, recorded_at_ms AS recordedAtMs,
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

/** What the API accepts for a search (the CLI's flags as given). */
export interface SessionSearchInput {
  query: string;
  since?: string | undefined;
  until?: string | undefined;
  client?: string | undefined;
  limit?: number | undefined;
}

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
const CLIENTS = ['codex', 'claude', 'pi'];

/** Validates a search as the CLI and the API receive it; errors say which value is wrong and what is allowed. */
export function searchRequestFrom(input: SessionSearchInput): SearchRequest {
  if (typeof input.query !== 'string' || input.query.trim() === '')
    throw new CmError('usage', 'Give the words to search for, e.g. common-memory search "package manager".');
  if (input.query.length > SEARCH_QUERY_MAX_CHARS)
    throw new CmError(
      'limit_exceeded',
      `The query is over ${SEARCH_QUERY_MAX_CHARS} characters; search with fewer words.`,
    );
  const limit = input.limit ?? SEARCH_LIMIT_DEFAULT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX)
    throw new CmError('usage', `--limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}.`);
  if (input.client !== undefined && !CLIENTS.includes(input.client))
    throw new CmError('usage', `--client must be one of ${CLIENTS.join(', ')}, not ${JSON.stringify(input.client)}.`);
  const sinceMs = input.since === undefined ? undefined : parseUtc(input.since, '--since');
  const untilMs = input.until === undefined ? undefined : parseUtc(input.until, '--until');
  if (sinceMs !== undefined && untilMs !== undefined && untilMs <= sinceMs)
    throw new CmError('usage', '--since must be before --until.');
  return { query: input.query, sinceMs, untilMs, client: input.client, limit };
}

/**
 * The search contract of MEMORY.md: turn references with a short snippet, in which what the secret
 * lint finds is masked (listing-mask.ts): the snippet is made again with markers that let it be
 * matched back to its text, so a token cut by the snippet's edge or split by a highlight is masked too.
 */
export function sessionSearch(db: Db, input: SessionSearchInput): SessionSearchResult {
  const request = searchRequestFrom(input);
  const hits = searchSessions(db, request);
  const match = buildSessionSearchQuery(request.query);
  const marked =
    match === null
      ? null
      : prepared(
          db,
          `SELECT body, snippet(session_search, 0, char(1), char(2), char(3), 16) AS snippet
           FROM session_search WHERE session_search MATCH ? AND rowid = CAST(? AS INTEGER)`,
        );
  return {
    results: hits.map(({ sessionKey, turnKey, client, recordedAt, snippet, rowid }) => {
      const row = marked?.get(match, rowid) as { body: string; snippet: string } | undefined;
      return {
        sessionKey,
        turnKey,
        client,
        recordedAt,
        // A row gone between the two reads: its snippet is masked as it is.
        snippet: row ? maskSnippet(row.body, row.snippet) : maskSecrets(snippet).text,
      };
    }),
  };
}
