// `memory extract` through a running host is a run the CLI follows: started by the host, read until
// it ends, progress on stderr, the report (or the run's error) at the end. A command runner that
// answers after longer than the client's request bound (shortened here by
// COMMON_MEMORY_API_TIMEOUT_MS, as the 10 s default would make the test slow) still ends in its
// report; Ctrl+C stops only the following — the host's run goes on and `--follow` gets its result.
// `memory reverify-runner` (the runner's conformance probe, as slow as the runner) is followed too.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { collect, gitRepo, runCli, startCli, startHost, stopHost, tempHome, waitFor } from '../support/cli.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const FAKE = new URL('../support/fake-command-runner.mjs', import.meta.url).pathname;
const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The client's bound on one request, and how long the runner takes to answer: well past it. */
const REQUEST_BOUND_MS = 1000;
const RUNNER_DELAY_MS = 3500;
const env = { COMMON_MEMORY_API_TIMEOUT_MS: String(REQUEST_BOUND_MS), COMMON_MEMORY_AUTO_EXTRACT: 'off' };

/** A data home with one captured session in a repository, a slow `ext` runner, and a host serving it. */
async function slowRunnerHost(label: string) {
  const home = tempHome(label);
  const repo = gitRepo(home, 'repo');
  queueSession(home, repo, ['From now on, use pnpm instead of npm in this repo.']);
  await c.flush(home);
  const profile = {
    name: 'ext',
    kind: 'command',
    argv: [process.execPath, FAKE, 'slow', join(home, 'record'), String(RUNNER_DELAY_MS)],
    provider: 'test-provider',
    model: 'fake-model',
    endpoint: 'http://127.0.0.1:9/v1',
  };
  writeFileSync(join(home, 'runners.json'), JSON.stringify({ profiles: [profile] }));
  const host = await startHost(home, env);
  const args = ['memory', 'extract', '--runner', 'ext', '--home', home, '--since', '2026-01-01'];
  // The plan first (nothing is sent before its digest is approved): a short request.
  const planned = await runCli([...args, '--json'], { cwd: repo, env });
  assert.equal(planned.code, 14, planned.stderr);
  const digest = json(planned.stdout).pendingPlan.plans[0].planDigest as string;
  return { home, repo, host, approved: [...args, '--approve-plan', digest] };
}

describe('memory extract through a host: a run the CLI follows', () => {
  it('outlasts the request bound: progress on stderr, then the report', async () => {
    const { home, repo, host, approved } = await slowRunnerHost('extract-follow');
    try {
      const started = Date.now();
      const run = await runCli(approved, { cwd: repo, env, timeoutMs: 60_000 });
      const took = Date.now() - started;
      assert.equal(run.code, 14, `the adjudication plan awaits its approval: ${run.stderr}`);
      assert.ok(took >= RUNNER_DELAY_MS, `the run took as long as its runner (${took} ms)`);
      assert.doesNotMatch(run.stderr, /did not answer/);
      // Wrapped to 80 columns: read as one text.
      assert.match(run.stderr.replace(/\s+/g, ' '), /memory extract: run run-[0-9a-f-]{36} started in the host/);
      assert.match(run.stderr, /memory extract: run-[0-9a-f-]{36} extract 0\/1/, 'progress while the runner works');
      // The report at the end, on stdout: its candidate drafted, the adjudication's plan awaiting approval.
      assert.match(
        run.stdout,
        /^Approve exactly these bytes:\n {2}common-memory memory extract <same options> --approve-plan [0-9a-f]{64}$/m,
      );
      const review = await runCli(['memory', 'review', '--home', home, '--json'], { cwd: repo, env });
      assert.equal(json(review.stdout).candidates.length, 1, 'the slow runner drafted its candidate');
    } finally {
      await stopHost(host.child);
    }
  });

  it('memory reverify-runner outlasts the request bound too: the probe is followed to its answer', async () => {
    const { home, host } = await slowRunnerHost('reverify-follow');
    try {
      const started = Date.now();
      const probed = await runCli(['memory', 'reverify-runner', '--runner', 'ext', '--home', home, '--json'], {
        env,
        timeoutMs: 60_000,
      });
      assert.equal(probed.code, 0, probed.stderr);
      assert.ok(Date.now() - started >= RUNNER_DELAY_MS, 'as long as the runner took over the probe');
      assert.equal(json(probed.stdout).runner, 'ext');
      assert.equal(json(probed.stdout).passed, true);
    } finally {
      await stopHost(host.child);
    }
  });

  it('Ctrl+C stops following and leaves the run going; --follow gets its result', async () => {
    const { home, repo, host, approved } = await slowRunnerHost('extract-sigint');
    try {
      const child = startCli(approved, { cwd: repo, env });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const runId = await waitFor('the run to start', () => /run (run-[0-9a-f-]{36}) started/.exec(stderr)?.[1]);
      await waitFor('the runner to be at work', () => / extract 0\/1/.test(stderr));
      const done = collect(child);
      child.kill('SIGINT');
      const stopped = await done;
      assert.equal(stopped.code, 130, stopped.stderr + stderr);
      // Wrapped to 80 columns: read as one text; the command to follow again whole on its line.
      assert.match(stderr.replace(/\s+/g, ' '), new RegExp(`goes on in the host.*memory extract --follow ${runId}`));
      assert.match(stderr, new RegExp(`^ {2}common-memory memory extract --follow ${runId}$`, 'm'));

      // The host's run goes on: it is still running, and following it again ends in its report.
      const status = json((await runCli(['memory', 'status', '--home', home, '--json'], { env })).stdout);
      // Running still, or (on a slow machine) just ended: either way the run outlived its follower.
      assert.equal(status.activeRun?.runId ?? status.lastRun?.runId, runId, 'memory status shows the run');
      const followed = await runCli(['memory', 'extract', '--follow', runId, '--home', home, '--json'], {
        cwd: repo,
        env,
        timeoutMs: 60_000,
      });
      assert.equal(followed.code, 14, followed.stderr);
      const report = json(followed.stdout);
      assert.deepEqual(report.runIds, [runId]);
      assert.equal(report.candidates.created, 1);
      assert.equal(report.tasks.submitted, 1);
      assert.equal(report.pendingPlan.plans[0].taskKind, 'adjudication');
      // A finished run can be followed again: its report, at once.
      const again = await runCli(['memory', 'extract', '--follow', runId, '--home', home, '--json'], {
        cwd: repo,
        env,
      });
      assert.equal(again.code, 14, again.stderr);
      assert.deepEqual(json(again.stdout).candidates, report.candidates);
      // With the host gone, memory-state's record of the run answers.
      await stopHost(host.child);
      const recorded = await runCli(['memory', 'extract', '--follow', runId, '--home', home, '--json'], { cwd: repo });
      assert.equal(recorded.code, 14, recorded.stderr);
      assert.deepEqual(json(recorded.stdout).candidates, report.candidates);
      assert.deepEqual(json(recorded.stdout).runIds, [runId]);
      const unknown = await runCli(['memory', 'extract', '--follow', 'run-nope', '--home', home, '--json'], { env });
      assert.equal(unknown.code, 6, unknown.stderr);
      assert.match(json(unknown.stderr).error.message, /No extraction run "run-nope".*memory status/);
      const options = await runCli(['memory', 'extract', '--follow', runId, '--runner', 'ext', '--home', home], {
        env,
      });
      assert.equal(options.code, 2, options.stderr);
      assert.match(options.stderr, /--follow takes a run id only, not --runner/);
    } finally {
      await stopHost(host.child);
    }
  });
});
