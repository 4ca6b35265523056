// The Memory screen's Entries view lists the stale entries before any search, each with its first
// failed anchor, within 80×24; Enter opens the selected one, whose lines say it is stale and why.
// A search marks its stale results too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import type { MemoryEntryView, MemoryStaleResult } from '../../source/api/memory-views.js';
import { coverageLines, entryLines, staleHeadingLines } from '../../source/screens/memory/entries-lines.js';
import { type EntriesState, entriesReducer, initialEntriesState } from '../../source/screens/memory/entries-state.js';
import { EntriesView } from '../../source/screens/memory/entries-view.js';
import { textColumns } from '../../source/text-columns.js';

const COLUMNS = 80;
/** 24 rows less the screen's chrome (title, tabs, help and message lines). */
const ROOM = 18;

const STALE: MemoryStaleResult = {
  state: 'verified',
  reason: null,
  total: 2,
  entries: [
    {
      entryId: 'legacy-config',
      title: 'Where configuration is loaded',
      scope: 'project',
      path: 'work_method/legacy-config.md',
      failedAnchors: [
        { anchor: '`src/legacy/config.ts`', reason: '`src/legacy/config.ts` no longer exists' },
        {
          anchor: '`npm run lint:legacy`',
          reason: '`npm run lint:legacy`: package.json no longer defines the script "lint:legacy"',
        },
      ],
      verifiedAt: '2026-12-03T04:00:00.000Z',
    },
    {
      entryId: 'release-branch',
      title: 'Releases are cut from the release branch, which a very long title describes in more words than fit',
      scope: 'project',
      path: 'work_fact/release-branch.md',
      failedAnchors: [{ anchor: 'branch `release/2.x`', reason: 'the branch `release/2.x` no longer exists' }],
      verifiedAt: '2026-12-03T04:00:00.000Z',
    },
  ],
};

function frameOf(state: EntriesState): string[] {
  // What useEntryLines gives the view.
  const lines = state.open
    ? state.entry
      ? entryLines(state.entry, COLUMNS)
      : []
    : state.result
      ? coverageLines(state.result, COLUMNS)
      : staleHeadingLines(state.stale, COLUMNS);
  const view = render(
    <Box width={COLUMNS}>
      <EntriesView state={state} lines={lines} room={ROOM} columns={COLUMNS} />
    </Box>,
  );
  const frame = (view.lastFrame() ?? '').split('\n');
  view.unmount();
  return frame;
}

