// Promotion and approved-projection figures:
//  1. applying a plan of 50 new entries, the file side alone (re-read each target, compare its blob
//     OID, no-follow temp file + fsync + rename, one fsync per directory at the end), and `promote`
//     itself (the journal's transactions on a real memory-state, the files, the closing transaction
//     and the sync of the root), each against the floor of writing the same bytes with a temp file
//     + fsync + rename, in the same run;
//  2. scanning 10k entry files (safe reads, parse, re-stat, tree digest) against reading and
//     hashing the same files, as memory sync reads a root whose bytes the projection holds (each
//     file linted once, when its bytes were first read: that first scan is its own figure); and
//     the unchanged-tree short circuit, absolute;
//  3. `get <entry-id>` as a whole process (the shipped bin, no host: a read-only connection), median.
import {
  closeSync,
  constants,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sha256Hex } from '../../source/ground/digests.js';
import { MEMORY_SCAN_RACY_MS } from '../../source/limits.js';
import { scanApprovedRoot } from '../../source/effects/approved-projection.js';
import { memoryRootOf } from '../../source/effects/memory-root.js';
import { blockedFileProblem } from '../../source/memory/file-lint.js';
import { type FollowResult, followApproved } from '../../source/store/memory/approved-follow.js';
import { ENTRY_TYPES, formatEntry } from '../../source/memory/entry-format.js';
import {
  applyPlanFile,
  applySession,
  driftedTargets,
  syncPlanDirectories,
} from '../../source/effects/promotion-apply.js';
import { buildPromotionPlan, type CandidateForPromotion, type PlanInput } from '../../source/memory/promotion-plan.js';
import { memoryRoot } from '../../source/effects/safe-files.js';
import { median, type Figure, report, timeMs, timeMsAsync } from './measure.js';
import { promotePlan } from '../../source/pipeline/promotion.js';
import { approvedPlanInProcess } from '../support/in-process-gate.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROUNDS = 5;
const BENCH_OWNER = { scope: 'project' as const, repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };
const ROOT_PATH = '.common-memory/memory';

function candidates(count: number): CandidateForPromotion[] {
  return Array.from({ length: count }, (_, i) => ({
    candidateId: `c-bench-${i}`,
    revision: 1,
    type: ENTRY_TYPES[i % ENTRY_TYPES.length]!,
    title: `Convention number ${i}: run the formatter before committing`,
    content: `Convention number ${i}.\n\nRun \`npm run format\` before each commit; CI rejects unformatted files.\n`,
    appliesWhen: 'committing changes',
    priority: i % 101,
    confidence: 'high',
    evidenceSummary: '1 statement from 1 user turn',
    supersedes: [],
    updatesEntryId: null,
  }));
}

/** The floor: each file through a temporary file, fsync, rename — nothing checked, no directory fsync. */
function writeFloor(dir: string, files: Array<{ path: string; content: Uint8Array }>): void {
  for (const file of files) {
    const target = join(dir, file.path);
    mkdirSync(join(target, '..'), { recursive: true });
    const temporary = `${target}.tmp`;
    const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    let written = 0;
    while (written < file.content.length) written += writeSync(fd, file.content, written);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, target);
  }
}

function applyFigures(base: string): Figure[] {
  const input: PlanInput = {
    planId: 'bench',
    scope: 'project',
    ownerKey: 'bench',
    anchor: join(base, 'anchor'),
    candidates: candidates(50),
    currentFiles: [],
    now: '2026-03-01T00:00:00.000Z',
  };
  const result = buildPromotionPlan(input);
  if (!result.ok) throw new Error(result.refusal.message);
  const { plan } = result;
  const build = median(Array.from({ length: ROUNDS }, () => timeMs(() => buildPromotionPlan(input))));
  const apply: number[] = [];
  const floor: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither always gets the warmer disk cache.
    const runApply = () => {
      const anchor = join(base, `apply-${round}`);
      mkdirSync(anchor);
      const root = memoryRoot(anchor, ROOT_PATH);
      apply.push(
        timeMs(() => {
          // As promote applies a plan: one session, so each directory is checked and flushed once.
          const session = applySession();
          if (driftedTargets(root, plan, session).length > 0) throw new Error('drift in a fresh root');
          for (const file of plan.files) applyPlanFile(root, 'project', file, {}, session);
          syncPlanDirectories(root, plan, session);
        }),
      );
    };
    const runFloor = () => {
      const dir = join(base, `floor-${round}`);
      floor.push(timeMs(() => writeFloor(dir, plan.files)));
    };
    if (round % 2 === 0) {
      runApply();
      runFloor();
    } else {
      runFloor();
      runApply();
    }
  }
  const ratio = median(apply) / median(floor);
  return [
    {
      name: 'build a plan of 50 new entries (pure: format, lint, diff, digest)',
      value: `${build.toFixed(1)} ms`,
      target: 'reported',
      met: true,
    },
    {
      name: `apply a plan of 50 new entries (median of ${ROUNDS})`,
      value: `${median(apply).toFixed(1)} ms`,
      floor: `${median(floor).toFixed(1)} ms temp file + fsync + rename`,
      ratio,
      target: 'ratio <= 2',
      met: ratio <= 2,
    },
  ];
}

