// Opening a SQLite store with the settings every process uses. node:* and better-sqlite3 only:
// the hook fast path imports this module.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CmError } from '../errors.js';
import { homeError } from '../home.js';
import { BUSY_TIMEOUT_MS } from '../limits.js';
import { BrokenInstallError, brokenInstall } from '../broken-install.js';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
  busyTimeoutMs?: number;
}

/**
 * better-sqlite3's addon where its own build puts it, or undefined (then better-sqlite3 finds it
 * with the \`bindings\` package, which walks a stack trace and tries a dozen paths: 1.5–4 ms of
 * every hook process). Both bundles have \`require\` (the CLI's is made from its own URL); code run
 * from source under tsx may not, and searches as before.
 */
const nativeBinding: string | undefined = (() => {
  try {
    if (typeof require !== 'function') return undefined;
    const addon = join(dirname(require.resolve('better-sqlite3')), '..', 'build', 'Release', 'better_sqlite3.node');
    return existsSync(addon) ? addon : undefined;
  } catch {
    return undefined;
  }
})();

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  let db: Db | undefined;
  try {
    if (!options.readonly && path !== ':memory:') {
      // Create the file ourselves so it is 0600 from the first byte; SQLite gives its WAL the same mode.
      closeSync(openSync(path, 'a', 0o600));
    }
    db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
      ...(nativeBinding === undefined ? {} : { nativeBinding }),
    });
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // Reading the schema here turns a damaged file into a clear error at open, not at the first query.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db?.close();
    throw databaseError(path, error);
  }
}

export function databaseError(path: string, error: unknown): CmError {
  if (error instanceof CmError) return error;
  const broken = brokenInstall(error);
  if (broken) return new BrokenInstallError(broken);
  const code = (error as { code?: string })?.code ?? '';
  const name = basename(path);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new CmError(
      'store_corrupt',
      `${name} at ${path} is damaged or not a common-memory database (${code}). Nothing was written. Move it aside and restore it from a backup; common-memory never overwrites it.`,
    );
  }
  if (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM')) {
    return new CmError(
      'store_unavailable',
      `Cannot open ${path} (${code}). Check that the data home and its files belong to you and are writable.`,
    );
  }
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) {
    return new CmError(
      'storage_failed',
      `Writing ${path} failed (${code}). Check free disk space and the disk's health; nothing was committed.`,
    );
  }
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY')) {
    return new CmError(
      'storage_failed',
      `${name} stayed locked by another process (${code}). Try again; if it persists, run "common-memory status" to see who holds it.`,
    );
  }
  if ((error as NodeJS.ErrnoException)?.code) return homeError(path, error);
  return new CmError('internal', `${name}: ${(error as Error)?.message ?? String(error)}`);
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement, compiled once per connection: compiling costs more than a small durable
 * commit's own work, and the writer runs the same few statements thousands of times. Only for
 * statements used in their default mode (never .pluck(), .raw() or .expand() on a cached one).
 */
export function prepared(db: Db, source: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let statement = cache.get(source);
  if (!statement) cache.set(source, (statement = db.prepare(source)));
  return statement;
}
