// The Memory screen over a real host and a real git repository: sessions captured and extracted
// into candidates, reviewed on Review (statements, the cited user turn read through the session
// read, masked findings), the Extraction panel's counts, and approved memory searched on Entries.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Host } from '../source/host/host.js';
import * as c from './support/capture.js';
import { gitRepo, tempHome } from './support/cli.js';
import { plantedToken, queueSession } from './support/memory-corpus.js';
import { KEY, mount, press, type View, unmount, waitForText, withOverrides } from './support/tui-harness.js';
import { CmError } from '../source/errors.js';

after(() => c.closeStores());

async function reviewFixture(name: string) {
  const home = tempHome(name);
  const repo = gitRepo(home, 'repo');
  const token = plantedToken();
  queueSession(home, repo, [
    'Always use named exports in TypeScript modules.',
    'Can you fix the build?',
    `Remember that the CI token is ${token} for uploads.`,
  ]);
  assert.equal((await c.flush(home)).complete, true);
  const host = await Host.start({ home, serve: false });
  const report = await host.application.memoryExtract({ cwd: repo });
  assert.equal(report.candidates.created, 2, 'one draft and one quarantined candidate');
  return { home, repo, host, token };
}

/** Moves the selection (↓ then ↑, at most `rows` each way) to the row matching `row`. */
async function selectRow(view: View, row: RegExp, rows = 5) {
  for (const key of [KEY.down, KEY.up])
    for (let i = 0; i <= rows; i++) {
      const selected = (view.lastFrame() ?? '').split('\n').find((line) => line.startsWith('›'));
      if (selected && row.test(selected)) return;
      await press(view, key);
    }
  assert.fail(`no row matches ${row}:\n${view.lastFrame()}`);
}

/** The help line (the frame's last line) fits 80 columns: Ink cut nothing from it. */
function assertHelpFits(frame: string) {
  const help = frame.split('\n').at(-1) ?? '';
  assert.ok(!help.endsWith('…'), `the help line is cut: ${help}`);
}

async function openMemory(view: View) {
  await press(view, '7');
  await waitForText(view, /\[Review\] Prepare & promote Entries Extraction/);
}

describe('Memory screen', { timeout: 90_000 }, () => {
  test('Review: the queue, a candidate with its statement and the cited user turn, masked findings', async () => {
    const { home, repo, host, token } = await reviewFixture('tui-memory-review');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      const queue = await waitForText(view, /Review · 2 in the queue \(1 draft, 1 quarantined\) · project scope/);
      assert.match(queue, /^[› ] {2}draft +work_\w+ +Always use named exports/m);
      assert.match(queue, /QUARANTINED work_fact +The CI token is ghp_…/);
      assert.ok(!queue.includes(token), 'the list never shows the secret');
      assertHelpFits(queue);
      await selectRow(view, /named exports/);
      await press(view, KEY.enter);
      await waitForText(view, /Statements \(1\)/);
      await waitForText(view, /› 1\. .*named exports/);
      assertHelpFits(await waitForText(view, /cites 1 user turn/));
      await press(view, 'e');
      await waitForText(view, /you: Always use named exports in TypeScript modules\./);
      await press(view, KEY.escape);
      await selectRow(view, /QUARANTINED/);
      await press(view, KEY.enter);
      const quarantined = await waitForText(view, /Secret findings \(2, masked/);
      assert.match(quarantined, /block github-token at content/);
      assert.match(quarantined, /Quarantined: a blocking finding keeps it from being promoted/);
      await press(view, 'e');
      // The cited turn is what the user said, read through the session read on request, its secret masked too.
      const cited = await waitForText(view, /you: Remember that the CI token is ghp_…\[40 chars\] for uploads\./);
      assert.ok(!cited.includes(token), 'the cited turn never shows the secret');
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('Extraction: counts and the last run from memory status; quarantined candidates with masked findings', async () => {
    const { home, repo, host, token } = await reviewFixture('tui-memory-extraction');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      await waitForText(view, /2 in the queue/);
      await press(view, '[');
      const frame = await waitForText(view, /Candidates 1 draft · 1 quarantined/);
      assert.match(frame, /\[Extraction\]/);
      assert.match(frame, /Last: builtin run-\w+ · project · done/);
      assert.match(frame, /Tasks \d+ pending · \d+ claimed · 2 submitted/);
      assert.match(frame, /Quarantined candidates \(1\)/);
      assert.ok(!frame.includes(token));
      await waitForText(view, /block github-token/);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('a host that stops answering: the queue read says so and what to do', async () => {
    const home = tempHome('tui-memory-gone');
    const host = await Host.start({ home, serve: false });
    const gone = withOverrides(host.application, {
      memoryReview: () =>
        Promise.reject(new CmError('host_unreachable', 'The common-memory host on 127.0.0.1:1 did not answer.')),
    });
    const view = await mount(gone, home, { cwd: home });
    try {
      await openMemory(view);
      await waitForText(view, /review: error host_unreachable: The common-memory host/);
      await waitForText(view, /start it again/);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
