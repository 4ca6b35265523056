// Every exit code in docs/exit-codes.md's table, produced by the shipped bin the way a user meets it.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { flush, hookFiles } from '../support/capture.js';
import { gitRepo, runCli, startCli, startHost, stopHost, tempHome, waitFor } from '../support/cli.js';
import { queueSession } from '../support/memory-corpus.js';
import { copyInstall } from '../support/copied-install.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';

const README = readFileSync(new URL('../../docs/exit-codes.md', import.meta.url), 'utf8');
const documented = [...README.slice(README.indexOf('## Exit codes')).matchAll(/^\| (\d+) \|/gm)].map((match) =>
  Number(match[1]),
);
const produced = new Set<number>();

const expectExit = (result: { code: number | null; stderr: string }, code: number, message?: RegExp) => {
  assert.equal(result.code, code, result.stderr);
  if (message) assert.match(result.stderr, message);
  produced.add(code);
};

describe('exit codes', { timeout: 240_000 }, () => {
  it('0, 2, 5, 6, 7, 9 and 10 without a host', async () => {
    const home = tempHome('exit');
    expectExit(await runCli(['note', 'hello', '--operation-id', 'op-1', '--home', home]), 0);
    expectExit(await runCli(['log', '--limt', '3', '--home', home]), 2, /Unknown flag --limt\. Did you mean --limit\?/);
    expectExit(await runCli(['note', 'other', '--operation-id', 'op-1', '--home', home]), 5, /already used/);
    expectExit(await runCli(['operation', 'op-nope', '--home', home]), 6, /No operation "op-nope"/);
    expectExit(await runCli(['note', '-', '--home', home], { input: 'x'.repeat(1024 * 1024 + 1) }), 10);
    const broken = tempHome('exit-broken');
    mkdirSync(storeFiles(broken).core, { recursive: true });
    expectExit(await runCli(['note', 'x', '--home', broken]), 7, /Cannot use the data home/);
    const db = new Database(storeFiles(home).core);
    db.prepare("UPDATE heads SET head = head + 5 WHERE stream = 'journal'").run();
    db.close();
    const doctor = await runCli(['doctor', '--home', home]);
    expectExit(doctor, 9);
    assert.match(doctor.stdout, /violation journal\.head/);
  });

  it('--json errors, unknown commands and flags included, are one JSON object with a hint', async () => {
    const command = await runCli(['timelin', '--json']);
    assert.equal(command.code, 2);
    assert.deepEqual(JSON.parse(command.stderr), {
      error: {
        code: 'usage',
        message: 'Unknown command "timelin". Did you mean timeline? Run common-memory --help for the list.',
      },
    });
    const flag = await runCli(['log', '--folow', '--json']);
    assert.equal(flag.code, 2);
    assert.match(JSON.parse(flag.stderr).error.message, /Unknown flag --folow\. Did you mean --follow\?/);
  });

  it('3: flush while a session is still running', async () => {
    const home = tempHome('exit-3');
    const [sessionStart] = hookFiles('claude', '01-plain');
    const hook = await runCli(['hook', 'claude', '--home', home], { input: readFileSync(sessionStart!) });
    assert.equal(hook.code, 0, hook.stderr);
    expectExit(await runCli(['flush', '--home', home]), 3);
  });

  it('1, 4, 8 and 11 around a host', async () => {
    const home = tempHome('exit-host');
    expectExit(await runCli(['note', 'first', '--home', home]), 0);
    expectExit(await runCli(['agent', 'start', 'a', '--home', home]), 8, /No common-memory host is running/);
    const { child, info } = await startHost(home, {
      COMMON_MEMORY_PI_COMMAND: JSON.stringify({ command: '/nonexistent/bin/pi', args: [] }),
    });
    try {
      expectExit(await runCli(['host', '--home', home]), 4, /Store already open/);
      expectExit(await runCli(['agent', 'create', 'a', '--home', home]), 0);
      expectExit(await runCli(['prompt', 'a', 'hello', '--home', home]), 13, /a is not running.*agent start a/s);
      expectExit(await runCli(['agent', 'start', 'a', '--home', home]), 1, /Could not start pi/);
      // A host that holds the data home but answers nothing: a bounded wait, then 8.
      process.kill(info.pid, 'SIGSTOP');
      const started = Date.now();
      try {
        expectExit(
          await runCli(['note', 'anyone there?', '--home', home]),
          8,
          new RegExp(`pid ${info.pid}.*did not answer within`),
        );
      } finally {
        process.kill(info.pid, 'SIGCONT');
      }
      assert.ok(Date.now() - started < 12_000, `waited ${Date.now() - started} ms`);
    } finally {
      await stopHost(child);
    }
  });

  it('130: Ctrl+C in log --follow and in the TUI (which still stops its host in order)', async () => {
    const home = tempHome('exit-130');
    expectExit(await runCli(['note', 'first', '--home', home]), 0);
    const follower = startCli(['log', '--follow', '--home', home]);
    let followed = '';
    follower.stdout!.on('data', (chunk: Buffer) => (followed += chunk.toString()));
    await waitFor('the follower to print the note', () => followed.includes('client.note') || undefined);
    follower.kill('SIGINT');
    expectExit({ code: await new Promise((resolve) => follower.once('exit', resolve)), stderr: '' }, 130);

    const tui = spawnInTerminal(
      [process.execPath, join(import.meta.dirname, '../../bin/common-memory.cjs')],
      terminalEnv({ COMMON_MEMORY_HOME: home }),
    );
    let output = '';
    tui.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => tui.on('exit', (code) => resolve(code)));
    try {
      await waitFor(
        'the TUI with its host up',
        () => (output.includes('mode host') && existsSync(storeFiles(home).hostInfo)) || undefined,
        30_000,
      );
      tui.stdin.write('\u0003');
      const code = await Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no exit after Ctrl+C:\n${output.slice(-1000)}`)), 30_000),
        ),
      ]);
      expectExit({ code, stderr: output.slice(-500) }, 130);
      assert.equal(existsSync(storeFiles(home).hostInfo), false, 'the host stopped in order');
    } finally {
      tui.kill('SIGKILL');
    }
  });

  it('1: an installation that cannot run (not built) names the command that repairs it', () => {
    const root = mkdtempSync(join(tmpdir(), 'cm-exit-1-'));
    try {
      const copy = copyInstall(join(root, 'common-memory'));
      rmSync(join(copy.dir, 'dist'), { recursive: true });
      const result = spawnSync(process.execPath, [copy.bin, 'status', '--home', join(root, 'home')], {
        encoding: 'utf8',
      });
      expectExit({ code: result.status, stderr: result.stderr }, 1, /is not built .* To fix, build it: cd /);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('11 and 12: memory lint finds a secret; a damaged memory-state.sqlite', async () => {
    const home = tempHome('exit-memory');
    // Not the key AWS documents as an example (…EXAMPLE): the lint takes that one for a placeholder.
    expectExit(await runCli(['memory', 'lint', '-', '--home', home], { input: 'key: AKIAIOSFODNN7EXAMPL3\n' }), 11);
    expectExit(await runCli(['note', 'first', '--home', home]), 0);
    writeFileSync(join(home, 'memory-state.sqlite'), 'not a database, '.repeat(300));
    expectExit(await runCli(['memory', 'review', '--home', home]), 12, /memory-state\.sqlite .* is damaged/);
  });

  it('14 and 15: an external runner stops at its plan until approved; a permissive one fails its probe', async () => {
    const home = tempHome('exit-14');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, ['From now on, use pnpm instead of npm in this repo.']);
    await flush(home);
    const runner = new URL('../support/fake-command-runner.mjs', import.meta.url).pathname;
    const profile = (mode: string) =>
      writeFileSync(
        join(home, 'runners.json'),
        JSON.stringify({
          profiles: [
            {
              name: 'ext',
              kind: 'command',
              argv: [process.execPath, runner, mode, join(home, 'record')],
              provider: 'p',
              model: 'm',
              endpoint: 'http://127.0.0.1:9',
            },
          ],
        }),
      );
    profile('good');
    const result = await runCli(['memory', 'extract', '--runner', 'ext', '--since', '2026-01-01', '--home', home], {
      cwd: repo,
    });
    expectExit(result, 14);
    profile('permissive');
    expectExit(await runCli(['memory', 'reverify-runner', '--runner', 'ext', '--home', home]), 15, /at "shell"/);
    assert.match(result.stdout, /nothing was sent yet[\s\S]*--approve-plan [0-9a-f]{64}/);
    assert.equal(existsSync(join(home, 'record')), false);
  });

  it("every code in docs/exit-codes.md's table was produced above", () => {
    assert.ok(documented.length >= 14, `read ${documented.join(', ')} from docs/exit-codes.md`);
    assert.deepEqual(
      [...produced].sort((a, b) => a - b),
      [...documented].sort((a, b) => a - b),
    );
  });
});
