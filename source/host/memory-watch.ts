// The running host follows the memory files as they change: it watches the memory roots of the
// directories it served (its own, and every caller's of a memory read or sync, the user root
// always) and, once a burst of changes has settled, brings their projection up to date — so a pull
// or a hand edit is in memory-state before the next session asks, and the session's own check
// (approved-follow.ts) finds nothing to do. A watch is a hint, never the truth: a missed event costs
// nothing but that check's work. Roots are watched recursively (a type directory made later is
// seen); a root that does not exist yet is not watched until a later call finds it.
//
// The same watcher, not recursive, follows a worktree's git directory: a commit, checkout, pull,
// merge or reset rewrites files there (index, HEAD, ORIG_HEAD …), and the host then verifies the
// anchors of that worktree's entries again (pipeline/anchor-refresh.ts) — so the next SessionStart
// reads a verdict of the tree as it is. A hand edit in the tree that git does not see is not
// watched (a 100k-file tree is never watched whole): the next `memory sync` or `memory status` sees it.
import { type FSWatcher, lstatSync, readFileSync, watch } from 'node:fs';
import { join, resolve } from 'node:path';

export interface WatchedRoot {
  /** The root's absolute path. */
  path: string;
  /** A directory whose session reads this root: what the follow is run for. */
  cwd: string;
}

/** Wait after the last event of a burst (git writes many files) before following once. */
export const MEMORY_WATCH_DEBOUNCE_MS = 250;
/** Roots watched at most: each costs inotify watches per directory; older callers' roots go first. */
export const MEMORY_WATCH_MAX_ROOTS = 64;

export class MemoryRootWatcher {
  private readonly roots = new Map<string, { watcher: FSWatcher; timer: NodeJS.Timeout | undefined; cwd: string }>();
  private closed = false;

  constructor(
    /** Brings the projection of `cwd`'s roots up to date; its failures are its own. */
    private readonly follow: (cwd: string) => Promise<unknown> | unknown,
    private readonly debounceMs = MEMORY_WATCH_DEBOUNCE_MS,
    private readonly maxRoots = MEMORY_WATCH_MAX_ROOTS,
    /** Whole trees (memory roots); false: the directory's own entries (a git directory). */
    private readonly recursive = true,
  ) {}

  /** Watches these roots (already watched ones stay as they are). */
  watch(roots: readonly WatchedRoot[]): void {
    if (this.closed) return;
    for (const { path, cwd } of roots) {
      if (this.roots.has(path)) continue;
      let watcher: FSWatcher;
      try {
        watcher = watch(path, { recursive: this.recursive, persistent: false }, () => this.changed(path));
      } catch {
        continue; // not there (yet), or not watchable: the reads' own check still follows the files
      }
      watcher.on('error', () => this.unwatch(path));
      this.roots.set(path, { watcher, timer: undefined, cwd });
      if (this.roots.size > this.maxRoots) this.unwatch(this.roots.keys().next().value!);
    }
  }

  /** The roots watched now, for status and tests. */
  watched(): string[] {
    return [...this.roots.keys()];
  }

  private changed(path: string): void {
    const root = this.roots.get(path);
    if (!root) return;
    if (root.timer) clearTimeout(root.timer);
    root.timer = setTimeout(() => {
      root.timer = undefined;
      Promise.resolve()
        .then(() => this.follow(root.cwd))
        .catch(() => undefined);
    }, this.debounceMs);
    root.timer.unref?.();
  }

  private unwatch(path: string): void {
    const root = this.roots.get(path);
    if (!root) return;
    if (root.timer) clearTimeout(root.timer);
    root.watcher.close();
    this.roots.delete(path);
  }

  close(): void {
    this.closed = true;
    for (const path of [...this.roots.keys()]) this.unwatch(path);
  }
}

/**
 * The git directory of the worktree at `root`: its `.git` directory, or the directory a `.git`
 * file (a linked worktree) names. Null when there is none or it cannot be read.
 */
export function gitDirectoryOf(root: string): string | null {
  const dotGit = join(root, '.git');
  try {
    const stats = lstatSync(dotGit);
    if (stats.isDirectory()) return dotGit;
    if (!stats.isFile()) return null;
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return pointer ? resolve(root, pointer[1]!) : null;
  } catch {
    return null;
  }
}
