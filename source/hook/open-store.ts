// The hook's connection to the core store: opened, and on first use created and migrated, within
// the event's budget.
import { ensureHome, storeFiles } from '../home.js';
import { coreSchema } from '../store/core/core-schema.js';
import { openDatabase, type Db } from '../store/database.js';
import { migrate, schemaVersion } from '../store/migrations.js';

/** Opens (and on first use creates) the store; SQLite's own busy handler covers this rare wait. */
export function openStore(home: string, budgetMs: number): Db {
  ensureHome(home);
  const db = openDatabase(storeFiles(home).core, { busyTimeoutMs: budgetMs });
  // A checkpoint (copying the WAL into the database and syncing it) would run inside this hook's
  // deadline at every commit past the threshold; the host's writer checkpoints instead.
  db.pragma('wal_autocheckpoint = 0');
  if (schemaVersion(db) < coreSchema.steps.length) migrate(db, coreSchema);
  return db;
}
