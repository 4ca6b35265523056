// `memory suggestions`: approved entries to consider retiring, each with why — stale anchors, or
// neither read by an agent nor re-taught in N days. Through the host (or with the lease) the
// counts are brought up to date first; read-only, they are the last collection's. It lists only.
import { existsSync } from 'node:fs';
import { connect } from '../../client/connect.js';
import { storeFiles } from '../../home.js';
import { CmError, EXIT } from '../../errors.js';
import { USAGE_SUGGEST_DAYS_MAX } from '../../limits.js';
import { suggestionsHeading, suggestionTexts } from '../../screens/memory/usage-lines.js';
import { fitLines, type Output } from '../output.js';

/** --days as typed: a whole number of days, 1–3650 (exit 2 otherwise, before anything is opened). */
export function parseDays(typed: string | undefined): number | undefined {
  if (typed === undefined) return undefined;
  const days = /^\d{1,5}$/.test(typed) ? Number(typed) : Number.NaN;
  if (!(days >= 1 && days <= USAGE_SUGGEST_DAYS_MAX))
    throw new CmError(
      'usage',
      `--days must be a whole number of days from 1 to ${USAGE_SUGGEST_DAYS_MAX}, not ${JSON.stringify(typed.slice(0, 40))}; e.g. --days 30.`,
    );
  return days;
}

export async function memorySuggestions(home: string, typedDays: string | undefined, out: Output): Promise<number> {
  const days = parseDays(typedDays);
  // The counts are collected by the host or a command holding the lease (another holder leaves them
  // as they were); before memory-state exists there is nothing to collect, and a read creates nothing.
  const connection = existsSync(storeFiles(home).memoryState)
    ? await connect(home, 'write').catch(() => connect(home, 'read'))
    : await connect(home, 'read');
  try {
    const result = await connection.app.memorySuggestions({ cwd: process.cwd(), ...(days ? { days } : {}) });
    out.result(result, () => {
      const lines = suggestionsHeading(result);
      for (const item of suggestionTexts(result)) {
        lines.push(item.head);
        for (const reason of item.reasons) lines.push(`  ${reason}`);
      }
      return fitLines(lines.join('\n'));
    });
    return result.state === 'unavailable' ? EXIT.memoryUnavailable : EXIT.ok;
  } finally {
    await connection.close();
  }
}
