// The order promote takes a plan's files in, owned here so that promote and its dry run agree.

/**
 * Writes before removals, whatever the plan's (path) order: a file a plan moves (a revision that
 * changes the type) or an entry merged into a survivor is removed only once the file that takes its
 * place is on disk, so a kill between the two leaves the text on disk twice, never nowhere.
 */
export function inPromotionOrder<T extends { action: string }>(files: readonly T[]): T[] {
  return [...files.filter((f) => f.action !== 'remove'), ...files.filter((f) => f.action === 'remove')];
}
