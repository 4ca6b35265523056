import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CmError } from '../../source/errors.js';
import { storeFiles } from '../../source/home.js';
import { openMemoryState, openMemoryStateReadOnly } from '../../source/store/memory/state-database.js';
import { memoryStateSchema } from '../../source/store/memory/state-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { migrate, schemaVersion } from '../../source/store/migrations.js';
import { WriterClient } from '../../source/workers/writer-client.js';
import { tempHome } from '../support/cli.js';

const schemaOf = (db: Db) =>
  db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();

function freshHome(): string {
  const home = tempHome('memory-state');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

describe('memory-state migrations', () => {
  it('creates the file 0600 with every table, a persistent UUID, and a rerun changes nothing', () => {
    const path = storeFiles(freshHome()).memoryState;
    const first = openMemoryState(path);
    const tables = (
      first.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((r) => r.name);
    for (const table of [
      'tasks',
      'submissions',
      'submission_conflicts',
      'chunks',
      'candidates',
      'candidate_fts',
      'evidence_refs',
      'assessments',
      'candidate_projection',
      'approved_entries',
      'approved_fts',
      'approved_projection',
      'authorization_log',
      'runner_conformance',
      'repository_bindings',
    ]) {
      assert.ok(tables.includes(table), `table ${table} exists`);
    }
    first.db.close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const second = openMemoryState(path);
    assert.equal(second.memoryStateUuid, first.memoryStateUuid);
    assert.equal(schemaVersion(second.db), memoryStateSchema.steps.length);
    second.db.close();
  });

  it('migrating from each earlier version reaches the schema built from empty', () => {
    const reference = openDatabase(':memory:');
    migrate(reference, memoryStateSchema);
    const expected = schemaOf(reference);
    for (let version = 0; version < memoryStateSchema.steps.length; version++) {
      const db = openDatabase(':memory:');
      migrate(db, memoryStateSchema, version);
      assert.equal(schemaVersion(db), version);
      migrate(db, memoryStateSchema);
      assert.deepEqual(schemaOf(db), expected, `from version ${version}`);
    }
  });

  it('v7 counts the entries each owner already had', () => {
    const db = openDatabase(':memory:');
    migrate(db, memoryStateSchema, 6);
    const entry = db.prepare(
      `INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json,
         body_text, status) VALUES (?, ?, ?, 1, '', '{}', '', 'approved')`,
    );
    for (let i = 0; i < 7; i++) entry.run(`a${i}`, 'r1', 'w1');
    for (let i = 0; i < 2; i++) entry.run(`b${i}`, 'r2', 'w2');
    entry.run('c', 'r1', 'w2');
    migrate(db, memoryStateSchema, 7);
    const counts = db
      .prepare('SELECT repository_key, worktree_key, entries FROM approved_entry_counts ORDER BY 1, 2')
      .all();
    assert.deepEqual(counts, [
      { repository_key: 'r1', worktree_key: 'w1', entries: 7 },
      { repository_key: 'r1', worktree_key: 'w2', entries: 1 },
      { repository_key: 'r2', worktree_key: 'w2', entries: 2 },
    ]);
  });

  it('v8 indexes the dedup pool by owner and content digest, and a probe of it uses the index', () => {
    const db = openDatabase(':memory:');
    migrate(db, memoryStateSchema, 7);
    const indexed = () =>
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'candidates_pooled_by_content'").all();
    assert.deepEqual(indexed(), []);
    migrate(db, memoryStateSchema, 8);
    assert.equal(indexed().length, 1);
    // The exact-repeat probe (exact-repeat.ts) is a search of that index, not a scan of the owner's candidates.
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT candidate_id FROM candidates
         WHERE repository_key = ? AND worktree_key = ? AND content_digest = ?
           AND status = 'draft' AND adjudication = 'done' AND decision IN ('store', 'update', 'merge') LIMIT 2`,
      )
      .all('r', 'w', 'd') as Array<{ detail: string }>;
    assert.match(plan.map((row) => row.detail).join('\n'), /USING INDEX candidates_pooled_by_content/);
  });

  it('a newer or damaged file is memory_unavailable with what to do, and is left as it was', () => {
    const home = freshHome();
    const path = storeFiles(home).memoryState;
    const db = openDatabase(path);
    db.pragma(`user_version = ${memoryStateSchema.steps.length + 5}`);
    db.close();
    assert.throws(
      () => openMemoryState(path),
      (error: unknown) =>
        error instanceof CmError &&
        error.code === 'memory_unavailable' &&
        /newer/.test(error.message) &&
        /Capture and core.sqlite are not affected/.test(error.message),
    );
    assert.throws(
      () => openMemoryStateReadOnly(path),
      (error: unknown) => error instanceof CmError && error.code === 'memory_unavailable',
    );
    const damaged = storeFiles(freshHome()).memoryState;
    writeFileSync(damaged, 'not a database at all, just bytes'.repeat(200), { mode: 0o600 });
    assert.throws(
      () => openMemoryState(damaged),
      (error: unknown) =>
        error instanceof CmError && error.code === 'memory_unavailable' && /damaged/.test(error.message),
    );
  });
});

describe('a new memory-state appears whole', () => {
  // A reader in another process (as the TUI's reads of a serving host, or a CLI read beside it)
  // polls the path while the writer makes the file five times over: whenever the file is there,
  // it is at the latest version. Made in place, it held versions 0 to 14 while it migrated, and
  // the TUI's Memory opened on a new data home said "schema version 0, start the host once".
  it('a reader polling its path sees no file or the latest version, never one in between', async () => {
    // Five data homes made in turn, none removed: the reader only ever sees the making.
    const homes = Array.from({ length: 5 }, () => freshHome());
    const paths = homes.map((home) => storeFiles(home).memoryState);
    const stop = join(homes[0]!, 'stop');
    const reader = spawn(
      process.execPath,
      [
        '-e',
        `const Database = require('better-sqlite3');
        const fs = require('node:fs');
        const [stop, ...paths] = process.argv.slice(1);
        const seen = new Set();
        for (let i = 0; !fs.existsSync(stop); i++) {
          const path = paths[i % paths.length];
          if (!fs.existsSync(path)) { seen.add('missing'); continue; }
          try {
            const db = new Database(path, { readonly: true, fileMustExist: true });
            seen.add(String(db.pragma('user_version', { simple: true })));
            db.close();
          } catch (error) { seen.add(error.code ?? String(error)); }
        }
        process.stdout.write(JSON.stringify([...seen]));`,
        stop,
        ...paths,
      ],
      { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    reader.stdout.on('data', (chunk) => (out += chunk));
    const ended = new Promise((resolve) => reader.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const path of paths) {
      openMemoryState(path).db.close();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    writeFileSync(stop, '');
    await ended;
    const seen = (JSON.parse(out) as string[]).sort();
    const latest = String(memoryStateSchema.steps.length);
    assert.deepEqual(
      seen.filter((state) => state !== 'missing' && state !== latest),
      [],
      `the reader saw ${seen.join(', ')}`,
    );
    assert.ok(seen.includes('missing') && seen.includes(latest), `the reader saw ${seen.join(', ')}`);
    for (const home of homes)
      assert.deepEqual(
        readdirSync(home).filter((name) => name.includes('.new')),
        [],
        'nothing of the making is left beside it',
      );
  });

  it('what a killed making left beside it is removed, and the file is made whole', () => {
    const home = freshHome();
    const path = storeFiles(home).memoryState;
    writeFileSync(`${path}.new`, 'half of a database', { mode: 0o600 });
    writeFileSync(`${path}.new-wal`, 'its log', { mode: 0o600 });
    const state = openMemoryState(path);
    try {
      assert.equal(schemaVersion(state.db), memoryStateSchema.steps.length);
      assert.equal(statSync(path).mode & 0o777, 0o600);
    } finally {
      state.db.close();
    }
    assert.deepEqual(
      readdirSync(home).filter((name) => name.includes('.new')),
      [],
    );
  });
});

describe('the writer serves memory-state beside core.sqlite', () => {
  const writers: WriterClient[] = [];
  after(async () => {
    for (const writer of writers) await writer.close();
  });

  it('runs memory commands on memory-state and core commands on core.sqlite', async () => {
    const home = freshHome();
    const writer = await WriterClient.start(storeFiles(home).core);
    writers.push(writer);
    const opened = await writer.call('memoryOpen', {});
    assert.equal(opened.schemaVersion, memoryStateSchema.steps.length);
    const again = await writer.call('memoryOpen', {});
    assert.equal(again.memoryStateUuid, opened.memoryStateUuid);
    const receipt = await writer.call('appendNote', { text: 'core still works' });
    assert.equal(receipt.sequence, 1);
    assert.equal(statSync(storeFiles(home).memoryState).mode & 0o777, 0o600);
  });

  it('a damaged memory-state fails only memory commands; capture and notes keep working; fixing it needs no restart', async () => {
    const home = freshHome();
    const path = storeFiles(home).memoryState;
    writeFileSync(path, 'garbage'.repeat(1000), { mode: 0o600 });
    const writer = await WriterClient.start(storeFiles(home).core);
    writers.push(writer);
    await assert.rejects(
      writer.call('memoryOpen', {}),
      (error: unknown) => error instanceof CmError && error.code === 'memory_unavailable',
    );
    const receipt = await writer.call('appendNote', { text: 'capture is unaffected' });
    assert.equal(receipt.sequence, 1);
    // The user moves the damaged file aside: the next memory command creates a new one.
    const { renameSync } = await import('node:fs');
    renameSync(path, `${path}.damaged`);
    const opened = await writer.call('memoryOpen', {});
    assert.equal(opened.schemaVersion, memoryStateSchema.steps.length);
  });
});
