// The open candidate on Review: e on a statement that cites no user turn (an agent's proposal)
// says so instead of doing nothing; one made from an approved entry is not called an agent's.
// Prepare & promote with nothing chosen names no key that does nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryPlanView, MemoryReview, MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { type EntriesState, initialEntriesState } from '../../source/screens/memory/entries-state.js';
import { EntriesView } from '../../source/screens/memory/entries-view.js';
import { helpFor, messageLines } from '../../source/screens/memory/memory-messages.js';
import { initialPromoteState, type PromoteState, promoteReducer } from '../../source/screens/memory/promote-state.js';
import { SPINNER_DELAY_MS, SPINNER_FRAME_MS } from '../../source/screens/timing.js';
import { CLI_CLIENT, SCREEN_CLIENT } from '../../source/memory/revision-clients.js';
import { candidateLines } from '../../source/screens/memory/review-lines.js';
import { initialReviewState, reviewReducer } from '../../source/screens/memory/review-state.js';

const proposal: MemoryReviewCandidate = {
  candidateId: 'cand-000000000000000000000001',
  status: 'draft',
  adjudication: 'done',
  decision: null,
  content: 'The user prefers small pull requests.',
  title: 'Prefer small PRs',
  type: 'work_method',
  priority: 50,
  confidence: 'medium',
  statements: [
    { statementId: 's1', text: 'The user prefers small pull requests.', evidence: [], claimSupport: 'unverified' },
  ],
  findings: [],
  createdAt: '2026-12-01T00:00:00.000Z',
  origin: { kind: 'proposal', client: 'claude-code', clientVersion: '2.1.332', conversation: null },
  scope: 'project',
  repositoryKey: 'repo-key',
  repository: 'repo',
};

const review: MemoryReview = {
  scope: 'all',
  callerScope: 'project',
  repositoryKey: 'repo-key',
  candidates: [proposal],
  total: 1,
  nextAfter: null,
  patches: [],
};

const text = (state: typeof initialReviewState) =>
  candidateLines(proposal, state, 80)
    .lines.map((line) => line.text)
    .join('\n');

describe('Review: the evidence of a statement', () => {
  it('e on a statement that cites no user turn says there is none to show', () => {
    let state = reviewReducer(initialReviewState, { type: 'loaded', id: 1, review });
    state = reviewReducer(state, { type: 'open' });
    const closed = text(state);
    state = reviewReducer(state, { type: 'toggleEvidence' });
    const shown = text(state);
    assert.notEqual(shown, closed, 'e changes what the screen shows');
    assert.match(shown, /cites 0 user turns\n +No user turn to show: an agent proposed it/);
    assert.doesNotMatch(closed, /No user turn to show/);
  });
});

describe('Prepare & promote with nothing chosen', () => {
  const line = (promote: PromoteState) =>
    helpFor('promote', initialReviewState, promote, undefined as never, undefined as never)
      .map((item) => `${item.keys} ${item.label}`)
      .join(' · ');

  it('names no key that does nothing: [ goes back to Review, where candidates are chosen', () => {
    const empty = line(initialPromoteState);
    assert.doesNotMatch(empty, /prepare plan|scope/, empty);
    assert.equal(empty, '[ Review');
    const chosen = promoteReducer(initialPromoteState, {
      type: 'choose',
      chosen: [{ candidateId: proposal.candidateId, label: 'Prefer small PRs', scope: 'project', repository: 'repo' }],
    });
    assert.match(line(chosen), /Enter prepare plan/);
  });
});

