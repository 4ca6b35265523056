// core.sqlite v4: session search — an FTS5 index (porter) over what users said: the delivered
// user messages of captured turns (evidence only) and the user rows of driven pi agents. The
// writer adds rows in the transaction that seals a batch or admits a prompt; this step back-fills
// everything sealed before it, once. node:* and better-sqlite3 only (the hook migrates a fresh store).
import type { Db } from '../../database.js';

export function migrateToSessionSearch(db: Db): void {
  db.exec(`
    -- ref: "m:<capture message id>" or "t:<timeline sequence>", what a result points back to.
    CREATE VIRTUAL TABLE session_search USING fts5(
      body,
      ref UNINDEXED, client UNINDEXED, session_key UNINDEXED, turn_key UNINDEXED, recorded_at_ms UNINDEXED,
      tokenize = 'porter unicode61'
    );
    INSERT INTO session_search (body, ref, client, session_key, turn_key, recorded_at_ms)
      SELECT m.body, 'm:' || m.message_id, a.client, a.session_key, t.turn_key, t.recorded_at_ms
      FROM capture_messages m
      JOIN capture_turns t ON t.turn_id = m.turn_id
      JOIN capture_activations a ON a.activation_id = t.activation_id
      WHERE m.classification = 'evidence' AND m.body IS NOT NULL
      ORDER BY m.message_id;
    INSERT INTO session_search (body, ref, client, session_key, turn_key, recorded_at_ms)
      SELECT (SELECT group_concat(json_extract(c.value, '$.text'), char(10)) FROM json_each(tl.payload, '$.content') c WHERE json_extract(c.value, '$.type') = 'text'),
             't:' || tl.sequence, 'pi', tl.generation_id, tl.message_id, tl.recorded_at_ms
      FROM timeline tl
      WHERE tl.role = 'user' AND tl.agent_id IS NOT NULL AND tl.generation_id IS NOT NULL
      ORDER BY tl.sequence;
  `);
}
