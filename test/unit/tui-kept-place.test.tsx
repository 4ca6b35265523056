// Screens keep their place while another is shown. Memory: back on it (7), Review is on the same
// candidate with the same marks and reads the queue again; a scope chooser with candidates chosen
// is still there with them; marks on candidates gone from the queue read again are dropped, and
// said. Agents: the same agent selected, the list read again. Status: the same page and recovery
// item, read again, and a drain in flight followed, never sent twice.
// Integrations: the same client and open plan, and an import in flight followed to its report.
// Memory's Entries: the query, the selected entry over the results read again, the open entry;
// Extraction: the runner chooser, the runner chosen, a run in flight sent once. In process, with
// a fake Application (History's and Sessions' are in test/e2e/tui and test/store/tui-sessions).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import type { CaptureStatus, ImportRun, RecoveryItemView } from '../../source/api/capture.js';
import type { MemoryReviewCandidate } from '../../source/api/memory-views.js';
import {
  absentDirs,
  changingQueue,
  fakeApp,
  hostStatus,
  importReport,
  memoryStatus,
  numberedAgent,
  numberedCandidate as candidate,
  reviewQueue,
} from '../support/tui-fakes.js';
import { claudeTranscriptFixture } from '../support/capture.js';
import {
  KEY,
  mount,
  openExtraction,
  openSearchLine,
  press,
  type,
  unmount,
  type View,
  waitForFrame,
  waitForText,
  withOverrides,
} from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-memory-kept');

const selectedRow = (view: View) => (view.lastFrame() ?? '').split('\n').find((line) => line.startsWith('›')) ?? '';

async function mountQueue(rows: MemoryReviewCandidate[]) {
  const { app, queue } = changingQueue(rows);
  const view = await mount(app, HOME, { service: async () => null, integrations: DIRS });
  return { view, queue };
}

/** Review on a queue of candidates 5 to 1, the first one marked. */
async function markedFirstOfFive() {
  const mounted = await mountQueue([5, 4, 3, 2, 1].map(candidate));
  await press(mounted.view, '7');
  await waitForText(mounted.view, /· 1 of 5/);
  await press(mounted.view, 'm');
  return mounted;
}

describe('Memory keeps its place while another screen is shown', () => {
  test('Review: the same candidate selected, the same marks, the queue read again', async () => {
    const { view, queue } = await markedFirstOfFive();
    try {
      await press(view, KEY.down.repeat(2));
      await waitForText(view, /1 marked · 3 of 5/);
      await press(view, '4');
      await waitForText(view, /Processing|Status/);
      queue.rows = [candidate(6), ...queue.rows];
      const reads = queue.reads;
      await press(view, '7');
      const back = await waitForText(view, /1 marked · 4 of 6/);
      assert.match(selectedRow(view), /Candidate number 3\./, 'the same candidate, one row down');
      assert.match(back, /^ \+ .*Candidate number 5\./m, 'the mark stays on its candidate');
      assert.ok(queue.reads > reads, 'the queue is read again');
    } finally {
      await unmount(view);
    }
  });

  test('Prepare & promote: the chosen candidates and the scope chooser are still there', async () => {
    const { view } = await mountQueue([2, 1].map(candidate));
    try {
      await press(view, '7');
      await waitForText(view, /· 1 of 2/);
      await press(view, 'p');
      await waitForText(view, /^> project · /m);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '7');
      const back = await waitForText(view, /Prepare & promote · scope project/);
      assert.match(back, /1 candidate to promote/);
      assert.match(back, /Candidate number 2\./);
    } finally {
      await unmount(view);
    }
  });
});

describe('Review drops the marks of candidates gone from the queue it reads again, and says so', () => {
  test('back on the screen, and on r', async () => {
    const { view, queue } = await markedFirstOfFive();
    try {
      await press(view, KEY.down);
      await press(view, 'm');
      await press(view, KEY.down);
      await press(view, 'm');
      await waitForText(view, /3 marked · 3 of 5/);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      // Another terminal discarded candidate 5 and promoted candidate 4.
      queue.rows = [3, 2, 1].map(candidate);
      await press(view, '7');
      let frame = await waitForText(view, /1 marked · 1 of 3/);
      assert.match(frame, /2 marked candidates left the queue/);
      queue.rows = [2, 1].map(candidate);
      await press(view, 'r');
      frame = await waitForText(view, /· 1 of 2/);
      assert.match(frame, /1 marked candidate left the queue/);
      assert.doesNotMatch(frame, /marked ·/);
    } finally {
      await unmount(view);
    }
  });
});

