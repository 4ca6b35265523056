// The data home: where every store of common-memory lives. Resolved once per process,
// created 0700, never world-readable. Importable from the hook fast path (node:* only).
import { accessSync, chmodSync, constants, existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CmError } from './errors.js';
import { os } from './ground/lazy-builtin.js';
import { DirectoryError, makeDirectories } from './ground/make-directories.js';

export const HOME_ENV = 'COMMON_MEMORY_HOME';

export function resolveHome(flag?: string): string {
  const chosen = flag ?? process.env[HOME_ENV];
  return chosen ? resolve(chosen) : join(os().homedir(), '.common-memory');
}

export const storeFiles = (home: string) => ({
  core: join(home, 'core.sqlite'),
  memoryState: join(home, 'memory-state.sqlite'),
  ledger: join(home, 'ledger.sqlite'),
  ledgerHealth: join(home, 'ledger-health.json'),
  lease: join(home, 'host.lease'),
  hostInfo: join(home, 'host.json'),
  hookErrors: join(home, 'hook-errors.jsonl'),
  quarantine: join(home, 'quarantine'),
  /** One empty file per hook waiting for core.sqlite's write lock (ground/lock-waiters.ts). */
  lockWaiters: join(home, 'lock-waiters'),
});

/** Creates the data home (0700) if needed and checks that we may use it. */
export function ensureHome(home: string): void {
  try {
    // Bounded: Node's recursive mkdir loops forever on a path it cannot make (`--home /proc/x`).
    makeDirectories(home, 0o700);
    const stat = statSync(home);
    // A home created by an older run with a looser umask is tightened, never loosened.
    if ((stat.mode & 0o077) !== 0) chmodSync(home, stat.mode & 0o700);
  } catch (error) {
    throw homeError(home, error);
  }
}

/**
 * Why a read cannot look into the data home at all — a file (or a FIFO) where it should be, or no
 * permission to list it — or null when it is a directory, or does not exist yet (then a read says
 * there is no store). Creates nothing.
 */
export function homeReadProblem(home: string): CmError | null {
  try {
    if (!statSync(home).isDirectory())
      return homeError(home, new DirectoryError('ENOTDIR', home, `${home} is a file, not a directory`));
    accessSync(home, constants.R_OK | constants.X_OK);
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code !== 'ENOENT') return homeError(home, error);
    // Nothing there yet reads as no store; a link that leads nowhere is said as such.
    const target = danglingLink(home);
    return target === null ? null : danglingHome(home, target);
  }
}

/** The data home as a link that leads nowhere: where it leads, or null when it is no such link. */
function danglingLink(home: string): string | null {
  try {
    if (!lstatSync(home).isSymbolicLink() || existsSync(home)) return null;
    return resolve(dirname(home), readlinkSync(home));
  } catch {
    return null;
  }
}

const danglingHome = (home: string, target: string): CmError =>
  new CmError(
    'store_unavailable',
    `The data home ${home} is a link to ${target}, which does not exist. Create that directory, point the link elsewhere, or choose another with --home or ${HOME_ENV}.`,
  );

export function homeError(home: string, error: unknown): CmError {
  if (error instanceof CmError) return error;
  const target = danglingLink(home);
  if (target !== null) return danglingHome(home, target);
  if (error instanceof DirectoryError) {
    const choose = `Choose another with --home or ${HOME_ENV}.`;
    if (error.at === home && error.code === 'ENOTDIR')
      return new CmError('store_unavailable', `The data home ${home} is a file, not a directory. ${choose}`);
    if (error.code !== 'EACCES' && error.code !== 'EPERM' && error.code !== 'ENOSPC')
      return new CmError('store_unavailable', `Cannot create the data home ${home}: ${error.message}. ${choose}`);
  }
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EACCES' || code === 'EPERM') {
    return new CmError(
      'store_unavailable',
      `Cannot use the data home ${home}: permission denied. Give your user access to it (chmod 700) or choose another with --home or ${HOME_ENV}.`,
    );
  }
  if (code === 'ENOSPC') {
    return new CmError('storage_failed', `The disk holding ${home} is full. Free some space and try again.`);
  }
  return new CmError(
    'store_unavailable',
    `Cannot use the data home ${home}: ${(error as Error)?.message ?? String(error)}`,
  );
}

/**
 * Why hooks and the pi extension cannot write into this data home (a read-only mount, an immutable
 * file, missing permission), or null when they can. A writer that cannot write cannot say so in the
 * home either: `status` reads this to name the problem.
 */
export function homeWriteProblem(home: string): string | null {
  const core = storeFiles(home).core;
  for (const path of existsSync(core) ? [home, core] : [home]) {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      return `${path} is not writable (${code}): hooks and the pi extension cannot record anything; make it writable again.`;
    }
  }
  return null;
}
