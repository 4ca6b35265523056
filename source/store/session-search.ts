// Session search ("what did I say about …"): BM25 over what users said — delivered user messages
// of captured turns and driven agents' user rows — never assistant, tool or hook text. Rows are
// added by the writer in the transaction that seals the turn or admits the prompt.
import { CmError } from '../errors.js';
import { SEARCH_QUERY_MAX_CHARS } from '../limits.js';
import { buildFtsQuery } from '../memory/fts-query.js';
import { parseUtc } from '../memory/window.js';
import type { SessionSearchResult } from '../protocol.js';
import { prepared, type Db } from './database.js';
import type { Tx } from './transaction.js';

export interface SearchRequest {
  query: string;
  sinceMs?: number | undefined;
  untilMs?: number | undefined;
  client?: string | undefined;
  limit: number;
}

export interface SearchHit {
  sessionKey: string;
  turnKey: string;
  client: string;
  recordedAt: string;
  snippet: string;
  /** Internal pointer ("m:<message>" or "t:<timeline sequence>"), for planning. */
  ref: string;
  recordedAtMs: number;
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

/** Best first (BM25), ties newest first. A query of stop words only finds nothing; FTS5 syntax in it is only text. */
export function searchSessions(db: Db, request: SearchRequest): SearchHit[] {
  const match = buildFtsQuery(request.query);
  if (match === null) return [];
  const rows = db
    .prepare(
      `SELECT ref, client, session_key AS sessionKey, turn_key AS turnKey, recorded_at_ms AS recordedAtMs,
              snippet(session_search, 0, '[', ']', '…', 16) AS snippet
       FROM session_search
       WHERE session_search MATCH ?
         AND (? IS NULL OR recorded_at_ms >= ?) AND (? IS NULL OR recorded_at_ms < ?) AND (? IS NULL OR client = ?)
       ORDER BY bm25(session_search), recorded_at_ms DESC, ref
       LIMIT ?`,
    )
    .all(
      match,
      request.sinceMs ?? null,
      request.sinceMs ?? null,
      request.untilMs ?? null,
      request.untilMs ?? null,
      request.client ?? null,
      request.client ?? null,
      request.limit,
    ) as Array<Omit<SearchHit, 'recordedAt'>>;
  return rows.map((row) => ({ ...row, recordedAt: new Date(row.recordedAtMs).toISOString() }));
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

/** The search contract of MEMORY.md: turn references with a short snippet. */
export function sessionSearch(db: Db, input: SessionSearchInput): SessionSearchResult {
  const hits = searchSessions(db, searchRequestFrom(input));
  return {
    results: hits.map(({ sessionKey, turnKey, client, recordedAt, snippet }) => ({
      sessionKey,
      turnKey,
      client,
      recordedAt,
      snippet,
    })),
  };
}
