// v5: pi is a captured client too. capture_watches and capture_activations allowed only codex and
// claude; SQLite cannot change a CHECK in place, so both tables are rebuilt from their own stored
// definitions with pi added, rows, ids and indexes kept. The migration's transaction keeps foreign
// keys on: they are deferred, the rows of each table wait in a temp copy while it is recreated, and
// every reference is whole again before the commit checks it.
import type { Db } from '../../database.js';

const OLD_CHECK = "CHECK (client IN ('codex', 'claude'))";
const NEW_CHECK = "CHECK (client IN ('codex', 'claude', 'pi'))";

function rebuild(db: Db, table: string): void {
  const { sql } = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) as {
    sql: string;
  };
  if (sql.includes(NEW_CHECK)) return; // already rebuilt: a store whose version was set back
  if (!sql.includes(OLD_CHECK)) throw new Error(`${table}: its client CHECK is not the one v3 wrote`);
  const indexes = db
    .prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
    .pluck()
    .all(table) as string[];
  db.exec(`CREATE TEMP TABLE v5_copy AS SELECT * FROM ${table}; DROP TABLE ${table};`);
  db.exec(sql.replace(OLD_CHECK, NEW_CHECK));
  db.exec(`INSERT INTO ${table} SELECT * FROM temp.v5_copy; DROP TABLE temp.v5_copy;`);
  for (const index of indexes) db.exec(index);
}

export function migrateToPiClient(db: Db): void {
  db.pragma('defer_foreign_keys = ON');
  rebuild(db, 'capture_watches');
  rebuild(db, 'capture_activations');
}
