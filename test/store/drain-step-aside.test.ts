// The drain steps aside between its steps while a hook waits for the write lock, and only then:
// the engine with the real writer thread, its lock-waiters count under the test's control.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { DRAIN_STEP_ASIDE_MAX_MS, DRAIN_STEP_MAX_ENVELOPES } from '../../source/limits.js';
import { openDatabase } from '../../source/store/database.js';
import { DrainEngine, type CaptureWriter } from '../../source/workers/drain-engine.js';
import { WriterClient } from '../../source/workers/writer-client.js';
import { closeStores, hookFiles, hookInProcess, payloadFor } from '../support/capture.js';
import { tempHome } from '../support/cli.js';

const STEPS = 3;

/** A store whose one activation needs STEPS drain steps (envelopes without transcript bytes). */
function backlog(): string {
  const home = tempHome('cm-aside');
  const [start, prompt] = hookFiles('codex', 'a');
  hookInProcess(home, 'codex', payloadFor(start!, null), 'aside');
  for (let i = 1; i < STEPS * DRAIN_STEP_MAX_ENVELOPES; i++)
    hookInProcess(home, 'codex', payloadFor(prompt!, null, { prompt: `prompt ${i}` }), 'aside');
  closeStores();
  return home;
}

interface Run {
  /** When each step was submitted, and when the writer answered it (ms, performance.now). */
  submitted: number[];
  applied: number[];
  asked: number;
  steps: number;
}

async function drain(home: string, waiting: (run: Run) => number): Promise<Run> {
  const core = storeFiles(home).core;
  const writer = await WriterClient.start(core);
  const reader = openDatabase(core, { readonly: true });
  const run: Run = { submitted: [], applied: [], asked: 0, steps: 0 };
  const recording: CaptureWriter = {
    call: (async (name: 'captureApplyStep', input: never, transfer: ArrayBuffer[]) => {
      if (name === 'captureApplyStep') run.submitted.push(performance.now());
      const result = await writer.call(name, input, transfer);
      if (name === 'captureApplyStep') run.applied.push(performance.now());
      return result;
    }) as CaptureWriter['call'],
  };
  try {
    const engine = new DrainEngine(reader, recording, () => {
      run.asked += 1;
      return waiting(run);
    });
    run.steps = (await engine.drainAll()).steps;
  } finally {
    reader.close();
    await writer.close();
  }
  return run;
}

describe('drain: steps aside for hooks waiting for the write lock', () => {
  after(closeStores);

  it('with nobody waiting, asks once between steps and never pauses', async () => {
    const run = await drain(backlog(), () => 0);
    assert.equal(run.steps, STEPS);
    assert.equal(run.asked, STEPS - 1, 'asked once before each step after the first');
  });

  it('submits no step while a hook waits, and the next one once it is gone', async () => {
    const waitMs = 120;
    const run = await drain(backlog(), (r) => (performance.now() - r.applied[0]! < waitMs ? 1 : 0));
    assert.equal(run.steps, STEPS);
    assert.ok(
      run.submitted[1]! - run.applied[0]! >= waitMs,
      `the second step waited for the hook (${(run.submitted[1]! - run.applied[0]!).toFixed(0)} ms)`,
    );
    assert.ok(run.asked > STEPS - 1, 'it looked again while the hook waited');
  });

  it('goes on after DRAIN_STEP_ASIDE_MAX_MS when a waiter never leaves', async () => {
    const run = await drain(backlog(), () => 1);
    assert.equal(run.steps, STEPS, 'every step was taken');
    for (let i = 1; i < STEPS; i++) {
      const paused = run.submitted[i]! - run.applied[i - 1]!;
      assert.ok(paused >= DRAIN_STEP_ASIDE_MAX_MS - 1, `step ${i + 1} paused ${paused.toFixed(0)} ms`);
    }
  });
});
