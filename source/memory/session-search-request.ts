// A session search as the CLI and the API receive it, checked: the CLI before it opens the store
// (a bad flag is said before "no store yet"), the store for every caller.
import { checkedCaptureClient } from '../api/request-checks.js';
import { CmError } from '../errors.js';
import { checkedLimit } from '../ground/limit-check.js';
import { SEARCH_QUERY_MAX_CHARS } from '../limits.js';
import { parseUtc } from './window.js';

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

/** Validates a search as the CLI and the API receive it; errors say which value is wrong and what is allowed. */
export function searchRequestFrom(input: SessionSearchInput): {
  query: string;
  sinceMs: number | undefined;
  untilMs: number | undefined;
  client: string | undefined;
  limit: number;
} {
  if (typeof input.query !== 'string' || input.query.trim() === '')
    throw new CmError('usage', 'Give the words to search for, e.g. common-memory search "package manager".');
  if (input.query.length > SEARCH_QUERY_MAX_CHARS)
    throw new CmError(
      'limit_exceeded',
      `The query is over ${SEARCH_QUERY_MAX_CHARS} characters; search with fewer words.`,
    );
  const limit = checkedLimit(input.limit, SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT);
  const client = checkedCaptureClient(input.client);
  const sinceMs = input.since === undefined ? undefined : parseUtc(input.since, '--since');
  const untilMs = input.until === undefined ? undefined : parseUtc(input.until, '--until');
  if (sinceMs !== undefined && untilMs !== undefined && untilMs <= sinceMs)
    throw new CmError('usage', '--since must be before --until.');
  return { query: input.query, sinceMs, untilMs, client, limit };
}
