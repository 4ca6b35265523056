// core.sqlite v9: session search knows when each text was typed. Until v8 a search row carried
// only its turn's seal instant, so `search --since/--until` and "last Tuesday" read the time the
// drain processed a turn — for an imported conversation, the day of the import. The index is
// rebuilt with a typed_at_ms column (an FTS5 table cannot add one): the message's own timestamp
// from the client's transcript, else the seal instant; a driven agent's prompt was typed when it was
// admitted. recorded_at_ms stays the seal instant (extraction selects turns by it). Rowids are kept:
// they are the order texts were indexed in. node:* and better-sqlite3 only (the hook migrates a
// fresh store).
import type { Db } from '../../database.js';
import { type IndexedText, typedAtMs } from '../indexed-text.js';

export function migrateToTypedAt(db: Db): void {
  db.exec(`
    CREATE VIRTUAL TABLE session_search_v9 USING fts5(
      body,
      ref UNINDEXED, client UNINDEXED, session_key UNINDEXED, turn_key UNINDEXED, recorded_at_ms UNINDEXED,
      typed_at_ms UNINDEXED,
      tokenize = 'porter unicode61'
    );
  `);
  const insert = db.prepare(
    `INSERT INTO session_search_v9 (rowid, body, ref, client, session_key, turn_key, recorded_at_ms, typed_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // In pages: a connection runs no other statement while one iterates.
  const page = db.prepare(
    `SELECT s.rowid AS id, s.body, s.ref, s.client, s.session_key AS sessionKey, s.turn_key AS turnKey,
            s.recorded_at_ms AS recordedAtMs, m.timestamp
     FROM session_search s
     LEFT JOIN capture_messages m ON s.ref GLOB 'm:*' AND m.message_id = CAST(substr(s.ref, 3) AS INTEGER)
     WHERE s.rowid > CAST(? AS INTEGER) ORDER BY s.rowid LIMIT 1000`,
  );
  for (let after = 0; ; ) {
    const rows = page.all(after) as Array<Omit<IndexedText, 'typedAtMs'> & { id: number; timestamp: string | null }>;
    if (rows.length === 0) break;
    for (const row of rows)
      insert.run(
        row.id,
        row.body,
        row.ref,
        row.client,
        row.sessionKey,
        row.turnKey,
        row.recordedAtMs,
        typedAtMs(row.timestamp) ?? row.recordedAtMs,
      );
    after = rows.at(-1)!.id;
  }
  db.exec('DROP TABLE session_search; ALTER TABLE session_search_v9 RENAME TO session_search;');
}