describe('Agents keeps its place while another screen is shown', () => {
  test('the same agent selected, the list read again', async () => {
    const agent = numberedAgent;
    let reads = 0;
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        listAgents: async () => {
          reads += 1;
          return [agent(1), agent(2), agent(3)];
        },
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await press(view, '3');
      await waitForText(view, /^> agent1 /m);
      await press(view, 'j');
      await waitForText(view, /^> agent2 /m);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      const before = reads;
      await press(view, '3');
      await waitForText(view, /^> agent2 /m);
      assert.ok(reads > before, 'the list is read again');
    } finally {
      await unmount(view);
    }
  });
});

/** Recovery item `n` of a numbered list, as Status lists one. */
const recoveryItem = (n: number): RecoveryItemView => ({
  id: `rec-${n}`,
  code: 'transcript_invalid_json',
  client: 'codex',
  sessionKey: `session-${n}`,
  inboxId: n,
  attempts: 1,
  detail: 'not json',
  createdAt: '2026-12-02T10:00:00.000Z',
});

/** The capture status of one page of `items` (twenty a page), read after `cursor` as the host pages them. */
function captureStatus(items: RecoveryItemView[], cursor: string | undefined): CaptureStatus {
  const start = cursor === undefined ? 0 : items.findIndex((item) => item.id === cursor) + 1;
  const page = items.slice(start, start + 20);
  const more = start + 20 < items.length;
  return {
    storeId: 'store-0001',
    mode: 'local',
    sessions: [],
    sessionsTotal: 0,
    nextSessionKey: null,
    queue: {
      inboxPending: 0,
      inboxProcessed: 0,
      inboxLegacy: 0,
      batchesReady: 0,
      candidatesPending: 0,
      candidatesDelivered: 0,
      candidatesAsContext: 0,
      candidatesUnconfirmed: 0,
    },
    host: { inbox: 0, watch: 0, isolated: items.length, hookErrors: 0, lastHookError: null, notWritable: null },
    capacity: { bodyBytes: 0, totalBytes: 0, sessionBytes: 0 },
    imports: { liveSessions: 0, sessions: 0, turns: 0, quarantined: 0 },
    recovery: { total: items.length, items: page, nextRecoveryId: more ? (page.at(-1)?.id ?? null) : null },
    ledger: { state: 'empty', reason: null, roots: 0, activeRoots: 0, entries: 0, lastError: null },
  };
}

const drainReport = { steps: 3, sealedTurns: 2, isolated: [], recovered: null };

describe('Status keeps its place while another screen is shown', () => {
  test('the same page and item selected, read again; an item gone above keeps the selection on its item', async () => {
    const items = { rows: Array.from({ length: 25 }, (_, index) => recoveryItem(index + 1)), reads: 0 };
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        captureStatus: async ({ afterRecovery }: { afterRecovery?: string }) => {
          items.reads += 1;
          return captureStatus(items.rows, afterRecovery);
        },
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await press(view, '4');
      await waitForText(view, /Recovery items · 1–20 of 25 · page 1/);
      await press(view, KEY.pageDown);
      await waitForText(view, /Recovery items · 21–25 of 25 · page 2/);
      await press(view, 'j');
      await press(view, 'j');
      await waitForText(view, /^> rec-23 /m);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      // rec-21 was retried in another terminal and recovered: it left the list.
      items.rows = items.rows.filter((item) => item.id !== 'rec-21');
      const reads = items.reads;
      await press(view, '4');
      const back = await waitForText(view, /Recovery items · 21–24 of 24 · page 2/);
      assert.match(back, /^> rec-23 /m, 'the same item selected, one row up');
      assert.ok(items.reads > reads, 'the page is read again');
    } finally {
      await unmount(view);
    }
  });

  test('a drain in flight when left is not sent again: shown again, it is still running, then its result', async () => {
    let drains = 0;
    let finish: (report: typeof drainReport) => void = () => {};
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        captureStatus: async () => captureStatus([recoveryItem(1)], undefined),
        sessionDrain: () => {
          drains += 1;
          return new Promise((resolve) => {
            finish = resolve;
          });
        },
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await press(view, '4');
      await waitForText(view, /^> rec-1 /m);
      await press(view, 'd');
      await waitForText(view, /draining…/);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '4');
      await waitForText(view, /draining…/);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      finish(drainReport);
      await press(view, '4');
      await waitForText(view, /drain: 3 steps · 2 turns sealed · 0 isolated/);
      assert.equal(drains, 1, 'the drain was sent once');
    } finally {
      await unmount(view);
    }
  });
});

