// External runners. (1) The overhead of a `command` runner per task — claim, spawn, strict parse,
// submit, through the real pipeline and writer — around a trivial executable, against the floor
// of spawning that executable alone with the same input. (2) For the codex and claude profiles,
// the bytes the plans declare per sealed turn of the recorded corpus, and the share that is the
// user's own text (what a user pays for); the instructions and the task's other fields are the rest.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { storeFiles } from '../../source/home.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import { clientPrompt } from '../../source/effects/client-runners.js';
import { PROBE_VERSION } from '../../source/effects/conformance.js';
import type { ExternalRunner, Runner } from '../../source/memory/runner.js';
import { externalRunner } from '../../source/effects/runner-registry.js';
import { commandProfile, runnerEnvironment, runnerProfile } from '../../source/effects/runner-profiles.js';
import { runProcess } from '../../source/effects/command-runner.js';
import { openDatabase } from '../../source/store/database.js';
import { ExtractionPipeline } from '../../source/pipeline/extraction-pipeline.js';
import { WriterClient } from '../../source/workers/writer-client.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { queueSession, RECENT_WINDOW } from '../support/memory-corpus.js';
import { answerTask } from '../support/runner-answers.mjs';
import { median, percentile, report, timeMsAsync } from './measure.js';

const FAKE = new URL('../support/fake-command-runner.mjs', import.meta.url).pathname;
const TRIVIAL_TASK = { format: 'common-memory-extraction-task@v1', taskId: 't', binding: {}, evidenceCatalog: [] };
const TASKS = Number(process.env['CM_BENCH_RUNNER_TASKS'] ?? 12);

async function pipelineOf(home: string, runner: Runner) {
  const writer = await WriterClient.start(storeFiles(home).core);
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  const runners = new Map<string, Runner>([
    ['builtin', builtinRunner],
    [runner.name, runner],
  ]);
  const pipeline = new ExtractionPipeline(writer, core, () => runners, 'bench-holder');
  const extract = (approval: { approvePlan?: string; approveManifest?: string } = {}, limit = 1) =>
    pipeline.extract(
      { cwd: null, since: RECENT_WINDOW.since, until: RECENT_WINDOW.until, runner: runner.name, limit, ...approval },
      () => null,
    );
  return {
    extract,
    close: async () => {
      core.close();
      await writer.close();
    },
  };
}

async function commandOverhead() {
  const home = tempHome('bench-runner-command');
  for (let i = 0; i < TASKS; i++) queueSession(home, null, [`From now on, use tool number ${i} in this repo.`]);
  await c.flush(home);
  const profile = commandProfile.parse({
    name: 'ext',
    kind: 'command',
    argv: [process.execPath, FAKE, 'good'],
    provider: 'bench',
    model: 'bench',
    endpoint: 'http://127.0.0.1:9/v1',
  });
  const runner = externalRunner(profile, null);
  const p = await pipelineOf(home, runner);
  const runs: number[] = [];
  const floors: number[] = [];
  try {
    for (let i = 0; i < TASKS; i++) {
      const pending = (await p.extract()).pendingPlan;
      if (!pending || pending.plans[0]!.taskKind !== 'extraction') break;
      runs.push(await timeMsAsync(() => p.extract({ approvePlan: pending.plans[0]!.planDigest })));
      // The floor: the same executable through the same bounded spawn, alone, with as many bytes.
      const input = JSON.stringify(TRIVIAL_TASK).padEnd(pending.plans[0]!.bytesToSend);
      floors.push(
        await timeMsAsync(() =>
          runProcess({
            argv: profile.argv,
            env: runnerEnvironment(profile),
            input: Buffer.from(input),
            timeoutMs: 60_000,
            maxStdoutBytes: 1024 * 1024,
            stderrLog: null,
          }),
        ),
      );
    }
  } finally {
    await p.close();
  }
  const run = median(runs);
  const floor = median(floors);
  report([
    {
      name: `command runner, one approved task (claim → spawn → parse → submit), median of ${runs.length}`,
      value: `${run.toFixed(1)} ms (p95 ${percentile(runs, 95).toFixed(1)})`,
      floor: `${floor.toFixed(1)} ms (the executable alone, same spawn)`,
      ratio: run / floor,
      target: 'overhead = run − floor, reported',
      met: null,
    },
    {
      name: 'command runner overhead per task (median run − median floor)',
      value: `${(run - floor).toFixed(1)} ms`,
      target: 'reported',
      met: null,
    },
  ]);
}

