// The commit boundary. A Tx exists only inside `commit`, so store helpers that take one
// can never commit on their own: they add rows to the caller's transaction and return.
import type { Db } from './database.js';
import type { FaultPoint } from '../ground/faults.js';

export interface Tx {
  readonly db: Db;
  /** One clock reading per transaction: timestamps are display only, never identity or order. */
  readonly nowMs: number;
}

/**
 * Runs `body` as one BEGIN IMMEDIATE transaction. `fault` lets drills fail deterministically
 * just before the commit (everything rolls back) or just after it (the reply is lost).
 */
export function commit<T>(db: Db, name: string, body: (tx: Tx) => T, fault?: FaultPoint): T {
  const result = db
    .transaction(() => {
      const value = body({ db, nowMs: Date.now() });
      fault?.(`${name}.beforeCommit`);
      return value;
    })
    .immediate();
  fault?.(`${name}.afterCommit`);
  return result;
}
