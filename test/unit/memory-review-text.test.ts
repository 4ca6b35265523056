// The text of `memory review`: a quarantined candidate is never adjudicated (only drafts are), so its
// line says it is blocked instead of "awaiting adjudication", which `memory status` counts as 0.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryReview, MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { reviewText } from '../../source/cli/commands/memory-group.js';

const candidate = (candidateId: string, status: 'draft' | 'quarantined', adjudication: 'pending' | 'done') =>
  ({
    candidateId,
    status,
    adjudication,
    decision: adjudication === 'done' ? 'store' : null,
    content: 'Always use pnpm.',
    title: null,
    type: 'work_method',
    priority: 75,
    confidence: 'high',
    statements: [],
    findings: [],
    createdAt: '2026-12-01T00:00:00.000Z',
    origin: { kind: 'extraction' },
    scope: 'project',
    repositoryKey: 'r1',
    repository: 'repo',
  }) satisfies MemoryReviewCandidate;

const page = (candidates: MemoryReviewCandidate[]): MemoryReview => ({
  scope: 'all',
  callerScope: 'project',
  repositoryKey: 'r1',
  candidates,
  total: candidates.length,
  nextAfter: null,
  patches: [],
});

describe('memory review text', () => {
  it('a quarantined candidate is blocked, never "awaiting adjudication"; a draft still waits', () => {
    const text = reviewText(
      page([candidate('cand-q', 'quarantined', 'pending'), candidate('cand-d', 'draft', 'pending')]),
    );
    assert.match(text, /^cand-q {2}quarantined {2}work_method {2}blocked, never adjudicated {2}\(project repo\)$/m);
    assert.match(text, /^cand-d {2}draft {2}work_method {2}awaiting adjudication {2}\(project repo\)$/m);
  });
});
