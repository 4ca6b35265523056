// `npm test`: the default suite, sorted into tiers by what a test needs (test/unit, test/store,
// test/cli, test/e2e), the four tiers' files in one pool (each tier with the concurrency its files
// allow beside each other, CM_TEST_CONCURRENCY files at once in all, longest first), then the files
// marked serial one at a time; reported as ONE run: one TAP stream on stdout ending in one
// `# tests / # pass / # fail` summary, and one per-file wall and CPU table on stderr
// (scripts/test-durations.mjs). Run as `node scripts/test.mjs [tier|file…] [--record]`; `--record`
// writes the run's per-file figures to scripts/test-costs.json, the order of the next runs.
//
// Every test file runs in its own process (node:test's isolation), so process.env, process.chdir
// and module state never leak between files; a tier's concurrency is bounded only by what files
// share outside the process. The audit behind each number is in its `why`. Each file runs as the
// module scripts/test-bundle.mjs builds from it just before, without tsx (about 1.8 s of CPU less a
// process that loads the host); a file run alone with `node --import tsx --test <file>` runs the same.
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import { staleBuild } from './build-stamp.mjs';
import { bundleTests } from './test-bundle.mjs';
import fileDurations from './test-durations.mjs';

// A tier's concurrency is how many of its files may run beside each other; all tiers share one pool
// (CONCURRENCY below). Most cli and e2e time is waiting (child processes, hosts, fake servers,
// deliberate lock waits), which overlaps; CPU-heavy files side by side slow each other, and past
// these settings (store 4, cli 3, e2e 3 measured) 3-6 files ran out of their time budgets. The
// whole runs behind these numbers are in docs/development.md. Each file keeps to its own temp dirs
// and ports.
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
    return { ...tier, pooled: true, files: files.filter((file) => !serial.includes(file)) };
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
// worker's module graph again (about 1 s of CPU a local host, 5 s a serving one; hundreds of hosts
// a run): point them at the build `npm test` has just made instead (source/workers/start-worker.ts),
// as plain node threads. Only when dist/ is the build of the sources as they are now (its stamp,
// scripts/build-stamp.mjs): a run started without `pretest` after an edit
// (`node scripts/test.mjs`) must not test the threads of an older tree, so it starts
// them from source and says so. A file run alone with `node --import tsx --test` starts workers
// from source too.
const builtWorkers = join(import.meta.dirname, '..', 'dist', 'workers');
const stale = staleBuild();
if (stale === null) process.env.COMMON_MEMORY_TEST_WORKERS ??= builtWorkers;
else process.stderr.write(`# worker threads start from source/ (slower): ${stale}; npm test builds first\n`);

// Every temp dir a run makes (test files, their children, hosts) is made under one of the run's own,
// removed at the end: most tests leave theirs to the system, thousands a run (`tempHome`), and a
// machine that runs the suite all day filled its /tmp with them. It is open to all as /tmp is (a
// test runs a child as an unprivileged user), and its name is short: screens at 60 columns show
// temp paths, and their tests were written for paths right under /tmp.
const runTemp = mkdtempSync(join(tmpdir(), 'cm-'));
chmodSync(runTemp, 0o1777);
process.env.TMPDIR = runTemp;

// Each test file's process measures its own wall and CPU time and leaves them here at exit
// (scripts/test-cost.cjs, preloaded through the execArgv the runner gives its children).
const costDir = mkdtempSync(join(tmpdir(), 'common-memory-test-costs-'));
process.env.COMMON_MEMORY_TEST_COSTS = costDir;
process.execArgv.push('--require', join(import.meta.dirname, 'test-cost.cjs'));
// The test processes run built modules: a runner started the older way (`node --import tsx
// scripts/test.mjs`) does not pass tsx's loader on to them. Their stack traces name the sources.
process.execArgv = process.execArgv.filter(
  (arg, i, all) =>
    arg !== '--import=tsx' &&
    !(arg === '--import' && all[i + 1] === 'tsx') &&
    !(arg === 'tsx' && all[i - 1] === '--import'),
);
process.execArgv.push('--enable-source-maps');

