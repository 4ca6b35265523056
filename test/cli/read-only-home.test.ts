// Reads on a data home that cannot be written (a read-only mount, a backup, chmod a-w): they work,
// and write nothing. How the test binds: the permission bits bind every user but root, and tests
// run as root here, so the reads run as the unprivileged user `nobody` (uid 65534) on a home that
// belongs to it with its write bits removed (0555 directory, 0444 files). Not root, the test's own
// user is bound by the same bits. The kernel refuses creating `core.sqlite-wal` then (EACCES),
// which is exactly what a read-only mount does (EROFS).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, runCli, tempHome } from '../support/cli.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** Runs the shipped bin as the user the permission bits bind. */
function runBound(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', HOME: cwd },
    timeout: 30_000,
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Takes write permission away from the home and every file in it, for the user runBound runs as. */
function makeReadOnly(home: string): void {
  chmodSync(dirname(home), 0o755); // the bound user must reach it
  for (const name of readdirSync(home)) {
    if (asRoot) chownSync(join(home, name), NOBODY, NOBODY);
    chmodSync(join(home, name), 0o444);
  }
  if (asRoot) chownSync(home, NOBODY, NOBODY);
  chmodSync(home, 0o555);
}

describe('a read-only data home', { timeout: 120_000 }, () => {
  it('log, timeline, status, sessions and memory reads work and leave the home as it was', async () => {
    const home = tempHome('read-only');
    assert.equal((await runCli(['note', 'written before', '--home', home])).code, 0);
    // memory-state.sqlite too (a WAL store of its own): sync creates it.
    assert.equal((await runCli(['memory', 'sync', '--home', home], { cwd: dirname(home) })).code, 0);
    makeReadOnly(home);
    const files = readdirSync(home).sort();
    // The binding itself: the bound user cannot create a file in the home.
    const touch = spawnSync('sh', ['-c', `: > "${join(home, 'probe')}"`], {
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    assert.notEqual(touch.status, 0, 'the home must refuse a new file for the bound user');

    const log = runBound(['log', '--json', '--home', home], dirname(home));
    assert.equal(log.code, 0, log.stderr);
    const rows = (JSON.parse(log.stdout) as { rows: { payload: { text?: string } }[] }).rows;
    assert.ok(rows.some((row) => row.payload.text === 'written before'));
    for (const args of [
      ['timeline'],
      ['status'],
      ['sessions'],
      ['memory', 'status'],
      ['memory', 'search', 'anything'],
      ['memory', 'review'],
      ['log', '--limit', '1'],
    ]) {
      const result = runBound([...args, '--json', '--home', home], dirname(home));
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    }
    assert.deepEqual(readdirSync(home).sort(), files, 'the reads created nothing');
    const write = runBound(['note', 'now', '--home', home], dirname(home));
    assert.equal(write.code, 7, 'a write still fails, with the store-unavailable code');
  });
});
