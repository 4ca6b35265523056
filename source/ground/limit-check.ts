// The one check of a `--limit` (a page size, a number of results or of tasks) wherever a request
// takes one: the CLI's parse, the MCP tools and the API all reach these, so the refusal reads the
// same and names the value given.
import { CmError } from '../errors.js';

/** `limit`, or `fallback` when none is given; a limit not a whole number from 1 to `max` is refused. */
export function checkedLimit(limit: number | undefined, max: number, fallback: number, what = ''): number {
  if (limit === undefined) return fallback;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > max)
    throw new CmError(
      'usage',
      `--limit must be a whole number from 1 to ${max}${what}, not ${JSON.stringify(String(limit))}.`,
    );
  return limit;
}
