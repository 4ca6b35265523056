// The Memory screen's `e` on an open entry opens the person's editor (issue 29, item 3: "edit
// through a new candidate"), over a real host and a real git repository, with a real editor
// process ($EDITOR is a node script that rewrites the file): raw mode goes off while the editor
// runs and comes back after; the new candidate holds the edited text, is marked as revising the
// entry, and prepares as an update of the entry's own file whose diff swaps the edited line. An
// unchanged edit and a failing editor make nothing; with no editor set, `e` makes a copy and says
// how to set one; Review lists what was made without being read again by hand. Every frame within
// 80×24.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { type EditorSpawn, shellSpawn } from '../../source/ground/text-editor.js';
import { Host } from '../../source/host/host.js';
import { SCREEN_CLIENT } from '../../source/memory/revision-clients.js';
import { shellQuote } from '../../source/shell-quote.js';
import { textColumns } from '../../source/text-columns.js';
import * as c from '../support/capture.js';
import { git, gitRepo, tempHome } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { act, KEY, mount, press, unmount, type View, waitForText } from '../support/tui-harness.js';

after(() => c.closeStores());

const FAKE_EDITOR = join(import.meta.dirname, '..', 'support', 'fake-editor.mjs');
const OLD_LINE = 'Configuration is loaded by `src/legacy/config.ts`; run `pnpm run lint:legacy` after editing it.';
const NEW_LINE = 'Configuration is loaded by `src/config/load.ts`; run `pnpm run lint` after editing it.';

function repository(home: string): string {
  const repo = gitRepo(home, 'repo');
  writeEntry(projectRoot(repo), 'legacy-config', 'Where configuration is loaded', OLD_LINE);
  git(repo, 'add', '--all');
  git(repo, 'commit', '-q', '-m', 'start');
  return repo;
}

function assertFits(frame: string) {
  const lines = frame.split('\n');
  assert.ok(lines.length <= 24, `${lines.length} rows:\n${frame}`);
  for (const line of lines) assert.ok(textColumns(line) <= 80, `wider than 80: ${line}`);
}

async function narrow(view: View) {
  await act(async () => {
    Object.defineProperty(view.stdout, 'columns', { value: 80, configurable: true });
    (view.stdout as unknown as NodeJS.EventEmitter).emit('resize');
  });
}

/** Memory → Entries, the entry found by a search and opened. */
async function openEntry(view: View) {
  await press(view, '7');
  await waitForText(view, /\[Review\] Prepare & promote Entries Extraction/);
  await press(view, ']');
  await press(view, ']');
  await waitForText(view, /\[Entries\]/);
  await press(view, '/');
  for (const key of 'configuration') await press(view, key);
  await press(view, KEY.enter);
  await waitForText(view, /Where configuration is loaded/);
  await press(view, KEY.enter);
  const open = await waitForText(view, /e edit/);
  assert.match(open, /legacy-config/);
}

describe('Memory screen: e edits the open entry in $EDITOR into a revising candidate', { timeout: 120_000 }, () => {
  test('the edit becomes the candidate; unchanged or a failing editor makes nothing; no editor makes a copy', async () => {
    const home = tempHome('tui-memory-revise');
    const repo = repository(home);
    const host = await Host.start({ home, serve: false });
    const shown = join(mkdtempSync(join(tmpdir(), 'tui-revise-log-')), 'shown.md');
    // Read at each e: a test changes what the editor does between presses.
    const env: Record<string, string | undefined> = {
      EDITOR: `${shellQuote(process.execPath)} ${shellQuote(FAKE_EDITOR)}`,
      FAKE_EDITOR_LOG: shown,
      FAKE_EDITOR_REPLACE: OLD_LINE,
      FAKE_EDITOR_WITH: NEW_LINE,
    };
    const events: Array<string | boolean> = [];
    const spawn: EditorSpawn = (command, file, given) => {
      events.push('editor');
      return shellSpawn(command, file, given);
    };
    const view = await mount(host.application, home, { cwd: repo, editor: { env, spawn } });
    try {
      await host.application.memorySync({ cwd: repo });
      await narrow(view);
      await openEntry(view);
      // Raw mode as the screen sets it from here on: off for the editor, on again after.
      (view.stdin as unknown as { setRawMode: (on: boolean) => void }).setRawMode = (on) => events.push(on);

      await press(view, 'e');
      const made = await waitForText(view, /Candidate cand-\w+ made from your edit of\s+legacy-config/);
      assertFits(made);
      assert.deepEqual(events, [false, 'editor', true], 'raw mode off while the editor runs, then on again');
      assert.equal(
        readFileSync(shown, 'utf8'),
        `---\ntitle: "Where configuration is loaded"\nappliesWhen: "working in this repository"\ntype: "work_method"\n---\n${OLD_LINE}\n`,
      );
      const review = await host.application.memoryReview({ cwd: repo, scope: 'project' });
      assert.equal(review.candidates.length, 1);
      const [candidate] = review.candidates;
      assert.equal(candidate!.content, `${NEW_LINE}\n`, "the candidate's text is the edited one");
      assert.match(JSON.stringify(candidate), new RegExp(SCREEN_CLIENT));
      const plan = await host.application.memoryPrepare({ candidateIds: [candidate!.candidateId], cwd: repo });
      assert.deepEqual(
        plan.files.map((file) => [file.action, file.entryId, file.path]),
        [['update', 'legacy-config', 'work_method/legacy-config.md']],
      );
      const diff = plan.diff.split('\n');
      assert.ok(diff.includes(`-${OLD_LINE}`) && diff.includes(`+${NEW_LINE}`), plan.diff);

      // Saved without a change: nothing is made, and the screen says so.
      delete env.FAKE_EDITOR_REPLACE;
      await press(view, 'e');
      assertFits(await waitForText(view, /Nothing changed in legacy-config: no candidate was\s+made\./));

      // An editor that fails (it edited, then exited 2): nothing is made.
      env.FAKE_EDITOR_REPLACE = OLD_LINE;
      env.FAKE_EDITOR_EXIT = '2';
      await press(view, 'e');
      const failed = await waitForText(view, /exited with status\s+2;\s+nothing\s+was\s+made/);
      assertFits(failed);

      // No editor: today's copy, and how to set one.
      delete env.EDITOR;
      await press(view, 'e');
      const copy = await waitForText(view, /a copy of legacy-config marked as\s+revising it/);
      assert.match(copy.replace(/\n/g, ' '), /set VISUAL or EDITOR/);
      assertFits(copy);
      assert.equal(events.filter((event) => event === 'editor').length, 3, 'no editor was run without one');
      const after = await host.application.memoryReview({ cwd: repo, scope: 'project' });
      assert.deepEqual(
        after.candidates.map((item) => item.content).sort(),
        [`${NEW_LINE}\n`, `${OLD_LINE}`].sort(),
        'the edit and the copy, nothing from the unchanged or failed edits',
      );
      // The copy's plan rewrites the file, keeping the entry's evidence: who said it, who confirmed it.
      const copied = after.candidates.find((item) => item.content === OLD_LINE)!;
      const copyPlan = await host.application.memoryPrepare({ candidateIds: [copied.candidateId], cwd: repo });
      assert.deepEqual(
        copyPlan.diff.split('\n').filter((line) => /^[-+]evidence:/.test(line)),
        [],
        copyPlan.diff,
      );

      // Review lists the copy with the edit at once, with no r to read the queue again.
      await press(view, '[');
      await press(view, '[');
      assertFits(await waitForText(view, /\[Review\][\s\S]*2 queued \(2 draft/));
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
