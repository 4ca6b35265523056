// memory-state.sqlite's migrations, one test per version step (source/store/memory/schema/vN-*.ts):
// each migrates a file that stands at the version before, with rows in it where the step must
// carry or count them, and checks what that step alone adds.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase, type Db } from '../../source/store/database.js';
import { migrate, schemaVersion } from '../../source/store/migrations.js';
import { memoryStateSchema } from '../../source/store/memory/state-schema.js';

/** A fresh memory-state file migrated to `version`. */
function atVersion(version: number): Db {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'cm-memory-state-')), 'memory-state.sqlite'));
  assert.equal(migrate(db, memoryStateSchema, version), version);
  return db;
}

const objects = (db: Db): string[] =>
  db
    .prepare("SELECT type || ' ' || name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY 1")
    .pluck()
    .all() as string[];
const columns = (db: Db, table: string): string[] =>
  (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((column) => column.name);

/** Migrates `db` one step and returns the schema objects that step added. */
function added(db: Db): string[] {
  const before = new Set(objects(db));
  migrate(db, memoryStateSchema, schemaVersion(db) + 1);
  return objects(db).filter((name) => !before.has(name));
}

function insertEntry(db: Db, id: string, owner: string, title: string, body: string): void {
  db.prepare(
    `INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status)
     VALUES (?, ?, 'w', 1, 'd', ?, ?, 'active')`,
  ).run(id, owner, JSON.stringify({ title, priority: 50, created: '2026-01-01' }), body);
}

describe('memory-state migrations, one step each', () => {
  it('has fifteen steps, and a file at the latest version stays there', () => {
    assert.equal(memoryStateSchema.steps.length, 15);
    const db = atVersion(15);
    assert.equal(migrate(db, memoryStateSchema), 15);
  });

  it('v1 lays the foundation and names the file with a fresh UUID', () => {
    const db = atVersion(0);
    const made = added(db);
    for (const table of [
      'memory_state_meta',
      'candidates',
      'approved_entries',
      'approved_projection',
      'authorization_log',
    ])
      assert.ok(made.includes(`table ${table}`), `v1 creates ${table}`);
    const uuid = db.prepare("SELECT value FROM memory_state_meta WHERE key = 'memory_state_uuid'").pluck().get();
    assert.match(String(uuid), /^[0-9a-f-]{36}$/);
    assert.notEqual(
      atVersion(1).prepare("SELECT value FROM memory_state_meta WHERE key = 'memory_state_uuid'").pluck().get(),
      uuid,
      'each file gets its own',
    );
  });

  it("v2 gives approved entries and projections their scope, keeping a v1 entry as 'project'", () => {
    const db = atVersion(1);
    insertEntry(db, 'e1', 'r', 'Old entry', 'body');
    assert.deepEqual(added(db), ['index approved_entries_by_owner']);
    assert.ok(columns(db, 'approved_entries').includes('paths_json'));
    assert.ok(columns(db, 'approved_projection').includes('scan_json'));
    assert.deepEqual(db.prepare('SELECT scope, paths_json FROM approved_entries').get(), {
      scope: 'project',
      paths_json: '[]',
    });
  });

  it("v3 adds the snapshot's order index", () => {
    const db = atVersion(2);
    assert.deepEqual(added(db), ['index approved_entries_snapshot_order']);
  });

  it('v4 adds the promotion journal and its files', () => {
    const db = atVersion(3);
    assert.deepEqual(added(db).sort(), [
      'index promotion_journal_open',
      'table promotion_files',
      'table promotion_journal',
    ]);
  });

  it("v5 records runner sends and the runner of each authorisation, an old decision reading 'approved'", () => {
    const db = atVersion(4);
    db.prepare("INSERT INTO authorization_log (plan_digest, decided_at_ms, via) VALUES ('p', 1, 'interactive')").run();
    assert.deepEqual(added(db).sort(), ['index runner_sends_by_day', 'table runner_sends']);
    assert.deepEqual(db.prepare('SELECT runner_profile, decision FROM authorization_log').get(), {
      runner_profile: null,
      decision: 'approved',
    });
  });

  it('v6 counts the recall terms of the entries a v5 file already holds', () => {
    const db = atVersion(5);
    insertEntry(db, 'e1', 'r', 'Gradle wrapper', 'use the gradle wrapper');
    insertEntry(db, 'e2', 'r', 'Lockfile', 'commit the lockfile');
    assert.deepEqual(added(db), ['table recall_terms']);
    const rows = (term: string) =>
      db.prepare("SELECT rows FROM recall_terms WHERE term = ? AND source_kind = 'approved'").pluck().get(term);
    assert.equal(rows('gradle'), 1, 'counted once per entry, however often the entry says it');
    assert.equal(rows('lockfile'), 1);
  });

  it('v7 counts the entries of each owner that a v6 file holds', () => {
    const db = atVersion(6);
    insertEntry(db, 'e1', 'r1', 'One', 'a');
    insertEntry(db, 'e2', 'r1', 'Two', 'b');
    insertEntry(db, 'e3', 'r2', 'Three', 'c');
    assert.deepEqual(added(db), ['table approved_entry_counts']);
    assert.deepEqual(db.prepare('SELECT repository_key, entries FROM approved_entry_counts ORDER BY 1').all(), [
      { repository_key: 'r1', entries: 2 },
      { repository_key: 'r2', entries: 1 },
    ]);
  });

  it('v8 adds only the index of the dedup pool by owner and content digest', () => {
    const db = atVersion(7);
    assert.deepEqual(added(db), ['index candidates_pooled_by_content']);
  });

  it("v9 adds entries' anchors and verdicts beside them, leaving a v8 file's entries as they were", () => {
    const db = atVersion(8);
    insertEntry(db, 'e1', 'r', 'Config loader', 'see `src/config.ts`');
    assert.deepEqual(added(db).sort(), [
      'index entry_anchors_stale',
      'table anchor_verification',
      'table entry_anchors',
    ]);
    assert.equal(db.prepare('SELECT count(*) FROM approved_entries').pluck().get(), 1);
    assert.equal(db.prepare('SELECT count(*) FROM entry_anchors').pluck().get(), 0, 'no verdict until a run');
    assert.throws(
      () =>
        db
          .prepare(
            "INSERT INTO entry_anchors (repository_key, worktree_key, entry_id, content_digest, anchors_json, verdict, verified_at_ms) VALUES ('r', 'w', 'e1', 'd', '[]', 'maybe', 1)",
          )
          .run(),
      /CHECK constraint failed/,
      'a verdict is fresh, stale or unknown',
    );
  });

  it("v10 lets a plan's file be a removal, carrying a v9 file's plan rows over unchanged", () => {
    const db = atVersion(9);
    db.prepare(
      `INSERT INTO promotion_journal (plan_id, repository_key, worktree_key, scope, anchor, candidate_owner_json, plan_canonical_json, plan_digest, candidate_ids_json, assessment_digest, policy_version, diff, status, created_at_ms, updated_at_ms)
       VALUES ('p1', 'r', 'w', 'project', '/x', '{}', '{}', 'd', '[]', 'a', 'v', '', 'applied', 1, 1)`,
    ).run();
    const insertFile = (action: string, state: string, path: string) =>
      db
        .prepare(
          `INSERT INTO promotion_files (plan_id, target_path, entry_id, action, candidate_ids_json, target_blob_hash, sanitized_content, sanitized_digest, state)
           VALUES ('p1', ?, 'e1', ?, '[]', NULL, x'6869', 'h', ?)`,
        )
        .run(path, action, state);
    insertFile('create', 'written', 'a.md');
    assert.throws(() => insertFile('remove', 'pending', 'b.md'), /CHECK constraint failed/, 'v9 knows no removal');
    assert.deepEqual(added(db), [], 'the same table, made again');
    assert.deepEqual(
      db.prepare('SELECT target_path, action, state, hex(sanitized_content) AS bytes FROM promotion_files').all(),
      [{ target_path: 'a.md', action: 'create', state: 'written', bytes: '6869' }],
    );
    insertFile('remove', 'removed', 'b.md');
    assert.throws(() => insertFile('rename', 'pending', 'c.md'), /CHECK constraint failed/);
  });

  it('v11 adds usefulness counts and re-teach events, empty, and notes when counting began', () => {
    const db = atVersion(10);
    insertEntry(db, 'e1', 'r', 'Config loader', 'see `src/config.ts`');
    const before = Date.now();
    assert.deepEqual(added(db).sort(), [
      'index entry_reteach_by_candidate',
      'table entry_reteach',
      'table entry_usage',
      'table usage_cursors',
    ]);
    assert.equal(db.prepare('SELECT count(*) FROM entry_usage').pluck().get(), 0, 'nothing was counted before v11');
    const since = db.prepare("SELECT value FROM memory_state_meta WHERE key = 'usage_since'").pluck().get() as string;
    assert.ok(Date.parse(since) >= before - 1000, since);
    const reteach = db.prepare(
      "INSERT OR IGNORE INTO entry_reteach (entry_id, session_key, turn_key, client, candidate_id, repository_key, worktree_key, recorded_at_ms) VALUES ('e1', 's', 't', 'claude', 'c1', 'r', 'w', 1)",
    );
    assert.equal(reteach.run().changes, 1);
    assert.equal(reteach.run().changes, 0, 'one event per entry and source turn');
    assert.throws(
      () => db.prepare("INSERT INTO usage_cursors (source, position, collected_at_ms) VALUES ('mail', 0, 1)").run(),
      /CHECK constraint failed/,
    );
  });

  it('v12 adds the consolidation patches, empty, one per task, with a checked scope and status', () => {
    const db = atVersion(11);
    insertEntry(db, 'e1', 'r', 'Config loader', 'see `src/config.ts`');
    assert.deepEqual(added(db).sort(), ['index consolidation_patches_by_owner', 'table consolidation_patches']);
    const insert = (taskId: string, scope: string, status: string) =>
      db
        .prepare(
          "INSERT INTO consolidation_patches (task_id, repository_key, worktree_key, scope, runner, patch_json, operations, status, created_at_ms) VALUES (?, 'r', 'w', ?, 'builtin', '{}', 0, ?, 1)",
        )
        .run(taskId, scope, status);
    insert('con-1', 'project', 'pending');
    assert.throws(() => insert('con-1', 'project', 'pending'), /UNIQUE constraint failed/);
    assert.throws(() => insert('con-2', 'team', 'pending'), /CHECK constraint failed/);
    assert.throws(() => insert('con-3', 'user', 'applied'), /CHECK constraint failed/);
    assert.equal(db.prepare('SELECT count(*) FROM approved_entries').pluck().get(), 1, 'entries are untouched');
  });

  it('v13 adds the approved scenes, empty, one per owner and name, with a checked scope and count', () => {
    const db = atVersion(12);
    insertEntry(db, 'e1', 'r', 'Config loader', 'see `src/config.ts`');
    assert.deepEqual(added(db), ['table approved_scenes']);
    const insert = (name: string, scope: string, entries: number) =>
      db
        .prepare(
          "INSERT INTO approved_scenes (repository_key, worktree_key, name, scope, title, applies_when, summary, file_entries_json, entry_ids_json, entries, path, content_digest) VALUES ('r', 'w', ?, ?, 'Config', NULL, '', '[]', '[]', ?, 'scenes/x.md', 'd')",
        )
        .run(name, scope, entries);
    insert('config', 'project', 0);
    assert.throws(() => insert('config', 'project', 0), /UNIQUE constraint failed/);
    assert.throws(() => insert('other', 'team', 0), /CHECK constraint failed/);
    assert.throws(() => insert('third', 'user', -1), /CHECK constraint failed/);
    assert.equal(db.prepare('SELECT count(*) FROM approved_entries').pluck().get(), 1, 'entries are untouched');
  });

  it("v14 lets a patch be applied and name its plan, carrying a v13 file's patches over with no plan", () => {
    const db = atVersion(13);
    const insert = (taskId: string, status: string, planId?: string) =>
      db
        .prepare(
          `INSERT INTO consolidation_patches (task_id, repository_key, worktree_key, scope, runner, patch_json, operations, status, created_at_ms${planId ? ', plan_id' : ''})
           VALUES (?, 'r', 'w', 'project', 'builtin', '{}', 2, ?, 1${planId ? ', ?' : ''})`,
        )
        .run(taskId, status, ...(planId ? [planId] : []));
    insert('con-1', 'prepared');
    assert.throws(() => insert('con-2', 'applied'), /CHECK constraint failed/, 'v13 knows no applied patch');
    assert.deepEqual(added(db), [], 'the same table and index, made again');
    assert.deepEqual(db.prepare('SELECT task_id, status, operations, plan_id FROM consolidation_patches').all(), [
      { task_id: 'con-1', status: 'prepared', operations: 2, plan_id: null },
    ]);
    insert('con-2', 'applied', 'plan-1');
    assert.throws(() => insert('con-3', 'merged'), /CHECK constraint failed/);
    assert.ok(
      (
        db
          .prepare("SELECT sql FROM sqlite_schema WHERE name = 'consolidation_patches_by_owner'")
          .pluck()
          .get() as string
      ).includes('status'),
    );
  });

  it('v15 keeps doctrine, and makes every stored projection read its files again so it is stored', () => {
    const db = atVersion(14);
    db.prepare(
      `INSERT INTO approved_projection (repository_key, worktree_key, generation, source_tree_digest, coverage, analyzer_version, recall_algorithm_version, scope, scan_json, problems_json, synced_at_ms)
       VALUES ('r', 'w', 3, 'digest', 'complete', 'a', 'b', 'project', '{"files":[]}', '[]', 1)`,
    ).run();
    db.prepare(
      "INSERT INTO memory_state_meta (key, value) VALUES ('approved_directories:r:w', '{}'), ('other', 'x')",
    ).run();
    assert.deepEqual(added(db), ['table approved_doctrine']);
    assert.deepEqual(columns(db, 'approved_doctrine'), [
      'repository_key',
      'worktree_key',
      'name',
      'scope',
      'title',
      'principle',
      'cites_json',
      'basis_json',
      'path',
      'content_digest',
    ]);
    assert.deepEqual(
      db.prepare('SELECT generation, source_tree_digest, scan_json FROM approved_projection').all(),
      [{ generation: 3, source_tree_digest: '', scan_json: null }],
      'the generation stays; the next reading reads every file and stores the doctrine',
    );
    assert.deepEqual(
      db.prepare('SELECT key FROM memory_state_meta ORDER BY key').pluck().all().includes('other'),
      true,
    );
    assert.equal(
      db.prepare("SELECT count(*) FROM memory_state_meta WHERE key LIKE 'approved_directories:%'").pluck().get(),
      0,
    );
  });
});
