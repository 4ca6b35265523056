// Trains the built-in runner's signal weights (source/memory/builtin-weights.ts): a logistic
// regression over the yes/no signals of builtin-signals.ts, fitted on the train and train-2 splits of the team's
// corpus and the team's earlier labelled utterances, then a threshold chosen on the same data for
// precision first. Offline and deterministic (full-batch gradient descent from zero, fixed steps);
// the dev splits are only reported, the frozen test and holdout splits are never read here.
// `node --import tsx test/bench/extraction-train.ts [--write]`
import { writeFileSync } from 'node:fs';
import { laterClauses, MARKER_AGAINST, signalsOf, turnSentences, viewOf } from '../../source/memory/builtin-rules.js';
import { SIGNAL_NAMES } from '../../source/memory/builtin-signals.js';
import { readMemoryFixture } from '../support/fixture-jsonl.js';
import { readSplit, type LabelledUtterance } from './extraction-quality.js';

interface Example {
  signals: string[];
  label: 0 | 1;
  text: string;
}

const comparable = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Sentence-level examples: a rule's first kept sentence is positive, a negative turn's sentences are negative. */
function examplesOf(rows: ReadonlyArray<Pick<LabelledUtterance, 'text' | 'durable' | 'keep'>>): Example[] {
  const examples: Example[] = [];
  for (const row of rows) {
    const sentences = turnSentences(row.text);
    const keep = row.keep === undefined ? null : comparable(row.keep);
    let positiveTaken = false;
    for (const sentence of sentences) {
      const view = viewOf(sentence);
      const { signals } = signalsOf(view);
      // A sentence that is no draft has its later clauses read too (laterClauses in builtin-rules.ts).
      const clauses = laterClauses(sentence).map((clause) => ({ clause, signals: signalsOf(viewOf(clause)).signals }));
      if (!row.durable) {
        examples.push({ signals, label: 0, text: sentence });
        for (const clause of clauses) examples.push({ signals: clause.signals, label: 0, text: clause.clause });
        continue;
      }
      const inKeep = keep === null || keep.includes(comparable(sentence));
      if (!inKeep) {
        examples.push({ signals, label: 0, text: sentence });
        for (const clause of clauses) {
          const label = !positiveTaken && keep !== null && keep.includes(comparable(clause.clause)) ? 1 : 0;
          examples.push({ signals: clause.signals, label, text: clause.clause });
          if (label === 1) positiveTaken = true;
        }
      } else if (!positiveTaken) {
        // The rule itself; the sentences that qualify it are joined to it, not judged alone.
        examples.push({ signals, label: 1, text: sentence });
        positiveTaken = true;
      }
    }
  }
  return examples;
}

const FEATURES = [...SIGNAL_NAMES, ...extraSignals()];

function extraSignals(): string[] {
  // Marker rules and the one-off veto of the explicit rule table.
  return [
    'from-now-on',
    'from-now-on-trailing',
    'remember-recurring',
    'remember-to',
    'remember-that',
    'convention',
    'always-never',
    'subject-should-always',
    'dont',
    'only-use',
    'prefer',
    'decision',
    'we-use',
    'constraint',
    'correction',
    'x-not-y',
    'artifact-location',
    'we-keep-in-path',
    'use-x-for-kind',
    'recurring-imperative',
  ]
    .map((name) => `marker:${name}`)
    .concat(['one-off', MARKER_AGAINST]);
}

function train(examples: Example[], lambda: number, steps: number): { bias: number; weights: number[] } {
  const index = new Map(FEATURES.map((name, i) => [name, i]));
  const rows = examples.map((example) =>
    example.signals.map((name) => index.get(name)!).filter((i) => i !== undefined),
  );
  const weights = new Array<number>(FEATURES.length).fill(0);
  let bias = 0;
  const rate = 0.5;
  for (let step = 0; step < steps; step += 1) {
    const gradient = new Array<number>(FEATURES.length).fill(0);
    let gradientBias = 0;
    rows.forEach((row, n) => {
      let z = bias;
      for (const i of row) z += weights[i]!;
      const error = 1 / (1 + Math.exp(-z)) - examples[n]!.label;
      gradientBias += error;
      for (const i of row) gradient[i]! += error;
    });
    bias -= (rate * gradientBias) / rows.length;
    for (let i = 0; i < weights.length; i += 1)
      weights[i] = weights[i]! - rate * (gradient[i]! / rows.length + lambda * weights[i]!);
  }
  return { bias, weights };
}

function scoreWith(model: { bias: number; weights: number[] }, signals: string[]): number {
  let z = model.bias;
  for (const name of signals) {
    const i = FEATURES.indexOf(name);
    if (i >= 0) z += model.weights[i]!;
  }
  return z;
}

/** The lowest threshold whose precision on the examples is at least `precision`. */
function chooseThreshold(model: { bias: number; weights: number[] }, examples: Example[], precision: number): number {
  const scored = examples.map((example) => ({ z: scoreWith(model, example.signals), label: example.label }));
  const candidates = [...new Set(scored.map((s) => Math.round(s.z * 1000) / 1000))].sort((a, b) => a - b);
  for (const threshold of candidates) {
    const kept = scored.filter((s) => s.z >= threshold);
    const right = kept.filter((s) => s.label === 1).length;
    if (kept.length > 0 && right / kept.length >= precision) return threshold;
  }
  return candidates[candidates.length - 1] ?? 0;
}

const LAMBDA = Number(process.env['CM_TRAIN_LAMBDA'] ?? 0.001);
const STEPS = Number(process.env['CM_TRAIN_STEPS'] ?? 10000);
const PRECISION = Number(process.env['CM_TRAIN_PRECISION'] ?? 0.93);

const trainRows = [
  ...readSplit('train'),
  ...readSplit('train-2'),
  ...readMemoryFixture<{ text: string; durable: boolean }>('extraction-utterances.jsonl'),
];
const examples = examplesOf(trainRows);
const model = train(examples, LAMBDA, STEPS);
const threshold = chooseThreshold(model, examples, PRECISION);
const round = (value: number) => Math.round(value * 1000) / 1000;
const weights = Object.fromEntries(
  FEATURES.map((name, i) => [name, round(model.weights[i]!)] as const).filter(([, weight]) => weight !== 0),
);
process.stdout.write(
  `trained on ${examples.length} sentences (${examples.filter((e) => e.label === 1).length} rules); threshold ${round(threshold)}\n`,
);
for (const [name, weight] of Object.entries(weights).sort((a, b) => b[1] - a[1]))
  process.stdout.write(`  ${weight.toFixed(3).padStart(7)}  ${name}\n`);
if (process.argv.includes('--write')) {
  const body = Object.entries(weights)
    .map(([name, weight]) => `    '${name}': ${weight},`)
    .join('\n');
  writeFileSync(
    new URL('../../source/memory/builtin-weights.ts', import.meta.url),
    `// biome-ignore-all lint/suspicious/noApproximativeNumericConstant: trained weights, not constants\n` +
      `// Generated by test/bench/extraction-train.ts (lambda ${LAMBDA}, ${STEPS} steps, precision ${PRECISION} on\n` +
      `// its training sentences) from the train and train-2 splits of test/corpus/extraction and the team's labelled\n` +
      `// utterances; do not edit by hand. A sentence is a draft when bias + the weights of its signals\n` +
      `// reach the threshold.\n` +
      `export const SIGNAL_WEIGHTS: { bias: number; threshold: number; weights: Record<string, number> } = {\n` +
      `  bias: ${round(model.bias)},\n  threshold: ${round(threshold)},\n  weights: {\n${body}\n  },\n};\n`,
  );
}
