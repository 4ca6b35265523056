import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CmError } from '../../source/errors.js';
import { storeFiles } from '../../source/home.js';
import { PAGE_LIMIT_MAX, RECORD_MAX_BYTES } from '../../source/limits.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { runDoctor } from '../../source/store/doctor.js';
import { readJournalPage, readTimelinePage } from '../../source/store/core/history-reads.js';
import { migrate, schemaVersion } from '../../source/store/migrations.js';
import { appendNote } from '../../source/store/core/notes.js';
import { readHeads, readStoreId } from '../../source/store/core/sequences.js';
import { commit } from '../../source/store/transaction.js';
import { tempHome } from '../support/cli.js';

function freshStore(): { db: Db; path: string } {
  const home = tempHome('store');
  mkdirSync(home, { recursive: true });
  const path = storeFiles(home).core;
  const db = openDatabase(path);
  migrate(db, coreSchema);
  return { db, path };
}

const schemaOf = (db: Db) =>
  db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();

const note = (db: Db, text: string, operationId?: string) =>
  commit(db, 'appendNote', (tx) => appendNote(tx, readStoreId(db), { text, operationId }));

describe('migrations', () => {
  it('migrate from empty to the latest version, and a rerun changes nothing', () => {
    const { db } = freshStore();
    assert.equal(schemaVersion(db), coreSchema.steps.length);
    const before = schemaOf(db);
    const storeId = readStoreId(db);
    assert.equal(migrate(db, coreSchema), coreSchema.steps.length);
    assert.deepEqual(schemaOf(db), before);
    assert.equal(readStoreId(db), storeId, 'the store ID is created once');
  });

  it('migrate from each earlier version reaches the same schema as from empty', () => {
    const reference = schemaOf(freshStore().db);
    for (let version = 0; version < coreSchema.steps.length; version++) {
      const home = tempHome('mig');
      mkdirSync(home, { recursive: true });
      const db = openDatabase(storeFiles(home).core);
      migrate(db, coreSchema, version);
      assert.equal(schemaVersion(db), version);
      migrate(db, coreSchema);
      assert.deepEqual(schemaOf(db), reference, `from version ${version}`);
    }
  });

  it('a step that fails leaves the file at the previous whole version', () => {
    const home = tempHome('mig');
    mkdirSync(home, { recursive: true });
    const db = openDatabase(storeFiles(home).core);
    const failing = {
      name: 'test',
      steps: [
        ...coreSchema.steps,
        (d: Db) => {
          d.exec('CREATE TABLE half (x)');
          throw new Error('boom');
        },
      ],
    };
    migrate(db, coreSchema);
    assert.throws(() => migrate(db, failing), /boom/);
    assert.equal(schemaVersion(db), coreSchema.steps.length);
    assert.deepEqual(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").get(), { n: 0 });
  });

  it('refuses a store from a newer common-memory without changing it', () => {
    const { db } = freshStore();
    db.pragma(`user_version = ${coreSchema.steps.length + 1}`);
    assert.throws(
      () => migrate(db, coreSchema),
      (error: unknown) => error instanceof CmError && /newer/.test(error.message),
    );
    assert.equal(schemaVersion(db), coreSchema.steps.length + 1);
  });
});

describe('notes and replay', () => {
  it('a note goes to the journal only, with a receipt at its journal position', () => {
    const { db } = freshStore();
    const receipt = note(db, 'hello', 'op-1');
    assert.equal(receipt.sequence, 1);
    assert.equal(receipt.replayed, false);
    assert.deepEqual(readHeads(db), { journal: 1, timeline: 0 });
    const page = readJournalPage(db, { after: 0, limit: 10 });
    assert.equal(page.rows[0]?.kind, 'client.note');
    assert.deepEqual(page.rows[0]?.payload, { text: 'hello' });
    assert.equal(readTimelinePage(db, { after: 0, limit: 10 }).rows.length, 0);
  });

  it('replaying an operation ID with the same text returns the original receipt and creates nothing', () => {
    const { db } = freshStore();
    const first = note(db, 'same', 'op-a');
    note(db, 'other', 'op-b');
    const again = note(db, 'same', 'op-a');
    assert.deepEqual(again, { ...first, replayed: true });
    assert.equal(readHeads(db).journal, 2);
  });

  it('the same operation ID with other text is a conflict that writes nothing', () => {
    const { db } = freshStore();
    note(db, 'one', 'op-x');
    assert.throws(
      () => note(db, 'two', 'op-x'),
      (error: unknown) => error instanceof CmError && error.code === 'operation_conflict',
    );
    assert.equal(readHeads(db).journal, 1);
  });

  it('the same text under a new operation ID is a new note', () => {
    const { db } = freshStore();
    note(db, 'twice', 'op-1');
    note(db, 'twice', 'op-2');
    assert.equal(readHeads(db).journal, 2);
  });

  it('a note over the record limit is refused whole and changes nothing', () => {
    const { db } = freshStore();
    assert.throws(
      () => note(db, 'x'.repeat(RECORD_MAX_BYTES)),
      (error: unknown) => error instanceof CmError && error.code === 'limit_exceeded',
    );
    assert.deepEqual(readHeads(db), { journal: 0, timeline: 0 });
    assert.deepEqual(db.prepare('SELECT count(*) AS n FROM operations').get(), { n: 0 });
  });

  it('rejects malformed operation IDs and empty notes', () => {
    const { db } = freshStore();
    assert.throws(
      () => note(db, 'x', 'has space'),
      (error: unknown) => error instanceof CmError && error.code === 'invalid_input',
    );
    assert.throws(
      () => note(db, ''),
      (error: unknown) => error instanceof CmError && error.code === 'invalid_input',
    );
    assert.equal(readHeads(db).journal, 0);
  });

  it('a fault before commit rolls back the row, the head and the operation together', () => {
    const { db } = freshStore();
    const fault = (name: string) => {
      if (name === 'appendNote.beforeCommit') throw new Error('injected');
    };
    assert.throws(
      () =>
        commit(db, 'appendNote', (tx) => appendNote(tx, readStoreId(db), { text: 'lost', operationId: 'op-f' }), fault),
      /injected/,
    );
    assert.deepEqual(readHeads(db), { journal: 0, timeline: 0 });
    assert.equal((db.prepare('SELECT count(*) AS n FROM operations').get() as { n: number }).n, 0);
    assert.deepEqual(runDoctor(db), []);
  });
});

describe('keyset pages', () => {
  it('pages without skipping or repeating, nextAfter is the last row, empty page keeps after', () => {
    const { db } = freshStore();
    for (let i = 1; i <= 25; i++) note(db, `n${i}`);
    const seen: number[] = [];
    let after = 0;
    for (;;) {
      const page = readJournalPage(db, { after, limit: 10 });
      if (page.rows.length === 0) {
        assert.equal(page.nextAfter, after);
        break;
      }
      seen.push(...page.rows.map((row) => row.sequence));
      assert.equal(page.nextAfter, page.rows.at(-1)!.sequence);
      after = page.nextAfter;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });

  it('validates after, limit, store and head', () => {
    const { db } = freshStore();
    note(db, 'one');
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as CmError).code;
      }
      return 'no error';
    };
    assert.equal(
      code(() => readJournalPage(db, { after: -1, limit: 10 })),
      'invalid_cursor',
    );
    assert.equal(
      code(() => readJournalPage(db, { after: 1.5, limit: 10 })),
      'invalid_cursor',
    );
    assert.equal(
      code(() => readJournalPage(db, { after: 0, limit: 0 })),
      'invalid_input',
    );
    assert.equal(
      code(() => readJournalPage(db, { after: 0, limit: PAGE_LIMIT_MAX + 1 })),
      'invalid_input',
    );
    assert.equal(
      code(() => readJournalPage(db, { after: 2, limit: 10 })),
      'cursor_beyond_head',
    );
    assert.equal(
      code(() => readTimelinePage(db, { after: 1, limit: 10 })),
      'cursor_beyond_head',
      'a journal position is beyond the empty timeline',
    );
    assert.equal(
      code(() => readJournalPage(db, { after: 0, limit: 10, storeId: '00000000-0000-4000-8000-000000000000' })),
      'cursor_other_store',
    );
    assert.equal(
      code(() => readJournalPage(db, { after: 0, limit: 10, agentId: 'not-a-uuid' })),
      'invalid_input',
    );
    assert.equal(readJournalPage(db, { after: 0, limit: 10, storeId: readStoreId(db) }).rows.length, 1);
  });

  it('a page holds only the prefix of rows that fits the byte limit, counting escapes', () => {
    const { db } = freshStore();
    // Quotes double in JSON: each note is ~0.6 MiB of text but ~1 MiB encoded.
    const text = '"'.repeat(Math.floor(RECORD_MAX_BYTES / 2) - 100);
    for (let i = 0; i < 12; i++) note(db, text);
    const page = readJournalPage(db, { after: 0, limit: 100 });
    assert.ok(page.rows.length >= 1 && page.rows.length < 12, `got ${page.rows.length} rows`);
    assert.equal(page.nextAfter, page.rows.length);
    const rest = readJournalPage(db, { after: page.nextAfter, limit: 100 });
    assert.equal(rest.rows[0]?.sequence, page.nextAfter + 1, 'the next page continues exactly after the prefix');
  });

  it('filters by agent', () => {
    const { db } = freshStore();
    note(db, 'a');
    const agent = '11111111-1111-4111-8111-111111111111';
    db.prepare(
      "INSERT INTO journal (sequence, event_id, kind, agent_id, payload, recorded_at_ms) VALUES (2, 'e2', 'test', ?, '{}', 0)",
    ).run(agent);
    db.prepare("UPDATE heads SET head = 2 WHERE stream = 'journal'").run();
    const page = readJournalPage(db, { after: 0, limit: 10, agentId: agent });
    assert.deepEqual(
      page.rows.map((row) => row.sequence),
      [2],
    );
  });
});

describe('doctor', () => {
  it('passes on a healthy store and names each violation on a damaged one', () => {
    const { db } = freshStore();
    for (let i = 0; i < 3; i++) note(db, `n${i}`);
    assert.deepEqual(runDoctor(db), []);
    db.prepare("UPDATE heads SET head = 7 WHERE stream = 'journal'").run();
    db.prepare(
      "INSERT INTO timeline (sequence, message_id, role, payload, source_journal_sequence, recorded_at_ms) VALUES (1, 'm1', 'user', '{}', 2, 0)",
    ).run();
    db.prepare("UPDATE heads SET head = 1 WHERE stream = 'timeline'").run();
    const checks = runDoctor(db).map((violation) => violation.check);
    assert.ok(checks.includes('journal.head'));
    assert.ok(checks.includes('timeline.source'));
  });
});
