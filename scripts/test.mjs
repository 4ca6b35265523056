// `npm test`: the default suite, tier by tier (test/unit, test/store, test/cli, test/e2e), each tier
// one run of node:test with the concurrency its shared state allows, reported as ONE run: one TAP
// stream on stdout ending in one `# tests / # pass / # fail` summary, and one per-file time table
// on stderr (scripts/test-durations.mjs). Run as `node --import tsx scripts/test.mjs [tier|file…]`
// (the runner's children inherit `--import tsx`).
//
// Every test file runs in its own process (node:test's isolation), so process.env, process.chdir
// and module state never leak between files; a tier's concurrency is bounded only by what files
// share outside the process. The audit behind each number is in its `why`.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import fileDurations from './test-durations.mjs';

// Measured on two cores, whole runs: one file at a time, 28.5 min (store 254 s, cli 660 s, e2e 611 s);
// store 4, cli 3 and e2e 3, 20-21 min (store 232-263 s, cli 419-468 s, e2e 491-503 s) but with 3-6
// files timing out beside each other. Most of these tiers' time is waiting (child processes, hosts,
// fake servers, deliberate lock waits), which overlaps; CPU-heavy files side by side slow each other.
// Two at a time (three for cli, whose files mostly wait on short child processes) is the setting
// measured in docs/development.md. Each file keeps to its own temp dirs and ports.
const TIERS = [
  {
    dir: 'test/unit',
    concurrency: 4,
    why: 'pure and in-process: no files outside a test-made temp dir, no ports, no children',
  },
  {
    dir: 'test/store',
    concurrency: 2,
    why: 'databases, files and git only under mkdtemp dirs of their own',
  },
  {
    dir: 'test/cli',
    concurrency: 3,
    why: 'each spawn gets its own temp home and --home or COMMON_MEMORY_HOME',
  },
  {
    dir: 'test/e2e',
    concurrency: 2,
    why: 'hosts and fake model servers on port 0, pi and PTYs in temp dirs',
  },
];

/**
 * Files that must run alone say so, and why, in a comment line of their own: `// serial: <why>`
 * (e.g. they assert a wall-clock budget, which other files running beside them would eat). They run
 * after every tier, one at a time.
 */
const SERIAL = /^\/\/ serial: \S/m;
const SERIAL_RUN = { dir: 'test', concurrency: 1, why: 'files marked `// serial:`' };

/** Files still at test/ root (added before they were sorted into a tier): run, one at a time, and named. */
const UNSORTED = { dir: 'test', concurrency: 1, why: 'not yet sorted into a tier, so not audited: one at a time' };

const isTest = (name) => name.endsWith('.test.ts') || name.endsWith('.test.tsx');

/** A tier's test files, largest first: the long files start early and do not run alone at the end. */
function testFiles(dir, recursive) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && recursive) found.push(...testFiles(path, true));
    else if (entry.isFile() && isTest(entry.name)) found.push(path);
  }
  return found;
}
const bySizeDescending = (files) =>
  files
    .map((file) => ({ file, size: statSync(file).size }))
    .sort((a, b) => b.size - a.size || (a.file < b.file ? -1 : 1))
    .map((f) => f.file);

function plan(args) {
  const serial = [];
  const tiers = TIERS.map((tier) => {
    const files = bySizeDescending(testFiles(tier.dir, true));
    serial.push(...files.filter((file) => SERIAL.test(readFileSync(file, 'utf8'))));
    return { ...tier, files: files.filter((file) => !serial.includes(file)) };
  });
  if (serial.length > 0) tiers.push({ ...SERIAL_RUN, name: 'serial', files: serial });
  const unsorted = testFiles(UNSORTED.dir, false).sort();
  if (unsorted.length > 0) {
    process.stderr.write(
      `# ${unsorted.length} test file(s) at test/ root, run one at a time until moved into a tier folder: ${unsorted.join(' ')}\n`,
    );
    tiers.push({ ...UNSORTED, name: 'root', files: unsorted });
  }
  if (args.length === 0) return tiers;
  // `npm test -- unit cli` runs those tiers (their serial files included); `npm test -- test/cli/hook.test.ts` one file.
  const chosen = [];
  for (const tier of tiers) {
    const name = tier.name ?? relative('test', tier.dir);
    const inChosenTier = (file) => args.includes(name) || args.includes(relative('test', file).split('/')[0]);
    const files = tier.files.filter((file) => inChosenTier(file) || args.includes(file));
    if (files.length > 0) chosen.push({ ...tier, files });
  }
  return chosen;
}

