// The Memory screen's review queue with more than one waiting consolidation patch (issue 28): c opens
// the newest, c again in the open patch goes to the next (wrapping), each with every operation
// taken; the queue's help line names c within 80 columns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConsolidationReview, MemoryReview } from '../../source/api/memory-views.js';
import { initialEntriesState } from '../../source/screens/memory/entries-state.js';
import { helpFor, messageLines } from '../../source/screens/memory/memory-messages.js';
import { initialPromoteState } from '../../source/screens/memory/promote-state.js';
import {
  initialReviewState,
  openPatch,
  reviewReducer,
  type ReviewState,
  takenOperations,
} from '../../source/screens/memory/review-state.js';
import { patchSummaries } from '../../source/screens/memory/review-view.js';

const patch = (taskId: string, operations: number): ConsolidationReview => ({
  taskId,
  scope: 'project',
  repositoryKey: 'r',
  runner: 'builtin',
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'pending',
  planId: null,
  operations: Array.from({ length: operations }, (_, i) => ({
    op: 'retire',
    target: 'entry',
    name: `e${i}`,
    newContent: null,
    basedOn: [{ entryId: `e${i}`, revision: 1 }],
    mergeSources: [],
    supersededBy: 'x',
    reason: 'r',
  })),
});

function loaded(patches: ConsolidationReview[]): ReviewState {
  const reloading = reviewReducer(initialReviewState, { type: 'reload' });
  const review: MemoryReview = {
    scope: 'all',
    callerScope: 'project',
    repositoryKey: 'r',
    candidates: [],
    total: 0,
    nextAfter: null,
    patches,
  };
  return reviewReducer(reloading, { type: 'loaded', id: reloading.load!.id, review });
}

describe('Memory screen: choosing among waiting consolidation patches', () => {
  it('c opens the newest, c again the next one (wrapping), every operation taken in each', () => {
    let state = loaded([patch('con-new', 2), patch('con-mid', 3), patch('con-old', 1)]);
    state = reviewReducer(state, { type: 'openPatch' });
    assert.equal(openPatch(state)?.taskId, 'con-new');
    state = reviewReducer(state, { type: 'togglePatchOperation' });
    assert.equal(state.patch?.taken.size, 1);
    state = reviewReducer(state, { type: 'openPatch', next: true });
    assert.equal(openPatch(state)?.taskId, 'con-mid');
    assert.deepEqual([...state.patch!.taken], [1, 2, 3], 'a patch opened anew has every operation taken');
    assert.equal(state.patch?.selected, 0);
    state = reviewReducer(state, { type: 'openPatch', next: true });
    assert.equal(openPatch(state)?.taskId, 'con-old');
    state = reviewReducer(state, { type: 'openPatch', next: true });
    assert.equal(openPatch(state)?.taskId, 'con-new', 'after the oldest, the newest again');
  });

  it('c in the only waiting patch keeps what the person left out', () => {
    let state = reviewReducer(loaded([patch('con-only', 2)]), { type: 'openPatch' });
    state = reviewReducer(state, { type: 'togglePatchOperation' });
    const again = reviewReducer(state, { type: 'openPatch', next: true });
    assert.deepEqual([...again.patch!.taken], [2]);
  });

  it('p with every operation left out stays on the patch and says to take one, instead of an empty Prepare view', () => {
    let state = reviewReducer(loaded([patch('con-only', 2)]), { type: 'openPatch' });
    assert.deepEqual(takenOperations(state), [1, 2]);
    state = reviewReducer(state, { type: 'togglePatchOperation' });
    state = reviewReducer(state, { type: 'choosePatchOperation', delta: 1 });
    state = reviewReducer(state, { type: 'togglePatchOperation' });
    assert.deepEqual(takenOperations(state), []);
    state = reviewReducer(state, { type: 'nothingTaken' });
    assert.equal(openPatch(state)?.taskId, 'con-only', 'the patch stays open');
    const said = messageLines('review', state, initialPromoteState, initialEntriesState, 80)
      .map((line) => line.text)
      .join(' ');
    assert.match(said, /Every operation of this patch is left out: take one with m/);
    // Taking one again clears the line.
    state = reviewReducer(state, { type: 'togglePatchOperation' });
    assert.deepEqual(takenOperations(state), [2]);
    assert.equal(state.notice, null);
  });

  it("the queue's help line stays within 80 columns (c named when a patch waits), and the open patch's names c when another waits", () => {
    const line = (state: ReviewState) =>
      [
        ...helpFor('review', state, initialPromoteState, undefined as never, undefined as never),
        { keys: 'q', label: 'quit' },
      ]
        .map((item) => (item.keys ? `${item.keys} ${item.label}` : item.label))
        .join(' · ');
    const one = loaded([patch('con-new', 2)]);
    const queue = line(one);
    assert.match(queue, /\bc patch\b/);
    assert.ok(queue.length <= 80, `${queue.length}: ${queue}`);
    const opened = line(reviewReducer(one, { type: 'openPatch' }));
    assert.doesNotMatch(opened, /\bc next/, 'no other patch waits');
    const two = reviewReducer(loaded([patch('con-new', 2), patch('con-old', 1)]), { type: 'openPatch' });
    const both = line(two);
    assert.match(both, /\bc next patch\b/);
    assert.ok(both.length <= 80, `${both.length}: ${both}`);
    // No patch waiting and no candidate: no key that acts on one is named (s and r are under the
    // queue's summary), q quit alone.
    assert.equal(line(loaded([])), 'q quit');
  });

  it('the queue says which presses of c open each patch, and names s and r under them', () => {
    assert.deepEqual(patchSummaries(loaded([patch('con-new', 2), patch('con-old', 1)])), [
      'Consolidation patch con-new: 2 operation(s) over this repository; c opens it to prepare.',
      'Consolidation patch con-old: 1 operation(s) over this repository; c then c opens it.',
      's this scope · r refresh',
    ]);
    assert.deepEqual(
      patchSummaries(loaded([])),
      ['s this scope · r refresh'],
      'no patch: s and r still under the summary',
    );
  });
});
