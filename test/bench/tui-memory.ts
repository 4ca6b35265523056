// Memory screen key → frame with 10 000 candidates in the review queue (PRODUCT.md: ≤ 50 ms). A
// real git repository's captured session is extracted by the real host; its draft candidate is
// copied 10 000 times in memory-state. The host's review read answers a bounded page of them, so
// the same keys are measured a second time with the whole 10 000 handed to the screen: the list is
// windowed and a key re-renders only the rows that fit, whatever the queue holds.
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { Host } from '../../source/host/host.js';
import type { Application } from '../../source/api/application.js';
import type { MemoryReview } from '../../source/api/memory-views.js';
import * as c from '../support/capture.js';
import { gitRepo, tempHome } from '../support/cli.js';
import { queueSession } from '../support/memory-corpus.js';
import { fillQueue } from '../support/memory-queue.js';
import { KEY, mount, press, unmount, waitForFrame, withOverrides } from '../support/tui-harness.js';
import { type Figure, median, percentile, report } from './measure.js';
import { keyToFrame, pause } from './tui.js';

const QUEUE = 10_000;

/** ↓ moves, PgDn/PgUp, Enter (open) and Esc (back) on Review; each key's time to the frame showing it. */
async function reviewKeys(app: Application, home: string, repo: string, total: number) {
  const view = await mount(app, home, { cwd: repo });
  // CPU time of this process per key: what a key costs, apart from the wait for a shared core.
  const cpu: number[] = [];
  const timed = async (run: () => Promise<number>) => {
    const before = process.cpuUsage();
    const wall = await run();
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    return wall;
  };
  // The header keeps the position on its one line (test/unit/tui-memory-header.test.tsx): compared as drawn.
  const at = (n: number) => (frame: string) => frame.includes(`· ${n} of ${total}`);
  const moves: number[] = [];
  const pages: number[] = [];
  const opens: number[] = [];
  try {
    await press(view, '7');
    await waitForFrame(view, `the queue of ${total}`, at(1), 30_000);
    let selected = 1;
    for (let i = 0; i < 60; i++)
      moves.push(await timed(() => keyToFrame(view, KEY.down, `row ${++selected}`, at(selected))));
    for (let i = 0; i < 10; i++) {
      await pause(50);
      const before = selected;
      const key = i < 5 ? KEY.pageDown : KEY.pageUp;
      const page = await keyToFrame(view, key, 'another page', (frame) => !at(before)(frame));
      pages.push(page);
      selected = Number(/· (\d+) of /.exec(view.lastFrame() ?? '')?.[1]);
    }
    for (let i = 0; i < 10; i++) {
      await pause(50);
      opens.push(await keyToFrame(view, KEY.enter, 'the candidate', (frame) => frame.includes('Statements (')));
      await pause(50);
      opens.push(await keyToFrame(view, KEY.escape, 'the queue', at(selected)));
    }
  } finally {
    await unmount(view);
  }
  return { moves, pages, opens, cpu };
}

const figure = (name: string, values: number[]): Figure => ({
  name: `${name} (median of ${values.length}; p95 ${percentile(values, 95).toFixed(1)} ms)`,
  value: `${median(values).toFixed(1)} ms`,
  target: '<= 50 ms (median)',
  met: median(values) <= 50,
});

export async function runTuiMemoryBench(): Promise<void> {
  const home = tempHome('bench-tui-memory');
  const repo = gitRepo(home, 'repo');
  queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
  await c.flush(home);
  const host = await Host.start({ home, serve: false });
  try {
    await host.application.memoryExtract({ cwd: repo });
    fillQueue(home, QUEUE);
    const page = await host.application.memoryReview({ cwd: repo, scope: 'here', limit: 200 });
    // The screen counts against the queue's total, reading further pages as the selection nears their end.
    const hosted = await reviewKeys(host.application, home, repo, page.total);
    // The whole queue handed to the screen at once: what the screen does with 10k rows.
    const whole: MemoryReview = {
      ...page,
      total: QUEUE,
      nextAfter: null,
      candidates: Array.from({ length: QUEUE }, (_, i) => {
        const base = page.candidates[i % page.candidates.length]!;
        return { ...base, candidateId: `cand-${String(i).padStart(8, '0')}whole` };
      }),
    };
    const all = withOverrides(host.application, { memoryReview: async () => whole });
    const screen = await reviewKeys(all, home, repo, QUEUE);
    const excludes = 'in process, from the key to the frame; excludes seeding and the host start';
    report([
      {
        name: `review read: ${QUEUE} candidates in memory-state, the host answers the newest ${page.candidates.length}`,
        value: `${page.candidates.length} rows`,
        target: 'reported, no bound',
        met: null,
      },
      figure(`Review ↓ with the host's ${page.candidates.length} rows (${excludes})`, hosted.moves),
      figure(`Review ↓ with ${QUEUE} rows handed to the screen (${excludes})`, screen.moves),
      {
        name: `Review ↓, CPU time of the process per key, ${QUEUE} rows (median of ${screen.cpu.length}; p95 ${percentile(screen.cpu, 95).toFixed(1)} ms)`,
        value: `${median(screen.cpu).toFixed(1)} ms`,
        target: 'reported beside the wall time, which includes waiting for a shared core',
        met: null,
      },
      {
        name: `load average while measuring (1 min)`,
        value: loadavg()[0]!.toFixed(1),
        target: 'reported, no bound',
        met: null,
      },
      figure(`Review PgDn/PgUp with ${QUEUE} rows, 50 ms between keys`, screen.pages),
      figure(`Review Enter / Esc (open a candidate, back) with ${QUEUE} rows`, screen.opens),
    ]);
  } finally {
    await host.stop();
    c.closeStores();
    await rm(dirname(home), { recursive: true, force: true });
  }
}