/** Every recorded session of the fixtures, captured through the hooks into one data home. */
async function recordedCorpus(home: string) {
  const codexRollouts = readdirSync(join(c.FIXTURES, 'codex', 'rollouts'));
  for (const scenario of ['b', 'c', 'd', 'f']) {
    const rollout = codexRollouts.find((name) => name.startsWith(`${scenario}-`))!;
    const t = c.copyTranscript(c.rolloutFixture(rollout), c.transcriptDir(home));
    c.replay(home, 'codex', c.hookFiles('codex', scenario), t, `bench-codex-${scenario}`);
  }
  const claude: Array<[string, string]> = [
    ['01-plain', '01-plain'],
    ['02-tool', '02-03-04-08-tool-resume-continue-compact'],
    ['06-tool-denied', '06-tool-denied'],
    ['07-tool-fail', '07-tool-fail'],
    ['20-ret-context', '20-ret-context'],
    ['22-ret-deny', '22-ret-deny'],
  ];
  for (const [hooks, transcript] of claude) {
    const t = c.copyTranscript(c.claudeTranscriptFixture(transcript), join(c.transcriptDir(home), hooks));
    c.replay(home, 'claude', c.hookFiles('claude', hooks), t, `bench-claude-${hooks}`);
  }
  await c.flush(home);
}

/** The user's own text in a task's transcript: the bodies of its `<<past-user …>>` blocks. */
function userTextBytes(transcript: string): number {
  let bytes = 0;
  for (const block of transcript.split(/^(?=<<past-)/m))
    if (block.startsWith('<<past-user')) bytes += Buffer.byteLength(block.slice(block.indexOf('\n') + 1), 'utf8');
  return bytes;
}

async function bytesPerTurn(kind: 'codex' | 'claude') {
  const home = tempHome(`bench-runner-${kind}`);
  await recordedCorpus(home);
  const profile = runnerProfile.parse({
    name: kind,
    kind,
    binary: `/not-run/${kind}`,
    version: kind === 'codex' ? '0.171.0' : '2.1.332',
    apiKeyEnv: 'BENCH_KEY',
    provider: 'bench',
    model: 'bench',
    endpoint: 'http://127.0.0.1:9/v1',
    budget: { runBytes: 64 * 1024 * 1024, dayBytes: 1024 * 1024 * 1024 },
  });
  // The plans are the profile's own (its runner input is what the client is given); the answers
  // come from a stand-in, so no client runs: the figure is what the plans declare.
  const runner: ExternalRunner = {
    name: kind,
    offline: false,
    profile,
    input: clientPrompt,
    send: async (_input, work) => JSON.stringify(answerTask(work.task as unknown as Record<string, unknown>)),
    run: async (work) => JSON.stringify(answerTask(work.task as unknown as Record<string, unknown>)),
    conformanceKey: () => (kind === 'codex' ? 'c' : 'd').repeat(64),
    probe: async () => ({ passed: true, failed: null, probeVersion: PROBE_VERSION }),
  };
  const p = await pipelineOf(home, runner);
  let sent = 0;
  let user = 0;
  const planned = new Set<string>();
  let turns = 0;
  try {
    for (let pass = 0; pass < 20; pass++) {
      const first = await p.extract({}, 8);
      if (pass === 0) turns = first.turns;
      const pending = first.pendingPlan;
      if (!pending || pending.plans[0]!.taskKind !== 'extraction') break;
      for (const plan of pending.plans) {
        sent += plan.bytesToSend;
        planned.add(plan.taskId);
      }
      const report = await p.extract({ approveManifest: pending.manifest.manifestDigest }, 8);
      if (report.tasks.submitted === 0) break;
    }
  } finally {
    await p.close();
  }
  const state = openDatabase(storeFiles(home).memoryState, { readonly: true });
  try {
    const tasks = state.prepare("SELECT task_id, task_json FROM tasks WHERE kind = 'extraction'").all() as Array<{
      task_id: string;
      task_json: string;
    }>;
    for (const task of tasks.filter((row) => planned.has(row.task_id)))
      user += userTextBytes(
        (JSON.parse(task.task_json) as { task: { chunk: { transcript: string } } }).task.chunk.transcript,
      );
  } finally {
    state.close();
  }
  report([
    {
      name: `${kind} profile: runner input per sealed turn, recorded corpus (${turns} turns)`,
      value: `${(sent / Math.max(1, turns)).toFixed(0)} bytes`,
      target: 'reported (the client adds its own request around it)',
      met: null,
    },
    {
      name: `${kind} profile: share of it that is the user's own text`,
      value: `${((100 * user) / Math.max(1, sent)).toFixed(1)} % (${user} of ${sent} bytes)`,
      target: 'reported',
      met: null,
    },
  ]);
}

export async function runRunnersBench(): Promise<void> {
  await commandOverhead();
  await bytesPerTurn('codex');
  await bytesPerTurn('claude');
  c.closeStores();
}
