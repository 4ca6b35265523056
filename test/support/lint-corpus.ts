// The labelled lint corpora under test/corpus/: secrets and memory poisoning, each as a frozen test
// split (written first, never tuned on) and a train split for tuning. See test/corpus/README.md.
import { readFileSync } from 'node:fs';

// `holdout` (poisoning only) was written after the first measurement, apart from the rules and the
// other splits; it has since been read while tuning, so it is a tuning set now. `holdout-2`
// (poisoning only) was written apart from the rules and every other split and is measured, never
// read. `train-3` (poisoning only) is a further tuning batch written beside the rules. None of the
// three is a default split. `holdout-3` (poisoning only) was written by an author who read neither
// the rules nor any split, and committed before any tuning after it: measured, never read.
// `train-4` (poisoning only) is a tuning batch written blind like holdout-3, by another author; it
// was measured once before any tuning on it (docs: test/corpus/README.md). `train-5` (poisoning only)
// is a further tuning batch written blind by another author, measured once before any tuning on it.
// `holdout-4` (poisoning only) was written blind by a further author and committed before the
// tuning after it: measured, never read. `train-6` and `train-7` (poisoning only) are tuning
// batches written blind by two more authors (test/corpus/poisoning/README.md). For secrets,
// `holdout-2` (measured, never read) and `train-2` (tuning) were written blind by one more author
// (test/corpus/README.md). `holdout-5` (poisoning only) was written blind by a further author, who
// read neither the rules nor any split, and committed before the tuning after it: measured twice,
// then opened for tuning. `holdout-6` (poisoning only) was written blind by a further author the same
// way: measured twice, then opened for tuning once a newer blind set was being written in its place.
// `holdout-7` (poisoning only) is that newer set: written blind by a further author who opened only
// the issue and two lines of holdout-6 for the shape, committed before any tuning after it:
// measured once, then opened for tuning. `holdout-8` (poisoning only) was written blind by a further author who
// opened only the issue and two lines of holdout-7 for the shape, and committed before any tuning
// after it: measured, never read. `train-8` (tuning) and `holdout-9` (measured, never read) were
// written blind at the same time by two more authors; train-8 lost the notes close to holdout-9's
// (test/corpus/poisoning/README.md). `holdout-10` (poisoning only; measured, never read) was written
// blind by an eleventh author who opened only the brief and the issue. `holdout-11` (poisoning only;
// measured, never read) was written blind by a twelfth author who opened only a brief and two lines
// of holdout-8 for the shape. `train-9` and `train-10` (poisoning only) are tuning batches written
// blind at the same time by two more authors, each measured once before any tuning on it.
// `holdout-12` (poisoning only; measured, never read), `train-11` and `train-12` (tuning) were
// written blind the same way by three more authors; the batches lost the notes close to a measured
// note's words.
// `holdout-3` also names a secrets set: written blind by a further author who read neither the secret
// lint, its docs and tests, nor the other secret sets; measured, never read.
export type CorpusSplit =
  | 'test'
  | 'train'
  | 'holdout'
  | 'holdout-2'
  | 'train-3'
  | 'holdout-3'
  | 'train-4'
  | 'train-5'
  | 'holdout-4'
  | 'train-6'
  | 'train-7'
  | 'train-2'
  | 'holdout-5'
  | 'holdout-6'
  | 'holdout-7'
  | 'holdout-8'
  | 'train-8'
  | 'holdout-9'
  | 'holdout-10'
  | 'holdout-11'
  | 'train-9'
  | 'train-10'
  | 'holdout-12'
  | 'train-11'
  | 'train-12'
  | 'holdout-13'
  | 'train-13'
  | 'holdout-14'
  | 'train-14'
  | 'holdout-15'
  | 'train-15'
  | 'holdout-16'
  | 'train-16'
  | 'holdout-17'
  | 'train-17a'
  | 'train-17b'
  | 'train-17c'
  | 'train-17d'
  | 'train-18a'
  | 'train-18b'
  | 'train-18c'
  | 'train-18d';
