// Recall over a real memory-state file: which approved entries and candidates a text finds, for
// which owner, and that the query stays bounded when the text is full of common words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recall } from '../source/memory/recall.js';
import { USER_SCOPE } from '../source/memory/repository.js';
import { memoryStateSchema } from '../source/memory/state-schema.js';
import { openDatabase, type Db } from '../source/store/database.js';
import { migrate } from '../source/store/migrations.js';

const project = { repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };
const otherWorktree = { repositoryKey: 'a'.repeat(64), worktreeKey: 'c'.repeat(64) };

function state(): Db {
  const db = openDatabase(':memory:');
  migrate(db, memoryStateSchema);
  return db;
}

function approve(db: Db, owner: typeof project, scope: 'project' | 'user', id: string, body: string): void {
  const rowid = db
    .prepare(
      `INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status, scope)
       VALUES (?, ?, ?, 1, ?, '{}', ?, 'approved', ?)`,
    )
    .run(id, owner.repositoryKey, owner.worktreeKey, '0'.repeat(64), body, scope).lastInsertRowid;
  db.prepare('INSERT INTO approved_fts (rowid, searchable_text) VALUES (?, ?)').run(rowid, body);
}

describe('recall', () => {
  it("finds approved entries of the session's worktree and of the user scope, never another worktree's", () => {
    const db = state();
    approve(db, project, 'project', 'proj-entry', 'Use pnpm for installs in this repository.');
    approve(db, USER_SCOPE, 'user', 'user-entry', 'I prefer pnpm over npm everywhere.');
    approve(db, otherWorktree, 'project', 'other-entry', 'Use pnpm in the other worktree.');
    const found = recall(db, project, 'use pnpm').items.map((item) => `${item.sourceKind}:${item.id}`);
    assert.deepEqual(found.sort(), ['approved:proj-entry', 'approved:user-entry']);
    // A session outside git is the user scope: it finds the user entries once each.
    const user = recall(db, USER_SCOPE, 'pnpm').items.map((item) => item.id);
    assert.deepEqual(user, ['user-entry']);
    db.close();
  });
});
