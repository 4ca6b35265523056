// The Memory screen's Entries search line: `/` opens an empty line every time (typing never
// appends to an earlier query), Esc cancels without a search and without changing the heading, and
// the heading names the query whose results are shown. In process, with a fake Application.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { absentDirs, fakeApp, hostStatus, reviewQueue } from '../support/tui-fakes.js';
import { KEY, mount, openSearchLine, press, type, unmount, waitForFrame, waitForText } from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-search-line');

describe('Entries: the search line', () => {
  test('/ opens empty; Esc searches nothing and leaves the heading; the heading is the query searched', async () => {
    const searched: string[] = [];
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        memoryReview: async () => reviewQueue(),
        memoryStale: async () => ({ state: 'verified', reason: null, total: 0, entries: [] }),
        memoryStatus: async () => new Promise(() => {}),
        memorySearch: async ({ query }: { query: string }) => {
          searched.push(query);
          return {
            generation: 3,
            coverage: 'complete',
            scopes: [],
            results: [
              { entryId: 'moment-one', title: 'Moment one', scope: 'project', path: 'work_fact/moment-one.md' },
            ],
          };
        },
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await openSearchLine(view);
      await type(view, 'quit');
      await waitForText(view, /search> quit/);
      await press(view, KEY.escape);
      let frame = await waitForText(view, /\/ search/);
      assert.match(frame, /search: \(none yet\)/, 'Esc ran no search: the heading is unchanged');
      assert.doesNotMatch(frame, /search: quit/);
      await press(view, '/');
      frame = await waitForText(view, /^search>/m);
      assert.match(frame, /^search>\s*$/m, 'the cancelled query is not offered again');
      await type(view, 'moment');
      await press(view, KEY.enter);
      await waitForFrame(view, 'the search', () => searched.length === 1);
      assert.deepEqual(searched, ['moment']);
      await waitForText(view, /"moment": 1 found/);
      await waitForText(view, /search: moment/);
      // Another query typed and cancelled: the heading still names the one whose results are shown.
      await press(view, '/');
      frame = await waitForText(view, /^search>/m);
      assert.match(frame, /^search>\s*$/m, 'the query searched is not typed onto');
      await type(view, 'other');
      await press(view, KEY.escape);
      frame = await waitForText(view, /search: moment/);
      assert.match(frame, /"moment": 1 found/);
      assert.deepEqual(searched, ['moment']);
    } finally {
      await unmount(view);
    }
  });
});
