// The Review queue read again (r, or after a confirm or a discard): the selection stays on the
// candidate it was on, by id, wherever the new read puts it; a candidate gone leaves it on the
// nearest row. d then asks about the candidate the cursor shows. What Review says about one
// candidate leaves when the selection moves to another or another view is shown. In process, with
// a fake Application whose queue changes between reads, as another process's proposal changes it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { CmError } from '../../source/errors.js';
import {
  absentDirs,
  changingQueue,
  fakeApp,
  hostStatus,
  numberedCandidate,
  reviewCandidate,
  reviewQueue,
} from '../support/tui-fakes.js';
import { KEY, mount, press, unmount, type View, waitForText } from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-review-follow');

const candidate = numberedCandidate;

const review = reviewQueue;

/** The Memory screen on a queue the test changes between reads (`queue.rows`, newest first). */
async function mountQueue(rows: MemoryReviewCandidate[]) {
  const { app, queue } = changingQueue(rows);
  const view = await mount(app, HOME, { service: async () => null, integrations: DIRS });
  return { view, queue };
}

const selectedRow = (view: View) => (view.lastFrame() ?? '').split('\n').find((line) => line.startsWith('›')) ?? '';

/** r, then the selection at `position` on candidate `n`, and d asks about that candidate. */
async function readAgainOn(view: View, position: RegExp, n: number): Promise<void> {
  await press(view, 'r');
  await waitForText(view, position);
  assert.match(selectedRow(view), new RegExp(`Candidate number ${n}\\.`));
  await press(view, 'd');
  await waitForText(view, `Discard candidate ${candidate(n).candidateId}?`);
}

/** Review over candidates 6…1 (newest first), the fourth row (candidate 3) selected. */
async function onFourthOfSix() {
  const six = [6, 5, 4, 3, 2, 1].map(candidate);
  const { view, queue } = await mountQueue(six);
  await press(view, '7');
  await waitForText(view, /· 1 of 6/);
  await press(view, KEY.down.repeat(3));
  await waitForText(view, /· 4 of 6/);
  return { view, queue, six };
}

describe('Review: r keeps the selection on its candidate', () => {
  test('a candidate added from outside: after r the cursor and d are on the same candidate', async () => {
    const { view, queue, six } = await onFourthOfSix();
    try {
      assert.match(selectedRow(view), /Candidate number 3\./);
      queue.rows = [candidate(7), ...six];
      await readAgainOn(view, /· 5 of 7/, 3);
    } finally {
      await unmount(view);
    }
  });

  test('the candidate gone: the cursor goes to the row that took its place, or the last row', async () => {
    const { view, queue, six } = await onFourthOfSix();
    try {
      // 3 gone and a new one on top: the next older candidate, 2, is the nearest row.
      queue.rows = [candidate(7), ...six.filter((c) => c.candidateId !== 'cand-00000003')];
      await press(view, 'r');
      await waitForText(view, /· 5 of 6/);
      assert.match(selectedRow(view), /Candidate number 2\./);
      // The oldest rows gone: the nearest left is the one before them.
      await press(view, KEY.down.repeat(5));
      await waitForText(view, /· 6 of 6/);
      queue.rows = queue.rows.slice(0, 3);
      await press(view, 'r');
      await waitForText(view, /· 3 of 3/);
      assert.match(selectedRow(view), /Candidate number 5\./);
    } finally {
      await unmount(view);
    }
  });
});

