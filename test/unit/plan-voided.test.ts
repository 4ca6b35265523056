// The refusal prepare writes for a candidate that is no longer a draft and the TUI's reading of it
// are one pair (source/memory/plan-voided.ts): what one writes the other reads, for every status.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notDraftCandidate, notDraftRefusal } from '../../source/memory/plan-voided.js';

describe("prepare's refusal of a candidate no longer a draft", () => {
  it('names the candidate the TUI then advises about, whatever its status; other messages name none', () => {
    for (const status of ['discarded', 'promoted', 'superseded', 'quarantined'])
      assert.equal(notDraftCandidate(notDraftRefusal('cand-0001aaaa', status)), 'cand-0001aaaa');
    assert.equal(notDraftCandidate('No candidate "cand-x"; memory review lists the candidates.'), undefined);
    assert.equal(notDraftCandidate(`Before: ${notDraftRefusal('cand-y', 'promoted')}`), undefined);
  });
});
