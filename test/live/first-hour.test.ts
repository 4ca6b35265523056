// A newcomer's first hour, end to end: `common-memory install claude|codex` writes the hooks into a
// sandboxed Claude Code config dir / Codex home, the real client answers one prompt (a fake model
// server on loopback), and the shipped TUI in a real terminal (80x24) shows that conversation: the
// session in the Sessions screen, what was said in full, the assistant's answer with c.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BIN, runCli, waitFor } from '../support/cli.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';
import { FAKE_TEXT_ANSWER, runClaude, runCodex, trustInstalledCodexHooks, withClaude, withCodex } from './harness.js';

const PROMPT = 'Say hello to the newcomer please';

/**
 * Opens the shipped TUI on `home` in a real terminal and walks it as a newcomer: 6 Sessions, the
 * captured session in the list, Enter for what was said, c for the answer, q. `clientLine` is what
 * the session's list row shows (client, state, start time and turn count).
 */
async function seeItInTheTui(home: string, configFlags: string[], clientLine: RegExp): Promise<void> {
  const tui = spawnInTerminal([process.execPath, BIN, '--home', home, ...configFlags], terminalEnv());
  try {
    let output = '';
    tui.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => tui.on('exit', (code) => resolve(code)));
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
        tui.stdin.write('6');
        return undefined;
      },
      60_000,
    );
    // The TUI's host drains the hooks' inbox as it starts; r reads the list again until it is there,
    // its turn sealed: the first prompt can be listed while the turn is still pending (0 turns).
    await waitFor(
      'the captured session in the list',
      () => {
        if (output.includes(`"${PROMPT}"`) && clientLine.test(output)) return true;
        tui.stdin.write('r');
        return undefined;
      },
      60_000,
    ).catch((error: Error) => assert.fail(`${error.message}\n${output.slice(-3000)}`));
    assert.match(output, clientLine, output.slice(-1500));
    // The TUI may still be busy with the last r: keys typed meanwhile reach it as one input ("r\r"),
    // which it leaves alone (it may be a paste). Enter is pressed until the opened session's keys
    // show (Enter does nothing there), and c once that frame is drawn (a second c would fold).
    const lastKeys = () => /(?:show|fold) context|Enter open/g.exec(output.slice(output.lastIndexOf('↑↓')))?.[0];
    await waitFor(
      'the session open',
      () => {
        if (lastKeys() === 'show context') return true;
        tui.stdin.write('\r');
        return undefined;
      },
      60_000,
    ).catch((error: Error) => assert.fail(`${error.message}\n${output.slice(-3000)}`));
    const said = output.lastIndexOf('you:');
    assert.ok(said >= 0 && output.slice(said).includes(PROMPT), `what was said is shown: ${output.slice(-1500)}`);
    const mark = output.length;
    tui.stdin.write('c');
    await waitFor('the context shown', () => (lastKeys() === 'fold context' ? true : undefined), 30_000);
    // The client's harness text may come first: page down to the answer.
    await waitFor(
      "the assistant's answer with the context shown",
      () => {
        if (output.slice(mark).includes(FAKE_TEXT_ANSWER)) return true;
        tui.stdin.write('\u001B[6~');
        return undefined;
      },
      60_000,
    ).catch((error: Error) => assert.fail(`${error.message}\n${output.slice(-3000)}`));
    tui.stdin.write('q');
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the TUI did not quit')), 30_000)),
    ]);
    assert.equal(code, 0, output.slice(-500));
  } finally {
    tui.kill('SIGKILL');
  }
}

test('install the hooks, run Claude Code, open the TUI: the captured conversation is there in full', {
  timeout: 180_000,
}, async () => {
  await withClaude(async ({ sandbox, home }) => {
    const installed = await runCli(['install', 'claude', '--claude-dir', sandbox.configDir, '--home', home]);
    assert.equal(installed.code, 0, installed.stderr);
    const run = await runClaude(sandbox, { prompt: PROMPT });
    assert.equal(run.exitCode, 0, run.stderr);
    await seeItInTheTui(
      home,
      ['--claude-dir', sandbox.configDir],
      /claude\s+\S+\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+1 turn/,
    );
  });
});

test('install the hooks, trust them, run Codex, open the TUI: the captured conversation is there in full', {
  timeout: 240_000,
}, async () => {
  await withCodex(async ({ sandbox, home }) => {
    const installed = await runCli(['install', 'codex', '--codex-home', sandbox.codexHome, '--home', home, '--json']);
    assert.equal(installed.code, 0, installed.stderr);
    const { command, path } = JSON.parse(installed.stdout) as { command: string; path: string };
    // Trusted the way install explains (its scripted way: each hook's hash from codex app-server
    // into config.toml), so Codex runs the hooks with no bypass flag, as it will every day after.
    const { listed, ours } = await trustInstalledCodexHooks(sandbox, command);
    assert.ok(ours.length > 0, `Codex lists our hooks: ${JSON.stringify(listed)}`);
    const run = await runCodex({ ...sandbox, hooksPath: path, trust: 'trusted-hash' }, { prompt: PROMPT });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(!run.args.includes('--dangerously-bypass-hook-trust'));
    await seeItInTheTui(
      home,
      ['--codex-home', sandbox.codexHome],
      /codex\s+\S+\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+1 turn/,
    );
  });
});
