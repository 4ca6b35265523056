// The Memory screen's keys on an approved entry (issue 29, item 3), over a real host and a real git
// repository whose entry names a file and a script that were removed and committed: v verifies the
// worktree now and says the entry's new verdict; e (on the open entry) makes a candidate from it,
// marked as revising it, that prepares as an update of its file; x prepares its retirement plan on
// Prepare & promote, shows the exact removal, and a (the plan key) approves and removes it — the
// entry then leaves the stale list and get answers not found. Every frame within 80×24.
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import { SCREEN_CLIENT } from '../../source/memory/revision-clients.js';
import { textColumns } from '../../source/text-columns.js';
import * as c from '../support/capture.js';
import { git, gitRepo, tempHome } from '../support/cli.js';
import { projectRoot, writeLegacyConfigRepository } from '../support/memory-files.js';
import { act, KEY, mount, press, type, unmount, type View, waitForText } from '../support/tui-harness.js';

after(() => c.closeStores());

function staleRepository(home: string): string {
  const repo = gitRepo(home, 'repo');
  writeLegacyConfigRepository(repo, (...args) => git(repo, ...args), {
    legacyId: 'legacy-config',
    legacyTitle: 'Where configuration is loaded',
    keptId: 'kept-rule',
  });
  rmSync(join(repo, 'src', 'legacy', 'config.ts'));
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: {} }));
  git(repo, 'add', '--all');
  git(repo, 'commit', '-q', '-m', 'drop the legacy loader');
  return repo;
}

/** Every line within 80 columns and the frame within 24 rows; the help line (the last) not cut. */
function assertFits(frame: string) {
  const lines = frame.split('\n');
  assert.ok(lines.length <= 24, `${lines.length} rows:\n${frame}`);
  for (const line of lines) assert.ok(textColumns(line) <= 80, `wider than 80: ${line}`);
  assert.ok(!(lines.at(-1) ?? '').endsWith('…'), `the help line is cut: ${lines.at(-1)}`);
}

/** ink-testing-library's terminal is 100 columns: narrowed to 80 (the screen follows a resize). */
async function narrow(view: View) {
  await act(async () => {
    Object.defineProperty(view.stdout, 'columns', { value: 80, configurable: true });
    (view.stdout as unknown as NodeJS.EventEmitter).emit('resize');
  });
}

async function toEntries(view: View) {
  await press(view, '7');
  await waitForText(view, /\[Review\] Prepare & promote Entries Extraction/);
  await press(view, ']');
  await press(view, ']');
  await waitForText(view, /\[Entries\]/);
}

/** A host over the stale repository, its entries synced, and the TUI at 80 columns on Entries. */
async function staleEntries(name: string) {
  const home = tempHome(name);
  const repo = staleRepository(home);
  const host = await Host.start({ home, serve: false });
  const view = await mount(host.application, home, { cwd: repo });
  try {
    await host.application.memorySync({ cwd: repo });
    await narrow(view);
    await toEntries(view);
  } catch (error) {
    await unmount(view);
    await host.stop();
    throw error;
  }
  return { repo, host, view };
}

/** Entries' search, typed and submitted: the frame once its answer is shown. */
async function search(view: View, query: string): Promise<string> {
  await press(view, '/');
  await type(view, query);
  await press(view, KEY.enter);
  return waitForText(view, new RegExp(`"${query}": \\d+ found`));
}

