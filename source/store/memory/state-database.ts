// Opening memory-state.sqlite. Its failures are its own: a damaged, locked or newer-version file is
// reported as `memory_unavailable` (what happened, what to do) and never reaches capture or
// core.sqlite, which keep working.
import { existsSync } from 'node:fs';
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

/** Read-write (the writer thread): creates the file 0600 and migrates it. */
export function openMemoryState(path: string): MemoryState {
  let db: Db | undefined;
  try {
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
