// v5: capture tables accept client 'pi'; a v4 store keeps every row, id, reference and index.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';

test("v5 migration keeps a v4 store's capture rows and references, then accepts pi", () => {
  const root = mkdtempSync(join(tmpdir(), 'cm-v5-'));
  const db = openDatabase(join(root, 'core.sqlite'));
  try {
    migrate(db, coreSchema, 4);
    db.exec(`
      INSERT INTO capture_watches (watch_id, client, transcript_path, host_session_id, captured_bytes) VALUES (7, 'claude', '/t.jsonl', 's1', 10);
      INSERT INTO capture_activations (activation_id, session_key, client, process_instance, host_session_id, ordinal, cwd, watch_id, state, started_at_ms)
        VALUES (3, 'k1', 'claude', 'p', 's1', 1, '/w', 7, 'active', 1);
      INSERT INTO inbox (client, event, received_at_ms, payload, state, activation_id, host_session_id, process_instance, watch_id) VALUES ('claude', 'Stop', 1, '{}', 'pending', 3, 's1', 'p', 7);
    `);
    assert.throws(
      () =>
        db
          .prepare("INSERT INTO capture_watches (client, transcript_path, host_session_id) VALUES ('pi', 'x', 's')")
          .run(),
      /CHECK/,
    );
    assert.equal(migrate(db, coreSchema), coreSchema.steps.length);
    assert.deepEqual(db.prepare('SELECT activation_id, watch_id, client FROM capture_activations').all(), [
      { activation_id: 3, watch_id: 7, client: 'claude' },
    ]);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    assert.ok(
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'capture_activations_active'").get(),
      'the index is back',
    );
    db.prepare(
      "INSERT INTO capture_watches (client, transcript_path, host_session_id) VALUES ('pi', 'pi-events:x', 's')",
    ).run();
    assert.throws(
      () =>
        db
          .prepare("INSERT INTO capture_watches (client, transcript_path, host_session_id) VALUES ('other', 'y', 's')")
          .run(),
      /CHECK/,
    );
    assert.throws(
      () => db.prepare('UPDATE inbox SET activation_id = 99').run(),
      /FOREIGN KEY/,
      'references are enforced as before',
    );
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
});
