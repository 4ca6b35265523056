// Following an extraction run (source/client/extract-run.ts): when each read is made, on the clock
// node:test mocks, so the schedule is asserted exactly and no test waits on a real timer.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { MemoryExtractRun } from '../../source/api/memory-runs.js';
import { followRun, followWaitMs, reverifyByFollowing } from '../../source/client/extract-run.js';
import { EXTRACT_FOLLOW_POLL_MS } from '../../source/limits.js';

/** A run read `reads` times: running until the read numbered `endsAt` (the start's answer is read 1). */
function fakeRun(endsAt: number) {
  const readAt: number[] = [];
  let reads = 1;
  const state = (): MemoryExtractRun =>
    ({ runId: 'run-1', state: reads >= endsAt ? 'done' : 'running' }) as MemoryExtractRun;
  const app = {
    memoryExtractRun: async () => {
      reads++;
      readAt.push(Date.now());
      return state();
    },
  };
  return { app, first: state(), readAt };
}

/** Lets the mocked clock run `ms`, a millisecond at a time, settling the promises each step starts. */
async function elapse(ms: number) {
  await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < ms; i++) {
    mock.timers.tick(1);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('following an extraction run', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 }));
  afterEach(() => mock.timers.reset());

  it('reads a run that ends at once again after 10 ms, not after a whole poll interval', async () => {
    const { app, first, readAt } = fakeRun(2);
    const followed = followRun(app, first);
    await elapse(EXTRACT_FOLLOW_POLL_MS);
    const run = await followed;
    assert.equal(run.state, 'done');
    assert.deepEqual(readAt, [10]);
  });

  it('waits twice as long before each read, up to the poll interval', async () => {
    const { app, first, readAt } = fakeRun(10);
    const followed = followRun(app, first);
    await elapse(3000);
    await followed;
    assert.deepEqual(readAt, [10, 30, 70, 150, 310, 630, 1030, 1430, 1830]);
  });

  it('a long run costs its host no more reads than a flat interval would, but the first few', () => {
    let waited = 0;
    let reads = 1;
    while (waited < 60_000) waited += followWaitMs(reads++);
    const flat = Math.ceil(60_000 / EXTRACT_FOLLOW_POLL_MS);
    assert.ok(reads - 1 <= flat + 6, `${reads - 1} reads in a minute, ${flat} at a flat interval`);
    for (let n = 1; n < 50; n++) {
      assert.ok(followWaitMs(n) <= EXTRACT_FOLLOW_POLL_MS);
      assert.ok(followWaitMs(n + 1) >= followWaitMs(n));
    }
    assert.equal(followWaitMs(1, 5), 5, 'a shorter poll interval caps the first wait too');
  });

  it('a reverify probe is read on the same schedule', async () => {
    const readAt: number[] = [];
    let reads = 1;
    const app = {
      memoryReverifyStart: async () => ({ probeId: 'p', state: 'running' as const }),
      memoryReverifyProbe: async () => {
        readAt.push(Date.now());
        return ++reads >= 3
          ? { probeId: 'p', state: 'done' as const, result: { runner: 'r' } }
          : { probeId: 'p', state: 'running' as const };
      },
    };
    const probed = reverifyByFollowing(app as never, { runner: 'r' });
    await elapse(100);
    assert.deepEqual(await probed, { runner: 'r' });
    assert.deepEqual(readAt, [10, 30]);
  });
});
