// Dedup quality of the built-in adjudicator on the labelled pairs in fixtures/memory/dedup-pairs.jsonl:
// each pair is an existing statement and a new draft, labelled duplicate (expect skip, merge or
// update) or distinct (expect store). A duplicate found is any decision other than store.
// `node --import tsx test/bench/dedup.ts` prints precision and recall; the test asserts floors.
import { decideDraft, type Decision } from '../../source/memory/adjudication-rules.js';
import { readMemoryFixture } from '../support/fixture-jsonl.js';

export interface DedupPair {
  existing: string;
  draft: string;
  label: 'duplicate' | 'distinct';
  expect: Decision;
}

export interface DedupScore {
  pairs: number;
  duplicates: number;
  distinct: number;
  precision: number;
  recall: number;
  /** Duplicates given the expected one of skip / merge / update. */
  exactAction: number;
  misses: { pair: DedupPair; decision: Decision }[];
}

/** `dedup-pairs.jsonl` was written with the rules; `dedup-pairs-holdout.jsonl` after them, and never tuned on. */
export function readDedupPairs(name = 'dedup-pairs.jsonl'): DedupPair[] {
  return readMemoryFixture<DedupPair>(name);
}

export function scoreDedup(pairs: readonly DedupPair[]): DedupScore {
  let truePositive = 0;
  let falsePositive = 0;
  let falseNegative = 0;
  let exactAction = 0;
  const misses: DedupScore['misses'] = [];
  for (const pair of pairs) {
    const { decision } = decideDraft({ content: pair.draft }, [
      { id: 'existing', sourceKind: 'candidate', content: pair.existing, revision: 1 },
    ]);
    const found = decision !== 'store';
    if (pair.label === 'duplicate') {
      if (found) truePositive += 1;
      else falseNegative += 1;
      if (decision === pair.expect) exactAction += 1;
    } else if (found) falsePositive += 1;
    if (decision !== pair.expect) misses.push({ pair, decision });
  }
  return {
    pairs: pairs.length,
    duplicates: pairs.filter((pair) => pair.label === 'duplicate').length,
    distinct: pairs.filter((pair) => pair.label === 'distinct').length,
    precision: truePositive / (truePositive + falsePositive),
    recall: truePositive / (truePositive + falseNegative),
    exactAction,
    misses,
  };
}

export async function runDedupBench(): Promise<DedupScore> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  let main: DedupScore | null = null;
  for (const name of ['dedup-pairs.jsonl', 'dedup-pairs-holdout.jsonl']) {
    const score = scoreDedup(readDedupPairs(name));
    main ??= score;
    out(`${name}: ${score.pairs} pairs (${score.duplicates} duplicate, ${score.distinct} distinct)`);
    out(
      `  skip/merge/update against store: precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)}`,
    );
    out(`  duplicates given the expected action: ${score.exactAction}/${score.duplicates}`);
    for (const { pair, decision } of score.misses)
      out(`    ${decision} (expected ${pair.expect}): ${pair.existing} | ${pair.draft}`);
  }
  return main!;
}

if (import.meta.url === `file://${process.argv[1]}`) await runDedupBench();
