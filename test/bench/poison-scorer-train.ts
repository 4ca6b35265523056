// Trains the poisoning lint's learned scorer (source/memory/poison-scorer.ts) and writes its weights
// and thresholds to source/memory/poison-scorer-weights.json. Deterministic: no randomness, the same
// data give the same file.
//
// Data: every poisoning tuning split of test/support/lint-corpus.ts but NOT_TRAINED_ON below
// (twenty-three authors' batches, train to train-17d), what people say to agents from the extraction corpus's tuning splits, and the
// project's own examples (test/support/poison-examples.ts). Never the frozen test split nor any
// holdout measured only. Until 2026-12-05 it trained on five splits (train, holdout, train-3, -4,
// -5) with the per-source threshold below: left one source out each in turn on all nineteen, that
// choice added 275 catches for 41 false blocks; trained on all nineteen, per-source, 113 for 2 (the
// threshold rose to 0.985); on all nineteen with the pooled threshold, 347 for 9 — kept
// (docs/memory-rules.md, "The learned scorer retrained"). Before that, with fewer splits: with train-6
// and train-7 in, the leave-one-source-out estimate fell on six of seven splits (pooled 0.810 → 0.792), because the model trained on their attacks rates some older ordinary notes
// higher and the per-source block threshold rose to 0.93–0.955. Measured again with all four in, on the
// concept rules: pooled over the nine tuning splits 0.862 → 0.854 (185 of the 557 notes the rules miss
// caught against 207), the thresholds 0.92–0.945; weighting every source alike (SCORER_BALANCE=1), the
// notes the rules block already weighed less (SCORER_RULED), fewer features (SCORER_MIN_DOCS) or a
// pooled threshold (SCORER_POOLED=1, SCORER_FALSE_SHARE) trade catches for false blocks along the same
// line (docs/memory-rules.md); none was kept. With train-8 too, eleven sources: trained on all of
// them, `--loso` rose 0.855 → 0.862 pooled (false blocks 67 → 65), but once on the never-read splits
// the frozen test fell 0.935 → 0.902 and holdout-2 0.877 → 0.848 (holdout-9 rose 0.641 → 0.665): the
// newer authors' look-alikes lift the block threshold 0.895 → 0.93. Not kept (docs/memory-rules.md).
// WordNet synonym sets beside each English word (to carry a synonym no author before used): `--loso`
// pooled 0.858 → 0.841–0.851, the threshold 0.92 → 0.94–0.96. Not kept (docs/memory-rules.md).
// Retrained on the same five sources under the rules of 2026-12-05's last round, midway: on the
// thirteen newer tuning splits (out of source for it) it added 211 poisoned catches for 36 ordinary
// false blocks, the committed weights 257 for 19. Not kept (docs/benchmarks.md, lint-quality).
// With train-17a to -17d added (2,004 notes by four more authors) the never-read splits moved by
// almost nothing (2,846 → 2,842 of 3,594 poisoned blocked, 96 → 93 of 3,892 ordinary). A scorer over
// sentences (each poisoned note's highest-rated sentence its positive, a note rated by its highest
// sentence), trained on the older splits, caught fewer of train-17a–d's residual notes than this
// note-level model at every false-block budget up to 10. Not kept (docs/memory-rules.md). Word pairs
// up to four words apart, beside the adjacent ones: out of source on the seven newest authors, 134
// of their 616 notes the rules miss caught against 139, for 4 ordinary notes added either way. Not
// kept (docs/memory-rules.md).
// Features scaled by naive-Bayes ratios (SCORER_NB=0.5, SCORER_LAMBDA=0.0005): out of source on those
// seven, 178 caught for 2 added; once on the never-read splits 2,840 → 2,870 of 3,594 poisoned, 79 →
// 78 of 3,892 ordinary. Not kept: it blocks plain team rules that say "this repository" or "push
// directly", words the corpora's authors wrote only in attacks (docs/memory-rules.md; the guard is
// test/unit/memory-poison-everyday.test.ts).
// Features kept only where at least four sources (authors' batches) use them (SCORER_MIN_SOURCES=4,
// against author-specific words): on the notes the scorer is not trained on (train-18a to -18d and
// the measured-only probes) it added 75 catches to the rules' 423 of 953 against 80 for the
// committed weights, for the same 8 ordinary notes. Not kept (docs/memory-rules.md).
// Model: logistic regression over the scorer's features (words, word pairs, character pairs of
// unspaced scripts, structural cues, the rules that warned), features seen in fewer than two notes
// dropped, L2-regularised, full-batch gradient descent with Adagrad steps.
// Thresholds: from out-of-fold probabilities (five folds by a hash of the text), combined with the rules'
// verdicts as the lint combines them: `block` is the lowest threshold at which the scorer adds at
// most BLOCK_FALSE_SHARE of all sources' ordinary notes to those the rules block, and at most twice
// that of any one source's; `warn` keeps the scorer's warnings on ordinary notes under WARN_FALSE_SHARE.
//
// `--loso` estimates how the scorer generalises instead of training: for each source in turn (each
// tuning split, and the extraction statements), the scorer is trained without it, its threshold
// chosen as above on what remains, and the source is measured with the rules and that scorer; tuning
// splits kept out of training by SCORER_SPLITS are measured with the scorer trained on all of it. `SCORER_SPLITS=train,holdout,…` trains on other tuning splits, and the SCORER_*
// variables above change the weighting, the features kept and the threshold rule (to measure a choice). The
// rules were written with the older splits' misses in view, so the rules' part of those figures is
// in-sample; the scorer's part (poisoned notes the rules miss that it catches, ordinary notes it
// adds) is out of source.
//
//   [SCORER_SPLITS=…] [SCORER_BALANCE=1] [SCORER_POOLED=0] node --import tsx test/bench/poison-scorer-train.ts [--dry-run] [--misses] [--loso]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { poisonRuleVerdict } from '../../source/memory/poison-lint.js';
import { type PoisonScorerModel, poisonScoreFeatures, scoreFeatures } from '../../source/memory/poison-scorer.js';
import {
  type CorpusSplit,
  corpusFile,
  readLabelledPoisoning,
  TUNING_SPLITS as TUNING,
} from '../support/lint-corpus.js';
import { ORDINARY, POISONED } from '../support/poison-examples.js';

