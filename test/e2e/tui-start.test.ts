// The shipped `common-memory` TUI in a real terminal (a pty from `script`): the first frame is drawn
// while the in-process host starts, a host that cannot start closes the TUI with its error, and
// SIGTERM stops the host it started.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { BIN, startHost, stopHost, tempHome, waitFor } from '../support/cli.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';
import { startTmux } from '../live/tmux.js';

function startTui(home: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const child = spawnInTerminal([process.execPath, BIN, ...args], terminalEnv({ COMMON_MEMORY_HOME: home, ...env }));
  const run = {
    output: '',
    exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stdout.on('data', (chunk: Buffer) => (run.output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (run.output += chunk.toString('utf8')));
  return { child, run };
}

const exitWithin = (exited: Promise<number | null>, output: () => string) =>
  Promise.race([
    exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no exit; output:\n${output().slice(-2000)}`)), 30_000),
    ),
  ]);

describe('the shipped TUI in a real terminal', { timeout: 120_000 }, () => {
  test('draws its first frame, then the host it started answers; SIGTERM stops that host and exits 0', async () => {
    const home = tempHome('tui-start');
    const { child, run } = startTui(home);
    try {
      await waitFor('the first frame', () => (run.output.includes('Dashboard') ? true : undefined), 30_000);
      await waitFor(
        'the dashboard with the host up',
        () => (run.output.includes('mode host') && existsSync(join(home, 'host.json')) ? true : undefined),
        30_000,
      );
      const { pid } = JSON.parse(readFileSync(join(home, 'host.json'), 'utf8')) as { pid: number };
      process.kill(pid, 'SIGTERM');
      assert.equal(await exitWithin(run.exited, () => run.output), 0, run.output.slice(-500));
      assert.ok(run.output.includes('\u001B[?1049l'), 'the alternate screen was left');
      assert.ok(!existsSync(join(home, 'host.json')), 'the host it started stopped and removed host.json');
    } finally {
      child.kill('SIGKILL');
      await rm(dirname(home), { recursive: true, force: true });
    }
  });

  test('--claude-dir and --codex-home are the config the Integrations screen reads and plans for', async () => {
    const home = tempHome('tui-integrations');
    const root = dirname(home);
    // A user home of its own, so a screen that ignored the flags would show this ~/.claude, not the real one.
    const userHome = join(root, 'user');
    const claudeDir = join(root, 'claude-config');
    const codexHome = join(root, 'codex-home');
    for (const dir of [userHome, claudeDir, codexHome]) mkdirSync(dir, { recursive: true });
    const { child, run } = startTui(home, ['--claude-dir', claudeDir, '--codex-home', codexHome], {
      HOME: userHome,
      CLAUDE_CONFIG_DIR: '',
      CODEX_HOME: '',
    });
    try {
      await waitFor('the first frame', () => (run.output.includes('Dashboard') ? true : undefined), 30_000);
      child.stdin.write('5');
      // A client's line longer than 80 columns names its file only while it is highlighted: ↓ to Claude Code.
      await waitFor(
        'the Integrations screen',
        () => (run.output.includes(`${root}/codex-home`) ? true : undefined),
        30_000,
      );
      child.stdin.write('j');
      await waitFor(
        'the Integrations screen naming the given dirs',
        () =>
          run.output.includes(`${root}/claude-config`) && run.output.includes(`${root}/codex-home`) ? true : undefined,
        30_000,
      );
      assert.ok(!run.output.includes(join(userHome, '.claude')), 'the default ~/.claude was never shown');
      child.stdin.write('q');
      assert.equal(await exitWithin(run.exited, () => run.output), 0, run.output.slice(-500));
    } finally {
      child.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    }
  });

  test('typing ahead once the terminal says it brackets pastes: 5jj⏎ in one write plans pi; a pasted q does not quit', async () => {
    const root = dirname(tempHome('tui-typing-ahead'));
    const home = join(root, 'home');
    const dirs = ['claude', 'codex', 'pi'].map((name) => join(root, name));
    for (const dir of dirs) mkdirSync(dir, { recursive: true });
    const [claudeDir, codexHome, piDir] = dirs as [string, string, string];
    const { child, run } = startTui(home, ['--claude-dir', claudeDir, '--codex-home', codexHome, '--pi-dir', piDir], {
      HOME: root,
    });
    try {
      // A terminal that has bracketed paste answers the TUI's DECRQM at once, before the first frame.
      await waitFor(
        'the bracketed paste query',
        () => (run.output.includes('\u001B[?2004$p') ? true : undefined),
        30_000,
      );
      child.stdin.write('\u001B[?2004;1$y');
      await waitFor('the first frame', () => (run.output.includes('Dashboard') ? true : undefined), 30_000);
      assert.ok(run.output.includes('\u001B[?2004h'), 'bracketed paste was asked for');
      child.stdin.write('5jj\r');
      await waitFor('the plan for pi', () => (run.output.includes('install plan for pi') ? true : undefined), 30_000);
      child.stdin.write('\u001B[200~q\u001B[201~');
      const closing = run.output.length;
      child.stdin.write('\u001B');
      await waitFor(
        'the plan closed, the TUI still up',
        () => (run.output.slice(closing).includes('i/Enter install') ? true : undefined),
        30_000,
      );
      // The terminal's answer came while the TUI set up: in raw mode already, so it was never echoed.
      assert.ok(!run.output.includes('2004;1$y'), 'the answer was not echoed');
      child.stdin.write('q');
      assert.equal(await exitWithin(run.exited, () => run.output), 0, run.output.slice(-500));
      assert.ok(
        run.output.lastIndexOf('\u001B[?2004l') > run.output.lastIndexOf('\u001B[?2004h'),
        'bracketed paste off',
      );
    } finally {
      child.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    }
  });

  test('a TUI of another terminal reconnects when its host comes back on another port', async () => {
    const home = tempHome('tui-reconnect');
    let host = await startHost(home);
    const { child, run } = startTui(home);
    try {
      await waitFor(
        'the client TUI on the first host',
        () =>
          run.output.includes('remote host') && run.output.includes(`host ${host.info.hostId.slice(0, 8)}`)
            ? true
            : undefined,
        30_000,
      );
      const firstPort = host.info.port;
      await stopHost(host.child);
      await waitFor(
        'the header saying the host is down',
        () => (/down \(host_unreachable\)/.test(run.output) ? true : undefined),
        30_000,
      );
      host = await startHost(home);
      assert.notEqual(host.info.port, firstPort, 'the new host listens elsewhere');
      await waitFor(
        'the dashboard naming the new host',
        () => (run.output.includes(`host ${host.info.hostId.slice(0, 8)}`) ? true : undefined),
        30_000,
      );
      child.stdin.write('q');
      assert.equal(await exitWithin(run.exited, () => run.output), 0, run.output.slice(-500));
    } finally {
      child.kill('SIGKILL');
      await stopHost(host.child);
      await rm(dirname(home), { recursive: true, force: true });
    }
  });

  test('at 60×15 every screen keeps the header and the help line; the screen gives up its rows', async () => {
    const home = tempHome('tui-small');
    const root = dirname(home);
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: root, TERM: 'xterm-256color' };
    const tmux = startTmux({
      dir: root,
      cwd: root,
      env: { ...env, COMMON_MEMORY_HOME: home },
      command: [process.execPath, BIN],
      columns: 60,
      rows: 15,
    });
    try {
      await tmux.waitFor('the host up', (screen) => /in-process host · up/.test(screen));
      for (const key of ['1', '2', '3', '4', '5', '6', '7', '1']) {
        tmux.type(key);
        const screen = await tmux.waitFor(`screen ${key} with its header`, (shown) => {
          const lines = shown.split('\n');
          return (
            (lines[0] ?? '').startsWith('common-memory · store') &&
            new RegExp(`\\[${key} `).test(lines[1] ?? '') &&
            // The help line: "… · q quit", or "q quit" alone where no other key acts (an empty Review queue).
            lines.some((line) => /(?:^| )q quit$|…$/.test(line))
          );
        });
        for (const line of screen.split('\n')) assert.ok(line.length <= 60, `wider than the terminal: ${line}`);
      }
      tmux.type('q');
      await tmux.waitFor('the TUI to end', () => !tmux.alive());
    } finally {
      tmux.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  test('a host that cannot start closes the TUI with its error and a failing exit status', async () => {
    const home = tempHome('tui-start-broken');
    mkdirSync(storeFiles(home).core, { recursive: true }); // a directory where the store should be
    const { child, run } = startTui(home);
    try {
      const code = await exitWithin(run.exited, () => run.output);
      assert.notEqual(code, 0, run.output.slice(-500));
      assert.match(run.output, /Cannot use the data home .*core\.sqlite/);
      const entered = run.output.lastIndexOf('\u001B[?1049h');
      assert.ok(entered === -1 || run.output.lastIndexOf('\u001B[?1049l') > entered, 'the terminal was restored');
      const pasting = run.output.lastIndexOf('\u001B[?2004h');
      assert.ok(pasting === -1 || run.output.lastIndexOf('\u001B[?2004l') > pasting, 'bracketed paste was turned off');
    } finally {
      child.kill('SIGKILL');
      await rm(dirname(home), { recursive: true, force: true });
    }
  });
});
