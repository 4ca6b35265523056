// The Review queue's header with a long queue: the scope, the marks and the position stay on one
// line at 80 columns and at 60, the narrowest supported; what the queue holds is the line under it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import type { MemoryReview, MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { initialReviewState, type ReviewState, reviewReducer } from '../../source/screens/memory/review-state.js';
import { ReviewQueue } from '../../source/screens/memory/review-view.js';
import { textColumns } from '../../source/text-columns.js';
import { reviewCandidate } from '../support/tui-fakes.js';

const QUEUE = 10_000;

function candidate(index: number): MemoryReviewCandidate {
  return reviewCandidate({
    candidateId: `cand-${String(index).padStart(8, '0')}`,
    status: index % 100 === 0 ? 'quarantined' : 'draft',
    content: `Copy ${index} of the statement: always use named exports in TypeScript modules.`,
  });
}

/** A queue of `total` of which `read` were read, the last row read selected and `marks` rows marked. */
function queue(total: number, read: number, marks: number): ReviewState {
  const review: MemoryReview = {
    scope: 'all',
    callerScope: 'project',
    repositoryKey: 'repo-key',
    candidates: Array.from({ length: read }, (_, index) => candidate(index)),
    total,
    nextAfter: read < total ? `cand-${read - 1}` : null,
    patches: [],
  };
  let state = reviewReducer(initialReviewState, { type: 'loaded', id: 1, review });
  for (let i = 0; i < marks; i++) {
    state = reviewReducer(state, { type: 'toggleMark' });
    state = reviewReducer(state, { type: 'select', delta: 1 });
  }
  return reviewReducer(state, { type: 'select', delta: read });
}

function frameAt(state: ReviewState, columns: number): string[] {
  const view = render(
    <Box width={columns}>
      <ReviewQueue state={state} room={12} columns={columns} />
    </Box>,
  );
  const lines = (view.lastFrame() ?? '').split('\n');
  view.unmount();
  return lines;
}

describe('Review queue header', () => {
  for (const columns of [80, 60]) {
    test(`${QUEUE} candidates at ${columns} columns: the header is one line, nothing cut`, () => {
      for (const [label, state] of [
        ['all read, the last selected', queue(QUEUE, QUEUE, 0)],
        ['one page read, marks', queue(QUEUE, 200, 150)],
      ] as const) {
        const [heading, summary, keys, firstRow] = frameAt(state, columns);
        const selected = state.selected + 1;
        assert.equal(
          heading?.trimEnd(),
          `Review · all scopes${state.marked.size ? ` · ${state.marked.size} marked` : ''} · ${selected} of ${QUEUE}`,
          `${label}: the header is one line`,
        );
        assert.match(summary ?? '', new RegExp(`^${QUEUE} queued`), `${label}: the counts follow it`);
        assert.equal(keys?.trimEnd(), 's this scope · r refresh', `${label}: the keys the help line has no room for`);
        assert.match(firstRow ?? '', /draft|QUARANTINED/, `${label}: the rows follow the counts and the keys`);
        for (const line of [heading, summary, keys])
          assert.ok(textColumns(line ?? '') <= columns, `${label}: ${JSON.stringify(line)} fits`);
      }
    });
  }

  test('the counts say how much of a long queue is read, wrapped rather than cut on a narrow terminal', () => {
    const lines = frameAt(queue(QUEUE, 200, 0), 40);
    const text = lines.slice(0, 4).join(' ').replace(/\s+/g, ' ');
    assert.ok(text.includes(`${QUEUE} queued, newest 200 read (198 draft, 2 quarantined)`), text);
    assert.ok(text.includes(`200 of ${QUEUE}`), text);
  });
});

describe('the Review queue with a consolidation patch waiting', () => {
  test('names the patch, its operations and the key that opens it, wrapped within the width', () => {
    const review: MemoryReview = {
      scope: 'all',
      callerScope: 'project',
      repositoryKey: 'repo-key',
      candidates: [candidate(1)],
      total: 1,
      nextAfter: null,
      patches: [
        {
          taskId: 'con-06836ca6a71908e46c0ef06a',
          scope: 'project',
          repositoryKey: 'repo-key',
          runner: 'builtin',
          createdAt: '2026-01-01T00:00:00.000Z',
          status: 'pending',
          planId: null,
          operations: [
            {
              op: 'retire',
              target: 'entry',
              name: 'jest',
              newContent: null,
              basedOn: [
                { entryId: 'jest', revision: 1 },
                { entryId: 'vitest', revision: 1 },
              ],
              mergeSources: [],
              supersededBy: 'vitest',
              reason: 'vitest declares supersedes jest',
            },
          ],
        },
      ],
    };
    const state = reviewReducer(initialReviewState, { type: 'loaded', id: 1, review });
    for (const columns of [80, 60]) {
      const lines = frameAt(state, columns);
      const text = lines.join(' ').replace(/\s+/g, ' ');
      assert.match(text, /Consolidation patch con-06836ca6a71908e46c0ef06a: 1 operation\(s\) over this repository;/);
      assert.match(text, /c opens it to prepare\./);
      for (const line of lines) assert.ok(textColumns(line) <= columns, `within ${columns}: ${line}`);
      assert.ok(
        lines.some((line) => line.includes('Copy 1 of')),
        'the candidate row is still shown',
      );
    }
  });
});
