// Staleness quality on the labelled set (test/corpus/anchors/; the test split written first and
// frozen): each case is built as a real git repository, its entry's anchors extracted and verified
// against the changed worktree; an entry judged stale is a positive.
// `npm run bench -- anchor-quality [--split train|test] [--misses]`. Misses are listed for train only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyAnchors } from '../../source/effects/anchor-verify.js';
import { extractAnchors } from '../../source/memory/anchors.js';
import { buildCase, readAnchorCases } from '../support/anchor-cases.js';
import { type Figure, report } from './measure.js';

export interface StalenessScore {
  cases: number;
  stale: number;
  truePositives: number;
  falsePositives: number;
  recall: number;
  precision: number;
  misses: string[];
}

export function scoreSplit(split: 'test' | 'train'): StalenessScore {
  const cases = readAnchorCases(split);
  const base = mkdtempSync(join(tmpdir(), `cm-anchor-quality-${split}-`));
  let truePositives = 0;
  let falsePositives = 0;
  const misses: string[] = [];
  try {
    cases.forEach((testCase, index) => {
      const root = join(base, String(index));
      const entry = buildCase(root, testCase, 29_000 + index);
      const anchors = extractAnchors(entry, { worktreeRoot: root });
      const verdict = verifyAnchors(root, [{ entryId: testCase.id, anchors }]).verdicts.get(testCase.id)!;
      const judgedStale = verdict.verdict === 'stale';
      if (judgedStale && testCase.stale) truePositives++;
      if (judgedStale && !testCase.stale) falsePositives++;
      if (judgedStale !== testCase.stale) {
        misses.push(
          `${testCase.id}: labelled ${testCase.stale ? 'stale' : 'not stale'}, judged ${JSON.stringify(verdict)} · anchors ${JSON.stringify(anchors)}`,
        );
      }
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const stale = cases.filter((c) => c.stale).length;
  return {
    cases: cases.length,
    stale,
    truePositives,
    falsePositives,
    recall: truePositives / stale,
    precision: truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives),
    misses,
  };
}

export async function runAnchorQualityBench(argv: string[] = process.argv.slice(2)): Promise<Figure[]> {
  const at = argv.indexOf('--split');
  const wanted = at >= 0 ? argv[at + 1] : undefined;
  if (wanted !== undefined && wanted !== 'test' && wanted !== 'train') throw new Error('--split must be train or test');
  const splits: Array<'test' | 'train'> = wanted ? [wanted] : ['train', 'test'];
  const figures: Figure[] = [];
  for (const split of splits) {
    const score = scoreSplit(split);
    process.stdout.write(
      `${split}: ${score.cases} cases, ${score.stale} stale; ${score.truePositives} found, ${score.falsePositives} false\n`,
    );
    figures.push(
      { name: `stale recall · ${split}`, value: score.recall.toFixed(3), target: '≥ 0.95', met: score.recall >= 0.95 },
      {
        name: `stale precision · ${split}`,
        value: score.precision.toFixed(3),
        target: '≥ 0.98',
        met: score.precision >= 0.98,
      },
    );
    if (argv.includes('--misses')) {
      if (split === 'train') for (const miss of score.misses) process.stdout.write(`  ${miss}\n`);
      else process.stdout.write('  (misses are not listed for the test split: tune on train)\n');
    }
  }
  report(figures);
  return figures;
}
