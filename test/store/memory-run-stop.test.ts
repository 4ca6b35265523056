// A run whose pipeline is stopped (a command working alone, interrupted: its runners' work runs on
// the command's own thread, source/workers/runners-work.ts) tells the runner in flight to stop, as
// at its time-out: the run ends at once, its task counted as a failed attempt and left for the next
// run, instead of the command waiting on a runner that may take minutes.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import type { Runner } from '../../source/memory/runner.js';
import { ExtractionPipeline } from '../../source/pipeline/extraction-pipeline.js';
import { openDatabase } from '../../source/store/database.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { DURABLE_PROMPTS, queueSession, RECENT_WINDOW } from '../support/memory-corpus.js';

after(() => c.closeStores());

describe('a stopped pipeline', () => {
  it('stops the runner in flight at once; its task fails and waits for the next run', async () => {
    const home = tempHome('run-stop');
    queueSession(home, null, DURABLE_PROMPTS);
    await c.flush(home);
    const writer = await startInlineWriter(storeFiles(home).core);
    const core = openDatabase(storeFiles(home).core, { readonly: true });
    let told = 0;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    // Answers only when told to stop: a runner that would take its whole time-out (two minutes).
    const slow: Runner = {
      name: 'builtin',
      offline: true,
      run: (_task, options) =>
        new Promise((_resolve, reject) => {
          started();
          options.signal.addEventListener('abort', () => {
            told += 1;
            reject(new Error('stopped'));
          });
        }),
    };
    const stop = new AbortController();
    const pipeline = new ExtractionPipeline(writer, core, new Map([['builtin', slow]]), 'run-stop', stop.signal);
    try {
      const run = pipeline.extract({ cwd: null, ...RECENT_WINDOW }, () => null);
      await running;
      const stoppedAt = Date.now();
      stop.abort();
      const report = await run;
      assert.ok(Date.now() - stoppedAt < 5_000, 'the run ended soon after the stop');
      assert.ok(told >= 1, 'the runner was told to stop');
      assert.equal(report.tasks.submitted, 0);
      assert.ok(report.tasks.failed >= 1, JSON.stringify(report.tasks));
      assert.match(report.failures.map((f) => JSON.stringify(f)).join('\n'), /the builtin runner failed: stopped/);
    } finally {
      core.close();
      await writer.close();
    }
  });
});
