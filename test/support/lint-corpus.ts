// The labelled lint corpora under test/corpus/: secrets and memory poisoning, each as a frozen test
// split (written first, never tuned on) and a train split for tuning. See test/corpus/README.md.
import { readFileSync } from 'node:fs';

// `holdout` (poisoning only) was written after the first measurement, apart from the rules and the
// other splits, and is measured once; it is not one of the default splits.
export type CorpusSplit = 'test' | 'train' | 'holdout';
export const CORPUS_SPLITS = ['train', 'test'] as const satisfies readonly CorpusSplit[];

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