/** Wall time and this process's CPU time (user + system) of a run, in ms. */
function timeWithCpu(run: () => void): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const wall = timeMs(run);
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

async function scanFigures(base: string): Promise<Figure[]> {
  const anchor = join(base, 'scan');
  const rootDir = join(anchor, ROOT_PATH);
  const count = 10_000;
  for (const type of ENTRY_TYPES) mkdirSync(join(rootDir, type), { recursive: true });
  for (let i = 0; i < count; i++) {
    const type = ENTRY_TYPES[i % ENTRY_TYPES.length]!;
    const text = formatEntry({
      id: `m-bench-${i}`,
      type,
      title: `Entry ${i} about the build`,
      appliesWhen: 'building the project',
      priority: i % 101,
      confidence: 'medium',
      evidence: { summary: '2 statements from 2 user turns', candidateId: `c-${i}` },
      created: '2026-01-01T00:00:00Z',
      supersedes: [],
      extra: [],
      body: `Entry ${i}.\n\nThe build uses esbuild for the CLI bundle and tsc for types.\nRun npm run build.\n`,
    });
    writeFloor(rootDir, [{ path: `${type}/entry-${i}.md`, content: new TextEncoder().encode(text) }]);
  }
  // Let the files age past the racy window, so the short circuit can trust their stamps.
  await sleep(MEMORY_SCAN_RACY_MS + 200);
  const root = memoryRoot(anchor, ROOT_PATH);
  const scans: number[] = [];
  const floors: number[] = [];
  const scanCpu: number[] = [];
  const floorCpu: number[] = [];
  let last: ReturnType<typeof scanApprovedRoot> | undefined;
  const first = timeWithCpu(() => {
    last = scanApprovedRoot(root, 'project');
  });
  // The same files followed into a memory-state not made yet (a fresh clone's first session start or
  // read, approved-follow.ts): one linted scan and the store; the first scan above is its floor.
  const stateHome = join(base, 'state-home');
  mkdirSync(stateHome);
  let followed: FollowResult | undefined;
  const follow = timeWithCpu(() => {
    followed = followApproved(
      join(stateHome, 'memory-state.sqlite'),
      [{ owner: BENCH_OWNER, root: () => memoryRootOf('project', anchor) }],
      { lintFile: blockedFileProblem, budgetMs: 600_000 },
    );
  });
  if (followed!.partial.length > 0 || followed!.stored[0] !== 'project')
    throw new Error(`follow: ${JSON.stringify(followed)}`);
  const known = new Map(last!.files.map((file) => [file.path, file.contentDigest]));
  const linted = (path: string, digest: string) => known.get(path) === digest;
  const scanOnce = () =>
    timeWithCpu(() => {
      last = scanApprovedRoot(root, 'project', { linted });
    });
  const floorOnce = () =>
    timeWithCpu(() => {
      const digests: string[] = [];
      for (const type of ENTRY_TYPES) {
        for (const name of readdirSync(join(rootDir, type)).sort())
          digests.push(sha256Hex(readFileSync(join(rootDir, type, name))));
      }
      if (digests.length !== count) throw new Error('floor read the wrong number of files');
    });
  // Two warm-up rounds (page cache, JIT) are not counted; then alternate which goes first.
  for (let round = -2; round < ROUNDS; round++) {
    let scan: { wall: number; cpu: number };
    let floor: { wall: number; cpu: number };
    if (round % 2 === 0) {
      scan = scanOnce();
      floor = floorOnce();
    } else {
      floor = floorOnce();
      scan = scanOnce();
    }
    if (round < 0) continue;
    scans.push(scan.wall);
    floors.push(floor.wall);
    scanCpu.push(scan.cpu);
    floorCpu.push(floor.cpu);
  }
  if (last!.coverage !== 'complete' || last!.entries.length !== count)
    throw new Error(`scan: ${last!.coverage}, ${last!.entries.length} entries`);
  const unchanged: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    unchanged.push(
      timeMs(() => {
        if (!scanApprovedRoot(root, 'project', { previous: last! }).unchanged)
          throw new Error('the unchanged tree was not recognised');
      }),
    );
  }
  const ratio = median(scans) / median(floors);
  return [
    {
      name: 'first scan of 10k entry files, each linted (secrets, poisoning) as its bytes are first read',
      value: `${first.wall.toFixed(0)} ms, ${(first.cpu / count).toFixed(2)} ms CPU per file`,
      floor: `${median(floors).toFixed(0)} ms read + sha256 of the same files`,
      ratio: first.wall / median(floors),
      target: 'reported',
      met: true,
    },
    {
      name: 'first follow of the same 10k entry files into a new memory-state (scan, lint, store)',
      value: `${follow.wall.toFixed(0)} ms, ${(follow.cpu / count).toFixed(2)} ms CPU per file`,
      floor: `${first.wall.toFixed(0)} ms their first scan`,
      ratio: follow.wall / first.wall,
      target: 'ratio <= 1.5 (each file read and linted once)',
      met: follow.wall / first.wall <= 1.5,
    },
    {
      name: `scan 10k entry files (median of ${ROUNDS})`,
      value: `${median(scans).toFixed(0)} ms`,
      floor: `${median(floors).toFixed(0)} ms read + sha256 of the same files`,
      ratio,
      target: 'ratio <= 3',
      met: ratio <= 3,
    },
    {
      name: 'scan 10k entry files, CPU time of this process (user + system: less sensitive to a busy machine)',
      value: `${median(scanCpu).toFixed(0)} ms`,
      floor: `${median(floorCpu).toFixed(0)} ms`,
      ratio: median(scanCpu) / median(floorCpu),
      target: 'reported',
      met: true,
    },
    {
      name: 'scan 10k entry files, unchanged tree (short circuit)',
      value: `${median(unchanged).toFixed(0)} ms`,
      target: 'reported',
      met: true,
    },
  ];
}