describe('Review: a notice about one candidate leaves with the selection or the view', () => {
  const statement = {
    statementId: 's1',
    text: 'Always use named exports.',
    evidence: [],
    claimSupport: 'typed-fact',
  };

  test('a confirmed statement: the notice stays on its candidate, and leaves when the view changes', async () => {
    const rows = [
      reviewCandidate({ candidateId: 'cand-0000000b', content: 'Always use named exports.', statements: [statement] }),
      candidate(1),
    ];
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        memoryReview: async () => review(rows),
        memoryConfirm: async () => ({
          candidateId: 'cand-0000000b',
          statementId: 's1',
          claimSupport: 'human-confirmed',
          quarantined: false,
          revision: 2,
          replayed: false,
        }),
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 2/);
      await press(view, KEY.enter);
      await waitForText(view, /Statements \(1\)/);
      await press(view, 'c');
      await waitForText(view, /Statement s1 confirmed/);
      // Back on the queue the selection is still that candidate: the notice is still about it.
      await press(view, KEY.escape);
      await waitForText(view, /· 1 of 2/);
      assert.match(view.lastFrame() ?? '', /Statement s1 confirmed/);
      await press(view, ']');
      await waitForText(view, /\[Prepare & promote\]/);
      await press(view, '[');
      const back = await waitForText(view, /\[Review\][\s\S]*· 1 of 2/);
      assert.doesNotMatch(back, /Statement s1 confirmed/);
    } finally {
      await unmount(view);
    }
  });

  test('a quarantined candidate refused by p: the notice leaves when the selection moves', async () => {
    const rows = [
      reviewCandidate({ candidateId: 'cand-0000000q', status: 'quarantined', content: 'The token is ghp_…' }),
      candidate(1),
    ];
    const { view } = await mountQueue(rows);
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 2/);
      await press(view, 'p');
      await waitForText(view, /cand-0000000q is quarantined/);
      // A key that moves nothing (↑ on the first row) leaves it.
      await press(view, KEY.up);
      assert.match(view.lastFrame() ?? '', /cand-0000000q is quarantined/);
      await press(view, KEY.down);
      const moved = await waitForText(view, /· 2 of 2/);
      assert.doesNotMatch(moved, /is quarantined/);
    } finally {
      await unmount(view);
    }
  });

  test('a discard that failed: its error leaves when the selection moves; a failed read of the queue stays', async () => {
    const rows = [candidate(2), candidate(1)];
    const queue = { fail: false };
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        memoryReview: async () => {
          if (queue.fail) throw new CmError('store_unavailable', 'The store is busy: try again in a moment.');
          return review(rows);
        },
        memoryDiscard: async () => {
          throw new CmError('not_found', 'No candidate cand-00000002 in the queue.');
        },
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 2/);
      await press(view, 'd');
      await waitForText(view, /Discard candidate cand-00000002\?/);
      await press(view, 'y');
      await waitForText(view, /No candidate cand-00000002 in the queue/);
      // A key that moves nothing keeps it: the selection is still on that candidate.
      await press(view, KEY.up);
      assert.match(view.lastFrame() ?? '', /No candidate cand-00000002 in the queue/);
      await press(view, KEY.down);
      const moved = await waitForText(view, /· 2 of 2/);
      assert.doesNotMatch(moved, /No candidate cand-00000002/);
      // An error about the queue itself is about no candidate: moving keeps it.
      queue.fail = true;
      await press(view, 'r');
      await waitForText(view, /The store is busy/);
      await press(view, KEY.up);
      await waitForText(view, /· 1 of 2/);
      assert.match(view.lastFrame() ?? '', /The store is busy/);
    } finally {
      await unmount(view);
    }
  });
});

describe('Review: a queue longer than one read', () => {
  /** The host's paging: newest first, `limit` a page, the next after the last one's id. */
  function pagedApp(queue: { rows: MemoryReviewCandidate[]; reads: number }) {
    return fakeApp({
      status: async () => hostStatus(),
      memoryReview: async (request: { after?: string; limit?: number }) => {
        queue.reads += 1;
        const start = request.after ? queue.rows.findIndex((row) => row.candidateId === request.after) + 1 : 0;
        const page = queue.rows.slice(start, start + (request.limit ?? 50));
        const more = start + page.length < queue.rows.length;
        return { ...review(page), total: queue.rows.length, nextAfter: more ? page.at(-1)!.candidateId : null };
      },
    });
  }

  test('every candidate of 450 is reached with PgDn and ↓, and r keeps the selection on one past the first read', async () => {
    const queue = { rows: Array.from({ length: 450 }, (_, index) => candidate(450 - index)), reads: 0 };
    const view = await mount(pagedApp(queue), HOME, { service: async () => null, integrations: DIRS });
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 450/);
      for (let presses = 0; presses < 100 && !/· 450 of 450/.test(view.lastFrame() ?? ''); presses++) {
        await press(view, KEY.pageDown);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await waitForText(view, /· 450 of 450/);
      assert.match(selectedRow(view), /Candidate number 1\./);
      // Up to the 300th row (candidate 151), then the queue read again with one more on top.
      await press(view, KEY.up.repeat(150));
      await waitForText(view, /· 300 of 450/);
      assert.match(selectedRow(view), /Candidate number 151\./);
      queue.rows = [candidate(451), ...queue.rows];
      await readAgainOn(view, /· 301 of 451/, 151);
    } finally {
      await unmount(view);
    }
  });
});
