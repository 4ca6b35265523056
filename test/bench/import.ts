// Import throughput, beside its floor in the same run: `import codex --yes` of ≥ 200 MB of Codex
// rollouts built from the recorded tool turn (CM_BENCH_IMPORT_MB, default 256; CM_BENCH_IMPORT_FILES
// sessions, default 32), in a compiled child process holding the store as the command does without
// a host, timed from the call to its report (the host start and the extraction left out: extraction
// is off). The floor is the drain's own: a raw chunked split + JSON.parse of the same bytes; the
// target is the drain's target. Peak RSS is the whole child's.
//
// Time to the first candidate: the real CLI, `import codex --yes`, of CM_BENCH_IMPORT_SESSIONS
// one-turn rollouts (default 1,000) built from the recorded tool turn, each saying a durable rule,
// extraction on (the built-in runner, as a user has it); timed from the spawn until the data home's
// memory review (read here, as `memory review` reads it) holds a candidate. Its floor: the same
// command on one such session, in the same run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { storeFiles } from '../../source/home.js';
import { AUTO_EXTRACT_ENV } from '../../source/limits.js';
import { memoryReviewAt } from '../../source/pipeline/memory-access.js';
import { tempHome } from '../support/cli.js';
import { bundleTests } from '../../scripts/test-bundle.mjs';
import { buildRollout } from './capture.js';
import { type Figure, median, rawChunkedJsonParse, report, timeMs } from './measure.js';

const RUNS = Number(process.env['CM_BENCH_IMPORT_RUNS'] ?? 1);

