// `memory status`'s usefulness line (usage-lines.ts): the entry count is of the entries the counts
// are over (given, read or re-taught at least once), said so, singular when one; not a count of
// every approved entry, which "1 entries" beside an entry count read like.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UsageSummaryView } from '../../source/api/memory-usage.js';
import { usageSummaryLines } from '../../source/screens/memory/usage-lines.js';

const summary = (entries: number, given: number): UsageSummaryView => ({
  state: 'counted',
  reason: null,
  since: '2026-12-01T00:00:00.000Z',
  collectedAt: null,
  totals: { entries, given, read: 0, reteach: 0 },
  topRetaught: { project: [], user: [] },
});

test('the usefulness line says what its entries are, one entry in the singular', () => {
  assert.deepEqual(usageSummaryLines(summary(1, 3)), [
    'usefulness since 2026-12-01: given 3 times, read 0, re-taught 0, over 1 entry',
  ]);
  assert.match(usageSummaryLines(summary(0, 0))[0]!, /, over 0 entries$/);
});
