// A plan promoted already (by another TUI, a `memory promote`, or the run a failed "write again"
// followed): promote answers `alreadyApplied: true` with the files' states of the run that applied
// it. The Prepare & promote view says, as the CLI does, that this run wrote nothing, never
// "Promoted … written" as if this write had made the files.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryPromoteResult } from '../../source/api/memory-views.js';
import { resultLines } from '../../source/screens/memory/promote-lines.js';

const file = (path: string, action: 'create' | 'remove', state: 'written' | 'removed') => ({
  path,
  entryId: path.replace(/^.*\/|\.md$/g, ''),
  action,
  candidateIds: [],
  targetBlobHash: null,
  sanitizedContentDigest: 'd'.repeat(64),
  bytes: 200,
  state,
  findings: [],
});

const applied: MemoryPromoteResult = {
  planId: 'plan-0123456789abcdef',
  planDigest: 'c'.repeat(64),
  status: 'applied',
  scope: 'project',
  candidates: [],
  files: [file('work_method/use-pnpm.md', 'create', 'written'), file('work_method/use-npm.md', 'remove', 'removed')],
  diff: '',
  voidReason: null,
  createdAt: '2026-12-04T16:00:00.000Z',
  updatedAt: '2026-12-04T16:01:00.000Z',
  sync: null,
  alreadyApplied: true,
};

const text = (result: MemoryPromoteResult) =>
  resultLines(result, 80)
    .map((line) => line.text)
    .join('\n');

describe('a plan promoted already, on the Prepare & promote view', () => {
  it('says this run wrote nothing, and lists the files as the plan approved them', () => {
    const said = text(applied);
    assert.match(said, /already promoted/);
    assert.match(said, /this run wrote nothing/);
    assert.doesNotMatch(said, /^Promoted:/m);
    assert.doesNotMatch(said, /^\s*(written|removed):/m, 'no state of the earlier run given as this one');
    assert.match(said, /work_method\/use-pnpm\.md/);
  });

  it('a retirement: this run removed nothing', () => {
    const said = text({ ...applied, files: [file('work_method/use-npm.md', 'remove', 'removed')] });
    assert.match(said, /already promoted/);
    assert.match(said, /this run removed nothing/);
    assert.doesNotMatch(said, /^Retired:/m);
  });

  it('a plan this run applied is still "Promoted"', () => {
    assert.match(text({ ...applied, alreadyApplied: false }), /^Promoted: plan/m);
  });
});
