// Moves typed ahead onto the other lists that are read after their screen opens (Agents, Status's
// recovery items, the Memory screen's review queue and its entries): like History and Sessions
// (test/store/tui-held-list-keys.test.tsx) they wait for the rows and then act on them in order
// (widgets/held-list-keys.ts), instead of being lost on a list that is not there yet. In process,
// with a fake Application whose list reads wait for a gate the test opens.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryReview, MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { absentDirs, fakeApp, hostStatus, numberedAgent, reviewCandidate } from '../support/tui-fakes.js';
import { mount, press, unmount, type View, waitForText } from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-held-more');
const status = hostStatus();
const noService = async () => null;

/** What a terminal answers to the TUI's DECRQM query when bracketed paste (mode 2004) is set. */
const PASTE_MODE_SET = '\u001b[?2004;1$y';

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const agent = numberedAgent;

const candidate = (n: number): MemoryReviewCandidate =>
  reviewCandidate({
    candidateId: `cand-${String(n).padStart(8, '0')}`,
    content: `Statement number ${n}: always use named exports in TypeScript modules.`,
  });

const queueOf = (count: number): MemoryReview => ({
  scope: 'all',
  callerScope: 'project',
  repositoryKey: 'repo-key',
  candidates: Array.from({ length: count }, (_, n) => candidate(n)),
  total: count,
  nextAfter: null,
  patches: [],
});

async function mountWith(methods: Parameters<typeof fakeApp>[0]): Promise<View> {
  const view = await mount(fakeApp({ status: async () => status, ...methods }), HOME, {
    service: noService,
    integrations: DIRS,
  });
  await press(view, PASTE_MODE_SET);
  return view;
}

describe('moves typed ahead onto the other lists still loading', () => {
  test('Agents: 3jj selects the third agent once the list is read', async () => {
    const { opened, open } = gate();
    const view = await mountWith({
      listAgents: async () => {
        await opened;
        return [agent(1), agent(2), agent(3), agent(4)];
      },
    });
    try {
      await press(view, '3jj');
      await waitForText(view, 'loading agents');
      open();
      await waitForText(view, /^> agent3 /m);
    } finally {
      await unmount(view);
    }
  });

  test('Agents: moves typed ahead onto an empty list are dropped with a note', async () => {
    const { opened, open } = gate();
    const view = await mountWith({
      listAgents: async () => {
        await opened;
        return [];
      },
    });
    try {
      await press(view, '3jj');
      await waitForText(view, 'loading agents');
      open();
      await waitForText(view, '2 keys typed while the list loaded were dropped: it has no rows');
    } finally {
      await unmount(view);
    }
  });

  test('Memory review queue: 7jj⏎ opens the third candidate once the queue is read', async () => {
    const { opened, open } = gate();
    const view = await mountWith({
      memoryReview: async () => {
        await opened;
        return queueOf(4);
      },
    });
    try {
      await press(view, '7jj\r');
      await waitForText(view, /\[7 Memory\]/);
      open();
      await waitForText(view, /Review › candidate cand-00000002/);
    } finally {
      await unmount(view);
    }
  });

  test('Memory review queue: s then jj⏎ opens the third candidate of the scope chosen, not of the queue left', async () => {
    const { opened, open } = gate();
    const here = queueOf(4);
    here.candidates = here.candidates.map((row, n) => ({
      ...row,
      candidateId: row.candidateId.replace('cand-0', 'cand-9'),
      content: `Rule of this scope number ${n}.`,
    }));
    const view = await mountWith({
      memoryReview: async (request: { scope: string }) => {
        if (request.scope === 'all') return queueOf(4);
        await opened;
        return here;
      },
    });
    try {
      await press(view, '7');
      await waitForText(view, /Review · all scopes · 1 of 4/);
      await press(view, 'sjj\r');
      open();
      await waitForText(view, /Review › candidate cand-90000002/);
      assert.match(view.lastFrame() ?? '', /Rule of this scope number 2\./);
    } finally {
      await unmount(view);
    }
  });

  test('Memory review queue: keys typed ahead onto an empty queue are dropped with a note', async () => {
    const { opened, open } = gate();
    const view = await mountWith({
      memoryReview: async () => {
        await opened;
        return queueOf(0);
      },
    });
    try {
      await press(view, '7jj\r');
      await waitForText(view, /\[7 Memory\]/);
      open();
      await waitForText(view, '3 keys typed while the list loaded were dropped: it has no rows');
    } finally {
      await unmount(view);
    }
  });

  test('Memory entries: a search typed ahead with a move and Enter opens its second result, not a stale entry', async () => {
    const { opened, open } = gate();
    const hit = (id: string) => ({
      entryId: id,
      title: `Title of ${id}`,
      scope: 'project' as const,
      path: `work_method/${id}.md`,
    });
    const view = await mountWith({
      memoryStale: async () => ({
        state: 'verified',
        reason: null,
        total: 2,
        entries: ['stale-one', 'stale-two'].map((id) => ({
          ...hit(id),
          failedAnchors: [],
          verifiedAt: '2026-12-02T10:00:00.000Z',
        })),
      }),
      memorySearch: async () => {
        await opened;
        return { generation: 3, coverage: 'complete', results: [hit('found-one'), hit('found-two')], scopes: [] };
      },
    });
    try {
      await press(view, '7]]');
      await waitForText(view, 'stale-two');
      await press(view, '/pnpm\rj\r');
      await waitForText(view, /Entries/);
      open();
      await waitForText(view, 'Entry found-two');
    } finally {
      await unmount(view);
    }
  });
});
