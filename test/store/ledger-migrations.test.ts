// ledger.sqlite's migrations, one test per version step (source/store/ledger/schema/vN-*.ts): each
// migrates a file that stands at the version before — with rows in it where the step must carry
// them — and checks what that step alone adds. v1 starts from an empty file, so it has no rows to
// carry: its test checks the tables it lays out and the rules they keep.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase, type Db } from '../../source/store/database.js';
import { ledgerSchema } from '../../source/store/ledger/ledger-schema.js';
import { migrate, schemaVersion } from '../../source/store/migrations.js';

/** A fresh ledger file migrated to `version`. */
function atVersion(version: number): Db {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'cm-ledger-')), 'ledger.sqlite'));
  assert.equal(migrate(db, ledgerSchema, version), version);
  return db;
}

const objects = (db: Db): string[] =>
  db
    .prepare("SELECT type || ' ' || name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY 1")
    .pluck()
    .all() as string[];

/** Migrates `db` one step and returns the schema objects that step added. */
function added(db: Db): string[] {
  const before = new Set(objects(db));
  migrate(db, ledgerSchema, schemaVersion(db) + 1);
  return objects(db).filter((name) => !before.has(name));
}

describe('ledger migrations, one step each', () => {
  it('has one step, and a file at the latest version stays there', () => {
    assert.equal(ledgerSchema.steps.length, 1);
    const db = atVersion(1);
    assert.equal(migrate(db, ledgerSchema), 1);
    assert.equal(schemaVersion(db), 1);
  });

  it('v1 lays out roots, generations, turns and reads, with the commit counter at 0', () => {
    const db = atVersion(0);
    assert.deepEqual(added(db), [
      'index reads_by_commit',
      'table generations',
      'table ledger_meta',
      'table reads',
      'table roots',
      'table turns',
    ]);
    assert.deepEqual(db.prepare('SELECT key, value FROM ledger_meta').all(), [{ key: 'commit_seq', value: 0 }]);

    const root = db
      .prepare(
        "INSERT INTO roots (client, root_digest, generation, state, last_seen_ms) VALUES ('claude', 'd1', 1, 'active', 5)",
      )
      .run().lastInsertRowid;
    assert.throws(
      () =>
        db
          .prepare(
            "INSERT INTO roots (client, root_digest, generation, state, last_seen_ms) VALUES ('claude', 'd1', 1, 'active', 6)",
          )
          .run(),
      /UNIQUE/,
      'one root per client and session digest',
    );
    assert.throws(
      () =>
        db
          .prepare(
            "INSERT INTO roots (client, root_digest, generation, state, last_seen_ms) VALUES ('codex', 'd2', 1, 'gone', 6)",
          )
          .run(),
      /CHECK/,
      'a root is active or inactive',
    );
    db.prepare('INSERT INTO generations (root_id, generation, opened_at_ms) VALUES (?, 1, 5)').run(root);
    db.prepare("INSERT INTO turns (root_id, turn_digest, generation, seen_at_ms) VALUES (?, 't1', 1, 5)").run(root);
    db.prepare(
      `INSERT INTO reads (root_id, generation, entry_id, content_digest, title, applies_when, sources_json, observed_at_ms, commit_seq)
       VALUES (?, 1, 'use-pnpm', 'c1', 'Use pnpm', NULL, '[]', 5, 1)`,
    ).run(root);
    assert.throws(
      () =>
        db
          .prepare(
            `INSERT INTO reads (root_id, generation, entry_id, content_digest, title, applies_when, sources_json, observed_at_ms, commit_seq)
             VALUES (?, 1, 'use-pnpm', 'c1', 'Use pnpm', NULL, '[]', 6, 2)`,
          )
          .run(root),
      /UNIQUE|PRIMARY KEY/,
      'an entry at one content digest is read once per generation',
    );

    // A swept root takes its generations, turns and reads with it.
    db.prepare('DELETE FROM roots WHERE root_id = ?').run(root);
    for (const table of ['generations', 'turns', 'reads'])
      assert.equal(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), 0, `${table} cascade`);
  });

  it('refuses a file newer than its steps, unchanged', () => {
    const db = atVersion(1);
    db.pragma('user_version = 2');
    assert.throws(() => migrate(db, ledgerSchema), /ledger\.sqlite has schema version 2, newer than/);
    assert.equal(schemaVersion(db), 2);
  });
});
