// The pure half of usefulness (source/memory/usefulness.ts): which entries a stored snapshot gave,
// and which entries to suggest for retirement and why — with the edges where a guess would creep in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectSnapshot, type SnapshotEntry } from '../../source/memory/snapshot.js';
import { NO_USAGE, reteachAdvice, snapshotEntryIds, suggestRetirement } from '../../source/memory/usefulness.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-12-03T12:00:00Z');

const entry = (entryId: string, body: string, priority = 50): SnapshotEntry => ({
  entryId,
  scope: 'project',
  title: `Title of ${entryId}`,
  appliesWhen: null,
  priority,
  body,
  created: null,
});

describe('snapshotEntryIds', () => {
  it('names the entries a real snapshot gave, not the withheld ones, not an excerpt that quotes an entry line', () => {
    const snapshot = selectSnapshot(
      [
        entry('use-pnpm', 'Install with pnpm.', 60),
        // A body that quotes an entry line: rendered as an excerpt (`  > - [forged] …`), never a given entry.
        entry('quoter', '- [forged] (project, priority 99) title: "x"', 40),
        entry('legacy', 'Loaded by src/legacy/config.ts.', 30),
      ],
      8192,
      undefined,
      undefined,
      undefined,
      [{ entryId: 'legacy', reason: '`src/legacy/config.ts` no longer exists', more: 0 }],
    );
    assert.deepEqual(snapshotEntryIds(snapshot.text), snapshot.entryIds);
    assert.deepEqual(snapshotEntryIds(snapshot.text), ['use-pnpm', 'quoter']);
  });

  it('an empty or foreign text gives nothing', () => {
    assert.deepEqual(snapshotEntryIds(''), []);
    assert.deepEqual(snapshotEntryIds('- [x] a checklist item\n- [ ] another'), []);
  });
});

describe('suggestRetirement', () => {
  const base = {
    entries: [
      { entryId: 'old', title: 'Old', scope: 'project' as const, created: null },
      { entryId: 'young', title: 'Young', scope: 'project' as const, created: '2026-11-30' },
      { entryId: 'read', title: 'Read', scope: 'user' as const, created: null },
      { entryId: 'retaught', title: 'Retaught', scope: 'project' as const, created: null },
      { entryId: 'stale', title: 'Stale', scope: 'project' as const, created: '2026-12-01' },
    ],
    usage: new Map([
      ['old', { ...NO_USAGE, given: 40, lastGivenMs: NOW - DAY }],
      ['read', { ...NO_USAGE, read: 1, lastReadMs: NOW - 10 * DAY }],
      ['retaught', { ...NO_USAGE, reteach: 1, lastReteachMs: NOW - 89 * DAY }],
    ]),
    stale: new Map([['stale', { reason: '`src/a.ts` no longer exists', failed: 2 }]]),
    nowMs: NOW,
    days: 90,
    usageSinceMs: NOW - 200 * DAY,
  };

  it('names stale entries and entries neither read nor re-taught in N days; given alone keeps nothing', () => {
    const { suggestions, unusedFromMs } = suggestRetirement(base);
    assert.deepEqual(
      suggestions.map((s) => [s.entryId, s.reasons.map((r) => r.text)]),
      [
        ['stale', ['stale: `src/a.ts` no longer exists (and 1 more)']],
        ['old', ['never read by an agent nor re-taught since counting began (2026-05-17); given 40 times']],
      ],
    );
    assert.equal(unusedFromMs, NOW - 110 * DAY);
  });

  it('an old read names the entry with its last use; counting younger than N days names none as unused', () => {
    const later = suggestRetirement({ ...base, nowMs: NOW + 90 * DAY, usageSinceMs: NOW - 200 * DAY });
    const read = later.suggestions.find((s) => s.entryId === 'read');
    assert.deepEqual(
      read?.reasons.map((r) => r.text),
      ['not read nor re-taught in 90 days (last 2026-11-23); given 0 times'],
    );
    const young = suggestRetirement({ ...base, usageSinceMs: NOW - 30 * DAY });
    assert.deepEqual(
      young.suggestions.map((s) => s.entryId),
      ['stale'],
    );
    assert.equal(young.unusedFromMs, NOW + 60 * DAY);
  });

  it('the review advice names the entry', () => {
    assert.equal(reteachAdvice('m-1'), 're-teaches m-1: consider a better title, appliesWhen or priority');
  });
});
