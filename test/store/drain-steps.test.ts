// The drain engine's steps, with the real writer thread: a run's first step is small (nothing
// overlaps its planning), and the drain steps aside between steps while a hook waits for the
// write lock, and only then (its lock-waiters count under the test's control).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import {
  CAPACITY_ENV,
  DRAIN_FIRST_STEP_MAX_BYTES,
  DRAIN_STEP_ASIDE_MAX_MS,
  DRAIN_STEP_MAX_BYTES,
  DRAIN_STEP_MAX_ENVELOPES,
} from '../../source/limits.js';
import type { CaptureStepInput } from '../../source/store/core/capture-sessions.js';
import { openDatabase } from '../../source/store/database.js';
import { DrainEngine, type CaptureWriter } from '../../source/workers/drain-engine.js';
import { WriterClient } from '../../source/workers/writer-client.js';
import { closeStores, hookFiles, hookInProcess, payloadFor } from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { prepareDrainStore } from '../bench/capture.js';

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
  /** The transcript bytes each step parsed (0 for a step without any). */
  bytes: number[];
  sealed: number;
  applied: number[];
  /** The writer's answer to each step, in submission order. */
  outcomes: string[];
  asked: number;
  steps: number;
  isolated: string[];
}

const newRun = (): Run => ({
  submitted: [],
  bytes: [],
  sealed: 0,
  applied: [],
  outcomes: [],
  asked: 0,
  steps: 0,
  isolated: [],
});

/** `run` is filled as the drain goes, so a test can read it after the drain failed. */
async function drain(home: string, waiting: (run: Run) => number, run: Run = newRun()): Promise<Run> {
  const core = storeFiles(home).core;
  const writer = await WriterClient.start(core);
  const reader = openDatabase(core, { readonly: true });
  const recording: CaptureWriter = {
    call: (async (name: 'captureApplyStep', input: never, transfer: ArrayBuffer[]) => {
      if (name === 'captureApplyStep') {
        run.submitted.push(performance.now());
        const watch = (input as CaptureStepInput).watch;
        run.bytes.push(watch ? watch.toBytes - watch.fromBytes : 0);
      }
      const result = await writer.call(name, input, transfer).catch((error: Error & { code?: string }) => {
        if (name === 'captureApplyStep') run.outcomes.push(`failed: ${error.code}`);
        throw error;
      });
      if (name === 'captureApplyStep') {
        run.applied.push(performance.now());
        run.outcomes.push((result as { outcome: string }).outcome);
      }
      return result;
    }) as CaptureWriter['call'],
  };
  try {
    const engine = new DrainEngine(reader, recording, () => {
      run.asked += 1;
      return waiting(run);
    });
    const report = await engine.drainAll();
    run.steps = report.steps;
    run.sealed = report.sealedTurns;
    run.isolated = report.isolated;
  } finally {
    reader.close();
    await writer.close();
  }
  return run;
}

describe('drain: the size of its steps', () => {
  it('takes a small first step, then full ones, and seals every turn', async () => {
    const { home, size, turns } = prepareDrainStore(6);
    const run = await drain(home, () => 0).finally(() => rmSync(dirname(home), { recursive: true, force: true }));
    assert.equal(run.sealed, turns);
    assert.equal(
      run.bytes.reduce((a, b) => a + b, 0),
      size,
      'every byte parsed once',
    );
    const fed = run.bytes.filter((bytes) => bytes > 0);
    assert.ok(fed[0]! <= DRAIN_FIRST_STEP_MAX_BYTES, `first step ${fed[0]} bytes`);
    assert.ok(fed.length >= 3);
    for (const bytes of fed.slice(1, -1))
      assert.ok(bytes > DRAIN_FIRST_STEP_MAX_BYTES && bytes <= DRAIN_STEP_MAX_BYTES, `a full step: ${bytes} bytes`);
  });
});

