// Opening a SQLite store with the settings every process uses. node:* and better-sqlite3 only:
// the hook fast path imports this module.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CmError } from '../errors.js';
import { homeError } from '../home.js';
import { BUSY_TIMEOUT_MS, READ_ONLY_COPY_MAX_BYTES } from '../limits.js';
import { BrokenInstallError, brokenInstall } from '../broken-install.js';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
  busyTimeoutMs?: number;
}

/**
 * The options that load better-sqlite3's addon from where its own build puts it; every connection
 * opens with them. The CommonJS bundles carry better-sqlite3's JavaScript, so its own search for the
 * addon (the `bindings` package: a stack trace walked and a dozen paths tried, 1.5–4 ms of a hook)
 * would start from the bundle's folder and fail. Code run from source under tsx may have no
 * `require`, and searches as before.
 */
export const SQLITE_ADDON: { nativeBinding?: string } = (() => {
  try {
    if (typeof require !== 'function') return {};
    const addon = join(dirname(require.resolve('better-sqlite3')), '..', 'build', 'Release', 'better_sqlite3.node');
    return existsSync(addon) ? { nativeBinding: addon } : {};
  } catch {
    return {};
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
      ...SQLITE_ADDON,
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
    if (options.readonly && walCannotBeMade(path, error)) return openCopy(path, options);
    throw databaseError(path, error);
  }
}

/**
 * A WAL store opened read-only needs its `-wal` and `-shm` files, and SQLite creates them when
 * they are missing (the last connection to close removes them). Where the reader cannot create a
 * file next to the store (a read-only mount, chmod a-w, another owner) the open fails, although
 * nothing is to be written: SQLITE_READONLY_DIRECTORY (EACCES) or SQLITE_CANTOPEN (EROFS). With no
 * `-wal` file every committed transaction is in the main file, so its bytes are the whole store.
 */
function walCannotBeMade(path: string, error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? '';
  return (
    (code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_CANTOPEN') &&
    path !== ':memory:' &&
    !existsSync(`${path}-wal`)
  );
}

/**
 * The store read from a copy in memory: nothing is created beside it. The copy is marked a
 * rollback-journal database (header bytes 18-19: 2 is WAL, which an in-memory database cannot
 * use; the pages read the same). A file that changed while it was copied (a writer of another
 * user) is refused rather than read torn.
 */
function openCopy(path: string, options: OpenOptions): Db {
  let db: Db | undefined;
  try {
    const before = statSync(path);
    if (before.size > READ_ONLY_COPY_MAX_BYTES)
      throw new CmError(
        'store_unavailable',
        `${path} cannot be read in place: its directory is read-only and SQLite needs to create ${basename(path)}-wal there; reading it from memory is limited to ${READ_ONLY_COPY_MAX_BYTES} bytes and it has ${before.size}. Make the data home writable, or copy it somewhere writable and read that with --home.`,
      );
    const bytes = readFileSync(path);
    const after = statSync(path);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || existsSync(`${path}-wal`))
      throw new CmError('storage_failed', `${path} changed while it was read (read-only data home). Try again.`);
    if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) bytes[18] = bytes[19] = 1;
    db = new Database(bytes, { readonly: true, ...SQLITE_ADDON });
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
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
