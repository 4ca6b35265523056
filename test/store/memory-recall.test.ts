// Recall over a real memory-state file: which approved entries and candidates a text finds, for
// which owner, and that the query stays bounded when the text is full of common words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recall } from '../../source/store/memory/recall.js';
import {
  indexRecallRow,
  RECALL_ROW_BUDGET,
  recallTerms,
  unindexRecallRow,
} from '../../source/store/memory/recall-terms.js';
import { USER_SCOPE } from '../../source/effects/repository.js';
import { memoryStateSchema } from '../../source/store/memory/state-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';

const project = { repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };
const otherWorktree = { repositoryKey: 'a'.repeat(64), worktreeKey: 'c'.repeat(64) };

function state(): Db {
  const db = openDatabase(':memory:');
  migrate(db, memoryStateSchema);
  return db;
}

const termRows = (db: Db, term: string) =>
  db.prepare('SELECT source_kind AS kind, rows FROM recall_terms WHERE term = ? ORDER BY source_kind').all(term);

/** A pooled candidate (decided store, still a draft) of `owner`, indexed for recall. */
function pool(db: Db, owner: typeof project, id: string, content: string): number {
  db.prepare(
    `INSERT OR IGNORE INTO chunks (chunk_ref, repository_key, worktree_key, session_key, turn_range, chunk_digest, source_input_digest, created_at_ms)
     VALUES ('chunk', ?, ?, 's', '0-0', ?, ?, 0)`,
  ).run(owner.repositoryKey, owner.worktreeKey, 'c'.repeat(64), 'd'.repeat(64));
  const rowid = Number(
    db
      .prepare(
        `INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref, task_id, content_digest, payload_json, status, adjudication, decision, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, 'chunk', 't', ?, ?, 'draft', 'done', 'store', 0, 0)`,
      )
      .run(id, owner.repositoryKey, owner.worktreeKey, 'e'.repeat(64), JSON.stringify({ content })).lastInsertRowid,
  );
  indexRecallRow(db, 'candidate', rowid, content);
  return rowid;
}

function approve(db: Db, owner: typeof project, scope: 'project' | 'user', id: string, body: string): void {
  const rowid = db
    .prepare(
      `INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status, scope)
       VALUES (?, ?, ?, 1, ?, '{}', ?, 'approved', ?)`,
    )
    .run(id, owner.repositoryKey, owner.worktreeKey, '0'.repeat(64), body, scope).lastInsertRowid;
  indexRecallRow(db, 'approved', rowid, body);
}