describe('drain: the next step waits in the writer’s queue', () => {
  it('is submitted before the one ahead of it is applied', async () => {
    const { home, turns } = prepareDrainStore(6);
    const run = await drain(home, () => 0).finally(() => rmSync(dirname(home), { recursive: true, force: true }));
    assert.equal(run.sealed, turns);
    assert.ok(run.steps >= 3);
    for (let i = 1; i < run.steps; i++)
      assert.ok(run.submitted[i]! < run.applied[i - 1]!, `step ${i + 1} was queued while step ${i} applied`);
  });

  it('behind a step the writer rejects, changes nothing: the run stops there and isolates it', async () => {
    const { home, turns } = prepareDrainStore(6);
    const core = storeFiles(home).core;
    // The second step's turns include one whose prompt no hook recorded: the writer rejects that step.
    const db = openDatabase(core);
    const orphan = `bench-turn-${Math.floor(turns / 3)}`;
    db.prepare('DELETE FROM prompt_candidates WHERE turn_ref = ?').run(orphan);
    db.close();
    const run = await drain(home, () => 0);
    try {
      assert.deepEqual(
        run.outcomes.slice(0, 3),
        ['applied', 'rejected', 'stale'],
        'the step queued behind it was stale',
      );
      assert.equal(run.steps, 2, 'the stale step is not counted as taken');
      assert.equal(run.isolated.length, 1);
      const check = openDatabase(core, { readonly: true });
      try {
        const sealedKeys = check.prepare('SELECT turn_key FROM capture_turns').pluck().all() as string[];
        assert.equal(run.sealed, sealedKeys.length, 'only the first step sealed');
        assert.ok(!sealedKeys.includes(orphan));
        const stepOne = run.bytes[0]!;
        assert.equal(
          check.prepare('SELECT consumed_bytes FROM capture_watches').pluck().get(),
          stepOne,
          'the cursor is where the first step left it',
        );
        const item = check.prepare("SELECT inbox_id, code FROM recovery_items WHERE state = 'open'").get() as {
          inbox_id: number;
          code: string;
        };
        assert.equal(item.code, 'delivery_unconfirmed');
        assert.equal(
          item.inbox_id,
          check.prepare("SELECT min(id) FROM inbox WHERE state = 'pending' AND tail_state = 'captured'").pluck().get(),
          'isolated at the rejected step’s first envelope',
        );
      } finally {
        check.close();
      }
    } finally {
      rmSync(dirname(home), { recursive: true, force: true });
    }
  });
});

describe('drain: a step the writer fails (over capacity) with the next one queued behind it', () => {
  it('raises the failure; the queued step changes nothing, the envelopes stay queued, nothing is isolated', async () => {
    const { home, turns } = prepareDrainStore(6);
    const core = storeFiles(home).core;
    const run = newRun();
    // The first (1 MiB) step holds about 200 KB of bodies, a full 4 MiB step about four times that.
    const before = process.env[CAPACITY_ENV];
    process.env[CAPACITY_ENV] = `${500 * 1024}:${1024 * 1024 * 1024}`;
    try {
      await assert.rejects(
        drain(home, () => 0, run),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, 'limit_exceeded');
          return true;
        },
      );
      assert.deepEqual(run.outcomes.slice(0, 3), ['applied', 'failed: limit_exceeded', 'stale']);
      const check = openDatabase(core, { readonly: true });
      try {
        const sealed = check.prepare('SELECT count(*) FROM capture_turns').pluck().get() as number;
        assert.ok(sealed > 0 && sealed < turns, `only the first step sealed (${sealed} of ${turns})`);
        assert.equal(check.prepare('SELECT consumed_bytes FROM capture_watches').pluck().get(), run.bytes[0]);
        assert.equal(
          check.prepare('SELECT count(*) FROM recovery_items').pluck().get(),
          0,
          'not filed as a bad session',
        );
        assert.ok(
          (check
            .prepare("SELECT count(*) FROM inbox WHERE state = 'pending' AND tail_state = 'captured'")
            .pluck()
            .get() as number) > 0,
        );
      } finally {
        check.close();
      }
    } finally {
      if (before === undefined) delete process.env[CAPACITY_ENV];
      else process.env[CAPACITY_ENV] = before;
      rmSync(dirname(home), { recursive: true, force: true });
    }
  });
});

describe('drain: steps aside for hooks waiting for the write lock', () => {
  after(closeStores);

  it('with nobody waiting, asks once between steps and never pauses', async () => {
    const run = await drain(backlog(), () => 0);
    assert.equal(run.steps, STEPS);
    assert.equal(run.asked, STEPS - 1, 'asked once before each step after the first');
  });

  it('submits no step while a hook waits, and the next one once it is gone', async () => {
    const waitMs = 120;
    const run = await drain(backlog(), (r) => (performance.now() - r.submitted[0]! < waitMs ? 1 : 0));
    assert.equal(run.steps, STEPS);
    assert.ok(
      run.submitted[1]! - run.submitted[0]! >= waitMs,
      `the second step waited for the hook (${(run.submitted[1]! - run.submitted[0]!).toFixed(0)} ms)`,
    );
    assert.ok(run.asked > STEPS - 1, 'it looked again while the hook waited');
  });

  it('goes on after DRAIN_STEP_ASIDE_MAX_MS when a waiter never leaves', async () => {
    const run = await drain(backlog(), () => 1);
    assert.equal(run.steps, STEPS, 'every step was taken');
    for (let i = 1; i < STEPS; i++) {
      const paused = run.submitted[i]! - run.submitted[i - 1]!;
      assert.ok(paused >= DRAIN_STEP_ASIDE_MAX_MS - 1, `step ${i + 1} paused ${paused.toFixed(0)} ms`);
    }
  });
});
