// How a stale entry is shown where memory is given back: a one-line note naming the first failed
// anchor (the snapshot, `get`, search), and search's order with stale entries last. Pure and
// import-free, so the SessionStart hook may load it.

export interface FailedClaim {
  /** The anchor as a person reads it, e.g. "`src/legacy/config.ts`". */
  anchor: string;
  reason: string;
}

/** "may be stale: `src/legacy/config.ts` no longer exists (and 1 more)". */
export function staleNote(failed: readonly FailedClaim[]): string {
  if (failed.length === 0) return 'may be stale';
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
  return `may be stale: ${failed[0]!.reason}${more}`;
}

/** The same results with the stale ones moved last, each group in its own order. */
export function rankStaleLast<T extends { entryId: string }>(
  results: readonly T[],
  staleIds: ReadonlySet<string>,
): T[] {
  return [...results.filter((r) => !staleIds.has(r.entryId)), ...results.filter((r) => staleIds.has(r.entryId))];
}

/**
 * What a stale entry's claims were checked against, for "a claim it makes about … no longer
 * holds": a repository's entries against its worktree, a user entry's against the home directory
 * (memory-staleness.md, user-scope entries) — a user entry names no repository.
 */
export function staleClaimPlace(scopes: Iterable<'project' | 'user'>): string {
  const seen = new Set(scopes);
  if (seen.has('user') && seen.has('project')) return 'this repository or your home directory';
  return seen.has('user') ? 'your home directory' : 'this repository';
}