describe('recall', () => {
  it("finds approved entries of the session's worktree and of the user scope, never another worktree's", () => {
    const db = state();
    approve(db, project, 'project', 'proj-entry', 'Use pnpm for installs in this repository.');
    approve(db, USER_SCOPE, 'user', 'user-entry', 'I prefer pnpm over npm everywhere.');
    approve(db, otherWorktree, 'project', 'other-entry', 'Use pnpm in the other worktree.');
    pool(db, project, 'proj-candidate', 'Run pnpm install before the tests.');
    pool(db, otherWorktree, 'other-candidate', 'Run pnpm install in the other worktree.');
    const found = recall(db, project, 'use pnpm').items.map((item) => `${item.sourceKind}:${item.id}`);
    assert.deepEqual(found.sort(), ['approved:proj-entry', 'approved:user-entry', 'candidate:proj-candidate']);
    // A session outside git is the user scope: it finds the user entries once each.
    const user = recall(db, USER_SCOPE, 'pnpm').items.map((item) => item.id);
    assert.deepEqual(user, ['user-entry']);
    db.close();
  });

  it("finds the owner's rows when another owner's rows outrank them all", () => {
    const db = state();
    for (let i = 0; i < 200; i++) pool(db, otherWorktree, `other-${i}`, `pnpm pnpm pnpm workspace ${i}`);
    pool(db, project, 'mine', 'We install with pnpm here, among many other words of a long statement');
    assert.deepEqual(
      recall(db, project, 'pnpm workspace').items.map((item) => item.id),
      ['mine'],
    );
    db.close();
  });

  it("queries by a text's rarest terms: a word most rows hold is left out once the rarer ones fill the budget", () => {
    const db = state();
    for (let i = 0; i <= RECALL_ROW_BUDGET; i++) pool(db, project, `c${i}`, `Always run the linter before commit ${i}`);
    pool(db, project, 'zebra', 'Always run the zebra migration before commit');
    assert.deepEqual(recallTerms(db, 'always run the zebra migration before commit'), ['zebra', 'migration']);
    const items = recall(db, project, 'always run the zebra migration before commit').items;
    assert.deepEqual(
      items.map((item) => item.id),
      ['zebra'],
    );
    // A text of common words only still queries by its rarest one.
    assert.deepEqual(recallTerms(db, 'always run commit'), ['always']);
    db.close();
  });

  it('counts each term once per indexed row, and a removed row is uncounted (the count goes at zero)', () => {
    const db = state();
    const a = pool(db, project, 'a', 'Use pnpm, pnpm only, for installs');
    pool(db, project, 'b', 'Use pnpm in CI');
    assert.deepEqual(termRows(db, 'pnpm'), [{ kind: 'candidate', rows: 2 }]);
    unindexRecallRow(db, 'candidate', a, 'Use pnpm, pnpm only, for installs');
    assert.deepEqual(termRows(db, 'pnpm'), [{ kind: 'candidate', rows: 1 }]);
    assert.deepEqual(termRows(db, 'installs'), []);
    assert.equal(
      db.prepare("SELECT count(*) FROM candidate_fts WHERE candidate_fts MATCH 'installs'").pluck().get(),
      0,
    );
    db.close();
  });

  it('the migration that adds the counts counts what the indexes already hold', () => {
    const db = openDatabase(':memory:');
    migrate(db, memoryStateSchema, 2);
    pool2(db);
    migrate(db, memoryStateSchema);
    assert.deepEqual(termRows(db, 'pnpm'), [
      { kind: 'approved', rows: 1 },
      { kind: 'candidate', rows: 1 },
    ]);
    assert.deepEqual(termRows(db, 'title'), [{ kind: 'approved', rows: 1 }]);
    db.close();
  });
});

/** A v2 memory-state with one pooled candidate, one undecided draft and one approved entry, indexed as v2 did. */
function pool2(db: Db): void {
  db.prepare(
    `INSERT INTO chunks (chunk_ref, repository_key, worktree_key, session_key, turn_range, chunk_digest, source_input_digest, created_at_ms)
     VALUES ('chunk', ?, ?, 's', '0-0', ?, ?, 0)`,
  ).run(project.repositoryKey, project.worktreeKey, 'c'.repeat(64), 'd'.repeat(64));
  const insert = db.prepare(
    `INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref, task_id, content_digest, payload_json, status, adjudication, decision, created_at_ms, updated_at_ms)
     VALUES (?, ?, ?, 'chunk', 't', ?, ?, 'draft', ?, ?, 0, 0)`,
  );
  const rowid = insert.run(
    'pooled',
    project.repositoryKey,
    project.worktreeKey,
    'e'.repeat(64),
    '{"content":"Use pnpm"}',
    'done',
    'store',
  ).lastInsertRowid;
  db.prepare('INSERT INTO candidate_fts (rowid, searchable_text) VALUES (?, ?)').run(rowid, 'Use pnpm');
  insert.run(
    'waiting',
    project.repositoryKey,
    project.worktreeKey,
    'e'.repeat(64),
    '{"content":"Use yarn"}',
    'pending',
    null,
  );
  const entry = db
    .prepare(
      `INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status, scope)
       VALUES ('e1', ?, ?, 1, ?, '{"title":"A title","appliesWhen":null}', 'Prefer pnpm', 'approved', 'project')`,
    )
    .run(project.repositoryKey, project.worktreeKey, '0'.repeat(64)).lastInsertRowid;
  db.prepare('INSERT INTO approved_fts (rowid, searchable_text) VALUES (?, ?)').run(entry, 'A title\n\nPrefer pnpm');
}
