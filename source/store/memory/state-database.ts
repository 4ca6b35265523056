// Opening memory-state.sqlite. Its failures are its own: a damaged, locked or newer-version file is
// reported as `memory_unavailable` (what happened, what to do) and never reaches capture or
// core.sqlite, which keep working.
import { existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { CmError } from '../../errors.js';
import { databaseError, openDatabase, type Db } from '../database.js';
import { migrate, schemaVersion } from '../migrations.js';
import { memoryStateSchema } from './state-schema.js';

export interface MemoryState {
  db: Db;
  memoryStateUuid: string;
}

export function memoryUnavailable(path: string, error: unknown): CmError {
  const cause = databaseError(path, error);
  if (cause.code === 'memory_unavailable') return cause;
  return new CmError(
    'memory_unavailable',
    `The memory state is unavailable: ${cause.message} Capture and core.sqlite are not affected; memory commands work again once ${basename(path)} is fixed or moved aside (a new one is then created).`,
  );
}

function readUuid(db: Db): string {
  const row = db.prepare("SELECT value FROM memory_state_meta WHERE key = 'memory_state_uuid'").get() as
    | { value: string }
    | undefined;
  if (!row) throw new CmError('store_corrupt', 'memory_state_meta has no memory_state_uuid.');
  return row.value;
}

/**
 * A new memory-state, made whole before it has its name: created and migrated as `<path>.new`, then
 * linked into place. Migrated where readers look, it held every version from 0 up for the time of
 * its fifteen steps, each its own transaction; a read in that window (the TUI's Memory opened as
 * the host started on a new data home) was refused as "schema version 0, start the host once to
 * migrate it". Only the writer makes it (one per data home, by the lease), so a fixed name is
 * safe, and what a killed attempt left is removed first.
 */
function createMigrated(path: string): void {
  const fresh = `${path}.new`;
  for (const file of [fresh, `${fresh}-wal`, `${fresh}-shm`]) rmSync(file, { force: true });
  const db = openDatabase(fresh);
  try {
    migrate(db, memoryStateSchema);
  } finally {
    // The last connection's close checkpoints the WAL into the file and removes it.
    db.close();
  }
  try {
    linkSync(fresh, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Made meanwhile (it should not be: one writer): that one stands.
    if (code === 'EEXIST') return rmSync(fresh, { force: true });
    // A file system without hard links: renamed instead (the one writer checked it was not there).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') return renameSync(fresh, path);
    throw error;
  }
  rmSync(fresh, { force: true });
}

/** Read-write (the writer): creates the file 0600, whole (createMigrated), and migrates it. */
export function openMemoryState(path: string): MemoryState {
  let db: Db | undefined;
  try {
    if (!existsSync(path)) createMigrated(path);
    db = openDatabase(path);
    migrate(db, memoryStateSchema);
    return { db, memoryStateUuid: readUuid(db) };
  } catch (error) {
    db?.close();
    throw memoryUnavailable(path, error);
  }
}

/** Read-only (doctor, reads without a host); undefined when the file does not exist yet. */
export function openMemoryStateReadOnly(path: string): MemoryState | undefined {
  if (!existsSync(path)) return undefined;
  let db: Db | undefined;
  try {
    db = openDatabase(path, { readonly: true });
    const version = schemaVersion(db);
    if (version !== memoryStateSchema.steps.length) {
      throw new CmError(
        'store_unavailable',
        `${basename(path)} has schema version ${version}; this common-memory reads version ${memoryStateSchema.steps.length}${version > memoryStateSchema.steps.length ? ' (upgrade common-memory)' : ' (start the host once to migrate it)'}.`,
      );
    }
    return { db, memoryStateUuid: readUuid(db) };
  } catch (error) {
    db?.close();
    throw memoryUnavailable(path, error);
  }
}

/** `read` over a read-only memory-state; `missing` when the file does not exist yet. */
export function withMemoryState<T>(path: string, missing: () => T, read: (db: Db) => T): T {
  const state = openMemoryStateReadOnly(path);
  if (!state) return missing();
  try {
    return read(state.db);
  } finally {
    state.db.close();
  }
}
