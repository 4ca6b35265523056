// An open candidate on Review answers m and p as its row on the list does: m marks (or unmarks) it,
// p takes the marked ones (else this one) to Prepare & promote. The line under the candidate's
// heading names both, saying what p would take. In process, with a fake Application, at 80×24.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { absentDirs, fakeApp, hostStatus, reviewCandidate, reviewQueue } from '../support/tui-fakes.js';
import {
  assertFits80x24,
  KEY,
  mount,
  narrowTo80,
  press,
  unmount,
  type View,
  waitForText,
} from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-review-open-keys');

function candidate(n: number): MemoryReviewCandidate {
  return reviewCandidate({ candidateId: `cand-${String(n).padStart(8, '0')}`, content: `Candidate number ${n}.` });
}

async function mountQueue(rows: MemoryReviewCandidate[]): Promise<View> {
  const view = await mount(
    fakeApp({ status: async () => hostStatus(), memoryReview: async () => reviewQueue(rows) }),
    HOME,
    { service: async () => null, integrations: DIRS },
  );
  await narrowTo80(view);
  return view;
}

describe('Review: m and p in an open candidate', () => {
  test('m marks the open candidate and p takes it to Prepare & promote; the line under its heading names them', async () => {
    const view = await mountQueue([candidate(3), candidate(2), candidate(1)]);
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 3/);
      await press(view, KEY.down);
      await waitForText(view, /· 2 of 3/);
      await press(view, KEY.enter);
      const opened = await waitForText(view, /Review › candidate cand-00000002/);
      assert.match(opened, /m mark · p promote this one/);
      assertFits80x24(opened);
      await press(view, 'm');
      const marked = await waitForText(view, /Review › candidate cand-00000002 · marked/);
      assert.match(marked, /m unmark · p promote the 1 marked/);
      await press(view, 'm');
      const unmarked = await waitForText(view, /m mark · p promote this one/);
      assert.doesNotMatch(unmarked, /· marked/);
      await press(view, 'p');
      const prepare = await waitForText(view, /\[Prepare & promote\]/);
      assert.match(prepare, /1 candidate to promote/);
      assert.match(prepare, /cand-00000002 {2}Candidate number 2\./);
    } finally {
      await unmount(view);
    }
  });

  test('with others marked on the list, p in an open candidate takes the marked ones, as on the list', async () => {
    const view = await mountQueue([candidate(3), candidate(2), candidate(1)]);
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 3/);
      await press(view, 'm');
      await waitForText(view, /1 marked/);
      await press(view, KEY.down);
      await press(view, 'm');
      await waitForText(view, /2 marked/);
      await press(view, KEY.down);
      await waitForText(view, /· 3 of 3/);
      await press(view, KEY.enter);
      const opened = await waitForText(view, /Review › candidate cand-00000001/);
      assert.match(opened, /m mark · p promote the 2 marked/);
      await press(view, 'p');
      const prepare = await waitForText(view, /\[Prepare & promote\]/);
      assert.match(prepare, /2 candidates to promote/);
      assert.match(prepare, /cand-00000003/);
      assert.match(prepare, /cand-00000002/);
      assert.doesNotMatch(prepare, /cand-00000001/);
    } finally {
      await unmount(view);
    }
  });

  test('a quarantined candidate open: the line says it is kept out of every plan and that d discards it, not m and p', async () => {
    const quarantined = reviewCandidate({
      candidateId: 'cand-00000009',
      status: 'quarantined',
      content: 'A candidate with a blocking finding.',
    });
    const view = await mountQueue([quarantined, candidate(2)]);
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 2/);
      await press(view, KEY.enter);
      const opened = await waitForText(view, /Review › candidate cand-00000009/);
      assert.match(opened, /quarantined: out of every plan · d discards it/);
      assert.doesNotMatch(opened, /p promote this one/);
      assertFits80x24(opened);
      // With others marked, p still takes those: the line says so.
      await press(view, KEY.escape);
      await press(view, KEY.down);
      await press(view, 'm');
      await waitForText(view, /1 marked/);
      await press(view, KEY.up);
      await press(view, KEY.enter);
      const withMarked = await waitForText(view, /Review › candidate cand-00000009/);
      assert.match(withMarked, /quarantined: out of every plan · d discards it · p promote the 1 marked/);
    } finally {
      await unmount(view);
    }
  });
});
