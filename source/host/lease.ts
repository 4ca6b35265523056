// One host per data home. The lease is an exclusive SQLite lock on host.lease, held by an open
// connection for the holder's lifetime: the operating system releases it when the holder dies,
// even by kill -9, so a lease left by a dead process is recognized without trusting a pid (pids
// are reused). host.json, written by the holder, only describes it (pid + process start time +
// host ID) for error messages and clients; it never decides who holds the lease.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, openSync, readFileSync } from 'node:fs';
import { CmError } from '../errors.js';
import { storeFiles } from '../home.js';
import { SQLITE_ADDON } from '../store/database.js';

export interface LeaseHolder {
  hostId: string;
  pid: number;
  processStartedAt: string | null;
  role: 'host' | 'local';
  startedAt: string;
}

export interface Lease {
  holder: LeaseHolder;
  release(): void;
}

/** The kernel's start time of a process (clock ticks since boot), so a reused pid is not mistaken for the holder. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

export function acquireLease(home: string, holder: LeaseHolder, waitMs = 0): Lease {
  const path = storeFiles(home).lease;
  let db: Database.Database | undefined;
  try {
    // SQLite creates its files with the process umask (0644 here); like every file of the home,
    // the lease and its journal are the user's alone. The journal takes the database file's mode.
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
    db = new Database(path, SQLITE_ADDON);
    db.pragma(`busy_timeout = ${waitMs}`);
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec(
      'CREATE TABLE IF NOT EXISTS holder (host_id TEXT, pid INTEGER, process_started_at TEXT, role TEXT, started_at TEXT)',
    );
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder VALUES (?, ?, ?, ?, ?)').run(
      holder.hostId,
      holder.pid,
      holder.processStartedAt,
      holder.role,
      holder.startedAt,
    );
    db.exec('COMMIT');
  } catch (error) {
    db?.close();
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      // A one-shot command waited for and still there: wait for it, not "use that host".
      const info = readHolderInfo(home);
      throw waitMs > 0 && info?.role === 'local' ? stillHeldByCommand(home, info, waitMs) : alreadyOpen(home, info);
    }
    throw new CmError(
      'store_unavailable',
      `Cannot take the host lease in ${home} (${code || (error as Error).message}). Check the data home's permissions.`,
    );
  }
  const held = db;
  let released = false;
  return {
    holder,
    release() {
      if (released) return;
      released = true;
      held.close();
    },
  };
}

/**
 * Takes the lease for a serving host. A one-shot command (a `local` holder) keeps the lease for
 * tens of milliseconds, so the host waits up to `localHolderWaitMs` for it to finish; a serving
 * host holds it until stopped, so it is refused at once, starting or serving. While host.json is
 * missing the holder has only just taken the lease (or is stopping): it is waited for too, and
 * named once it says what it is.
 */
export async function acquireLeaseForHost(
  home: string,
  holder: LeaseHolder,
  localHolderWaitMs: number,
): Promise<Lease> {
  const deadline = Date.now() + localHolderWaitMs;
  for (;;) {
    try {
      return acquireLease(home, holder);
    } catch (error) {
      if (!(error instanceof CmError) || error.code !== 'store_already_open') throw error;
      const current = readHolderInfo(home);
      if (current?.role === 'host' || Date.now() >= deadline) {
        throw current?.role === 'host' || current === null
          ? error
          : stillHeldByCommand(home, current, localHolderWaitMs);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

type HolderInfo = Partial<LeaseHolder> & { port?: number | null; state?: 'starting' | 'ready' };

/** What host.json says about the holder, or null when there is none (or it cannot be read). */
function readHolderInfo(home: string): HolderInfo | null {
  try {
    return JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8')) as HolderInfo;
  } catch {
    return null;
  }
}

export function describeHolder(home: string): string {
  return describe(readHolderInfo(home));
}

function describe(info: HolderInfo | null): string {
  if (info === null) return 'another common-memory process';
  const role =
    info.role === 'local'
      ? 'a one-shot common-memory command'
      : `a common-memory host${info.state === 'starting' ? ' that is still starting' : ''}`;
  return `${role} (pid ${info.pid ?? '?'}, host ${info.hostId ?? '?'}, since ${info.startedAt ?? '?'})`;
}

function alreadyOpen(home: string, info: HolderInfo | null): CmError {
  return new CmError(
    'store_already_open',
    `Store already open: ${describe(info)} holds ${home}. Nothing was written. Use that host (the CLI and TUI connect to it) or stop it first.`,
  );
}

function stillHeldByCommand(home: string, info: HolderInfo, waitedMs: number): CmError {
  return new CmError(
    'store_already_open',
    `Store already open: ${describe(info)} still holds ${home} after ${waitedMs} ms. Nothing was written. ` +
      'Wait for that command to finish (or stop it), then try again.',
  );
}
