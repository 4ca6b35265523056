// The text of `memory review`: a quarantined candidate is never adjudicated (only drafts are), so its
// line says it is blocked instead of "awaiting adjudication", which `memory status` counts as 0; a
// control character of what was said (a terminal escape pasted with a log) is labelled, never sent
// to the terminal, which would colour or conceal what the reviewer reads.
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

  it('labels control characters of the content and the title as ⟨U+XXXX⟩', () => {
    const text = reviewText(
      page([
        {
          ...candidate('cand-e', 'draft', 'done'),
          title: 'Logs \u001b[8mhidden',
          content: 'Prefix log lines with \u001b[31mERROR\u001b[0m here.',
        },
      ]),
    );
    assert.doesNotMatch(text, /\u001b/);
    assert.match(text, /^ {2}Logs ⟨U\+001B⟩\[8mhidden$/m);
    assert.match(text, /^ {2}Prefix log lines with ⟨U\+001B⟩\[31mERROR⟨U\+001B⟩\[0m here\.$/m);
  });
});