describe('stale entries on the Memory screen', () => {
  test('before any search the list is the stale entries, each with its first failed anchor, within 80×24', () => {
    const state = entriesReducer(initialEntriesState, { type: 'staleLoaded', id: 0, stale: STALE });
    assert.equal(state.staleLoad, null);
    const frame = frameOf(state);
    const text = frame.join('\n');
    assert.match(text, /Stale entries: 2/);
    assert.match(text, /› project Where configuration is loaded/);
    assert.match(text, /✗ `src\/legacy\/config\.ts` no longer exists \(and 1 more\)/);
    assert.match(text, /✗ the branch `release\/2\.x` no longer exists/);
    assert.ok(frame.length <= ROOM, `${frame.length} rows`);
    for (const line of frame) assert.ok(textColumns(line) <= COLUMNS, `wider than ${COLUMNS}: ${line}`);
  });

  test('Enter opens the selected stale entry; its lines say stale and list every failed anchor', () => {
    let state = entriesReducer(initialEntriesState, { type: 'staleLoaded', id: 0, stale: STALE });
    state = entriesReducer(state, { type: 'select', delta: 1 });
    state = entriesReducer(state, { type: 'openEntry' });
    assert.equal(state.open?.entryId, 'release-branch');
    const entry: MemoryEntryView = {
      id: 'legacy-config',
      title: 'Where configuration is loaded',
      appliesWhen: null,
      contentDigest: 'a'.repeat(64),
      sources: [{ scope: 'project', path: 'work_method/legacy-config.md' }],
      body: 'Configuration is loaded by `src/legacy/config.ts`.',
      type: 'work_method',
      priority: 70,
      verification: 'stale',
      stale: true,
      failedAnchors: STALE.entries[0]!.failedAnchors,
    };
    // Wrapped at 80 columns: read as one text.
    const text = entryLines(entry, COLUMNS)
      .map((line) => line.text.trim())
      .join(' ');
    assert.match(text, /Stale: a claim it makes about this repository does not hold/);
    assert.match(text, /✗ `src\/legacy\/config\.ts` no longer exists/);
    assert.match(text, /package\.json no longer defines the script "lint:legacy"/);
    const fresh = entryLines({ ...entry, stale: false, verification: 'fresh', failedAnchors: [] }, COLUMNS);
    assert.doesNotMatch(fresh.map((line) => line.text).join('\n'), /Stale/);
  });

  test('a user-scope stale entry names your home directory, not "this repository", in the list and opened', () => {
    const user: MemoryStaleResult = {
      state: 'verified',
      reason: null,
      total: 1,
      entries: [
        {
          entryId: 'old-theme',
          title: 'Editor theme',
          scope: 'user',
          path: 'work_fact/old-theme.md',
          failedAnchors: [
            { anchor: '`.config/theme/dark.toml`', reason: '`.config/theme/dark.toml` no longer exists' },
          ],
          verifiedAt: '2026-12-03T04:00:00.000Z',
        },
      ],
    };
    const heading = frameOf(entriesReducer(initialEntriesState, { type: 'staleLoaded', id: 0, stale: user }))
      .map((line) => line.trim())
      .join(' ');
    assert.match(heading, /each names something your home directory does not have/);
    assert.doesNotMatch(heading, /repository/);
    const both = frameOf(
      entriesReducer(initialEntriesState, {
        type: 'staleLoaded',
        id: 0,
        stale: { ...STALE, total: 3, entries: [...STALE.entries, ...user.entries] },
      }),
    )
      .map((line) => line.trim())
      .join(' ');
    assert.match(both, /each names something this repository or your home directory does not have/);
    const opened = entryLines(
      {
        id: 'old-theme',
        title: 'Editor theme',
        appliesWhen: null,
        contentDigest: 'b'.repeat(64),
        sources: [{ scope: 'user', path: 'work_fact/old-theme.md' }],
        body: 'The theme is in `~/.config/theme/dark.toml`.',
        type: 'work_fact',
        priority: 50,
        verification: 'stale',
        stale: true,
        failedAnchors: user.entries[0]!.failedAnchors,
      },
      COLUMNS,
    )
      .map((line) => line.text.trim())
      .join(' ');
    assert.match(opened, /Stale: a claim it makes about your home directory does not hold/);
  });

  test('no stale entries, not verified yet, or unreadable: the list says which, and how to search', () => {
    const none = frameOf(
      entriesReducer(initialEntriesState, {
        type: 'staleLoaded',
        id: 0,
        stale: { state: 'verified', reason: null, total: 0, entries: [] },
      }),
    ).join('\n');
    assert.match(none, /No stale entries/);
    assert.match(none, /Press \/ and type words/);
    const unverified = frameOf(
      entriesReducer(initialEntriesState, {
        type: 'staleLoaded',
        id: 0,
        stale: { state: 'unverified', reason: null, total: 0, entries: [] },
      }),
    ).join('\n');
    assert.match(unverified, /not verified yet: common-memory memory status verifies them/);
  });

  test('a search lists its results, a stale one marked with its note', () => {
    let state = entriesReducer(initialEntriesState, { type: 'staleLoaded', id: 0, stale: STALE });
    state = entriesReducer({ ...state, line: { ...state.line, text: 'configuration' } }, { type: 'submitSearch' });
    state = entriesReducer(state, {
      type: 'searched',
      id: state.search!.id,
      result: {
        generation: 1,
        coverage: 'complete',
        scopes: [{ scope: 'project', generation: 1, coverage: 'complete', entries: 2 }],
        results: [
          { entryId: 'kept-rule', title: 'Keep reviews small', scope: 'project', path: 'work_method/kept-rule.md' },
          {
            entryId: 'legacy-config',
            title: 'Where configuration is loaded',
            scope: 'project',
            path: 'work_method/legacy-config.md',
            stale: true,
            staleNote: 'may be stale: `src/legacy/config.ts` no longer exists (and 1 more)',
          },
        ],
      },
    });
    const frame = frameOf(state);
    const text = frame.join('\n');
    assert.doesNotMatch(text, /Stale entries: 2/);
    assert.match(text, /Keep reviews small/);
    assert.match(text, /may be stale: `src\/legacy\/config\.ts` no longer exists/);
    assert.equal(frame.filter((line) => /may be stale/.test(line)).length, 1);
  });
});
