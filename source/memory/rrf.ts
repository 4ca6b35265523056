// Reciprocal rank fusion, `recall-rrf@1`: the recall of a draft is the fusion of two BM25 lists
// (approved entries and candidates). BM25 scores of two FTS5 tables are not comparable, ranks
// are: score(d) = Σ 1 / (k + rank_i(d)), ranks from 1. Equal scores are ordered by
// (sourceKind, id) in code-unit order, so the fused order, and its digest, never depend on
// the order SQLite happened to return ties in or on the locale.
import { crypto } from '../ground/lazy-builtin.js';

/** The version string recorded in a task's binding: change it whenever the fusion or its inputs change. */
export const RECALL_ALGORITHM = 'recall-rrf@1';

/** The RRF constant of the original paper and of seed 004: large enough that rank 1 does not dominate. */
export const RRF_K = 60;

export interface RecallKey {
  sourceKind: string;
  id: string;
}

export interface FusedItem {
  rank: number;
  sourceKind: string;
  id: string;
  score: number;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Fuses ranked lists (best first) into one ranked list; an item counts once per list, at its best rank there. */
export function fuseRrf<T extends RecallKey>(lists: readonly T[][], k = RRF_K): FusedItem[] {
  if (!(k > 0) || !Number.isFinite(k)) throw new RangeError(`the RRF constant must be a positive number, not ${k}`);
  const fused = new Map<string, { sourceKind: string; id: string; score: number }>();
  for (const list of lists) {
    const seenInList = new Set<string>();
    list.forEach((item, index) => {
      // JSON of the pair is an unambiguous key: no separator character can fake another pair.
      const key = JSON.stringify([item.sourceKind, item.id]);
      if (seenInList.has(key)) return;
      seenInList.add(key);
      const entry = fused.get(key) ?? { sourceKind: item.sourceKind, id: item.id, score: 0 };
      entry.score += 1 / (k + index + 1);
      fused.set(key, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || compareText(a.sourceKind, b.sourceKind) || compareText(a.id, b.id))
    .map((entry, index) => ({ rank: index + 1, ...entry }));
}

const sha256Hex = (text: string) => crypto().createHash('sha256').update(text, 'utf8').digest('hex');

export interface RecallQuery {
  /** The FTS5 expression actually run (from buildFtsQuery), or null when the draft had no searchable word. */
  ftsQuery: string | null;
  /** Rows taken from each list before fusion (3·k of seed 004). */
  perListLimit: number;
  /** Items kept after fusion. */
  limit: number;
  k?: number;
}

/**
 * Digest of what was asked: the algorithm version, the constant, the limits and the query.
 * The JSON is built from an array in fixed order, so it is canonical without key sorting.
 */
export function recallQueryDigest(query: RecallQuery): string {
  return sha256Hex(
    JSON.stringify([RECALL_ALGORITHM, query.k ?? RRF_K, query.perListLimit, query.limit, query.ftsQuery]),
  );
}

/**
 * Digest of what was found: ranks and identities in order. Scores are left out: they follow from
 * the ranks, and leaving floats out keeps the digest equal across any runtime.
 */
export function resultSetDigest(items: readonly { rank: number; sourceKind: string; id: string }[]): string {
  return sha256Hex(JSON.stringify([RECALL_ALGORITHM, items.map((item) => [item.rank, item.sourceKind, item.id])]));
}
