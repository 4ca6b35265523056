// The running host follows the memory files as they change: it watches the memory roots of the
// directories it served (its own, and every caller's of a memory read or sync, the user root
// always) and, once a burst of changes has settled, brings their projection up to date — so a pull
// or a hand edit is in memory-state before the next session asks, and the session's own check
// (approved-follow.ts) finds nothing to do. A watch is a hint, never the truth: a missed event costs
// nothing but that check's work. Roots are watched recursively (a type directory made later is
// seen); a root that does not exist yet is not watched until a later call finds it.
import { type FSWatcher, watch } from 'node:fs';

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
  ) {}

  /** Watches these roots (already watched ones stay as they are). */
  watch(roots: readonly WatchedRoot[]): void {
    if (this.closed) return;
    for (const { path, cwd } of roots) {
      if (this.roots.has(path)) continue;
      let watcher: FSWatcher;
      try {
        watcher = watch(path, { recursive: true, persistent: false }, () => this.changed(path));
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
