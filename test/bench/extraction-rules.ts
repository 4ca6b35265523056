// The built-in extraction rules on labelled utterances: precision and recall of "this is a durable
// statement", on the set used to refine the rules and on a holdout written after them.
// `node --import tsx test/bench/extraction-rules.ts`
import { draftCandidates } from '../../source/memory/builtin-rules.js';
import { readMemoryFixture } from '../support/fixture-jsonl.js';

export interface ExtractionScore {
  utterances: number;
  precision: number;
  recall: number;
  missed: string[];
  wronglyKept: string[];
}

/** `extraction-utterances.jsonl` was used to refine the rules; `extraction-holdout.jsonl` was written after them, and never tuned on. */
export function scoreExtraction(name = 'extraction-holdout.jsonl'): ExtractionScore {
  const rows = readMemoryFixture<{ text: string; durable: boolean }>(name);
  const missed: string[] = [];
  const wronglyKept: string[] = [];
  let truePositive = 0;
  for (const { text, durable } of rows) {
    const kept = draftCandidates([{ evidenceId: 'e', text }]).length > 0;
    if (kept && durable) truePositive += 1;
    if (!kept && durable) missed.push(text);
    if (kept && !durable) wronglyKept.push(text);
  }
  return {
    utterances: rows.length,
    precision: truePositive / (truePositive + wronglyKept.length),
    recall: truePositive / (truePositive + missed.length),
    missed,
    wronglyKept,
  };
}

export async function runExtractionBench(): Promise<ExtractionScore> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  let holdout: ExtractionScore | null = null;
  for (const name of ['extraction-utterances.jsonl', 'extraction-holdout.jsonl']) {
    const score = scoreExtraction(name);
    holdout = score;
    out(
      `${name}: ${score.utterances} utterances; precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)}`,
    );
    for (const text of score.missed) out(`  missed: ${JSON.stringify(text)}`);
    for (const text of score.wronglyKept) out(`  wrongly kept: ${JSON.stringify(text)}`);
  }
  return holdout!;
}

if (import.meta.url === `file://${process.argv[1]}`) await runExtractionBench();
