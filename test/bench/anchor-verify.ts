// Verification of 10k entries × 3 anchors (a path, a script or a commit, a symbol in the path's
// file) against a worktree that also holds 20k files no entry names: cold, then again with the
// cache on the unchanged tree (the short circuit), then after one file is deleted. Reports time,
// lstat calls, files read and git processes: the count follows the anchors, never the tree.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type VerifyReport, verifyAnchors } from '../../source/effects/anchor-verify.js';
import { extractAnchors } from '../../source/memory/anchors.js';
import { git } from '../support/anchor-cases.js';
import { type Figure, median, report, timeMs } from './measure.js';

const ENTRIES = 10_000;
const FILES = 2_000;
const UNNAMED = 20_000;

export async function runAnchorVerifyBench(): Promise<Figure[]> {
  const root = mkdtempSync(join(tmpdir(), 'cm-bench-anchor-verify-'));
  try {
    const scripts = Array.from({ length: 50 }, (_, i) => `task:${i}`);
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'bench', scripts: Object.fromEntries(scripts.map((s) => [s, 'true'])) }),
    );
    for (let d = 0; d < 100; d++) mkdirSync(join(root, 'src', `d${d}`), { recursive: true });
    for (let f = 0; f < FILES; f++) {
      writeFileSync(join(root, 'src', `d${f % 100}`, `f${f}.ts`), `export function fn${f}() {}\n`.repeat(20));
    }
    mkdirSync(join(root, 'unnamed'));
    for (let u = 0; u < UNNAMED; u++) {
      if (u % 1000 === 0) mkdirSync(join(root, 'unnamed', `b${u / 1000}`));
      writeFileSync(join(root, 'unnamed', `b${Math.floor(u / 1000)}`, `u${u}.txt`), 'x');
    }
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', 'package.json');
    git(root, 'commit', '-q', '-m', 'base');
    const head = git(root, 'rev-parse', 'HEAD');

    const texts = Array.from({ length: ENTRIES }, (_, i) => {
      const f = i % FILES;
      const second = i % 10 === 0 ? `since commit ${head.slice(0, 9)}` : `run \`npm run ${scripts[i % 50]}\``;
      return { title: `Entry ${i}`, body: `Use \`fn${f}\` in \`src/d${f % 100}/f${f}.ts\`; ${second}.` };
    });
    let entries: Array<{ entryId: string; anchors: ReturnType<typeof extractAnchors> }> = [];
    const extractMs = timeMs(() => {
      entries = texts.map((text, i) => ({ entryId: `e${i}`, anchors: extractAnchors(text) }));
    });
    const anchors = entries.reduce((sum, entry) => sum + entry.anchors.length, 0);

    // Medians of 5: the development machine is shared, and one run is mostly its noise.
    let cold!: VerifyReport;
    const coldMs = median(
      Array.from({ length: 5 }, () =>
        timeMs(() => {
          cold = verifyAnchors(root, entries);
        }),
      ),
    );
    let warm!: VerifyReport;
    const warmMs = median(
      Array.from({ length: 5 }, () =>
        timeMs(() => {
          warm = verifyAnchors(root, entries, cold.cache);
        }),
      ),
    );
    rmSync(join(root, 'src', 'd7', 'f7.ts'));
    let changed!: VerifyReport;
    const changedMs = timeMs(() => {
      changed = verifyAnchors(root, entries, warm.cache);
    });
    const stale = (r: VerifyReport) => [...r.verdicts.values()].filter((v) => v.verdict === 'stale').length;
    const touched = (r: VerifyReport) =>
      `${r.counts.stats} lstat, ${r.counts.reads} reads, ${r.counts.gitProcesses} git, ${r.counts.judged} judged`;
    const figures: Figure[] = [
      {
        name: `extract anchors · ${ENTRIES} entries (${anchors} anchors)`,
        value: `${extractMs.toFixed(0)} ms`,
        target: 'report',
        met: null,
      },
      {
        name: 'verify · cold (median of 5)',
        value: `${coldMs.toFixed(0)} ms (${touched(cold)})`,
        target: 'report',
        met: null,
      },
      {
        name: 'verify · unchanged tree, with cache (median of 5)',
        value: `${warmMs.toFixed(0)} ms (${touched(warm)})`,
        target: '0 reads, 0 git',
        met: warm.counts.reads <= 1 && warm.counts.gitProcesses === 0,
      },
      {
        name: 'verify · one file deleted, with cache',
        value: `${changedMs.toFixed(0)} ms (${touched(changed)}); ${stale(changed)} stale`,
        target: 'only its entries stale',
        met: stale(changed) === ENTRIES / FILES && stale(cold) === 0,
      },
      {
        name: `files touched vs files in tree (${FILES + UNNAMED + 1})`,
        value: `${cold.counts.stats} lstat`,
        target: `< ${FILES + 200}`,
        met: cold.counts.stats < FILES + 200,
      },
    ];
    report(figures);
    return figures;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
