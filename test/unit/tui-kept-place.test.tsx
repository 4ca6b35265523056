// Screens keep their place while another is shown. Memory: back on it (7), Review is on the same
// candidate with the same marks and reads the queue again; a scope chooser with candidates chosen
// is still there with them. Agents: the same agent selected, the list read again. In process, with
// a fake Application (History's and Sessions' are in test/e2e/tui and test/store/tui-sessions).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryReviewCandidate } from '../../source/api/memory-views.js';
import {
  absentDirs,
  changingQueue,
  fakeApp,
  hostStatus,
  numberedAgent,
  numberedCandidate as candidate,
} from '../support/tui-fakes.js';
import { KEY, mount, press, unmount, type View, waitForText } from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-memory-kept');

const selectedRow = (view: View) => (view.lastFrame() ?? '').split('\n').find((line) => line.startsWith('›')) ?? '';

async function mountQueue(rows: MemoryReviewCandidate[]) {
  const { app, queue } = changingQueue(rows);
  const view = await mount(app, HOME, { service: async () => null, integrations: DIRS });
  return { view, queue };
}

describe('Memory keeps its place while another screen is shown', () => {
  test('Review: the same candidate selected, the same marks, the queue read again', async () => {
    const { view, queue } = await mountQueue([5, 4, 3, 2, 1].map(candidate));
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 5/);
      await press(view, 'm');
      await press(view, KEY.down.repeat(2));
      await waitForText(view, /1 marked · 3 of 5/);
      await press(view, '4');
      await waitForText(view, /Processing|Status/);
      queue.rows = [candidate(6), ...queue.rows];
      const reads = queue.reads;
      await press(view, '7');
      const back = await waitForText(view, /1 marked · 4 of 6/);
      assert.match(selectedRow(view), /Candidate number 3\./, 'the same candidate, one row down');
      assert.match(back, /^ \+ .*Candidate number 5\./m, 'the mark stays on its candidate');
      assert.ok(queue.reads > reads, 'the queue is read again');
    } finally {
      await unmount(view);
    }
  });

  test('Prepare & promote: the chosen candidates and the scope chooser are still there', async () => {
    const { view } = await mountQueue([2, 1].map(candidate));
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 2/);
      await press(view, 'p');
      await waitForText(view, /^> project · /m);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '7');
      const back = await waitForText(view, /Prepare & promote · scope project/);
      assert.match(back, /1 candidate to promote/);
      assert.match(back, /Candidate number 2\./);
    } finally {
      await unmount(view);
    }
  });
});

describe('Agents keeps its place while another screen is shown', () => {
  test('the same agent selected, the list read again', async () => {
    const agent = numberedAgent;
    let reads = 0;
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        listAgents: async () => {
          reads += 1;
          return [agent(1), agent(2), agent(3)];
        },
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await press(view, '3');
      await waitForText(view, /^> agent1 /m);
      await press(view, 'j');
      await waitForText(view, /^> agent2 /m);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      const before = reads;
      await press(view, '3');
      await waitForText(view, /^> agent2 /m);
      assert.ok(reads > before, 'the list is read again');
    } finally {
      await unmount(view);
    }
  });
});