describe('a candidate made from an approved entry (e on Entries, or memory revise)', () => {
  for (const client of [SCREEN_CLIENT, CLI_CLIENT]) {
    it(`made by ${client}: says you made it from an entry, not that an agent wrote it`, () => {
      const revision: MemoryReviewCandidate = {
        ...proposal,
        origin: { kind: 'proposal', client, clientVersion: null, conversation: null },
      };
      let state = reviewReducer(initialReviewState, {
        type: 'loaded',
        id: 1,
        review: { ...review, candidates: [revision] },
      });
      state = reviewReducer(reviewReducer(state, { type: 'open' }), { type: 'toggleEvidence' });
      const shown = candidateLines(revision, state, 100)
        .lines.map((line) => line.text)
        .join('\n');
      assert.doesNotMatch(shown, /An agent wrote it|memory_propose|an agent proposed it/, shown);
      assert.match(shown, /made from an approved entry with common-memory (tui|cli)/);
      assert.match(shown, /You made it from an approved entry: promoting it into that entry's scope rewrites its file/);
      assert.match(shown, /No user turn to show: it is the text of an approved entry/);
    });
  }
});

describe('text that ends in a line break (an entry body made a candidate)', () => {
  it('leaves no empty line under the content, nor between a statement and its support', () => {
    const ended: MemoryReviewCandidate = {
      ...proposal,
      content: `${proposal.content}\n`,
      statements: [{ ...proposal.statements[0]!, text: `${proposal.statements[0]!.text}\n` }],
    };
    const lines = candidateLines(ended, initialReviewState, 100).lines.map((line) => line.text);
    const support = lines.findIndex((line) => /support unverified/.test(line));
    assert.match(lines[support - 1] ?? '', /1\. The user prefers small pull requests\.$/);
    const content = lines.indexOf('  The user prefers small pull requests.');
    assert.ok(content > 0, 'the content is on its own line');
    assert.equal(lines[content + 1], '', 'one empty line before Statements');
    assert.match(lines[content + 2] ?? '', /^Statements \(1\)/);
  });
});

describe('what to do about a blocking finding', () => {
  it("a quarantined agent's proposal is not sent to extract again: nothing was extracted", () => {
    const quarantined: MemoryReviewCandidate = {
      ...proposal,
      status: 'quarantined',
      findings: [
        { field: 'content', line: 1, column: 5, rule: 'github-token', severity: 'block', excerpt: 'ghp_…[40 chars]' },
      ],
    };
    const text = candidateLines(quarantined, initialReviewState, 100)
      .lines.map((line) => line.text)
      .join('\n');
    assert.doesNotMatch(text, /extract again/);
    assert.match(text, /Quarantined: a blocking finding keeps it from being promoted\. Discard it \(d\)/);
    const disguised = candidateLines(
      { ...quarantined, findings: [{ ...quarantined.findings[0]!, transform: 'base64' }] },
      initialReviewState,
      100,
    )
      .lines.map((line) => line.text)
      .join('\n');
    assert.match(disguised, /block github-token \(through base64\) at content 1:5 — ghp_…\[40 chars\]/);
    const extracted = candidateLines({ ...quarantined, origin: { kind: 'extraction' } }, initialReviewState, 100)
      .lines.map((line) => line.text)
      .join('\n');
    // A captured conversation is never edited, and the same turns make the same task again: "remove
    // the secret from the conversation and extract again" was advice no one can follow.
    assert.doesNotMatch(extracted, /from the conversation/);
    assert.match(extracted.replace(/\s+/g, ' '), /Discard it \(d\); to keep the rule, say it again without the secret/);
  });

  it('p on quarantined candidates names them on Review, and with marks says how to take the others', () => {
    const one = reviewReducer(initialReviewState, {
      type: 'quarantinedChosen',
      candidateIds: ['cand-0000000a0000000000000001'],
      marked: false,
    });
    assert.equal(
      one.notice,
      'cand-0000000a is quarantined: a blocking finding keeps it out of every plan. d discards it.',
    );
    const two = reviewReducer(initialReviewState, {
      type: 'quarantinedChosen',
      candidateIds: ['cand-0000000a0000000000000001', 'cand-0000000b0000000000000002'],
      marked: true,
    });
    assert.equal(
      two.notice,
      'cand-0000000a, cand-0000000b are quarantined: a blocking finding keeps them out of every plan. Discard them (d, one at a time) or unmark them (m); p then takes the others.',
    );
  });

  it('Prepare refusing a candidate with a blocking finding says to leave it out on Review, not to press Enter again', () => {
    const chosen = promoteReducer(initialPromoteState, {
      type: 'choose',
      chosen: [{ candidateId: proposal.candidateId, label: 'Prefer small PRs', scope: 'project', repository: 'repo' }],
    });
    const preparing = promoteReducer(chosen, { type: 'prepare' });
    const refusals = [
      { code: 'secret_found', message: 'Candidate cand-1 is quarantined: github-token at content 1:5.' },
      { code: 'poisoning_found', message: 'Candidate cand-1 is quarantined: poison-remote-exec at content 1:5.' },
    ] as const;
    for (const error of refusals) {
      const refused = promoteReducer(preparing, { type: 'failed', id: preparing.requestId, error });
      const text = messageLines('promote', initialReviewState, refused, initialEntriesState, 100)
        .map((line) => line.text.trim())
        .join(' ');
      assert.doesNotMatch(text, /press Enter again/, error.code);
      assert.match(text, /never promoted: on Review \(\[\) discard it \(d\), or unmark it \(m\) and choose again/);
    }
  });
});

describe('Entries: an entry that cannot be read', () => {
  it('shows its error without the reading spinner', async () => {
    const state: EntriesState = {
      ...initialEntriesState,
      open: { id: 1, entryId: 'm-00000000000000000001' },
      error: { code: 'not_found', message: 'No approved memory entry has the id "m-00000000000000000001".' },
    };
    const view = render(createElement(EntriesView, { state, lines: [], room: 10, columns: 80 }));
    // Past the spinner's delay: a spinner still there would be drawn by now.
    await new Promise((resolve) => setTimeout(resolve, SPINNER_DELAY_MS + 3 * SPINNER_FRAME_MS));
    const frame = view.lastFrame() ?? '';
    view.unmount();
    assert.match(frame, /Entry m-0{19}1/);
    assert.doesNotMatch(frame, /reading the entry/);
  });
});

describe('e on a candidate scrolled past its statement', () => {
  it('brings the statement back on screen, so the evidence e shows under it is seen', () => {
    const long: MemoryReviewCandidate = {
      ...proposal,
      status: 'quarantined',
      findings: Array.from({ length: 12 }, (_, index) => ({
        field: 'content',
        line: 1,
        column: index + 1,
        rule: 'github-token',
        severity: 'block' as const,
        excerpt: 'ghp_…[40 chars]',
      })),
    };
    let state = reviewReducer(initialReviewState, { type: 'loaded', id: 1, review: { ...review, candidates: [long] } });
    state = reviewReducer(state, { type: 'open' });
    const { lines, starts } = candidateLines(long, state, 80);
    const room = 8;
    state = reviewReducer(state, { type: 'scroll', delta: 100, lastTop: lines.length - room });
    const start = starts[0]!;
    assert.ok(state.open!.top > start, 'scrolled past the statement');
    state = reviewReducer(state, { type: 'toggleEvidence', starts, room });
    assert.equal(state.open!.evidence, true);
    assert.ok(
      state.open!.top <= start && start < state.open!.top + room,
      `top ${state.open!.top}, statement at ${start}`,
    );
    // Folding it again leaves the view where it is.
    const top = state.open!.top;
    state = reviewReducer(state, { type: 'toggleEvidence', starts, room });
    assert.equal(state.open!.top, top);
  });
});

describe('the help line of an open candidate', () => {
  const line = (state: typeof initialReviewState, lastTop: number) =>
    helpFor('review', state, initialPromoteState, undefined as never, undefined as never, lastTop)
      .map((item) => `${item.keys} ${item.label}`)
      .join(' · ');

  it('names PgDn only while there is more below: not for a candidate that fits, nor at its end', () => {
    let state = reviewReducer(initialReviewState, { type: 'loaded', id: 1, review });
    state = reviewReducer(state, { type: 'open' });
    assert.doesNotMatch(line(state, 0), /PgDn|PgUp/, 'it fits: nothing to scroll');
    assert.match(line(state, 10), /PgDn more/);
    state = reviewReducer(state, { type: 'scroll', delta: 100, lastTop: 10 });
    const end = line(state, 10);
    assert.doesNotMatch(end, /PgDn/, end);
    assert.match(end, /PgUp up/);
  });
});

describe('the help line of an empty queue', () => {
  const line = (state: typeof initialReviewState) =>
    helpFor('review', state, initialPromoteState, undefined as never, undefined as never)
      .map((item) => `${item.keys} ${item.label}`)
      .join(' · ');

  it('names no key that acts on a candidate: there is none to select, open, mark, promote or discard', () => {
    const empty = reviewReducer(initialReviewState, {
      type: 'loaded',
      id: 1,
      review: { ...review, candidates: [], total: 0 },
    });
    assert.equal(line(empty), '');
    // With candidates, the same keys are named, and while the queue loads (keys typed ahead are held).
    const full = line(reviewReducer(initialReviewState, { type: 'loaded', id: 1, review }));
    assert.match(full, /↑↓ select · Enter open · m mark · p promote · d discard/);
    assert.ok(`${full} · q quit`.length <= 80, `within 80 columns, q quit included: ${full}`);
    assert.match(line(initialReviewState), /↑↓ select · Enter open · m mark · p promote · d discard/);
  });

  it('still names a patch to open when the queue holds only patches', () => {
    const patch = { patchId: 'patch-1' } as unknown as MemoryReview['patches'][number];
    const state = reviewReducer(initialReviewState, {
      type: 'loaded',
      id: 1,
      review: { ...review, candidates: [], total: 0, patches: [patch] },
    });
    assert.match(line(state), /patch/);
    assert.doesNotMatch(line(state), /mark|promote|discard|select|open/);
  });
});

describe('a patch or retirement plan refused at approval (an entry it rests on changed)', () => {
  const plan = (planId: string): MemoryPlanView => ({
    planId,
    planDigest: 'a'.repeat(64),
    status: 'generated',
    scope: 'project',
    candidates: [],
    files: [],
    diff: '',
    voidReason: null,
    createdAt: '2026-12-04T00:00:00.000Z',
    updatedAt: '2026-12-04T00:00:00.000Z',
  });
  /** Esc on a plan not approved: the host is asked to void it, and its answer goes back to the chooser. */
  const escapeFrom = (state: PromoteState): PromoteState => {
    const withdrawing = promoteReducer(state, { type: 'back' });
    assert.equal(withdrawing.phase, 'withdrawing');
    assert.equal(
      promoteReducer(withdrawing, { type: 'prepare' }).phase,
      'withdrawing',
      'nothing else while it is voided',
    );
    return promoteReducer(withdrawing, { type: 'withdrawn', id: withdrawing.requestId });
  };
  const refusedAtApproval = (start: PromoteState): PromoteState => {
    const prepared = promoteReducer(start, { type: 'prepared', id: start.requestId, plan: plan('plan-1') });
    const approving = promoteReducer(prepared, { type: 'approve' });
    return promoteReducer(approving, {
      type: 'failed',
      id: approving.requestId,
      error: {
        code: 'operation_conflict',
        message: 'Plan plan-1 is voided and nothing was approved: entry dep-2 changed.',
      },
    });
  };

  it('Esc keeps the patch, so that Enter prepares it again as the message says', () => {
    const start = promoteReducer(initialPromoteState, {
      type: 'patch',
      patch: { taskId: 'con-1', scope: 'project', operations: [1], count: 1 },
    });
    const refused = refusedAtApproval(start);
    const said = messageLines('promote', initialReviewState, refused, initialEntriesState, 100)
      .map((line) => line.text.trim())
      .join(' ');
    assert.match(said, /Esc drops it \(voided\); Enter then prepares a fresh plan/);
    const back = escapeFrom(refused);
    assert.deepEqual(back.patch, { taskId: 'con-1', scope: 'project', operations: [1], count: 1 });
    assert.equal(promoteReducer(back, { type: 'prepare' }).phase, 'preparing');
  });

  it('Esc keeps the entry being retired the same way; a written plan is done with it', () => {
    const start = promoteReducer(initialPromoteState, {
      type: 'retire',
      entry: { entryId: 'deploy', scope: 'project', title: 'Deploy' },
    });
    const back = escapeFrom(refusedAtApproval(start));
    assert.equal(back.retire?.entryId, 'deploy');
    assert.equal(promoteReducer(back, { type: 'prepare' }).phase, 'preparing');
    const applied = {
      ...back,
      phase: 'done' as const,
      result: { ...plan('plan-2'), status: 'applied' as const, sync: null, alreadyApplied: false },
    };
    const afterWrite = promoteReducer(applied, { type: 'back' });
    assert.equal(afterWrite.retire, null);
    assert.equal(promoteReducer(afterWrite, { type: 'prepare' }).phase, 'choose');
  });
});
