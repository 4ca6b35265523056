// The commit boundary. A Tx exists only inside `commit`, so store helpers that take one
// can never commit on their own: they add rows to the caller's transaction and return.
import type { Db } from './database.js';
import type { FaultPoint } from '../ground/faults.js';

/** The database files, each with its own schema: a handle names the one it is on. */
export type DatabaseFile = 'core' | 'memory' | 'ledger';

declare const FILE: unique symbol;
declare const WRITABLE: unique symbol;

/**
 * A read-only handle on one database file. Reads take it, so they accept a transaction of that
 * file and nothing of another file; write helpers take a Tx, which a Reader is not.
 */
export interface Reader<F extends DatabaseFile> {
  readonly db: Db;
  /** Type-only brand: which file this handle is on. */
  readonly [FILE]?: F;
}

/** A write transaction on one database file (core.sqlite unless named): `Tx<'memory'>` is memory-state's. */
export interface Tx<F extends DatabaseFile = 'core'> extends Reader<F> {
  /** One clock reading per transaction: timestamps are display only, never identity or order. */
  readonly nowMs: number;
  /** Type-only brand: a Reader cannot stand in for a transaction. */
  readonly [WRITABLE]: true;
}

/** A read-only handle on `db`, a connection to file F (opened read-only, or read outside any transaction). */
export const reader = <F extends DatabaseFile>(db: Db): Reader<F> => ({ db });

/**
 * Runs `body` as one BEGIN IMMEDIATE transaction on `db`, a connection to `file`; its Tx is
 * branded with that file, so a command of another database does not accept it. `fault` lets
 * drills fail deterministically just before the commit (everything rolls back) or just after it
 * (the reply is lost).
 */
export function commitOn<F extends DatabaseFile, T>(
  _file: F,
  db: Db,
  name: string,
  body: (tx: Tx<F>) => T,
  fault?: FaultPoint,
): T {
  const result = db
    .transaction(() => {
      // The brands exist in the types only: `_file` names them for the compiler.
      const value = body({ db, nowMs: Date.now() } as Tx<F>);
      fault?.(`${name}.beforeCommit`);
      return value;
    })
    .immediate();
  fault?.(`${name}.afterCommit`);
  return result;
}

/** commitOn core.sqlite, the store most commands write. */
export const commit = <T>(db: Db, name: string, body: (tx: Tx<'core'>) => T, fault?: FaultPoint): T =>
  commitOn('core', db, name, body, fault);
