import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { announceLockWait, lockWaiters } from '../../source/ground/lock-waiters.js';

const STALE_MS = 30_000;
const tempDir = () => join(mkdtempSync(join(tmpdir(), 'cm-waiters-')), 'lock-waiters');

describe('lock waiters: the notice a hook leaves while it waits for the write lock', () => {
  it('is made with its directory, counted while the process lives, and gone once withdrawn', () => {
    const dir = tempDir();
    assert.equal(lockWaiters(dir, STALE_MS), 0, 'no directory yet: nobody waits');
    const withdraw = announceLockWait(dir);
    assert.deepEqual(readdirSync(dir), [String(process.pid)]);
    assert.equal(lockWaiters(dir, STALE_MS), 1);
    withdraw();
    assert.equal(lockWaiters(dir, STALE_MS), 0);
    withdraw(); // twice is harmless
  });

  it('counts nothing for a process that is gone, and removes its notice', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    assert.ok(gone !== undefined);
    writeFileSync(join(dir, String(gone)), '');
    announceLockWait(dir);
    assert.equal(lockWaiters(dir, STALE_MS), 1, 'only this live process counts');
    assert.equal(existsSync(join(dir, String(gone))), false, 'the dead process’s notice is removed');
  });

  it('counts nothing for a notice older than any hook lives, or one not named by a process id', () => {
    const dir = tempDir();
    announceLockWait(dir);
    const old = (Date.now() - STALE_MS - 1000) / 1000;
    utimesSync(join(dir, String(process.pid)), old, old);
    writeFileSync(join(dir, 'not-a-pid'), '');
    writeFileSync(join(dir, '0'), '');
    assert.equal(lockWaiters(dir, STALE_MS), 0);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('never fails the hook: a data home that is a file leaves it without a notice', () => {
    const parent = mkdtempSync(join(tmpdir(), 'cm-waiters-file-'));
    writeFileSync(join(parent, 'home'), 'not a directory');
    const withdraw = announceLockWait(join(parent, 'home', 'lock-waiters'));
    withdraw();
    assert.equal(lockWaiters(join(parent, 'home', 'lock-waiters'), STALE_MS), 0);
  });
});
