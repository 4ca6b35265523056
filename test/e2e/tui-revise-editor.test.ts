// The shipped TUI in a real terminal (a pty from `script`): the Memory screen's `e` hands the
// terminal to $EDITOR — cooked mode (raw mode off: the editor's terminal has icanon and echo), the
// alternate screen left — and takes it back after: raw mode on, the alternate screen entered again
// and the frame drawn with the message that the candidate was made from the edit.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { shellQuote } from '../../source/shell-quote.js';
import { BIN, git, gitRepo, runCli, tempHome, waitFor } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';

const FAKE_EDITOR = join(import.meta.dirname, '..', 'support', 'fake-editor.mjs');
const OLD_LINE = 'Configuration is loaded by `src/legacy/config.ts`.';
const NEW_LINE = 'Configuration is loaded by `src/config/load.ts`.';

describe('the Memory screen hands the terminal to $EDITOR', { timeout: 120_000 }, () => {
  test('raw mode off and the alternate screen left while the editor runs; the frame back after', async () => {
    const home = tempHome('tui-revise-pty');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'legacy-config', 'Where configuration is loaded', OLD_LINE);
    git(repo, 'add', '--all');
    git(repo, 'commit', '-q', '-m', 'start');
    assert.equal((await runCli(['memory', 'sync', '--home', home], { cwd: repo })).code, 0);
    const logs = mkdtempSync(join(tmpdir(), 'tui-revise-pty-'));
    const stty = join(logs, 'stty.txt');
    const child = spawnInTerminal(
      [process.execPath, BIN],
      terminalEnv({
        COMMON_MEMORY_HOME: home,
        VISUAL: '',
        EDITOR: `${shellQuote(process.execPath)} ${shellQuote(FAKE_EDITOR)}`,
        FAKE_EDITOR_STTY: stty,
        FAKE_EDITOR_REPLACE: OLD_LINE,
        FAKE_EDITOR_WITH: NEW_LINE,
      }),
      repo,
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const seen = (what: string | RegExp, from = 0) =>
      waitFor(
        String(what),
        () => {
          // Colours and cursor moves apart: the words as a person reads them.
          const text = output.slice(from).replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '');
          return (typeof what === 'string' ? text.includes(what) : what.test(text)) ? true : undefined;
        },
        30_000,
      );
    const keys = async (text: string) => {
      for (const key of text) {
        child.stdin.write(key);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
    };
    try {
      await seen('Dashboard');
      // Each wait reads only what was drawn after its key: a word already on an earlier frame
      // must not let the next key go before the view it is meant for.
      const press = async (text: string, what: string | RegExp) => {
        const from = output.length;
        await keys(text);
        await seen(what, from);
      };
      await press('7', /queued \(/);
      await press(']', /No candidates chosen/);
      const entries = output.length;
      await keys(']');
      await seen(/\[Entries\]/, entries);
      await seen(/stale entr|No stale entries|Stale entries/i, entries);
      // The search line is open before a word is typed, and holds the word before Enter.
      await press('/', 'search>');
      await press('configuration', 'search> configuration');
      await press('\r', /"configuration": 1 found/);
      await press('\r', 'e edit');
      const before = output.length;
      await keys('e');
      await seen(/made from your edit of/, before);
      const after = output.slice(before);
      const left = after.indexOf('\u001B[?1049l');
      const entered = after.indexOf('\u001B[?1049h');
      assert.ok(left >= 0 && entered > left, 'the alternate screen was left for the editor, then entered again');
      // The editor gets the terminal without bracketed paste (it may not read the markers); the TUI asks again after.
      const unpasting = after.indexOf('\u001B[?2004l');
      const pasting = after.indexOf('\u001B[?2004h');
      assert.ok(
        unpasting >= 0 && unpasting < entered && pasting > left,
        'bracketed paste off for the editor, on after',
      );
      const mode = readFileSync(stty, 'utf8');
      assert.match(mode, /^stdin is a tty: true$/m);
      assert.match(mode, /(^|\s)icanon(\s|$)/m, `the editor's terminal is cooked:\n${mode}`);
      assert.match(mode, /(^|\s)echo(\s|$)/m, `the editor's terminal echoes:\n${mode}`);
      // Raw mode is back: a single key acts with no Enter.
      await keys('q');
      assert.equal(
        await Promise.race([
          exited,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(output.slice(-2000))), 30_000)),
        ]),
        0,
      );
    } catch (error) {
      const shown = output.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '');
      throw new Error(`${(error as Error).message}; the terminal showed:\n${shown.slice(-1500)}`);
    } finally {
      child.kill('SIGKILL');
      await rm(dirname(home), { recursive: true, force: true });
    }
  });
});
