// v7: seal instants are strictly increasing. An extraction selection is a time window and is
// refused, never cut, over SELECTION_MAX_TURNS turns; turns sealed in one drain step used to share
// one millisecond, so more than that many of them could be selected by no window at all. From v7
// every sealed turn gets its own instant (see nextSealInstant); this step indexes the instants
// and re-stamps earlier collisions the same way: in (recorded_at_ms, turn_id) order, a turn whose
// instant is not after the previous one's moves to the previous one + 1 ms. Its search rows move
// with it, so a --query selection sees the same instants.
import type { Db } from '../../database.js';

export function migrateToSealOrder(db: Db): void {
  db.exec('CREATE INDEX capture_turns_by_recorded_at ON capture_turns (recorded_at_ms)');
  const moved: Array<{ turnId: number; ms: number }> = [];
  let previous = -Infinity;
  for (const row of db
    .prepare('SELECT turn_id AS turnId, recorded_at_ms AS ms FROM capture_turns ORDER BY recorded_at_ms, turn_id')
    .iterate() as Iterable<{ turnId: number; ms: number }>) {
    const ms = row.ms > previous ? row.ms : previous + 1;
    if (ms !== row.ms) moved.push({ turnId: row.turnId, ms });
    previous = ms;
  }
  const restamp = db.prepare('UPDATE capture_turns SET recorded_at_ms = ? WHERE turn_id = ?');
  for (const { turnId, ms } of moved) restamp.run(ms, turnId);
  if (moved.length === 0) return;
  // One pass over the search rows (their ref column is not indexed), not one per moved turn.
  db.exec('CREATE TEMP TABLE moved_turns (turn_id INTEGER PRIMARY KEY)');
  const mark = db.prepare('INSERT INTO moved_turns (turn_id) VALUES (?)');
  for (const { turnId } of moved) mark.run(turnId);
  db.exec(`
    UPDATE session_search SET recorded_at_ms = (
      SELECT t.recorded_at_ms FROM capture_messages m JOIN capture_turns t ON t.turn_id = m.turn_id
      WHERE m.message_id = CAST(substr(session_search.ref, 3) AS INTEGER))
    WHERE ref IN (SELECT 'm:' || m.message_id FROM capture_messages m JOIN moved_turns USING (turn_id));
    DROP TABLE moved_turns;
  `);
}
