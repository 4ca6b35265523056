// v8: imported conversations. A v7 store's capture rows are live ones; imported rows are told apart
// by origin, keep their source line, and a refused file has one quarantine row.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';

test('v8 migration: earlier capture rows are live, imported rows are apart, one quarantine row per file', () => {
  const root = mkdtempSync(join(tmpdir(), 'cm-v8-'));
  const db = openDatabase(join(root, 'core.sqlite'));
  try {
    migrate(db, coreSchema, 7);
    db.exec(`
      INSERT INTO capture_watches (watch_id, client, transcript_path, host_session_id) VALUES (7, 'claude', '/t.jsonl', 's1');
      INSERT INTO capture_activations (activation_id, session_key, client, process_instance, host_session_id, ordinal, cwd, watch_id, state, started_at_ms)
        VALUES (3, 'k1', 'claude', 'p', 's1', 1, '/w', 7, 'ended', 1);
      INSERT INTO capture_turns (activation_id, watch_id, turn_key, state, recorded_at_ms) VALUES (3, 7, 'u1', 'settled', 5);
    `);
    assert.equal(migrate(db, coreSchema, 8), 8);
    assert.deepEqual(db.prepare('SELECT origin FROM capture_watches').pluck().all(), ['live']);
    assert.deepEqual(db.prepare('SELECT origin FROM capture_activations').pluck().all(), ['live']);
    assert.deepEqual(db.prepare('SELECT source_line FROM capture_turns').pluck().all(), [null]);
    assert.ok(db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'capture_watches_by_session'").get());
    db.prepare(
      "INSERT INTO capture_watches (client, transcript_path, host_session_id, origin) VALUES ('claude', '/old.jsonl', 's1', 'imported')",
    ).run();
    assert.throws(
      () =>
        db
          .prepare(
            "INSERT INTO capture_watches (client, transcript_path, host_session_id, origin) VALUES ('claude', 'x', 's', 'other')",
          )
          .run(),
      /CHECK/,
    );
    const quarantine = db.prepare(
      "INSERT INTO import_quarantine (client, source_path, source_bytes, code, detail, state, created_at_ms, updated_at_ms) VALUES ('claude', '/bad.jsonl', 1, 'c', 'd', 'open', 1, 1)",
    );
    quarantine.run();
    assert.throws(() => quarantine.run(), /UNIQUE/);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
});