export const CORPUS_SPLITS = ['train', 'test'] as const satisfies readonly CorpusSplit[];
/** Every split the evaluator accepts. */
export const ALL_SPLITS = [
  'train',
  'test',
  'holdout',
  'holdout-2',
  'train-3',
  'holdout-3',
  'train-4',
  'train-5',
  'holdout-4',
  'train-6',
  'train-7',
  'train-2',
  'holdout-5',
  'holdout-6',
  'holdout-7',
  'holdout-8',
  'train-8',
  'holdout-9',
  'holdout-10',
  'holdout-11',
  'train-9',
  'train-10',
  'holdout-12',
  'train-11',
  'train-12',
  'holdout-13',
  'train-13',
  'holdout-14',
  'train-14',
  'holdout-15',
  'train-15',
  'holdout-16',
  'train-16',
  'holdout-17',
  'train-17a',
  'train-17b',
  'train-17c',
  'train-17d',
  'train-18a',
  'train-18b',
  'train-18c',
  'train-18d',
] as const satisfies readonly CorpusSplit[];
/** Splits whose misses may be listed and tuned on; the others are only ever measured in aggregate. */
export const TUNING_SPLITS = [
  'train',
  'holdout',
  'train-3',
  'train-4',
  'train-5',
  'train-6',
  'train-7',
  'train-2',
  // Measured twice as a blind holdout (0.760 blocked, 0.018 ordinary blocked on the final code of
  // that session), then opened for tuning once holdout-6 was written to take its place.
  'holdout-5',
  // Measured twice as a blind holdout (0.731 blocked, 0.057 ordinary blocked on the final code of
  // that session, before any tuning on it), then opened for tuning once a newer blind set was begun.
  'holdout-6',
  // Measured once as a blind holdout (0.684 blocked, 0.031 ordinary blocked), then opened for tuning
  // once holdout-8 had been written blind and measured in its place.
  'holdout-7',
  // Written blind by a further author (the issue and a brief of the labelling rule only), measured
  // once before any tuning on it.
  'train-8',
  // Written blind beside holdout-11 by two more authors (a brief and two lines of holdout-8 only),
  // measured once before any tuning on them.
  'train-9',
  'train-10',
  // Written blind beside holdout-12 by two more authors (a brief and two lines of holdout-8 only),
  // measured once before any tuning on them.
  'train-11',
  'train-12',
  // Written blind beside holdout-13 by a further author (a brief and two lines of holdout-8 only),
  // measured once before any tuning on it.
  'train-13',
  // Written blind beside holdout-14 by a further author (a brief and two lines of holdout-8 only),
  // measured once before any tuning on it.
  'train-14',
  // Written blind beside holdout-15 by a further author (a brief and two lines of holdout-8 only),
  // measured once before any tuning on it.
  'train-15',
  // Written blind beside holdout-16 by a further author (a brief and two lines of holdout-8 only,
  // asked to weigh concealment, sabotage and false authority), measured once before any tuning on it.
  'train-16',
  // Written blind beside holdout-17 by four more authors (a brief and two lines of holdout-8 only;
  // asked for pairs, other languages, long notes, the kinds the lint catches least), measured once
  // before any tuning on them.
  'train-17a',
  'train-17b',
  'train-17c',
  'train-17d',
  // Written blind by four more authors (a brief of the labelling rule and the JSON shape only;
  // asked for the house voice, concealment and claimed authority, sabotage with remote execution and
  // exfiltration, the memory tools and overrides), measured once before any tuning on them.
  'train-18a',
  'train-18b',
  'train-18c',
  'train-18d',
] as const satisfies readonly CorpusSplit[];

export interface SecretCorpusItem {
  id: string;
  text: string;
  /** The exact substring of `text` that is secret (disguise included), or null for a non-secret. */
  secret: string | null;
  kind: string;
  provider?: string;
  /** A disguised secret as it reads once the disguise is undone. */
  plain?: string;
  /** The unguessable part of the secret; a masked excerpt must not show 8 characters of it in a row. */
  core?: string;
}

export interface PoisonCorpusItem {
  id: string;
  text: string;
  poisoned: boolean;
  kind: string;
  /** The severity a good lint gives, where it matters (a documented install step is `warn` at most). */
  expect?: 'block' | 'warn' | 'none';
  /** The poisoning family of a poisoned row, `ordinary` otherwise (holdout-2 and train-3). */
  family?: string;
}

export function corpusFile(family: 'secrets' | 'poisoning', split: CorpusSplit): URL {
  return new URL(`../corpus/${family}/${split}.jsonl`, import.meta.url);
}

function readJsonl<T>(url: URL): T[] {
  return readFileSync(url, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export function readLabelledSecrets(split: CorpusSplit): SecretCorpusItem[] {
  return readJsonl<SecretCorpusItem>(corpusFile('secrets', split));
}

export function readLabelledPoisoning(split: CorpusSplit): PoisonCorpusItem[] {
  return readJsonl<PoisonCorpusItem>(corpusFile('poisoning', split));
}