// Hosts started in-process from source would start their worker threads under tsx, compiling each
// worker's module graph again (about 5 s of CPU a host, ~100 hosts a run): point them at the build
// `npm test` has just made instead (source/workers/start-worker.ts). A file run alone with
// `node --import tsx --test` still starts workers from source.
const builtWorkers = join(import.meta.dirname, '..', 'dist', 'workers');
if (existsSync(builtWorkers)) process.env.COMMON_MEMORY_TEST_WORKERS ??= builtWorkers;

// Each test file's process measures its own wall and CPU time and leaves them here at exit
// (scripts/test-cost.cjs, preloaded through the execArgv the runner gives its children).
const costDir = mkdtempSync(join(tmpdir(), 'common-memory-test-costs-'));
process.env.COMMON_MEMORY_TEST_COSTS = costDir;
process.execArgv.push('--require', join(import.meta.dirname, 'test-cost.cjs'));
function readCosts() {
  const costs = new Map();
  for (const name of readdirSync(costDir)) {
    try {
      const entry = JSON.parse(readFileSync(join(costDir, name), 'utf8'));
      costs.set(entry.file, entry);
    } catch {
      // A file cut short by a kill mid-write: its row falls back to the runner's view.
    }
  }
  return costs;
}
const tierCpu = (files) => {
  const costs = readCosts();
  return files.reduce((sum, file) => sum + (costs.get(join(process.cwd(), file))?.cpuMs ?? 0), 0) / 1000;
};

const SUMMARY = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/;

/**
 * The tiers' runs as one event stream: each run's own plan and summary (they count one tier) are
 * held back, top-level tests are numbered on from the previous tier, and one plan and one summary
 * for all close the stream.
 */
async function* tiers(list, totals) {
  const started = performance.now();
  let offset = 0;
  for (const tier of list) {
    const tierStart = performance.now();
    let count = 0;
    const name = tier.name ?? tier.dir;
    process.stderr.write(`# ${name}: ${tier.files.length} files, concurrency ${tier.concurrency} (${tier.why})\n`);
    for await (const event of run({ files: tier.files, concurrency: tier.concurrency })) {
      const { type, data } = event;
      if (data.nesting === 0 && data.file === undefined) {
        if (type === 'test:plan') continue;
        const summary = type === 'test:diagnostic' ? SUMMARY.exec(data.message) : null;
        if (summary) {
          if (summary[1] !== 'duration_ms') totals[summary[1]] += Number(summary[2]);
          continue;
        }
      }
      if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0) {
        count = Math.max(count, data.testNumber);
        yield { type, data: { ...data, testNumber: offset + data.testNumber } };
        continue;
      }
      yield event;
    }
    offset += count;
    const wall = ((performance.now() - tierStart) / 1000).toFixed(0);
    process.stderr.write(`# ${name}: ${wall} s wall, ${tierCpu(tier.files).toFixed(0)} s CPU over its files\n`);
  }
  yield { type: 'test:plan', data: { nesting: 0, count: offset } };
  totals.duration_ms = performance.now() - started;
  for (const [name, value] of Object.entries(totals))
    yield { type: 'test:diagnostic', data: { nesting: 0, message: `${name} ${value}` } };
}

const totals = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
const events = Readable.from(tiers(plan(process.argv.slice(2)), totals));
const toTap = events.pipe(new PassThrough({ objectMode: true }));
const toDurations = events.pipe(new PassThrough({ objectMode: true }));
await Promise.all([
  pipeline(toTap, tap, process.stdout, { end: false }),
  pipeline(toDurations, fileDurations(readCosts), process.stderr, { end: false }),
]);
rmSync(costDir, { recursive: true, force: true });
process.exitCode = totals.fail > 0 || totals.cancelled > 0 || totals.tests === 0 ? 1 : 0;
