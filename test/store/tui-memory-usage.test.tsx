// The Memory screen's Usage view and an entry's usage line over a real host, at 80x24: the totals,
// the retirement suggestions with their reasons (a stale entry, entries unused since counting
// began), and nothing retired. The counts an open entry shows come from `get`.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import { Host } from '../../source/host/host.js';
import { textColumns } from '../../source/text-columns.js';
import { syncedRepo } from '../support/approved-repo.js';
import { runCli } from '../support/cli.js';
import * as c from '../support/capture.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { act, KEY, mount, press, unmount, type View, waitForText } from '../support/tui-harness.js';

after(() => c.closeStores());

/** The screen as a terminal of 80 columns and 24 rows shows it. */
async function at80x24(view: View): Promise<void> {
  await act(async () => {
    Object.defineProperty(view.stdout, 'columns', { value: 80, configurable: true });
    Object.defineProperty(view.stdout, 'rows', { value: 24, configurable: true });
    view.stdout.emit('resize');
  });
}

function assertFits(frame: string) {
  const lines = frame.split('\n');
  assert.ok(lines.length <= 24, `${lines.length} rows:\n${frame}`);
  for (const line of lines) assert.ok(textColumns(line) <= 80, `over 80 columns: ${line}`);
}

describe('Memory screen: Usage', { timeout: 120_000 }, () => {
  test('the Usage view lists the suggestions with their reasons; an open entry has its usage line', async () => {
    const { home, repo } = await syncedRepo('tui-usage');
    writeEntry(
      projectRoot(repo),
      'legacy-config',
      'Where configuration is loaded',
      'It lives in `src/gone/config.ts`.',
    );
    assert.equal((await runCli(['memory', 'sync', '--home', home], { cwd: repo })).code, 0);
    const db = new Database(storeFiles(home).memoryState);
    db.prepare("UPDATE memory_state_meta SET value = ? WHERE key = 'usage_since'").run(
      new Date(Date.now() - 200 * 86_400_000).toISOString(),
    );
    db.close();
    const host = await Host.start({ home, serve: false });
    const view = await mount(host.application, home, { cwd: repo });
    await at80x24(view);
    try {
      await press(view, '7');
      await waitForText(view, /\[Review\]/);
      await press(view, '[');
      const frame = await waitForText(
        view,
        /retirement suggestions \(stale, or not read nor re-taught in 90 days\): 3/,
      );
      assert.match(frame, /\[Usage\]/);
      assert.match(frame, /: 3\nnothing is retired without your approval/);
      // Read as one text: lines wrap at 80 columns.
      const joined = frame.replace(/\s*\n\s*/g, ' ');
      assert.match(
        frame,
        /\nusefulness since \d{4}-\d\d-\d\d: given 0 times, read 0, re-taught 0, over 0 entries\n/,
        'one line',
      );
      assert.match(
        frame,
        /legacy-config \(project\) "Where configuration is loaded"\n +stale: `src\/gone\/config\.ts` does not exist/,
      );
      assert.match(
        frame,
        /use-pnpm \(project\) "Use pnpm, not npm"\n +never read by an agent nor re-taught since counting began/,
      );
      assert.match(joined, /named-exports \(user\)/);
      assertFits(frame);

      // Entries (] from Usage wraps to Review; [ [ reaches Entries): the stale entry, opened, has its counts.
      await press(view, '[');
      await press(view, '[');
      await waitForText(view, /\[Entries\]/);
      await waitForText(view, /Stale entries: 1/);
      await press(view, KEY.enter);
      const entry = await waitForText(view, /usage: given 0 · read 0 · re-taught 0/);
      assertFits(entry);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
