// A retirement plan voided on the Prepare & promote view (the entry's file was edited after `x`
// prepared it): the lines say the file was not removed — a removal writes nothing, so "not
// written" told the person nothing about what happened to their file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryPromoteResult } from '../../source/api/memory-views.js';
import { resultLines } from '../../source/screens/memory/promote-lines.js';

const voidedRetirement: MemoryPromoteResult = {
  planId: 'plan-dcdce2d9aaaaaaaa',
  planDigest: 'c'.repeat(64),
  status: 'voided',
  scope: 'project',
  candidates: [],
  files: [
    {
      path: 'work_method/deploy-procedure.md',
      entryId: 'deploy-procedure',
      action: 'remove',
      candidateIds: [],
      targetBlobHash: '06621a4681'.padEnd(40, '0'),
      sanitizedContentDigest: 'd'.repeat(64),
      bytes: 369,
      state: 'drifted',
      findings: [],
    },
  ],
  diff: '',
  voidReason: 'work_method/deploy-procedure.md changed since the retirement plan was made, so it was not removed',
  createdAt: '2026-12-04T16:00:00.000Z',
  updatedAt: '2026-12-04T16:01:00.000Z',
  sync: null,
  alreadyApplied: false,
};

describe('a voided retirement on the Prepare & promote view', () => {
  it('says the file was not removed, never "not written"', () => {
    const text = resultLines(voidedRetirement, 80)
      .map((line) => line.text)
      .join('\n');
    assert.match(text, /voided: nothing was removed/);
    assert.match(text, /CHANGED since the plan was prepared: not removed:\s+work_method\/deploy-procedure\.md/);
    assert.doesNotMatch(text, /written/);
  });
});

// An applied retirement says where the file's text stays: git keeps only what a commit holds, so a
// file never committed is said to stay only in the plan, never "git keeps the file in its history".
describe('an applied retirement on the Prepare & promote view', () => {
  const applied: MemoryPromoteResult = {
    ...voidedRetirement,
    status: 'applied',
    voidReason: null,
    files: [{ ...voidedRetirement.files[0]!, state: 'removed' }],
  };
  const text = (result: MemoryPromoteResult, history?: 'committed' | 'uncommitted' | 'changed') =>
    resultLines(result, 80, history)
      .map((line) => line.text)
      .join(' ');

  it('names git history only for a file a commit holds', () => {
    assert.match(text(applied, 'committed'), /commit it with git, which keeps the file in its history/);
    assert.doesNotMatch(text(applied, 'uncommitted'), /keeps the file in its history/);
    assert.match(text(applied, 'uncommitted'), /never committed: its text stays only in plan/);
    assert.match(text(applied, 'changed'), /git keeps its last committed version/);
    assert.match(text({ ...applied, scope: 'user' }), /its text stays only in plan/);
  });

  it('a user entry whose data home is in a repository (dotfiles) names that repository, never "only in plan"', () => {
    const user = { ...applied, scope: 'user' as const };
    assert.match(text(user, 'committed'), /the repository that holds your data home: commit it with git, which keeps/);
    assert.doesNotMatch(text(user, 'committed'), /stays only in plan/);
    assert.match(text(user, 'uncommitted'), /never committed: its text stays only in plan/);
  });
});