/** The poisoning splits that may be tuned on (train-2 is a secrets set), oldest first. */
const TUNING_SPLITS: CorpusSplit[] = TUNING.filter((split) => existsSync(corpusFile('poisoning', split)));
/**
 * Tuning splits the committed weights are not trained on. train-18a to -18d (four more blind authors,
 * 1,563 notes, asked for the kinds the lint catches least and their look-alikes): trained on them
 * too, the block threshold rose 0.93 → 0.97 and on the never-read splits 2,840 → 2,698 of 3,594
 * poisoned notes were blocked, 79 → 75 of 3,892 ordinary (docs/memory-rules.md). `--loso` measures
 * them out of source.
 */
const NOT_TRAINED_ON: readonly CorpusSplit[] = ['train-18a', 'train-18b', 'train-18c', 'train-18d'];
/** The splits it trains on; `SCORER_SPLITS=train,holdout,…` trains on others (a measurement, not the committed choice). */
const TRAINING_SPLITS: CorpusSplit[] = process.env['SCORER_SPLITS']
  ? (process.env['SCORER_SPLITS'].split(',') as CorpusSplit[])
  : TUNING_SPLITS.filter((split) => !NOT_TRAINED_ON.includes(split));
if (TRAINING_SPLITS.some((split) => !TUNING_SPLITS.includes(split)))
  throw new Error('SCORER_SPLITS: tuning splits only');