function readCosts() {
  const costs = new Map();
  for (const name of readdirSync(costDir)) {
    try {
      const entry = JSON.parse(readFileSync(join(costDir, name), 'utf8'));
      // Its process ran the file's built module: the figures are the test file's.
      entry.file = sourceOf.get(entry.file) ?? entry.file;
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
 * The files of the tiers in one pool: at most `CONCURRENCY` files at once, and at most its tier's
 * `concurrency` of each tier, taken longest first (the last recorded wall time, scripts/test-costs.json;
 * a file not recorded yet is taken as the longest). The tiers have no state in common (each file
 * keeps to its own temp dirs, port-0 servers and children), so a tier that mostly waits (cli, e2e:
 * child processes, hosts, fake servers) runs beside one that mostly computes (unit, store) instead
 * of after it. Files marked serial, then files at test/ root, run after the pool, one at a time.
 */
const COSTS_FILE = join(import.meta.dirname, 'test-costs.json');
const CONCURRENCY = Number(process.env.CM_TEST_CONCURRENCY ?? 4);
/**
 * The machine is shared (other builds and suites): past 2 files at once, a file starts only while
 * the one-minute load average is under 3 per core (CM_TEST_LOAD_CAP). The suite's own 4 files load a
 * quiet machine to about that; on a machine already loaded by others, 4 files at once stretched
 * every file's wall time until files with a time budget (60 s suites) ran out of it. The pool looks
 * again every 5 s, so it fills up once the load falls.
 */
const FLOOR = 2;
const LOAD_CAP = Number(process.env.CM_TEST_LOAD_CAP ?? availableParallelism() * 3);
const LOOK_AGAIN_MS = 5000;
const recorded = existsSync(COSTS_FILE) ? JSON.parse(readFileSync(COSTS_FILE, 'utf8')) : {};
const expected = (file) => recorded[file]?.wall ?? Number.POSITIVE_INFINITY;

/** One file's run, its events held until it ends so that each file's output stays together. */
async function runFile(file) {
  const events = [];
  const bundle = built.modules.get(file);
  for await (const event of run({ files: [bundle], concurrency: 1 })) {
    if (event.data?.file === bundle) event.data.file = join(process.cwd(), file);
    events.push(event);
  }
  return events;
}

/** Runs `stage` (tiers whose files share the pool), yielding each file's events as the file ends. */
async function* pool(stage, limit) {
  const queue = stage
    .flatMap((tier) => tier.files.map((file) => ({ file, tier })))
    .sort((a, b) => expected(b.file) - expected(a.file)); // stable: unrecorded files stay largest first
  const running = new Map();
  const perTier = new Map();
  const spans = new Map();
  const startNext = () => {
    const admits = () => running.size < limit && (running.size < FLOOR || loadavg()[0] < LOAD_CAP);
    for (let i = 0; i < queue.length && admits(); ) {
      const { file, tier } = queue[i];
      if ((perTier.get(tier) ?? 0) >= tier.concurrency) {
        i++;
        continue;
      }
      queue.splice(i, 1);
      perTier.set(tier, (perTier.get(tier) ?? 0) + 1);
      const span = spans.get(tier) ?? { start: performance.now(), end: 0, left: tier.files.length };
      spans.set(tier, span);
      const done = runFile(file).then((events) => ({ file, tier, events }));
      running.set(file, done);
    }
  };
  startNext();
  while (running.size > 0) {
    let timer;
    const lookAgain = new Promise((resolve) => (timer = setTimeout(() => resolve(null), LOOK_AGAIN_MS)));
    const ended = await Promise.race([...running.values(), lookAgain]);
    clearTimeout(timer);
    if (ended === null) {
      startNext();
      continue;
    }
    const { file, tier, events } = ended;
    running.delete(file);
    perTier.set(tier, perTier.get(tier) - 1);
    startNext();
    yield* events;
    const span = spans.get(tier);
    span.end = performance.now();
    if (--span.left === 0) {
      const wall = ((span.end - span.start) / 1000).toFixed(0);
      process.stderr.write(
        `# ${tier.name ?? tier.dir}: ${wall} s from its first file's start to its last's end, ${tierCpu(tier.files).toFixed(0)} s CPU over its files\n`,
      );
    }
  }
}

/**
 * The runs as one event stream: each file run's own plan and summary (they count one file) are
 * held back, top-level tests are numbered on across files, and one plan and one summary for all
 * close the stream.
 */
async function* tiers(list, totals) {
  const started = performance.now();
  let offset = 0;
  const pooled = list.filter((tier) => tier.pooled);
  const stages = [...(pooled.length > 0 ? [{ tiers: pooled, limit: CONCURRENCY }] : [])];
  for (const tier of list.filter((t) => !t.pooled)) stages.push({ tiers: [tier], limit: tier.concurrency });
  for (const tier of list)
    process.stderr.write(
      `# ${tier.name ?? tier.dir}: ${tier.files.length} files, ${tier.concurrency} at a time${tier.pooled ? ` (${CONCURRENCY} files at a time in all)` : ''} (${tier.why})\n`,
    );
  for (const stage of stages) {
    let count = 0;
    for await (const event of pool(stage.tiers, stage.limit)) {
      const { type, data } = event;
      if (data.nesting === 0 && data.file === undefined) {
        if (type === 'test:plan') continue;
        const summary = type === 'test:diagnostic' ? SUMMARY.exec(data.message) : null;
        if (summary) {
          if (summary[1] !== 'duration_ms') totals[summary[1]] += Number(summary[2]);
          // A file's summary closes its events: number the next file's tests on from it.
          if (summary[1] === 'duration_ms') {
            offset += count;
            count = 0;
          }
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
  }
  yield { type: 'test:plan', data: { nesting: 0, count: offset } };
  totals.duration_ms = performance.now() - started;
  for (const [name, value] of Object.entries(totals))
    yield { type: 'test:diagnostic', data: { nesting: 0, message: `${name} ${value}` } };
}

const totals = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
const args = process.argv.slice(2);
const record = args.includes('--record');
const chosen = plan(args.filter((arg) => arg !== '--record'));
const bundling = performance.now();
/** Each test file's built module (scripts/test-bundle.mjs), and back: figures and events name the test file. */
const built = await bundleTests(chosen.flatMap((tier) => tier.files));
const sourceOf = new Map([...built.modules].map(([file, module]) => [module, join(process.cwd(), file)]));
process.stderr.write(
  `# ${built.modules.size} test files built in ${((performance.now() - bundling) / 1000).toFixed(1)} s\n`,
);
const events = Readable.from(tiers(chosen, totals));
const toTap = events.pipe(new PassThrough({ objectMode: true }));
const toDurations = events.pipe(new PassThrough({ objectMode: true }));
await Promise.all([
  pipeline(toTap, tap, process.stdout, { end: false }),
  pipeline(toDurations, fileDurations(readCosts), process.stderr, { end: false }),
]);
if (record) {
  // `npm test -- --record`: this run's figures become the order of the next runs (longest first).
  const figures = { ...recorded };
  for (const [file, cost] of readCosts())
    figures[relative(process.cwd(), file)] = {
      wall: Math.round(cost.wallMs / 100) / 10,
      cpu: Math.round(cost.cpuMs / 100) / 10,
    };
  const sorted = Object.fromEntries(Object.entries(figures).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(COSTS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
}
built.remove();
try {
  rmSync(runTemp, { recursive: true, force: true });
} catch (error) {
  process.stderr.write(`# the run's temp dir ${runTemp} is left: ${error.message}\n`);
}
process.exitCode = totals.fail > 0 || totals.cancelled > 0 || totals.tests === 0 ? 1 : 0;
