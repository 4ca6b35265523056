// The memory half on the command line: `search` (session search) and the `memory …` group.
// Each goes through the running host's API, or works alone (reads: read-only; writes: the lease
// for the command's duration).
import { connect } from '../../client/connect.js';
import { CmError, EXIT } from '../../errors.js';
import type { SessionSearchResult } from '../../api/capture.js';
import { visibleText } from '../../memory/visible-text.js';
import type { Output } from '../output.js';
import { pageLimitFlag } from '../parse.js';
import { SEARCH_LIMIT_MAX, searchRequestFrom } from '../../memory/session-search-request.js';

export interface SearchFlags {
  since?: string | undefined;
  until?: string | undefined;
  client?: string | undefined;
  limit?: string | undefined;
}

export function wholeNumber(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,6}$/.test(text))
    throw new CmError('usage', `${flag} must be a whole number, not ${JSON.stringify(text)}.`);
  return Number(text);
}

export async function runSearch(home: string, words: string[], flags: SearchFlags, out: Output): Promise<number> {
  const request = {
    query: words.join(' '),
    since: flags.since,
    until: flags.until,
    client: flags.client,
    limit: pageLimitFlag(flags.limit, SEARCH_LIMIT_MAX),
  };
  searchRequestFrom(request); // its flags are refused before the store is opened
  const connection = await connect(home, 'read');
  try {
    const result = await connection.app.sessionSearch(request);
    out.result(result, () => searchText(result));
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

/**
 * A snippet on one line, its hidden characters and terminal controls (a log pasted with its
 * colours) as ⟨U+XXXX⟩: the terminal would act on them instead of showing what was said.
 */
const snippetLine = (snippet: string): string => visibleText(snippet).replace(/\s+/g, ' ');

export function searchText(result: SessionSearchResult): string {
  if (result.results.length === 0) return 'no turn matches';
  return result.results
    .map(
      (hit) =>
        `${hit.typedAt}  ${hit.client.padEnd(6)} ${hit.sessionKey} ${hit.turnKey}\n    ${snippetLine(hit.snippet)}`,
    )
    .join('\n');
}