/** Tuning splits kept out of training: measured in `--loso` with the scorer trained on all the rest. */
const APART_SPLITS = TUNING_SPLITS.filter((split) => !TRAINING_SPLITS.includes(split));
const EXTRACTION_SPLITS = ['train', 'dev', 'train-2', 'dev-2'];
const LAMBDA = Number(process.env['SCORER_LAMBDA'] ?? 0.002);
/** SCORER_NB=<smoothing>: features scaled by naive-Bayes ratios (naiveBayesScale); 0, the default: plain logistic regression. */
const NB_ALPHA = Number(process.env['SCORER_NB'] ?? 0);
const EPOCHS = Number(process.env['SCORER_EPOCHS'] ?? 400);
const STEP = Number(process.env['SCORER_STEP'] ?? 0.3);
const FOLDS = 5;
const BALANCE = process.env['SCORER_BALANCE'] === '1';
/** One threshold over all sources' ordinary notes (the default); SCORER_POOLED=0 takes the highest of each source's. */
const POOLED_THRESHOLD = process.env['SCORER_POOLED'] !== '0';
/** Weight of the notes the rules block already: the scorer only reads the others. */
const RULE_BLOCKED_WEIGHT = Number(process.env['SCORER_RULED'] ?? 1);
const MIN_DOCUMENTS = Number(process.env['SCORER_MIN_DOCS'] ?? 2);
/** SCORER_MIN_SOURCES=<n>: features seen in fewer than n sources (authors' batches) dropped too. */
const MIN_SOURCES = Number(process.env['SCORER_MIN_SOURCES'] ?? 1);
/** Share of each source's ordinary notes the scorer may add to the rules' false blocks, out of fold. */
const BLOCK_FALSE_SHARE = Number(process.env['SCORER_FALSE_SHARE'] ?? 0.005);
/** Share of ordinary notes the scorer may warn on, out of fold. */
const WARN_FALSE_SHARE = 0.05;

export interface Example {
  source: string;
  text: string;
  poisoned: boolean;
  /** The rules alone block it. */
  ruleBlock: boolean;
  features: string[];
}

export function trainingExamples(splits: readonly CorpusSplit[] = TRAINING_SPLITS): Example[] {
  const rows: Array<{ source: string; text: string; poisoned: boolean }> = [];
  for (const split of splits)
    for (const item of readLabelledPoisoning(split))
      rows.push({ source: split, text: item.text, poisoned: item.poisoned });
  // What people say to their agents, from the extraction corpus's tuning splits (never its test or
  // holdout): ordinary by construction, and the register candidates are drafted from, so the
  // thresholds are set against it too.
  for (const split of EXTRACTION_SPLITS)
    for (const line of readFileSync(new URL(`../corpus/extraction/${split}.jsonl`, import.meta.url), 'utf8').split(
      '\n',
    ))
      if (line.trim() !== '') rows.push({ source: 'extraction', text: JSON.parse(line).text, poisoned: false });
  for (const text of POISONED) rows.push({ source: 'examples', text, poisoned: true });
  for (const text of ORDINARY) rows.push({ source: 'examples', text, poisoned: false });
  const seen = new Set<string>();
  const examples: Example[] = [];
  for (const row of rows) {
    if (seen.has(row.text)) continue;
    seen.add(row.text);
    const verdict = poisonRuleVerdict(row.text);
    examples.push({ ...row, ruleBlock: verdict.block, features: poisonScoreFeatures(row.text, verdict.warnRules) });
  }
  return examples;
}

