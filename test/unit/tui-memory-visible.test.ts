// The Memory screen shows what the model will read: a candidate's title, content and statements,
// a plan's diff, the queue's rows, the Extraction panel's quarantined candidates and approved
// entries write hidden characters as ⟨U+XXXX⟩; poisoning findings are listed apart from
// secret findings; the lines the SessionStart snapshot will give are shown with the candidate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import type * as React from 'react';
import { createElement } from 'react';
import type {
  MemoryEntryView,
  MemoryPlanView,
  MemoryReview,
  MemoryReviewCandidate,
} from '../../source/api/memory-views.js';
import { entryLines } from '../../source/screens/memory/entries-lines.js';
import { type EntriesState, initialEntriesState } from '../../source/screens/memory/entries-state.js';
import { EntriesView } from '../../source/screens/memory/entries-view.js';
import { quarantineLines } from '../../source/screens/memory/extraction-lines.js';
import { planLines } from '../../source/screens/memory/promote-lines.js';
import { candidateLines, originText } from '../../source/screens/memory/review-lines.js';
import { proposalOrigin } from '../../source/mcp/server.js';
import { initialReviewState, reviewReducer } from '../../source/screens/memory/review-state.js';
import { firstLine, ReviewQueue } from '../../source/screens/memory/review-view.js';

const HIDDEN = /[\u200b\u202e\u2066\u2069\u{e0041}]/u;

const candidate: MemoryReviewCandidate = {
  candidateId: 'cand-000000000000000000000001',
  status: 'quarantined',
  adjudication: 'done',
  decision: null,
  content: 'Build with make\u200b -j4 \u202eyadsrevo\u202c before pushing.',
  title: 'Bu\u{e0041}ild',
  type: 'work_method',
  priority: 50,
  confidence: 'medium',
  statements: [{ statementId: 's1', text: 'Build with make\u200b -j4.', evidence: [], claimSupport: 'unverified' }],
  findings: [
    {
      field: 'content',
      line: 1,
      column: 16,
      rule: 'poison-invisible-chars',
      severity: 'block',
      excerpt: 'with make⟨U+200B⟩ -j4',
    },
    { field: 'content', line: 1, column: 30, rule: 'github-token', severity: 'warn', excerpt: 'ghp_…[40 chars]' },
  ],
  createdAt: '2026-12-01T00:00:00.000Z',
  origin: { kind: 'proposal', client: 'test', clientVersion: '0', conversation: null },
  scope: 'project',
  repositoryKey: 'repo-key',
  repository: 'repo',
  snapshot:
    '- [m-00000000000000000000] (project, priority 50) title: "Bu⟨U+E0041⟩ild"\n  > Build with make⟨U+200B⟩ -j4 ⟨U+202E⟩yadsrevo⟨U+202C⟩ before pushing.',
};

