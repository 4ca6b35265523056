// The Memory screen's Entries view runs a consolidation by keyboard: c makes the built-in runner's
// patch over this repository's approved entries, says what it proposed, and the patch waits on
// Review, where c opens it; c again over the same entries says so and makes nothing new; a scope
// with no approved entry says there is nothing to consolidate, and an empty Review names the key.
// A real host and a real git repository; every frame within 80×24.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import * as c from '../support/capture.js';
import { gitRepo, tempHome } from '../support/cli.js';
import { projectRoot, writeConsolidationEntries } from '../support/memory-files.js';
import { assertFits80x24, mount, narrowTo80, press, unmount, waitForText } from '../support/tui-harness.js';

after(() => c.closeStores());

/** The frame's text with each wrapped line joined to the next, as a person reads a message. */
const joined = (frame: string) => frame.replace(/\n\s*/g, ' ');

/** Memory's Entries view at 80 columns, from the start: its frame. */
async function openEntries(view: Awaited<ReturnType<typeof mount>>): Promise<string> {
  await narrowTo80(view);
  await press(view, '7');
  await waitForText(view, /Review · all scopes/);
  await press(view, ']');
  await press(view, ']');
  return waitForText(view, /search: \(none yet\)/);
}

describe('Memory screen: consolidation run from Entries', { timeout: 120_000 }, () => {
  test('c makes the patch, Review names it, c again over the same entries makes nothing new', async () => {
    const home = tempHome('tui-memory-consolidate');
    const repo = gitRepo(home, 'repo');
    writeConsolidationEntries(projectRoot(repo), { duplicates: true });
    const host = await Host.start({ home, serve: false });
    const view = await mount(host.application, home, { cwd: repo });
    try {
      const entries = await openEntries(view);
      assert.match(entries, /c consolidate/, 'the key line offers it');
      assertFits80x24(entries);

      await press(view, 'c');
      const made = await waitForText(view, /waits on Review/);
      const said = joined(made);
      const patch = /Consolidation patch (con-[0-9a-f]{24})/.exec(said)?.[1];
      assert.ok(patch, said);
      assert.match(said, /\d+ operation\(s\) over 7 approved entries of this repository waits on Review/);
      assertFits80x24(made);

      const queued = await host.application.memoryReview({ cwd: repo });
      assert.deepEqual(
        queued.patches.map((p) => p.taskId),
        [patch],
        'the patch is in the review queue',
      );

      await press(view, 'c');
      const again = await waitForText(view, /unchanged since/);
      assert.match(joined(again), new RegExp(`7 approved entries are unchanged since consolidation ${patch}`));
      assertFits80x24(again);

      await press(view, '[');
      await press(view, '[');
      const review = await waitForText(view, /Consolidation patch con-/);
      assert.match(joined(review), new RegExp(`Consolidation patch ${patch}: \\d+ operation\\(s\\)`));
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('with no approved entry, c says there is nothing to consolidate', async () => {
    const home = tempHome('tui-memory-consolidate-empty');
    const repo = gitRepo(home, 'repo');
    const host = await Host.start({ home, serve: false });
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openEntries(view);
      await press(view, 'c');
      const said = await waitForText(view, /nothing to consolidate/);
      assert.match(joined(said), /No approved entries in this repository's memory: nothing to consolidate\./);
      assert.equal((await host.application.memoryReview({ cwd: repo })).patches.length, 0);
      // An empty Review says where a patch comes from.
      await press(view, '[');
      await press(view, '[');
      const review = await waitForText(view, /Nothing to review/);
      assert.match(joined(review), /consolidation patches from c on Entries\./);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