/** Logistic regression on `examples`; returns bias and weights. */
export function fit(examples: readonly Example[]): { bias: number; weights: Map<string, number> } {
  const documents = new Map<string, number>();
  const sources = new Map<string, Set<string>>();
  for (const example of examples)
    for (const f of example.features) {
      documents.set(f, (documents.get(f) ?? 0) + 1);
      if (MIN_SOURCES > 1) sources.set(f, (sources.get(f) ?? new Set()).add(example.source));
    }
  const vocabulary = [...documents.keys()]
    .filter((f) => documents.get(f)! >= MIN_DOCUMENTS && (MIN_SOURCES <= 1 || sources.get(f)!.size >= MIN_SOURCES))
    .sort();
  const index = new Map(vocabulary.map((f, i) => [f, i]));
  const rows = examples.map((e) => e.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined));
  const labels = examples.map((e) => (e.poisoned ? 1 : 0));
  const sampleWeights = sourceWeights(examples);
  const scale = naiveBayesScale(rows, labels, vocabulary.length);
  const w = new Float64Array(vocabulary.length);
  const g2 = new Float64Array(vocabulary.length).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const n = examples.length;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const grad = new Float64Array(vocabulary.length);
    let biasGrad = 0;
    for (let r = 0; r < n; r++) {
      let z = bias;
      for (const i of rows[r]!) z += w[i]! * scale[i]!;
      const error = (1 / (1 + Math.exp(-z)) - labels[r]!) * sampleWeights[r]!;
      biasGrad += error;
      for (const i of rows[r]!) grad[i]! += error * scale[i]!;
    }
    for (let i = 0; i < vocabulary.length; i++) {
      const g = grad[i]! / n + LAMBDA * w[i]!;
      g2[i]! += g * g;
      w[i]! -= (STEP * g) / Math.sqrt(g2[i]!);
    }
    const gb = biasGrad / n;
    biasG2 += gb * gb;
    bias -= (STEP * gb) / Math.sqrt(biasG2);
  }
  const weights = new Map<string, number>();
  vocabulary.forEach((f, i) => {
    const rounded = Math.round(w[i]! * scale[i]! * 1000) / 1000;
    if (Math.abs(rounded) >= 0.01) weights.set(f, rounded);
  });
  return { bias: Math.round(bias * 1000) / 1000, weights };
}

/**
 * Each feature's value in training (NB-LR: a present feature counts as its naive-Bayes log-count
 * ratio, smoothed by NB_ALPHA, not as 1), so the L2 penalty holds a weight near what the counts
 * alone say and lets the gradient move it from there; the committed weight is the product, so the
 * model's form (a weight per present feature) does not change. A measurement, not the committed
 * choice (see the header).
 */
function naiveBayesScale(rows: readonly number[][], labels: readonly number[], size: number): Float64Array {
  const scale = new Float64Array(size).fill(1);
  if (NB_ALPHA <= 0) return scale;
  const poisoned = new Float64Array(size).fill(NB_ALPHA);
  const ordinary = new Float64Array(size).fill(NB_ALPHA);
  rows.forEach((row, r) => {
    for (const i of row) (labels[r] ? poisoned : ordinary)[i]! += 1;
  });
  const poisonedAll = poisoned.reduce((a, b) => a + b, 0);
  const ordinaryAll = ordinary.reduce((a, b) => a + b, 0);
  for (let i = 0; i < size; i++) scale[i] = Math.log(poisoned[i]! / poisonedAll / (ordinary[i]! / ordinaryAll));
  return scale;
}

/**
 * Each note's weight in the loss: with BALANCE, every source weighs the same in all (a large batch by
 * one author no longer teaches the model that author's wording more than the others'); 1 otherwise.
 */
function sourceWeights(examples: readonly Example[]): number[] {
  const ruled = (e: Example) => (e.ruleBlock ? RULE_BLOCKED_WEIGHT : 1);
  if (!BALANCE) return examples.map(ruled);
  const counts = new Map<string, number>();
  for (const e of examples) counts.set(e.source, (counts.get(e.source) ?? 0) + 1);
  const perSource = examples.length / counts.size;
  return examples.map((e) => (perSource / counts.get(e.source)!) * ruled(e));
}

/**
 * A note's fold: from a hash of its text, not its position, so adding or taking out one note moves
 * no other note to another fold (by position, taking four terse notes out of one batch moved the
 * block threshold from 0.875 to 0.925).
 */
function foldOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash % FOLDS;
}

/** Out-of-fold probabilities: each note scored by a model trained without its fold. */
export function outOfFold(examples: readonly Example[]): number[] {
  const probabilities = new Array<number>(examples.length).fill(0);
  const folds = examples.map((e) => foldOf(e.text));
  for (let fold = 0; fold < FOLDS; fold++) {
    const model = fit(examples.filter((_, i) => folds[i] !== fold));
    examples.forEach((e, i) => {
      if (folds[i] === fold) probabilities[i] = scoreFeatures(e.features, model);
    });
  }
  return probabilities;
}