describe('Memory screen: re-verify, edit through a candidate, retire', { timeout: 120_000 }, () => {
  test('v verifies and says the verdict; e makes a revising candidate; x retires through a plan approved with a', async () => {
    const { repo, host, view } = await staleEntries('tui-memory-retire');
    try {
      const list = await waitForText(view, /Stale entries: 1/);
      assert.match(list, /› project Where configuration is loaded/);
      // Deleted in a commit before any verification saw it: nothing tells it was there, so it does not exist.
      assert.match(list, /✗ `src\/legacy\/config\.ts` does not exist \(and 1 more\)/);
      assert.match(list, /v verify · x retire · c consolidate · q quit/);
      assertFits(list);

      // v: the worktree is verified now; the selected entry's new verdict is said.
      await press(view, 'v');
      const verified = await waitForText(view, /Verified 2 entries: 1 stale\./);
      assert.match(verified.replace(/\n/g, ' '), /legacy-config is stale — `src\/legacy\/config\.ts` does not exist/);
      assertFits(verified);

      // e on the open entry: a candidate from its text, marked as revising it.
      await press(view, KEY.enter);
      const open = await waitForText(view, /Stale: a claim it makes/);
      assert.match(open, /v verify · e edit · x retire · q quit/);
      assertFits(open);
      await press(view, 'e');
      const made = await waitForText(view, /Candidate cand-\w+ made: a copy of legacy-config/);
      assertFits(made);
      const review = await host.application.memoryReview({ cwd: repo, scope: 'project' });
      const candidate = review.candidates.find((item) => item.content.includes('src/legacy/config.ts'));
      assert.ok(candidate, 'the candidate is in the review queue');
      const plan = await host.application.memoryPrepare({ candidateIds: [candidate.candidateId], cwd: repo });
      assert.deepEqual(
        plan.files.map((file) => [file.action, file.entryId, file.path]),
        [['update', 'legacy-config', 'work_method/legacy-config.md']],
        'promoting it rewrites the entry it revises',
      );
      assert.match(JSON.stringify(candidate), new RegExp(SCREEN_CLIENT));

      // x: the retirement plan, its exact removal; nothing removed until a.
      await press(view, 'x');
      const retirement = await waitForText(view, /Plan plan-\w+ · not approved · read the diff/);
      assert.match(retirement, /work_method\/legacy-config\.md \(REMOVED, blob [0-9a-f]{10}, \d+ bytes\)/);
      assert.match(retirement, /\+\+\+ \/dev\/null/);
      assert.match(retirement, /Nothing is removed until you approve/);
      assert.match(retirement, /a approve & remove/);
      assertFits(retirement);
      const file = join(projectRoot(repo), 'work_method', 'legacy-config.md');
      await press(view, KEY.pageDown);
      await press(view, KEY.enter);
      assert.ok(existsSync(file), 'scrolling or Enter never approves nor removes');
      await press(view, 'a');
      const done = await waitForText(view, /Retired: plan plan-\w+ removed the entry's file/, 30_000);
      assert.match(done, /removed: work_method\/legacy-config\.md/);
      assertFits(done);
      assert.ok(!existsSync(file));
      await assert.rejects(host.application.memoryGet({ entryId: 'legacy-config', cwd: repo }), /legacy-config/);

      // Back on Entries the stale list is read again.
      await press(view, ']');
      await waitForText(view, /No stale entries/);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test("v's notice is about the verification: a search after it does not keep it under its results", async () => {
    const { host, view } = await staleEntries('tui-memory-verify-notice');
    try {
      await waitForText(view, /Stale entries: 1/);
      await press(view, 'v');
      await waitForText(view, /Verified 2 entries: 1 stale\./);
      const found = await search(view, 'configuration loaded');
      assert.doesNotMatch(found, /Verified 2 entries/, 'the notice of the earlier verification is gone');
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('a search that listed the entry is read again once it is retired: the entry leaves the list', async () => {
    const { host, view } = await staleEntries('tui-memory-retire-search');
    try {
      await waitForText(view, /Stale entries: 1/);
      const found = await search(view, 'configuration loaded');
      assert.match(found, /› project Where configuration is loaded/);
      await press(view, 'x');
      await waitForText(view, /Plan plan-\w+ · not approved · read the diff/);
      await press(view, 'a');
      await waitForText(view, /Retired: plan plan-\w+ removed the entry's file/, 30_000);
      await press(view, ']');
      const again = await waitForText(view, /"configuration loaded": \d+ found · generation \d+/);
      assert.doesNotMatch(again, /Where configuration is loaded/, 'the retired entry is no longer listed');
      assertFits(again);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
