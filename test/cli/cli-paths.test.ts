// Data homes and config dirs that cannot be made, through the shipped bin: each fails at once with
// exit 7 and one line that names the path and why, never a loop of failed mkdir calls.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

/** A path whose parent exists but which cannot be created: mkdir answers ENOENT below /proc. */
const UNCREATABLE = '/proc/common-memory-test/home';

describe('paths that cannot be created', { timeout: 120_000 }, () => {
  it('note with a home that cannot be created fails at once: exit 7, one line', async () => {
    const started = Date.now();
    // Before the fix this spun forever (mkdir of the path, ENOENT; of its parent, EEXIST; again).
    const result = await runCli(['note', 'hello', '--home', UNCREATABLE], { timeoutMs: 10_000 });
    assert.equal(result.code, 7, result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /Cannot create the data home \/proc\/common-memory-test\/home/);
    assert.ok(Date.now() - started < 10_000);
    const json = await runCli(['note', 'hello', '--home', '/proc/x', '--json'], { timeoutMs: 10_000 });
    assert.equal(json.code, 7);
    assert.equal(JSON.parse(json.stderr).error.code, 'store_unavailable');
  });

  it('a home that is a link to nowhere says where it leads, for a write and a read', async () => {
    const home = tempHome('dangling-home');
    mkdirSync(dirname(home), { recursive: true });
    symlinkSync(join(dirname(home), 'gone', 'home'), home);
    const write = await runCliInProcess(['note', 'hello', '--home', home]);
    assert.equal(write.code, 7, write.stderr);
    assert.match(
      write.stderr,
      /The data home .*dangling-home-\w+\/home is a link to .*gone\/home, which does not exist/,
    );
    assert.doesNotMatch(write.stderr, /ENOENT/);
    const read = await runCliInProcess(['status', '--home', home]);
    assert.equal(read.code, 7, read.stderr);
    assert.match(read.stderr, /is a link to .*gone\/home, which does not exist/);
    assert.ok(lstatSync(home).isSymbolicLink(), 'the link stays');
    assert.equal(existsSync(join(dirname(home), 'gone')), false, 'nothing made where it leads');
  });

  it('a home that is a file, or below one, says so', async () => {
    const file = join(dirname(tempHome('file-home')), 'a-file');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'not a directory');
    const itself = await runCli(['note', 'hello', '--home', file], { timeoutMs: 10_000 });
    assert.equal(itself.code, 7);
    assert.match(itself.stderr, /The data home .*a-file is a file, not a directory/);
    assert.equal(itself.stderr.trim().split('\n').length, 1);
    const below = await runCli(['note', 'hello', '--home', join(file, 'home')], { timeoutMs: 10_000 });
    assert.equal(below.code, 7);
    assert.match(below.stderr, /Cannot create the data home .*a-file\/home: .*a-file is a file, not a directory/);
  });

  it('a hook event with such a home ends at once (exit 0: the agent goes on)', async () => {
    const result = await runCli(['hook', 'claude', '--home', UNCREATABLE], {
      input: JSON.stringify({ session_id: 's', hook_event_name: 'SessionStart', cwd: '/', source: 'startup' }),
      timeoutMs: 10_000,
    });
    assert.equal(result.code, 0, result.stderr);
  });

  it('install into a config dir that cannot be created fails at once: exit 7, nothing written', async () => {
    const home = tempHome('install-proc');
    for (const [client, flag] of [
      ['claude', '--claude-dir'],
      ['codex', '--codex-home'],
      ['pi', '--pi-dir'],
    ] as const) {
      const result = await runCli(['install', client, flag, UNCREATABLE, '--home', home], { timeoutMs: 10_000 });
      assert.equal(result.code, 7, `${client}: ${result.stderr}`);
      assert.match(result.stderr, /Cannot create \/proc\/common-memory-test\/home/, client);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    }
    assert.equal(existsSync(home), false);
  });
  it('install and uninstall with a config dir that is a file: exit 7 naming it, never an internal error', async () => {
    const home = tempHome('install-file');
    const file = join(dirname(home), 'a-file');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'not a directory');
    for (const [action, client, flag] of [
      ['install', 'claude', '--claude-dir'],
      ['install', 'codex', '--codex-home'],
      ['install', 'pi', '--pi-dir'],
      ['uninstall', 'claude', '--claude-dir'],
      ['install', 'claude', '--dry-run'],
    ] as const) {
      const args = flag === '--dry-run' ? [action, client, '--claude-dir', file, flag] : [action, client, flag, file];
      const result = await runCliInProcess([...args, '--home', home, '--json']);
      assert.equal(result.code, 7, `${args.join(' ')}: ${result.stderr}`);
      const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string } };
      assert.equal(error.code, 'store_unavailable', args.join(' '));
      assert.match(error.message, /a-file is a file, not a directory.*Nothing was changed/, args.join(' '));
      assert.doesNotMatch(error.message, /ENOTDIR/);
    }
    assert.equal(readFileSync(file, 'utf8'), 'not a directory');
  });
  it('run from a directory that was removed: exit 2 saying so, never "uv_cwd" or "the writer failed to start"', () => {
    const home = tempHome('gone-cwd');
    const gone = join(dirname(home), 'gone');
    mkdirSync(gone);
    for (const args of [
      ['memory', 'status'],
      ['note', 'hello'],
      ['get', 'x', '--json'],
    ]) {
      // The shell enters the directory and removes it; the command then starts in it.
      const run = spawnSync(
        'sh',
        [
          '-c',
          'cd "$1" && rmdir "$1" && shift && exec "$@"',
          'sh',
          gone,
          process.execPath,
          BIN,
          ...args,
          '--home',
          home,
        ],
        {
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
      mkdirSync(gone);
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /The current directory no longer exists.*cd to one that does/, args.join(' '));
      assert.doesNotMatch(run.stderr, /uv_cwd|writer failed/);
      if (args.includes('--json')) assert.equal(JSON.parse(run.stderr).error.code, 'usage');
    }
    assert.equal(existsSync(home), false, 'nothing was created');
  });
});