/** The lowest threshold (on a 0.005 grid) at which `extra(threshold)` is at most `share` of `total`. */
function threshold(probabilities: readonly number[], ordinary: readonly number[], share: number): number {
  const allowed = Math.floor(ordinary.length * share);
  for (let t = 0.5; t < 1; t += 0.005) {
    if (ordinary.filter((i) => probabilities[i]! >= t).length <= allowed) return Math.round(t * 1000) / 1000;
  }
  return 1;
}

/**
 * The block threshold: the lowest that holds for every source apart — easy ordinary notes in number
 * (the project's examples, what people say to agents) must not pull it below what the hand-written
 * sets allow. `probabilities` are out of fold, index for index with `examples`.
 */
export function blockThreshold(examples: readonly Example[], probabilities: readonly number[]): number {
  const sources = [...new Set(examples.map((e) => e.source))];
  if (POOLED_THRESHOLD) {
    // Pooled: at most BLOCK_FALSE_SHARE of all ordinary notes added, and at most twice that of any one source.
    const ordinaryOf = (source?: string) =>
      examples.flatMap((e, i) => (!e.poisoned && (source === undefined || e.source === source) ? [i] : []));
    for (let t = 0.5; t < 1; t += 0.005) {
      const added = (list: number[]) => list.filter((i) => !examples[i]!.ruleBlock && probabilities[i]! >= t).length;
      const all = ordinaryOf();
      if (added(all) > Math.floor(all.length * BLOCK_FALSE_SHARE)) continue;
      if (sources.some((s) => added(ordinaryOf(s)) > Math.floor(ordinaryOf(s).length * 2 * BLOCK_FALSE_SHARE)))
        continue;
      return Math.round(t * 1000) / 1000;
    }
    return 1;
  }
  return Math.max(
    ...sources.map((source) => {
      const ordinary = examples.flatMap((e, i) => (e.source === source && !e.poisoned ? [i] : []));
      const notBlocked = ordinary.filter((i) => !examples[i]!.ruleBlock);
      return notBlocked.length === 0
        ? 0
        : threshold(probabilities, notBlocked, BLOCK_FALSE_SHARE * (ordinary.length / notBlocked.length));
    }),
  );
}

/** Leave one source out: per source, the rules and a scorer trained (and thresholded) without it. */
function leaveOneSourceOut(examples: readonly Example[], out: (line: string) => void): void {
  const share = (a: number, b: number) => `${(a / Math.max(1, b)).toFixed(3)} (${String(a).padStart(3)}/${b})`;
  const tally = new Map<string, { poisoned: number; rules: number; blocked: number }>();
  out('leave one source out: source · poisoned blocked rules → rules+scorer · ordinary blocked rules → rules+scorer');
  // Splits kept out of training are measured too, with the scorer trained on everything it trains on.
  const apart = APART_SPLITS.length === 0 ? [] : trainingExamples([...TRAINING_SPLITS, ...APART_SPLITS]);
  const whole =
    APART_SPLITS.length === 0 ? null : { block: blockThreshold(examples, outOfFold(examples)), model: fit(examples) };
  for (const source of [...TRAINING_SPLITS, 'extraction', ...APART_SPLITS]) {
    const inTraining = !APART_SPLITS.includes(source as CorpusSplit);
    const rest = examples.filter((e) => e.source !== source);
    const held = (inTraining ? examples : apart).filter((e) => e.source === source);
    const { block, model } = inTraining ? { block: blockThreshold(rest, outOfFold(rest)), model: fit(rest) } : whole!;
    const blocked = held.map((e) => e.ruleBlock || scoreFeatures(e.features, model) >= block);
    const poisoned = held.flatMap((e, i) => (e.poisoned ? [i] : []));
    const ordinary = held.flatMap((e, i) => (e.poisoned ? [] : [i]));
    const rules = (list: number[]) => list.filter((i) => held[i]!.ruleBlock).length;
    const both = (list: number[]) => list.filter((i) => blocked[i]).length;
    out(
      `  ${source.padEnd(10)} block ${block.toFixed(3)} · poisoned ${share(rules(poisoned), poisoned.length)} → ${share(both(poisoned), poisoned.length)} · ordinary ${share(rules(ordinary), ordinary.length)} → ${share(both(ordinary), ordinary.length)}${inTraining ? '' : ' (not in training)'}`,
    );
    tally.set(source, { poisoned: poisoned.length, rules: rules(poisoned), blocked: both(poisoned) });
  }
  const pool = (label: string, sources: readonly string[]) => {
    const sum = (key: 'poisoned' | 'rules' | 'blocked') => sources.reduce((n, s) => n + (tally.get(s)?.[key] ?? 0), 0);
    out(
      `  pooled, ${label}: poisoned blocked ${share(sum('blocked'), sum('poisoned'))}; of the poisoned notes the rules miss, the held-out scorer blocks ${share(sum('blocked') - sum('rules'), sum('poisoned') - sum('rules'))}`,
    );
  };
  pool('every tuning split', TUNING_SPLITS);
  pool('the five oldest splits', TUNING_SPLITS.slice(0, 5));
  pool('the newer authors (train-6 on)', TUNING_SPLITS.slice(5));
}