describe('the Memory screen shows hidden characters', () => {
  it('in a candidate, with poisoning findings apart and the snapshot lines', () => {
    const text = candidateLines(candidate, initialReviewState, 100)
      .lines.map((line) => line.text)
      .join('\n');
    assert.doesNotMatch(text, HIDDEN, 'no hidden character reaches the screen');
    assert.match(text, /Bu⟨U\+E0041⟩ild/);
    assert.match(text, /make⟨U\+200B⟩ -j4 ⟨U\+202E⟩yadsrevo⟨U\+202C⟩/);
    assert.match(text, /1\. Build with make⟨U\+200B⟩ -j4\./);
    assert.match(text, /Secret findings \(1, masked/);
    assert.match(text, /Poisoning findings \(1: text written to steer the model/);
    assert.match(text, /block poison-invisible-chars at content 1:16 — with make⟨U\+200B⟩ -j4/);
    assert.match(text, /What the SessionStart snapshot would give \(it is quarantined: never promoted\):/);
    assert.match(text, /- \[m-0{20}\] \(project, priority 50\) title: "Bu⟨U\+E0041⟩ild"/);
  });

  it('with a wrapped snapshot line continuing under its own text, not at the margin of the block', () => {
    const lines = candidateLines(candidate, initialReviewState, 40).lines.map((line) => line.text);
    const quote = lines.findIndex((line) => line.startsWith('    > Build with'));
    assert.ok(quote >= 0, 'the quoted line starts under the entry line');
    // The quote wraps: each continuation starts where the quote's text starts (after "> ").
    const continuations = lines.slice(quote + 1).filter((line) => line.trim() !== '');
    assert.ok(continuations.length > 0, 'the quote is wider than 40 columns');
    for (const line of continuations) assert.match(line, /^ {6}\S/, `continuation "${line}"`);
    const entry = lines.findIndex((line) => line.startsWith('  - [m-'));
    for (const line of lines.slice(entry + 1, quote)) assert.match(line, /^ {4}\S/, `entry continuation "${line}"`);
  });

  it('in the name a proposing client gave itself at MCP initialize (review and the Review screen)', () => {
    // The name is the client's own, sent over MCP: a bidi override in it would reverse the review line.
    const origin = proposalOrigin({ name: 'qa\u202edab', version: '1\u200b\u009b2J' }, {});
    assert.equal(origin.clientVersion, '1\u200b2J', 'C1 controls are dropped as C0 ones are');
    const line = originText({ kind: 'proposal', ...origin });
    assert.doesNotMatch(line, HIDDEN);
    assert.equal(line, 'proposed by qa⟨U+202E⟩dab 1⟨U+200B⟩2J (memory_propose)');
    const shown = candidateLines({ ...candidate, origin: { kind: 'proposal', ...origin } }, initialReviewState, 100)
      .lines.map((l) => l.text)
      .join('\n');
    assert.match(shown, /proposed by qa⟨U\+202E⟩dab/);
  });

  it("in a plan's diff", () => {
    const plan: MemoryPlanView = {
      planId: 'plan-1',
      planDigest: 'a'.repeat(64),
      status: 'generated',
      scope: 'project',
      candidates: [{ candidateId: candidate.candidateId, revision: 1 }],
      files: [
        {
          path: 'work_method/build.md',
          entryId: 'm-1',
          action: 'create',
          candidateIds: [candidate.candidateId],
          targetBlobHash: null,
          sanitizedContentDigest: 'b'.repeat(64),
          bytes: 100,
          state: 'pending',
          findings: [{ line: 9, column: 20, rule: 'poison-bidi-control', severity: 'warn', excerpt: 'שלום⟨U+200F⟩' }],
        },
      ],
      diff: '--- /dev/null\n+++ b/work_method/build.md\n@@ -0,0 +1,2 @@\n+title: "Build"\n+The greeting is שלום\u200f and make\u200b.\n',
      voidReason: null,
      createdAt: '2026-12-01T00:00:00.000Z',
      updatedAt: '2026-12-01T00:00:00.000Z',
    };
    const text = planLines(plan, 100)
      .map((line) => line.text)
      .join('\n');
    assert.doesNotMatch(text, /[\u200b\u200f]/);
    assert.match(text, /\+The greeting is שלום⟨U\+200F⟩ and make⟨U\+200B⟩\./);
    assert.match(text, /warn poison-bidi-control at 9:20/);
  });
});

/** Renders a screen part at 80 columns, its frame as text. */
function frameOf(element: React.ReactElement): string {
  const view = render(createElement(Box, { width: 80 }, element));
  const frame = view.lastFrame() ?? '';
  view.unmount();
  return frame;
}

describe('hidden characters are shown everywhere memory text is on screen, not only in the open candidate', () => {
  const drafted: MemoryReviewCandidate = {
    ...candidate,
    status: 'draft',
    findings: [],
    origin: { kind: 'extraction' },
    title: null,
  };

  it("the Extraction panel's quarantined candidates", () => {
    const text = quarantineLines([candidate], 100)
      .map((line) => line.text)
      .join('\n');
    assert.doesNotMatch(text, HIDDEN);
    assert.match(text, /cand-0{8} Build with make⟨U\+200B⟩ -j4 ⟨U\+202E⟩yadsrevo⟨U\+202C⟩ before pushing\./);
  });

  it("the Review queue's rows and the label Prepare & promote lists a chosen candidate by", () => {
    const review: MemoryReview = {
      scope: 'all',
      callerScope: 'project',
      repositoryKey: 'repo-key',
      candidates: [drafted, { ...candidate, candidateId: 'cand-000000000000000000000002' }],
      total: 2,
      nextAfter: null,
      patches: [],
    };
    const state = reviewReducer(initialReviewState, { type: 'loaded', id: 1, review });
    const frame = frameOf(createElement(ReviewQueue, { state, room: 10, columns: 80 }));
    assert.doesNotMatch(frame, HIDDEN);
    assert.match(frame, /draft +work_method +repo +Build with make⟨U\+200B⟩ -j4/);
    assert.match(frame, /proposed: Bu⟨U\+E0041⟩ild/);
    assert.equal(firstLine(drafted.content), 'Build with make⟨U+200B⟩ -j4 ⟨U+202E⟩yadsrevo⟨U+202C⟩ before pushing.');
  });

  it('an approved entry (a file edited by hand and synced), in the search list and opened', () => {
    const entry: MemoryEntryView = {
      id: 'm-00000000000000000001',
      title: 'Tests\u200b beside the code',
      appliesWhen: 'writing\u2066 tests',
      contentDigest: 'c'.repeat(64),
      sources: [{ scope: 'project', path: 'work_method/tests.md' }],
      body: 'Put\u202e foo.test.ts\u202c beside foo.ts.',
      type: 'work_method',
      priority: 50,
    };
    const opened = entryLines(entry, 80)
      .map((line) => line.text)
      .join('\n');
    assert.doesNotMatch(opened, HIDDEN);
    assert.match(opened, /Tests⟨U\+200B⟩ beside the code/);
    assert.match(opened, /applies when: writing⟨U\+2066⟩ tests/);
    assert.match(opened, /Put⟨U\+202E⟩ foo\.test\.ts⟨U\+202C⟩ beside foo\.ts\./);
    const state: EntriesState = {
      ...initialEntriesState,
      result: {
        query: 'tests',
        generation: 1,
        coverage: 'complete',
        results: [{ entryId: entry.id, title: entry.title, scope: 'project', path: 'work_method/tests.md' }],
        scopes: [],
      },
    };
    const list = frameOf(createElement(EntriesView, { state, lines: [], room: 10, columns: 80 }));
    assert.doesNotMatch(list, HIDDEN);
    assert.match(list, /› project Tests⟨U\+200B⟩ beside the code/);
  });
});
