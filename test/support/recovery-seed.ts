// Open recovery items written straight into a fresh store (no hook, no drain): for the status
// screen's and the status reads' behaviour and figures with thousands of items.
import { mkdirSync } from 'node:fs';
import { storeFiles } from '../../source/home.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';

/** `count` ended Codex activations (captured sessions k0 … k<count-1>, oldest first) and nothing else. */
export function seedSessions(home: string, count: number): void {
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).core);
  migrate(db, coreSchema);
  const activation = db.prepare(
    "INSERT INTO capture_activations (session_key, client, process_instance, host_session_id, ordinal, state, started_at_ms) VALUES (?, 'codex', 'seed', ?, 1, 'ended', 0)",
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) activation.run(`k${i}`, `s${i}`);
  })();
  db.close();
}

/** `count` ended Codex activations, each with one pending envelope and one open recovery item (rec-1 … rec-count). */
export function seedRecoveryItems(home: string, count: number): void {
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).core);
  migrate(db, coreSchema);
  db.transaction(() => {
    const activation = db.prepare(
      "INSERT INTO capture_activations (session_key, client, process_instance, host_session_id, ordinal, state, started_at_ms) VALUES (?, 'codex', 'seed', ?, 1, 'ended', 0)",
    );
    const inbox = db.prepare(
      "INSERT INTO inbox (client, event, received_at_ms, payload, state, activation_id) VALUES ('codex', 'Stop', 0, '{}', 'pending', ?)",
    );
    const item = db.prepare(
      "INSERT INTO recovery_items (activation_id, inbox_id, code, detail, state, created_at_ms, updated_at_ms) VALUES (?, ?, 'transcript_invalid_json', 'seeded', 'open', 0, 0)",
    );
    for (let i = 0; i < count; i++) {
      const id = activation.run(`k${i}`, `s${i}`).lastInsertRowid;
      item.run(id, inbox.run(id).lastInsertRowid);
    }
  })();
  db.close();
}
