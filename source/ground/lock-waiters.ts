// Hooks that are about to wait for the store's write lock say so, one empty file each, named by
// the hook's process id, in the data home's lock-waiters directory; the drain steps aside only
// while one is there. A pause after every run of drain steps, whoever waited, cost the drain a
// sixth of its time on a quiet machine; SQLite's busy handler cannot tell a writer that someone
// waits. A file survives its hook being killed, so one whose process is gone, or older than any
// hook lives, counts for nothing (and is removed). node:* only: the hook fast path imports it.
import { readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectories } from './make-directories.js';

/**
 * Announces that this process waits for the write lock; returns what withdraws it. Best effort: a
 * notice that cannot be written costs the hook nothing but its priority over a running drain.
 */
export function announceLockWait(dir: string): () => void {
  const file = join(dir, String(process.pid));
  try {
    try {
      writeFileSync(file, '');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      makeDirectories(dir, 0o700);
      writeFileSync(file, '');
    }
  } catch {
    return () => undefined;
  }
  return () => {
    try {
      unlinkSync(file);
    } catch {
      // already gone (a drain took it for stale): nothing to withdraw
    }
  };
}

/**
 * How many live processes wait for the write lock. A notice older than `staleMs` or of a process
 * that no longer exists is removed instead of counted.
 */
export function lockWaiters(dir: string, staleMs: number, nowMs = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let live = 0;
  for (const name of names) {
    const file = join(dir, name);
    const pid = /^[1-9][0-9]*$/.test(name) ? Number(name) : 0;
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) continue; // withdrawn meanwhile
    if (pid > 0 && nowMs - mtimeMs < staleMs && alive(pid)) {
      live += 1;
      continue;
    }
    try {
      unlinkSync(file);
    } catch {
      // withdrawn meanwhile, or not ours to remove: counted for nothing either way
    }
  }
  return live;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user; only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
