// The host's followed extraction runs, by themselves: a run's states as its runners thread reports
// them, its end kept for followers (then let go, memory-state's record answering after), an unknown id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CmError } from '../../source/errors.js';
import { type ActiveRun, ExtractRuns } from '../../source/host/extract-runs.js';
import { EXTRACT_RUNS_KEPT, EXTRACT_RUNS_KEPT_MS } from '../../source/limits.js';
import type { MemoryExtractReport, MemoryExtractRun } from '../../source/api/memory-runs.js';

const report = (runId: string): MemoryExtractReport => ({
  runIds: [runId],
  window: { since: 'a', until: 'b' },
  turns: 1,
  chunks: 1,
  tasks: { planned: 1, created: 1, submitted: 1, failed: 0, pending: 0, waitingForRetry: 0, stale: 0 },
  candidates: { created: 1, skipped: 0, updated: 0, merged: 0, stored: 0, quarantined: 0 },
  failures: [],
});

/** A run whose end the test decides. */
function controlled() {
  let finish!: (value: MemoryExtractReport) => void;
  let fail!: (error: unknown) => void;
  const ended = new Promise<MemoryExtractReport>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { run: () => ended, finish, fail };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('followed extraction runs', () => {
  it('waiting behind another run, running with its progress, then done with its report', async () => {
    let active: ActiveRun = { runId: 'run-auto', phase: 'extract', done: 0, total: 3 };
    const runs = new ExtractRuns(
      () => active,
      () => undefined,
    );
    const work = controlled();
    let asked: unknown;
    const started = runs.start({ cwd: '/repo' }, (request) => {
      asked = request;
      return work.run();
    });
    assert.deepEqual(asked, { cwd: '/repo', runId: started.runId }, 'the run is named by the id the follower holds');
    assert.equal(started.state, 'waiting');
    active = { runId: started.runId, phase: 'extract', done: 1, total: 2 };
    const running = runs.view(started.runId);
    assert.equal(running.state, 'running');
    assert.deepEqual(running.progress, { phase: 'extract', done: 1, total: 2 });
    active = null;
    work.finish(report(started.runId));
    await settle();
    const done = runs.view(started.runId);
    assert.equal(done.state, 'done');
    assert.deepEqual(done.report, report(started.runId));
    assert.ok(done.finishedAt);
  });

  it('a failed run keeps its error code and message', async () => {
    const runs = new ExtractRuns(
      () => null,
      () => undefined,
    );
    const work = controlled();
    const { runId } = runs.start({ cwd: '/repo' }, work.run);
    work.fail(new CmError('runner_unavailable', 'The ext runner failed its conformance probe.'));
    await settle();
    const failed = runs.view(runId);
    assert.equal(failed.state, 'failed');
    assert.deepEqual(failed.error, {
      code: 'runner_unavailable',
      message: 'The ext runner failed its conformance probe.',
    });
  });

  it('finished runs are let go after their time or past the count kept; memory-state answers then; unknown is not_found', async () => {
    let now = 1_000_000;
    const stored: MemoryExtractRun = {
      runId: 'x',
      state: 'done',
      progress: null,
      startedAt: '',
      finishedAt: '',
      report: null,
      error: null,
      stoppedBecause: null,
    };
    const storedIds = new Set<string>();
    const runs = new ExtractRuns(
      () => null,
      (runId) => (storedIds.has(runId) ? { ...stored, runId } : undefined),
      () => now,
    );
    const first = runs.start({ cwd: '/repo' }, async () => report('one'));
    await settle();
    assert.equal(runs.view(first.runId).state, 'done');
    now += EXTRACT_RUNS_KEPT_MS + 1;
    const ids: string[] = [];
    for (let i = 0; i <= EXTRACT_RUNS_KEPT + 1; i++) {
      ids.push(runs.start({ cwd: '/repo' }, async () => report('many')).runId);
      await settle();
    }
    assert.throws(() => runs.view(first.runId), /No extraction run .*memory status/, 'let go after its time');
    assert.throws(
      () => runs.view(ids[0]!),
      (error: unknown) => error instanceof CmError && error.code === 'not_found',
    );
    assert.equal(runs.view(ids.at(-1)!).state, 'done', 'the newest are kept');
    storedIds.add(first.runId);
    assert.deepEqual(runs.view(first.runId), { ...stored, runId: first.runId }, "memory-state's record answers");
  });
});
