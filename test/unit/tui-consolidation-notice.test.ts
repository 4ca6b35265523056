// What the Entries view says after c consolidated a scope, for each outcome the built-in runner's
// consolidation can have (the accepted and unchanged ones are also driven through a real host in
// test/store/tui-memory-consolidate.test.tsx).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConsolidationReview, MemoryConsolidateResult } from '../../source/api/memory-views.js';
import { consolidationNotice } from '../../source/screens/memory/consolidation-notice.js';

const TASK = 'con-0123456789abcdef01234567';

function patch(operations: number, fields: Partial<ConsolidationReview> = {}): ConsolidationReview {
  return {
    taskId: TASK,
    scope: 'project',
    repositoryKey: 'r',
    runner: 'builtin',
    createdAt: '2026-12-07T00:00:00.000Z',
    status: 'pending',
    planId: null,
    operations: Array.from({ length: operations }, (_, i) => ({
      op: 'merge' as const,
      target: 'entry' as const,
      name: `e${i}`,
      newContent: null,
      basedOn: [],
      mergeSources: [],
      supersededBy: null,
      reason: 'same rule',
    })),
    ...fields,
  };
}

function result(fields: Partial<MemoryConsolidateResult>): MemoryConsolidateResult {
  return {
    taskId: TASK,
    scope: 'project',
    repositoryKey: 'r',
    runner: 'builtin',
    entries: 5,
    outcome: 'accepted',
    reason: null,
    problems: [],
    patch: patch(2),
    pendingPlan: null,
    blocked: 0,
    findings: [],
    ...fields,
  } as MemoryConsolidateResult;
}

describe('consolidationNotice', () => {
  it('an accepted patch: how many operations, over what, and where it waits', () =>
    assert.equal(
      consolidationNotice(result({})),
      `Consolidation patch ${TASK}: 2 operation(s) over 5 approved entries of this repository waits on Review (c opens it there).`,
    ));
  it('the user scope is named as such', () =>
    assert.match(consolidationNotice(result({ scope: 'user' })), /over 5 approved entries of your user memory/));
  it('operations left out and files not read are said after it', () =>
    assert.match(
      consolidationNotice(result({ blocked: 1, problems: ['a.md: bad', 'b.md: bad'] })),
      /waits on Review \(c opens it there\)\. 1 operation\(s\) left out: their text holds a secret or an instruction to the model\. 2 files could not be read and were left out \(memory sync lists each\)\.$/,
    ));
  it('a patch of no operation: nothing to propose, or nothing to consolidate', () => {
    assert.equal(
      consolidationNotice(result({ patch: patch(0) })),
      'Consolidated 5 approved entries of this repository: nothing to propose.',
    );
    assert.equal(
      consolidationNotice(result({ entries: 0, patch: patch(0), scope: 'user' })),
      'No approved entries in your user memory: nothing to consolidate.',
    );
  });
  it('unchanged entries: where the earlier patch is now', () => {
    assert.match(
      consolidationNotice(result({ outcome: 'unchanged' })),
      /^The 5 approved entries are unchanged since consolidation con-\w+; its patch waits on Review \(c opens it there\)\.$/,
    );
    assert.match(
      consolidationNotice(
        result({ outcome: 'unchanged', entries: 1, patch: patch(1, { status: 'prepared', planId: 'plan-1' }) }),
      ),
      /^The 1 approved entry is unchanged since .*; its patch was prepared as plan plan-1 \(Prepare & promote\)\.$/,
    );
    assert.match(
      consolidationNotice(result({ outcome: 'unchanged', patch: patch(1, { status: 'applied', planId: 'plan-2' }) })),
      /its patch was applied by plan plan-2\.$/,
    );
  });
  it('a refused or failed run says why', () => {
    assert.equal(
      consolidationNotice(result({ outcome: 'stale', reason: 'an entry changed meanwhile', patch: null })),
      'Consolidation of 5 approved entries of this repository was refused: an entry changed meanwhile',
    );
    assert.equal(
      consolidationNotice(result({ outcome: 'rejected', reason: 'the runner failed', patch: null })),
      `Consolidation ${TASK} kept nothing: the runner failed`,
    );
  });
});
