// Built-in extraction end to end, in sealed turns per second, beside the drain of the same corpus in
// the same run. The corpus (CM_BENCH_EXTRACT_TURNS, default 10,200 turns) is the recorded Codex
// rollout repeated with the prompts of the labelled memory sets (the long multi-session
// conversation of session search and the extraction utterances), CM_BENCH_EXTRACT_SESSION turns a
// session, queued as hook envelopes. One local host (lease, writer, drain and runners threads, as
// `session-drain` and `memory extract` without a running host) first drains it — the floor — then
// extracts it: windows of at most 200 sealed turns (the selection maximum), each run again until no
// task is pending (a run works on at most 8), every run planning, claiming, running the built-in
// runner, submitting, recalling, adjudicating and committing through the writer.
// `node --import tsx test/bench/extraction-throughput.ts`
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { storeFiles } from '../../source/home.js';
import { Host } from '../../source/host/host.js';
import { CAPACITY_ENV, SESSION_BODY_MAX_BYTES } from '../../source/limits.js';
import { SELECTION_MAX_TURNS } from '../../source/store/core/turn-source.js';
import { openDatabase } from '../../source/store/database.js';
import { tempHome } from '../support/cli.js';
import { readMemoryFixture } from '../support/fixture-jsonl.js';
import { queueSession } from '../support/memory-corpus.js';
import { report, type Figure } from './measure.js';

const TURNS = Number(process.env['CM_BENCH_EXTRACT_TURNS'] ?? 10_200);
const SESSION_TURNS = Number(process.env['CM_BENCH_EXTRACT_SESSION'] ?? 150);
const TARGET_TURNS_PER_SECOND = 1_000;

/** The user's side of the corpus: what the labelled sets say people type, durable or not. */
function promptPool(): string[] {
  const conversation = readMemoryFixture<{ text: string }>('session-search/turns.jsonl').map((row) => row.text);
  const utterances = readMemoryFixture<{ text: string }>('extraction-utterances.jsonl').map((row) => row.text);
  return [...conversation, ...utterances];
}

/** Windows of at most SELECTION_MAX_TURNS sealed turns, cut between seal times as automatic runs cut them. */
function windows(home: string): Array<{ since: string; until: string }> {
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    const times = core
      .prepare(
        "SELECT recorded_at_ms FROM capture_turns WHERE state IN ('settled', 'failed', 'interrupted') ORDER BY recorded_at_ms",
      )
      .pluck()
      .all() as number[];
    const cut: Array<{ since: string; until: string }> = [];
    let from = 0;
    while (from < times.length) {
      let to = Math.min(from + SELECTION_MAX_TURNS, times.length);
      // A window ends where a new seal time starts, so no turn is split from its step.
      if (to < times.length) while (to > from && times[to] === times[to - 1]) to -= 1;
      if (to === from) throw new Error(`more than ${SELECTION_MAX_TURNS} turns share one seal time`);
      const sinceMs = times[from]!;
      const untilMs = to < times.length ? times[to]! : times[to - 1]! + 1;
      cut.push({ since: new Date(sinceMs).toISOString(), until: new Date(untilMs).toISOString() });
      from = to;
    }
    return cut;
  } finally {
    core.close();
  }
}

export interface ExtractionThroughput {
  turns: number;
  drainTurnsPerSecond: number;
  extractTurnsPerSecond: number;
}

export async function runExtractionThroughputBench(): Promise<ExtractionThroughput> {
  const home = tempHome('bench-extract');
  // The sessions ran in a repository, as coding sessions do: the run's scope is its binding.
  const cwd = join(dirname(home), 'repository');
  mkdirSync(cwd);
  execFileSync('git', ['init', '-q'], { cwd });
  const pool = promptPool();
  let queued = 0;
  for (let session = 0; queued < TURNS; session++) {
    const count = Math.min(SESSION_TURNS, TURNS - queued);
    const prompts = Array.from({ length: count }, (_, i) => pool[(session * 37 + i) % pool.length]!);
    queueSession(home, cwd, prompts);
    queued += count;
  }
  process.env['COMMON_MEMORY_AUTO_EXTRACT'] = 'off';
  // A Codex turn carries its context again (~13 KB of bodies a turn): room for the whole corpus.
  process.env[CAPACITY_ENV] = `${SESSION_BODY_MAX_BYTES}:${4 * 1024 ** 3}`;
  const host = await Host.start({ home, serve: false, leaseWaitMs: 3000 });
  try {
    const app = host.application;
    let start = process.hrtime.bigint();
    const drained = await app.sessionDrain({});
    const drainSeconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (drained.sealedTurns !== TURNS) throw new Error(`the drain sealed ${drained.sealedTurns} of ${TURNS} turns`);

    // The runners thread starts at the first extract: started here on an empty window, as a host
    // that has been running has it, so that the figure is throughput, not a thread's start.
    await app.memoryExtract({ cwd, since: '2000-01-01', until: '2000-01-02' });
    const cut = windows(home);
    const totals = { runs: 0, submitted: 0, created: 0, stored: 0, skipped: 0, merged: 0, stale: 0 };
    start = process.hrtime.bigint();
    for (const window of cut) {
      for (;;) {
        const run = await app.memoryExtract({ cwd, ...window });
        totals.runs += 1;
        if (run.failures.length > 0) throw new Error(`extraction failed: ${run.failures.join('; ')}`);
        totals.submitted += run.tasks.submitted;
        totals.created += run.candidates.created;
        totals.stored += run.candidates.stored;
        totals.skipped += run.candidates.skipped;
        totals.merged += run.candidates.merged;
        totals.stale += run.tasks.stale;
        if (run.tasks.pending === 0) break;
      }
    }
    const extractSeconds = Number(process.hrtime.bigint() - start) / 1e9;
    const state = openDatabase(storeFiles(home).memoryState, { readonly: true });
    const left = state.prepare("SELECT count(*) FROM tasks WHERE status IN ('pending', 'claimed')").pluck().get();
    const chunks = state.prepare('SELECT count(*) FROM chunks').pluck().get();
    state.close();
    if (left !== 0) throw new Error(`${left} tasks were left pending or claimed`);

    const drainRate = TURNS / drainSeconds;
    const extractRate = TURNS / extractSeconds;
    const figures: Figure[] = [
      {
        name: `drain of the corpus (${TURNS} turns in ${Math.ceil(TURNS / SESSION_TURNS)} sessions, ${drainSeconds.toFixed(2)} s)`,
        value: `${drainRate.toFixed(0)} turns/s`,
        target: 'the floor, reported',
        met: null,
      },
      {
        name: `built-in extraction end to end (${cut.length} windows, ${totals.runs} runs, ${chunks} chunks, ${totals.submitted} tasks submitted; ${totals.created} drafts: ${totals.stored} stored, ${totals.skipped} skipped, ${totals.merged} merged, ${totals.stale} stale; ${extractSeconds.toFixed(2)} s)`,
        value: `${extractRate.toFixed(0)} turns/s`,
        floor: `${drainRate.toFixed(0)} turns/s (the drain)`,
        ratio: extractRate / drainRate,
        target: `>= ${TARGET_TURNS_PER_SECOND} turns/s`,
        met: extractRate >= TARGET_TURNS_PER_SECOND,
      },
    ];
    report(figures);
    return { turns: TURNS, drainTurnsPerSecond: drainRate, extractTurnsPerSecond: extractRate };
  } finally {
    await host.stop();
    if (process.env['CM_BENCH_EXTRACT_KEEP']) process.stdout.write(`the stores are kept in ${home}\n`);
    else rmSync(dirname(home), { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runExtractionThroughputBench();