function importChild(
  child: string,
  home: string,
  codexSessions: string,
  totalBytes: number,
): { ms: number; turns: number; bytes: number; quarantined: number; rssMb: number } {
  // CM_BENCH_IMPORT_PROF=<dir>: every thread of the child writes a CPU profile under <dir>/<run>.
  const profile = process.env['CM_BENCH_IMPORT_PROF'];
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${join(profile, `import-${Date.now()}`)}`] : [];
  // The child built as the test files are (the transpiled dist/ is not loadable as modules alone:
  // its JSON imports carry no import attribute), its threads the build's, as the CLI's are.
  const result = spawnSync(process.execPath, [...profiling, child, home, codexSessions], {
    env: {
      ...process.env,
      [AUTO_EXTRACT_ENV]: 'off',
      COMMON_MEMORY_CAPACITY_BYTES: `${totalBytes}:${4 * totalBytes}`,
      COMMON_MEMORY_TEST_WORKERS: fileURLToPath(new URL('../../dist/workers', import.meta.url)),
    },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`import child failed: ${result.stderr}`);
  const {
    ms,
    report: r,
    maxRssKb,
  } = JSON.parse(result.stdout) as {
    ms: number;
    report: { turns: number; bytes: number; quarantined: number };
    maxRssKb: number;
  };
  return { ms, turns: r.turns, bytes: r.bytes, quarantined: r.quarantined, rssMb: maxRssKb / 1024 };
}

export async function importThroughput(): Promise<Figure[]> {
  const mb = Number(process.env['CM_BENCH_IMPORT_MB'] ?? 256);
  const files = Number(process.env['CM_BENCH_IMPORT_FILES'] ?? 32);
  const home = tempHome('bench-import');
  const sessions = join(dirname(home), 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(sessions, { recursive: true });
  let turns = 0;
  let size = 0;
  const paths: string[] = [];
  try {
    for (let i = 0; i < files; i++) {
      const id = `01a22e40-36ff-79a2-a0b6-${String(i).padStart(12, '0')}`;
      const path = join(sessions, `rollout-2026-11-30T20-56-${String(i % 60).padStart(2, '0')}-${id}.jsonl`);
      turns += buildRollout(path, mb / files, id).turns;
      size += statSync(path).size;
      paths.push(path);
    }
    const sizeMb = size / 1024 / 1024;
    const built = await bundleTests(['test/bench/import-child.ts']);
    const child = built.modules.get('test/bench/import-child.ts')!;
    const runs: Array<ReturnType<typeof importChild>> = [];
    const raw: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      raw.push(sizeMb / (paths.reduce((ms, path) => ms + timeMs(() => rawChunkedJsonParse(path)), 0) / 1000));
      const runHome = `${home}-${i}`;
      try {
        runs.push(importChild(child, runHome, join(dirname(home), 'codex', 'sessions'), size));
      } finally {
        rmSync(runHome, { recursive: true, force: true });
      }
    }
    built.remove();
    const rates = runs.map((run) => sizeMb / (run.ms / 1000));
    const all = runs.every((run) => run.turns === turns && run.quarantined === 0 && run.bytes === size);
    const rss = Math.max(...runs.map((run) => run.rssMb));
    return [
      {
        name: `import codex --yes of ${sizeMb.toFixed(0)} MB in ${files} rollouts built from the recorded tool turn (median of ${RUNS}: ${rates.map((r) => r.toFixed(0)).join(', ')} MB/s; ${all ? `every run stored ${turns}/${turns} turns` : 'a run did NOT store every turn'}; timed from the call to its report, excluding the host start; extraction off)`,
        value: `${median(rates).toFixed(1)} MB/s`,
        floor: `${median(raw).toFixed(1)} MB/s raw chunked JSON.parse`,
        ratio: median(rates) / median(raw),
        target: "the drain's: >= 100 MB/s and >= 0.5x the floor, every turn stored",
        met: median(rates) >= 100 && median(rates) / median(raw) >= 0.5 && all,
        id: 'import.throughput',
        better: 'higher',
      },
      {
        name: 'import peak RSS (whole child process, the largest of all runs)',
        value: `${rss.toFixed(0)} MB`,
        target: '<= 200 MB',
        met: rss <= 200,
        id: 'import.rss',
      },
    ];
  } finally {
    rmSync(dirname(home), { recursive: true, force: true });
  }
}

const ROLLOUT_B = new URL('../../fixtures/codex/rollouts/b-tool-call-exec-command.jsonl', import.meta.url).pathname;
const CLI = new URL('../../bin/common-memory.cjs', import.meta.url).pathname;

/** Durable rules, one per session (a number makes each its own), in the words a user says them. */
const RULES = [
  (i: number) => `In this repository we always use pnpm, never npm, to install packages for module ${i}.`,
  (i: number) => `Always run the linter before you commit anything in module ${i}.`,
  (i: number) => `Never push directly to the main branch of repository ${i}; open a pull request instead.`,
  (i: number) => `From now on, write every test for package ${i} with node:test, not jest.`,
];

/** `count` one-turn Codex rollouts under `<codex>/sessions/…`, each its own thread saying one rule. */
function ruleRollouts(codex: string, count: number): void {
  const recorded = readFileSync(ROLLOUT_B, 'utf8');
  const thread = (JSON.parse(recorded.split('\n')[0]!) as { payload: { id: string } }).payload.id;
  const day = join(codex, 'sessions', '2026', '11', '30');
  mkdirSync(day, { recursive: true });
  for (let i = 0; i < count; i++) {
    const id = `01a22e40-36ff-79a2-a0b6-${String(i).padStart(12, '0')}`;
    const text = recorded
      .split(thread)
      .join(id)
      .split('TOOL: run echo hi')
      .join(RULES[i % RULES.length]!(i));
    const name = `rollout-2026-11-30T${String(10 + (Math.floor(i / 3600) % 10)).padStart(2, '0')}-${String(Math.floor(i / 60) % 60).padStart(2, '0')}-${String(i % 60).padStart(2, '0')}-${id}.jsonl`;
    writeFileSync(join(day, name), text);
  }
}

/** Spawns `import codex --yes` (the built CLI) and reads the memory review until it holds a candidate. */
async function timeToFirstCandidate(
  root: string,
  sessions: number,
): Promise<{ firstMs: number | null; exitMs: number; code: number | null; candidates: number; stderr: string }> {
  const codex = join(root, `codex-${sessions}`);
  const home = join(root, `home-${sessions}`);
  ruleRollouts(codex, sessions);
  const state = storeFiles(home).memoryState;
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [CLI, 'import', 'codex', '--codex-home', codex, '--home', home, '--yes', '--json'],
    {
      env: { ...process.env, [AUTO_EXTRACT_ENV]: 'on' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  let exited: number | null | undefined;
  let exitMs = 0;
  const done = new Promise<void>((resolve) =>
    child.on('close', (code) => {
      exited = code;
      exitMs = performance.now() - start;
      resolve();
    }),
  );
  const candidates = () => {
    if (!existsSync(state)) return 0;
    try {
      return memoryReviewAt(state, { cwd: tmpdir(), limit: 1 }).total;
    } catch {
      return 0; // being created by the import's first write
    }
  };
  let firstMs: number | null = null;
  while (firstMs === null) {
    if (candidates() > 0) firstMs = performance.now() - start;
    else if (exited !== undefined) break;
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await done;
  return { firstMs, exitMs, code: exited ?? null, candidates: candidates(), stderr };
}

export async function firstCandidateFigures(): Promise<Figure[]> {
  const sessions = Number(process.env['CM_BENCH_IMPORT_SESSIONS'] ?? 1000);
  const root = dirname(tempHome('bench-import-first'));
  try {
    const load = loadavg()[0]!;
    const floor = await timeToFirstCandidate(root, 1);
    const run = await timeToFirstCandidate(root, sessions);
    if (floor.firstMs === null || run.firstMs === null)
      throw new Error(
        `no candidate was drafted (exit ${floor.code} / ${run.code}): ${floor.stderr.slice(-400)} ${run.stderr.slice(-400)}`,
      );
    return [
      {
        name: `time from import codex --yes (the real CLI, extraction on) to the first candidate in memory review, ${sessions} one-turn sessions each saying a durable rule (the command ended at ${(run.exitMs / 1000).toFixed(1)} s with ${run.candidates} candidates; exit ${run.code}; load average ${load.toFixed(1)} at the start)`,
        value: `${(run.firstMs / 1000).toFixed(2)} s`,
        floor: `${(floor.firstMs / 1000).toFixed(2)} s for one such session`,
        ratio: run.firstMs / floor.firstMs,
        target: 'reported; the issue sets no bound',
        met: null,
        id: 'import.first-candidate',
        better: 'lower',
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function runImportBench(): Promise<void> {
  // CM_BENCH_IMPORT_ONLY=first|throughput runs one of the two.
  const only = process.env['CM_BENCH_IMPORT_ONLY'];
  if (only !== 'first') report(await importThroughput());
  if (only !== 'throughput') report(await firstCandidateFigures());
}
