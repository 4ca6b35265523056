// The consistency self-check over read-only connections (it works beside a running host):
// core.sqlite's checks, then memory-state's.
import { storeFiles } from '../home.js';
import { runMemoryDoctor } from '../store/memory/memory-doctor.js';
import { openMemoryStateReadOnly } from '../store/memory/state-database.js';
import { type Db, openDatabase } from '../store/database.js';
import { runDoctor, type Violation } from '../store/doctor.js';

/** memory-state's own checks; a memory-state that cannot be read is one violation saying why (nothing yet is none). */
function memoryViolations(path: string, core: Db): Violation[] {
  let state: ReturnType<typeof openMemoryStateReadOnly>;
  try {
    state = openMemoryStateReadOnly(path);
  } catch (error) {
    return [{ check: 'memory.unavailable', detail: (error as Error).message }];
  }
  if (!state) return [];
  try {
    return runMemoryDoctor(state.db, core);
  } finally {
    state.db.close();
  }
}

/** Every violation in the data home's stores; empty when they are consistent. */
export function checkStores(home: string): Violation[] {
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    return [...runDoctor(db), ...memoryViolations(storeFiles(home).memoryState, db)];
  } finally {
    db.close();
  }
}
