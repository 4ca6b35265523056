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