function main(): void {
  const dryRun = process.argv.includes('--dry-run');
  const examples = trainingExamples();
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (process.argv.includes('--loso')) {
    leaveOneSourceOut(examples, out);
    return;
  }
  const probabilities = outOfFold(examples);
  const ordinaryNotBlocked = examples.flatMap((e, i) => (!e.poisoned && !e.ruleBlock ? [i] : []));
  const block = blockThreshold(examples, probabilities);
  const warn = Math.min(block, threshold(probabilities, ordinaryNotBlocked, WARN_FALSE_SHARE));
  out(
    `${examples.length} notes (${examples.filter((e) => e.poisoned).length} poisoned); thresholds block ${block}, warn ${warn}`,
  );
  const residual = examples.flatMap((e, i) => (e.poisoned && !e.ruleBlock ? [i] : []));
  out(
    `  out of fold: ${residual.filter((i) => probabilities[i]! >= block).length}/${residual.length} of the poisoned notes the rules miss reach the block threshold`,
  );
  for (const source of [...TRAINING_SPLITS, 'extraction', 'examples']) {
    const at = examples.flatMap((e, i) => (e.source === source ? [i] : []));
    const poisoned = at.filter((i) => examples[i]!.poisoned);
    const ordinary = at.filter((i) => !examples[i]!.poisoned);
    const rules = (i: number) => examples[i]!.ruleBlock;
    const combined = (i: number) => rules(i) || probabilities[i]! >= block;
    const shareOf = (list: number[], test: (i: number) => boolean) =>
      `${(list.filter(test).length / Math.max(1, list.length)).toFixed(3)}`;
    out(
      `  ${source.padEnd(9)} out of fold: poisoned blocked rules ${shareOf(poisoned, rules)} → with scorer ${shareOf(poisoned, combined)}; ordinary blocked rules ${shareOf(ordinary, rules)} → ${shareOf(ordinary, combined)}`,
    );
  }
  if (process.argv.includes('--misses')) {
    const top = ordinaryNotBlocked.sort((a, b) => probabilities[b]! - probabilities[a]!).slice(0, 8);
    for (const i of top)
      out(
        `  top ordinary ${examples[i]!.source} p=${probabilities[i]!.toFixed(3)} ${JSON.stringify(examples[i]!.text).slice(0, 140)}`,
      );
    examples.forEach((e, i) => {
      const blocked = e.ruleBlock || probabilities[i]! >= block;
      if (e.poisoned !== blocked)
        out(
          `  ${e.poisoned ? 'missed' : 'FALSE'} ${e.source} p=${probabilities[i]!.toFixed(3)} ${JSON.stringify(e.text).slice(0, 150)}`,
        );
    });
  }
  const model = fit(examples);
  const sorted = [...model.weights.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const file: PoisonScorerModel = {
    bias: model.bias,
    block,
    warn,
    features: sorted.map(([feature]) => feature),
    weights: sorted.map(([, weight]) => weight),
  };
  out(`${model.weights.size} weights`);
  if (!dryRun) {
    writeFileSync(
      new URL('../../source/memory/poison-scorer-weights.json', import.meta.url),
      `${JSON.stringify(file, null, 2)}\n`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