describe('Integrations keeps its place while another screen is shown', () => {
  test('the same client chosen and its plan open where it was scrolled to', async () => {
    const view = await mount(fakeApp({ status: async () => hostStatus() }), HOME, {
      service: async () => null,
      integrations: DIRS,
    });
    try {
      await press(view, '5');
      await waitForText(view, /^> Codex /m);
      await press(view, 'j');
      await press(view, 'j');
      await waitForText(view, /^> pi /m);
      await press(view, 'i');
      await waitForText(view, /install plan for pi/);
      await press(view, KEY.down);
      const scrolled = /install plan for pi · lines 2–\d+ of \d+/;
      await waitForText(view, scrolled);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '5');
      const back = await waitForText(view, scrolled);
      assert.match(back, /^> pi /m);
    } finally {
      await unmount(view);
    }
  });

  test('an import in flight when left is not started again: shown again, it is followed to its report', async () => {
    const claudeDir = mkdtempSync(join(tmpdir(), 'cm-kept-claude-'));
    const project = join(claudeDir, 'projects', 'project');
    mkdirSync(project, { recursive: true });
    const fixture = claudeTranscriptFixture('30-interactive');
    copyFileSync(fixture, join(project, basename(fixture)));
    let starts = 0;
    let started: (run: ImportRun) => void = () => {};
    const progress = { filesDone: 1, filesTotal: 1, sessions: 1, turns: 5, bytes: 4096, elapsedMs: 10 };
    const report = importReport({ root: join(claudeDir, 'projects'), files: 1, sessions: 1, extraction: null });
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        captureImportStart: () => {
          starts += 1;
          return new Promise((resolve) => {
            started = resolve;
          });
        },
        captureImportRun: async () => ({ importId: 'imp-1', state: 'done', progress, report, error: null }),
      }),
      HOME,
      { service: async () => null, integrations: { ...DIRS, claudeDir } },
    );
    try {
      await press(view, '5');
      await press(view, 'j');
      await waitForText(view, /^> Claude Code /m);
      await press(view, 'm');
      await waitForText(view, /import from Claude Code: what it would bring in/);
      await press(view, 'y');
      await waitForText(view, /importing from Claude Code…/);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '5');
      await waitForText(view, /importing from Claude Code…/);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      started({ importId: 'imp-1', state: 'running', progress, report: null, error: null });
      await press(view, '5');
      await waitForText(view, /imported: claude/);
      assert.equal(starts, 1, 'the import was started once');
    } finally {
      await unmount(view);
      rmSync(claudeDir, { recursive: true, force: true });
    }
  });
});

/** A search hit (and its entry, as get reads it) named `name`. */
const hit = (name: string) => ({
  entryId: name,
  title: `Entry ${name}`,
  scope: 'project',
  path: `work_fact/${name}.md`,
});
const entryView = (name: string) => ({
  id: name,
  title: `Entry ${name}`,
  appliesWhen: null,
  contentDigest: 'sha256:00',
  sources: [{ scope: 'project', path: `work_fact/${name}.md` }],
  body: `The body of ${name}.`,
  type: 'work_fact',
  priority: 1,
});

