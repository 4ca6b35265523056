// A newcomer's first hour, end to end: `common-memory install claude` writes the hooks into a
// sandboxed Claude Code config dir, the real Claude Code 2.1.332 answers one prompt (a fake model
// server on loopback), and the shipped TUI in a real terminal shows that conversation: the
// session in the Sessions screen, what was said in full, the assistant's answer with c.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { byPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { BIN, runCli, waitFor } from '../support/cli.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';
import { FAKE_TEXT_ANSWER, createClaudeSandbox, runClaude } from './harness.js';

const PROMPT = 'Say hello to the newcomer please';

test('install the hooks, run Claude Code, open the TUI: the captured conversation is there in full', {
  timeout: 180_000,
}, async () => {
  const server = await startFakeAnthropicServer({ script: byPrompt([], { type: 'text', text: FAKE_TEXT_ANSWER }) });
  const sandbox = await createClaudeSandbox({ baseUrl: server.baseUrl }); // settings.json without hooks
  const home = join(sandbox.root, 'cm-home');
  let tui: ReturnType<typeof spawnInTerminal> | undefined;
  try {
    const installed = await runCli(['install', 'claude', '--claude-dir', sandbox.configDir, '--home', home]);
    assert.equal(installed.code, 0, installed.stderr);
    const run = await runClaude(sandbox, { prompt: PROMPT });
    assert.equal(run.exitCode, 0, run.stderr);

    tui = spawnInTerminal([process.execPath, BIN, '--home', home, '--claude-dir', sandbox.configDir], terminalEnv());
    let output = '';
    tui.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => tui!.on('exit', (code) => resolve(code)));
    const seen = (what: string, text: string | RegExp, after = 0) =>
      waitFor(
        what,
        () => {
          const shown = output.slice(after);
          return (typeof text === 'string' ? shown.includes(text) : text.test(shown)) ? true : undefined;
        },
        60_000,
      );
    await seen('the first frame', 'Dashboard');
    // A key typed before Ink puts the terminal in raw mode waits in the line buffer: press until it shows.
    await waitFor(
      'the Sessions screen',
      () => {
        if (output.includes('[6 Sessions]')) return true;
        tui!.stdin.write('6');
        return undefined;
      },
      60_000,
    );
    // The TUI's host drains the hooks' inbox as it starts; r reads the list again until it is there.
    await waitFor(
      'the captured session in the list',
      () => {
        if (output.includes(`"${PROMPT}"`)) return true;
        tui!.stdin.write('r');
        return undefined;
      },
      60_000,
    ).catch((error: Error) => assert.fail(`${error.message}\n${output.slice(-3000)}`));
    assert.match(output, /claude\s+\S+\s+1 turn/, output.slice(-1500));
    let mark = output.length;
    tui.stdin.write('\r');
    await seen('the session open with what was said', PROMPT, mark);
    mark = output.length;
    tui.stdin.write('c');
    // Claude Code's harness text comes first: page down to the answer.
    await waitFor(
      "the assistant's answer with the context shown",
      () => {
        if (output.slice(mark).includes(FAKE_TEXT_ANSWER)) return true;
        tui!.stdin.write('\u001B[6~');
        return undefined;
      },
      60_000,
    );
    tui.stdin.write('q');
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the TUI did not quit')), 30_000)),
    ]);
    assert.equal(code, 0, output.slice(-500));
  } finally {
    tui?.kill('SIGKILL');
    await server.close();
    await sandbox.cleanup();
  }
});
