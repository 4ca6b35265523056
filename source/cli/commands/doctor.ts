// `doctor`: the consistency self-check over a read-only connection (works beside a running host).
import { existsSync } from 'node:fs';
import { EXIT, CmError } from '../../errors.js';
import { storeFiles } from '../../home.js';
import { openDatabase } from '../../store/database.js';
import { runDoctor } from '../../store/doctor.js';
import type { Output } from '../output.js';
import { runMemoryDoctor } from '../../memory/memory-doctor.js';
import { openMemoryStateReadOnly } from '../../memory/state-database.js';
import type { Db } from '../../store/database.js';
import type { Violation } from '../../store/doctor.js';

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

export async function runDoctorCommand(home: string, out: Output): Promise<number> {
  const path = storeFiles(home).core;
  if (!existsSync(path)) throw new CmError('not_found', `No store in ${home} yet; nothing to check.`);
  const db = openDatabase(path, { readonly: true });
  try {
    const violations = runDoctor(db);
    violations.push(...memoryViolations(storeFiles(home).memoryState, db));
    out.result({ consistent: violations.length === 0, violations }, () =>
      violations.length === 0 ? `store in ${home} is consistent` : violations.map((v) => `violation ${v.check}: ${v.detail}`).join('\n'),
    );
    return violations.length === 0 ? EXIT.ok : EXIT.inconsistent;
  } finally {
    db.close();
  }
}