/** A fake Application whose Entries search answers `found.hits` (changed by the test); reads counted. */
function entriesApp() {
  const found = { hits: ['alpha', 'beta', 'gamma'], searches: 0, gets: 0 };
  const app = fakeApp({
    status: async () => hostStatus(),
    memoryReview: async () => reviewQueue(),
    memoryStale: async () => ({ state: 'verified', reason: null, total: 0, entries: [] }),
    memoryStatus: async () => new Promise(() => {}),
    memorySearch: async () => {
      found.searches += 1;
      return { generation: 3, coverage: 'complete', scopes: [], results: found.hits.map(hit) };
    },
    memoryGet: async ({ entryId }: { entryId: string }) => {
      found.gets += 1;
      return entryView(entryId);
    },
  });
  return { app, found };
}

/** Entries with the results of a search for `query`, the second (beta) selected. */
async function searchedBeta(view: View, query: string) {
  await openSearchLine(view);
  await type(view, query);
  await press(view, KEY.enter);
  await waitForText(view, new RegExp(`search: ${query}`));
  await press(view, 'j');
  await waitForText(view, /^› project Entry beta/m);
}

describe('Memory · Entries keeps its place while another screen is shown', () => {
  test('the query, and the selection on its entry over the results read again', async () => {
    const { app, found } = entriesApp();
    const view = await mount(app, HOME, { service: async () => null, integrations: DIRS });
    try {
      await searchedBeta(view, 'pnpm');
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      found.hits = ['delta', ...found.hits];
      const searches = found.searches;
      await press(view, '7');
      await waitForText(view, /^ {2}project Entry delta/m);
      const back = await waitForText(view, /^› project Entry beta/m);
      assert.match(back, /search: pnpm/);
      assert.ok(found.searches > searches, 'the search is read again');
    } finally {
      await unmount(view);
    }
  });

  test('a verification in flight when left is not sent again: shown again, it is still running, then its result', async () => {
    const { app, found } = entriesApp();
    let verifies = 0;
    let finish: () => void = () => {};
    const verifying = withOverrides(app, {
      memoryVerify: () => {
        verifies += 1;
        return new Promise((resolve) => {
          finish = () => resolve({ state: 'verified', reason: null, entries: 3, stale: 0 } as never);
        });
      },
    });
    const view = await mount(verifying, HOME, { service: async () => null, integrations: DIRS });
    try {
      await searchedBeta(view, 'pnpm');
      await press(view, 'v');
      await waitForText(view, /verifying…/);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '7');
      await waitForText(view, /^› project Entry beta/m);
      await waitForText(view, /verifying…/);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      finish();
      await press(view, '7');
      await waitForText(view, /Verified 3 entries: 0 stale\. beta is/);
      assert.equal(verifies, 1, 'the verification was sent once');
      assert.ok(found.gets > 0);
    } finally {
      await unmount(view);
    }
  });

  test('the open entry, read again', async () => {
    const { app, found } = entriesApp();
    const view = await mount(app, HOME, { service: async () => null, integrations: DIRS });
    try {
      await searchedBeta(view, 'pnpm');
      await press(view, KEY.enter);
      await waitForText(view, /The body of beta\./);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      const gets = found.gets;
      await press(view, '7');
      await waitForText(view, /The body of beta\./);
      await waitForFrame(view, 'the entry read again', () => found.gets > gets);
      await press(view, KEY.escape);
      const list = await waitForText(view, /^› project Entry beta/m);
      assert.match(list, /search: pnpm/);
    } finally {
      await unmount(view);
    }
  });
});

describe('Memory · Extraction keeps its place while another screen is shown', () => {
  test('the runner chooser open where it was, the runner chosen, a run in flight followed, not sent again', async () => {
    const extracted: Array<{ runner: string }> = [];
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        memoryStatus: async () => memoryStatus,
        memoryReview: async () => reviewQueue(),
        memoryExtract: async (request: { runner: string }) => {
          extracted.push(request);
          return new Promise(() => {});
        },
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await openExtraction(view);
      await press(view, 'r');
      await waitForText(view, /^> builtin: /m);
      await press(view, KEY.down);
      await waitForText(view, /^> ext: /m);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '7');
      await waitForText(view, /^> ext: /m);
      await press(view, KEY.enter);
      await waitForText(view, /x extract · r runner ext/);
      await press(view, 'x');
      await waitForText(view, /Extracting with the ext runner…/);
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '7');
      await waitForText(view, /Extracting with the ext runner…/);
      assert.equal(extracted.length, 1, 'the run was sent once');
    } finally {
      await unmount(view);
    }
  });
});
