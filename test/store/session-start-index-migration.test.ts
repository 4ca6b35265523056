// v10: sessions are listed newest first by start time (sessions, the TUI's list, status) through an
// index on it; a v9 store is upgraded in place, every session kept.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSessions, sessionsPageSql } from '../../source/store/core/capture-reads.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';

test('v10 indexes the start of sessions: a v9 store keeps its sessions, listed in the same order', () => {
  const root = mkdtempSync(join(tmpdir(), 'cm-v10-'));
  const db = openDatabase(join(root, 'core.sqlite'));
  try {
    migrate(db, coreSchema, 9);
    const insert = db.prepare(
      "INSERT INTO capture_activations (activation_id, session_key, client, process_instance, host_session_id, ordinal, state, started_at_ms, origin) VALUES (?, ?, ?, 'p', ?, 1, 'ended', ?, ?)",
    );
    // An import stores old sessions last; two sessions started in the same millisecond.
    insert.run(1, 'live-1', 'codex', 'h1', 3_000, 'live');
    insert.run(2, 'live-2', 'claude', 'h2', 4_000, 'live');
    insert.run(3, 'imported-1', 'pi', 'h3', 1_000, 'imported');
    insert.run(4, 'imported-2', 'claude', 'h4', 4_000, 'imported');
    const keys = (page: { sessions: Array<{ sessionKey: string }> }) => page.sessions.map((s) => s.sessionKey);
    const before = keys(readSessions(db, 0, 50));
    assert.deepEqual(before, ['imported-2', 'live-2', 'live-1', 'imported-1']);

    assert.equal(migrate(db, coreSchema), coreSchema.steps.length);
    assert.equal(db.pragma('user_version', { simple: true }), 10);
    assert.ok(
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'capture_activations_by_start'").get(),
      'the index is there',
    );
    assert.deepEqual(keys(readSessions(db, 0, 50)), before, 'every session kept, in the same order');
    assert.deepEqual(keys(readSessions(db, 2, 50)), ['live-1', 'imported-1'], 'a later page too');
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT activation_id FROM capture_activations ORDER BY started_at_ms DESC, activation_id DESC LIMIT 21',
      )
      .all() as Array<{ detail: string }>;
    assert.ok(
      plan.some((step) => step.detail.includes('capture_activations_by_start')) &&
        !plan.some((step) => step.detail.includes('TEMP B-TREE')),
      `the newest page is read from the index, not sorted: ${JSON.stringify(plan)}`,
    );
    assert.deepEqual(db.pragma('foreign_key_check'), []);
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a later page of sessions seeks to its cursor in the start-time index rather than walking down to it', () => {
  const root = mkdtempSync(join(tmpdir(), 'cm-v10-plan-'));
  const db = openDatabase(join(root, 'core.sqlite'));
  try {
    migrate(db, coreSchema);
    const plan = (after: boolean) =>
      (
        db
          .prepare(`EXPLAIN QUERY PLAN ${sessionsPageSql(after)}`)
          .all(...(after ? [7, null, null, 21] : [null, null, 21])) as Array<{ detail: string }>
      ).map((row) => row.detail);
    assert.ok(
      plan(true).some((step) =>
        /^SEARCH capture_activations USING INDEX capture_activations_by_start \(started_at_ms<\?\)/.test(step),
      ),
      plan(true).join('\n'),
    );
    assert.ok(
      plan(false).some((step) => /^SCAN capture_activations USING INDEX capture_activations_by_start$/.test(step)),
      plan(false).join('\n'),
    );
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
});