/** A memory-state with 50 draft candidates and their plan, approved (test/support/in-process-gate.ts). */
const approvedPlan = (dir: string) => approvedPlanInProcess(dir, candidates(50), 'plan-bench');

async function promoteFigures(base: string): Promise<Figure[]> {
  const promote: number[] = [];
  const floor: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { deps, close } = approvedPlan(join(base, `promote-${round}`));
    const files = buildPromotionPlan({
      planId: 'floor',
      scope: 'project',
      ownerKey: 'floor',
      anchor: join(base, 'anchor'),
      candidates: candidates(50),
      currentFiles: [],
      now: '2026-03-01T00:00:00.000Z',
    });
    if (!files.ok) throw new Error(files.refusal.message);
    const runPromote = async () => {
      promote.push(
        await timeMsAsync(async () => {
          const result = await promotePlan(deps, 'plan-bench');
          if (result.status !== 'applied' || result.sync?.entries !== 50) throw new Error(`promote: ${result.status}`);
        }),
      );
    };
    const runFloor = () => floor.push(timeMs(() => writeFloor(join(base, `promote-floor-${round}`), files.plan.files)));
    if (round % 2 === 0) {
      await runPromote();
      runFloor();
    } else {
      runFloor();
      await runPromote();
    }
    close();
  }
  const ratio = median(promote) / median(floor);
  return [
    {
      name: `promote a plan of 50 new entries: journal, files, closing transaction, sync (median of ${ROUNDS})`,
      value: `${median(promote).toFixed(1)} ms`,
      floor: `${median(floor).toFixed(1)} ms temp file + fsync + rename`,
      ratio,
      target: 'ratio <= 2',
      met: ratio <= 2,
    },
  ];
}

const BIN = fileURLToPath(new URL('../../bin/common-memory.cjs', import.meta.url));

/** `get <id>` as a person runs it: the shipped bin, no host, one approved entry among 1,000. */
export function getFigures(base: string): Figure[] {
  const home = join(base, 'get-home');
  const user = join(home, 'memory', 'work_fact');
  mkdirSync(user, { recursive: true });
  for (let i = 0; i < 1000; i++) {
    const text = formatEntry({
      id: `m-get-${i}`,
      type: 'work_fact',
      title: `Fact ${i}`,
      appliesWhen: null,
      priority: 50,
      confidence: 'high',
      evidence: null,
      created: null,
      supersedes: [],
      extra: [],
      body: `Fact number ${i}.\n`,
    });
    writeFloor(join(home, 'memory'), [{ path: `work_fact/fact-${i}.md`, content: new TextEncoder().encode(text) }]);
  }
  const cli = (...args: string[]) => {
    const result = spawnSync(process.execPath, [BIN, ...args, '--home', home, '--json'], {
      cwd: base,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  cli('note', 'bench');
  cli('memory', 'sync');
  const times: number[] = [];
  const bare: number[] = [];
  for (let round = -1; round < 9; round++) {
    let start = process.hrtime.bigint();
    const out = cli('get', 'm-get-500');
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (!out.includes('Fact number 500')) throw new Error('get did not answer the entry');
    start = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    const floor = Number(process.hrtime.bigint() - start) / 1e6;
    if (round >= 0) {
      times.push(elapsed);
      bare.push(floor);
    }
  }
  return [
    {
      name: 'get <entry-id>, whole process (shipped bin, no host, 1,000 approved entries; median of 9)',
      value: `${median(times).toFixed(0)} ms`,
      floor: `${median(bare).toFixed(0)} ms bare node -e 0`,
      ratio: median(times) / median(bare),
      target: 'reported',
      met: null,
      id: 'cli.read',
      better: 'lower',
    },
  ];
}

export async function runPromotionBench(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'cm-bench-promotion-'));
  try {
    report(applyFigures(base));
    report(await promoteFigures(base));
    report(getFigures(base));
    report(await scanFigures(base));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
