// A command run while a host starts (it holds the lease but does not serve yet: migrating, starting
// its threads) waits for it to serve and goes through its API; a host that still does not serve
// after the bound is named, with what to do. The host's start is held at a writer commit boundary
// by the fault injection's delay, as a long migration would hold it.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { FAULTS_ENV } from '../../source/ground/faults.js';
import { storeFiles } from '../../source/home.js';
import { HOST_START_WAIT_MS } from '../../source/limits.js';
import { EXIT } from '../../source/errors.js';
import { runCli, startCli, stopHost, tempHome, waitFor } from '../support/cli.js';

/** The host's start-up step held by the delay: after the store is opened and migrated, before it serves. */
const SLOW_STEP = 'reconcileOnStartup.beforeCommit';

/** Whether someone holds the lease, seen from outside without taking it. */
function leaseHeld(home: string): boolean {
  const path = storeFiles(home).lease;
  if (!existsSync(path)) return false;
  const db = new Database(path, { readonly: true, timeout: 0 });
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (error) {
    if (String((error as { code?: string }).code).startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    db.close();
  }
}

/** Starts `common-memory host` whose start-up is held for `delayMs`; resolves once it holds the lease. */
async function slowHost(home: string, delayMs: number): Promise<{ child: ChildProcess; stdout: () => string }> {
  const child = startCli(['host', '--json', '--home', home], {
    env: { [FAULTS_ENV]: `${SLOW_STEP}=delay:${delayMs}` },
  });
  started.push(child);
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  await waitFor('the host to hold the lease', () => leaseHeld(home) || undefined, 30_000);
  assert.equal(stdout, '', 'the host does not serve yet');
  return { child, stdout: () => stdout };
}

const started: ChildProcess[] = [];
after(async () => {
  for (const child of started) await stopHost(child, 'SIGKILL');
});

describe('a command while a host starts', () => {
  it('waits for the host to serve, then goes through its API', async () => {
    const home = tempHome('host-starting');
    // Long past a one-shot command's own wait for the lease, well within the wait for a starting host.
    const host = await slowHost(home, HOST_START_WAIT_MS / 2);
    const [note, status] = await Promise.all([
      runCli(['note', 'written while the host started', '--json', '--home', home]),
      runCli(['status', '--json', '--home', home]),
    ]);
    assert.equal(note.code, 0, note.stderr);
    assert.equal(status.code, 0, status.stderr);
    // The wait is said once, on stderr; stdout stays the command's JSON.
    assert.match(note.stderr, new RegExp(`the host \\(pid ${host.child.pid}\\) .* is still starting; waiting`));
    assert.equal(note.stderr.match(/waiting up to/g)?.length, 1, note.stderr);
    assert.equal(JSON.parse(status.stdout).mode, 'host', 'the read went through the host');
    assert.notEqual(host.stdout(), '', 'the host serves');
    const log = await runCli(['log', '--json', '--limit', '10', '--home', home]);
    const kinds = (JSON.parse(log.stdout) as { rows: { kind: string }[] }).rows.map((row) => row.kind);
    assert.deepEqual(kinds, ['host.started', 'client.note'], 'the note reached the host after it started');
    assert.equal(await stopHost(host.child), 0);
  });

  it('a host that still does not serve after the bound is named as starting, with what to do', async () => {
    const home = tempHome('host-still-starting');
    const host = await slowHost(home, HOST_START_WAIT_MS * 4);
    const began = Date.now();
    const note = await runCli(['note', 'never written', '--home', home]);
    assert.ok(Date.now() - began >= HOST_START_WAIT_MS, 'the command waited for the host');
    assert.equal(note.code, EXIT.hostUnreachable, note.stderr);
    assert.match(note.stderr, new RegExp(`host \\(pid ${host.child.pid}\\)`));
    assert.match(note.stderr, /still starting/);
    assert.match(note.stderr, /Nothing was written/);
    assert.match(note.stderr, new RegExp(`kill ${host.child.pid}`));
    await stopHost(host.child, 'SIGKILL');
  });
});
