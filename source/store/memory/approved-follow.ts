// The projection follows the files with no command: before the SessionStart snapshot, `get`,
// `memory search` or an MCP read answers, the caller's memory roots are compared with what the
// projection last read, and a change (a pull, checkout, merge, hand edit, a new or removed file) is
// stored first. The Markdown files are canonical; this keeps memory-state from silently disagreeing
// with them.
//
// How a change is seen cheaply (the SessionStart hook runs this on its fast path), in two steps:
// 1. The stamps (device, inode, mtime, ctime) of the root and its type directories, kept beside the
//    complete projection (approved-sync.ts): a name added, removed or renamed changes them, and
//    that is how git writes files on pull, checkout, merge and rebase (unlink, create) and how most
//    editors save. A handful of lstat calls and one short row: the hook's whole cost when nothing
//    changed in a large root.
// 2. The stamp of every entry file against the one the projection read (scan_json): this sees a
//    write into an existing file, which leaves the directories alone. Done when the directories
//    changed, and otherwise for roots of at most `fileStampsUpTo` files — every file for `get`,
//    search and the MCP reads; the hook's bound keeps one lstat per file off its path for a root of
//    thousands, where such an in-place write is seen by the next read, the host's watcher or the
//    next directory change. A file modified so close to the last reading that a change could hide
//    in the timestamp granularity counts as changed ("racily clean", as git says).
// Stamps, not git: the user root is not in git, and hand edits are not committed.
//
// A change is read incrementally — only the files whose stamp changed; the others' entries are taken
// from the projection by their content digest — and stored in one transaction that touches only the
// changed rows (approved-sync.ts), guarded by the generation the reader saw. It is bounded in time
// (reads and the wait for memory-state's write lock): past the bound nothing is half-stored, the
// previous projection stays, and the answer says `coverage: partial` with the reason. This never
// throws: a damaged, locked or missing memory-state is a reason, and the reader that follows says
// `unavailable` as it always did.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { CmError } from '../../errors.js';
import {
  decodePreviousScan,
  directoriesSettled,
  directoryStamps,
  encodePreviousScan,
  type FileLint,
  type ProjectionScan,
  type ScannedScene,
  scanApprovedRoot,
} from '../../effects/approved-scan.js';
import { SCENE_DIRECTORY } from '../../memory/consolidation/scene-format.js';
import type { MemoryEntry } from '../../memory/entry-format.js';
import type { MemoryRoot } from '../../effects/safe-files.js';
import { openDatabase, prepared, type Db } from '../database.js';
import { commitOn } from '../transaction.js';
import {
  type ApprovedOwner,
  keepDirectoryStamps,
  readProjection,
  readQuickProjection,
  type StoredEntry,
  storedEntriesByPath,
  storedScenesByPath,
  type SyncApprovedInput,
  syncApproved,
} from './approved-sync.js';
import { openMemoryState, openMemoryStateReadOnly } from './state-database.js';

export interface FollowTarget {
  owner: ApprovedOwner;
  /** The owner's memory root; it may throw (an unsafe anchor), which is a reason, never a crash. */
  root: () => MemoryRoot;
}

export interface FollowReason {
  scope: ApprovedOwner['scope'];
  /** Why the projection may not match this scope's files now. */
  reason: string;
  /** There is no data home yet: nothing to fix, the reason says what creates it. */
  noDataHome?: true;
  /** A promotion plan into this scope's files is applying (running, or a crash stopped it): its id. */
  unfinishedPlan?: string;
}

export interface FollowResult {
  /** Owners whose files changed and were stored now. */
  stored: Array<ApprovedOwner['scope']>;
  /** Empty when the projection matches every target's files. */
  partial: FollowReason[];
}

const OUT_OF_TIME =
  'the memory files were not all read within the time a session start allows; common-memory memory sync, a memory read or a running host reads them';

/** Scans of one root before giving up on a race with another sync (the host's watcher, another hook). */
const ATTEMPTS = 2;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown }).code;
  return (
    code === 'SQLITE_BUSY' ||
    code === 'SQLITE_LOCKED' ||
    (error instanceof CmError && /locked|busy/i.test(error.message))
  );
};

/** The stored entry back as the file's parsed entry: what an incremental scan reuses. */
const asParsed = (stored: StoredEntry): MemoryEntry => {
  const front = stored.frontmatter as Omit<MemoryEntry, 'extra' | 'body'> & { extra?: Record<string, unknown> };
  return { ...front, extra: Object.entries(front.extra ?? {}), body: stored.body } as MemoryEntry;
};

/** A scan of `owner`'s root as the writer stores it, against the generation the caller saw before it scanned. */
export const scanInput = (
  owner: ApprovedOwner,
  expectedGeneration: number | null,
  scan: ProjectionScan,
): SyncApprovedInput => ({
  owner,
  expectedGeneration,
  coverage: scan.coverage,
  unchanged: scan.unchanged,
  sourceTreeDigest: scan.sourceTreeDigest,
  scanJson: encodePreviousScan(scan),
  problems: scan.problems,
  entries: scan.entries,
  scenes: scan.scenes,
  doctrine: scan.doctrine,
  directories: scan.directories,
});

const firstProblem = (scan: ProjectionScan): string =>
  scan.problems[0]?.message ?? 'the memory files could not all be read';

export interface FollowOptions {
  /** File reads and the wait for the write lock, in all. */
  budgetMs: number;
  /** Above this many entry files, settled directories are taken as an unchanged root (step 2 above). */
  fileStampsUpTo?: number;
  /** The memory lint of the files read (the hook's loads it on the first changed file). */
  lintFile: FileLint;
}

/** Brings the projection of `targets` up to date with their files, within the budget. Never throws. */
export function followApproved(memoryStatePath: string, targets: FollowTarget[], options: FollowOptions): FollowResult {
  const { budgetMs } = options;
  const fileStampsUpTo = options.fileStampsUpTo ?? Number.POSITIVE_INFINITY;
  const deadlineMs = Date.now() + budgetMs;
  const result: FollowResult = { stored: [], partial: [] };
  let reader: Db | undefined;
  let writer: Db | undefined;
  // The scans that found files worth creating memory-state for: what the first attempt would read again.
  let firstScans: Array<ProjectionScan | null> = [];
  try {
    if (!existsSync(memoryStatePath)) {
      // Nothing was ever projected. Only files make it worth creating memory-state (a fresh clone
      // with its team's entries); a session with none leaves no file behind.
      const scans = targets.map((target) => {
        try {
          return scanApprovedRoot(target.root(), target.owner.scope, {
            deadlineMs,
            lintFile: options.lintFile,
          });
        } catch {
          return null;
        }
      });
      const empty = (scan: ProjectionScan | null) =>
        scan !== null && scan.entries.length === 0 && scan.problems.length === 0;
      if (scans.every(empty)) return result;
      // memory-state lives in the data home, and a read makes no data home (only a command a person
      // runs does): with none yet — a fresh clone — the files are not read, for that reason, which
      // is no store to fix or move aside.
      const home = dirname(memoryStatePath);
      if (!existsSync(home)) {
        const reason = `there is no data home yet (${home}), and a read creates none, so these memory files were not read: run common-memory memory sync, which creates it and reads them, and ask again`;
        targets.forEach((target, at) => {
          if (!empty(scans[at]!)) result.partial.push({ scope: target.owner.scope, reason, noDataHome: true });
        });
        return result;
      }
      openMemoryState(memoryStatePath).db.close();
      firstScans = scans;
    }
    reader = openMemoryStateReadOnly(memoryStatePath)!.db;
    for (const [at, target] of targets.entries()) {
      const reason = followOne(
        target,
        reader,
        () => {
          if (!writer) {
            writer = openDatabase(memoryStatePath, { busyTimeoutMs: Math.max(0, deadlineMs - Date.now()) });
          } else writer.pragma(`busy_timeout = ${Math.max(0, deadlineMs - Date.now())}`);
          return writer;
        },
        deadlineMs,
        fileStampsUpTo,
        result,
        options.lintFile,
        firstScans[at] ?? null,
      );
      if (reason !== null) {
        result.partial.push({ scope: target.owner.scope, reason });
        continue;
      }
      // The files match the projection, but a plan may be half-way through them (a kill between
      // a merge survivor's write and the merged file's removal, a retirement not done yet): what
      // they say now is no complete reading of the memory until the plan is finished.
      const planId = applyingPlanOf(reader, target.owner);
      if (planId !== undefined)
        result.partial.push({
          scope: target.owner.scope,
          reason: `promotion plan ${planId} was stopped (or is still running) part-way through the ${target.owner.scope} memory files, so they may be half-changed; common-memory memory promote ${planId} finishes it`,
          unfinishedPlan: planId,
        });
    }
  } catch (error) {
    const reason = isBusy(error)
      ? 'memory-state is busy (another process is writing it), so the memory files were not read again'
      : `memory-state could not be brought up to date with the memory files: ${describe(error)}`;
    for (const target of targets)
      if (!result.partial.some((p) => p.scope === target.owner.scope))
        result.partial.push({ scope: target.owner.scope, reason });
  } finally {
    reader?.close();
    writer?.close();
  }
  return result;
}

/** The plan (the oldest) that is applying into this owner's memory root, if any: one indexed read. */
const applyingPlanOf = (db: Db, owner: ApprovedOwner): string | undefined =>
  prepared(
    db,
    "SELECT plan_id FROM promotion_journal WHERE status = 'applying' AND scope = ? AND repository_key = ? AND worktree_key = ? ORDER BY created_at_ms, plan_id LIMIT 1",
  )
    .pluck()
    .get(owner.scope, owner.repositoryKey, owner.worktreeKey) as string | undefined;

/**
 * One owner: null when its projection matches its files now, else why not. `firstScan`: the owner's
 * root just read in full into a memory-state made for it (no projection yet), stored as it is rather
 * than read and linted a second time.
 */
function followOne(
  target: FollowTarget,
  reader: Db,
  writerOf: () => Db,
  deadlineMs: number,
  fileStampsUpTo: number,
  result: FollowResult,
  lintFile: FileLint,
  firstScan: ProjectionScan | null,
): string | null {
  const { owner } = target;
  let root: MemoryRoot;
  try {
    root = target.root();
  } catch (error) {
    return `the ${owner.scope} memory root cannot be opened: ${describe(error)}`;
  }
  const quick = readQuickProjection(reader, owner);
  const stampsNow = quick?.directories ? directoryStamps(root) : null;
  const settled =
    quick?.coverage === 'complete' &&
    quick.directories !== null &&
    stampsNow !== null &&
    directoriesSettled(quick.directories, stampsNow);
  if (settled && quick.directories!.files > fileStampsUpTo) return null;
  // A bounded caller (the hook) that ran out of time on these very directories does not spend its
  // bound on them again: a root too large to read in one session start is read by memory sync, a
  // read (with its longer bound) or the host, and until then the answer says so.
  if (
    Number.isFinite(fileStampsUpTo) &&
    quick?.coverage === 'partial' &&
    quick.directories?.outOfTime === true &&
    stampsNow !== null &&
    directoriesSettled(quick.directories, stampsNow)
  )
    return OUT_OF_TIME;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const row = readProjection(reader, owner);
    const previous = row?.scan_json ? (decodePreviousScan(row.scan_json) ?? undefined) : undefined;
    let stored: Map<string, StoredEntry> | undefined;
    const known = (path: string, digest: string): MemoryEntry | undefined => {
      stored ??= storedEntriesByPath(reader, owner);
      const entry = stored.get(path);
      return entry && entry.contentDigest === digest ? asParsed(entry) : undefined;
    };
    let scenes: Map<string, ScannedScene> | undefined;
    const knownScene = (path: string, digest: string): ScannedScene | undefined => {
      scenes ??= storedScenesByPath(reader, owner);
      const scene = scenes.get(path);
      return scene && scene.contentDigest === digest ? scene : undefined;
    };
    const scan =
      attempt === 0 && row === undefined && firstScan !== null
        ? firstScan
        : scanApprovedRoot(root, owner.scope, {
            ...(previous ? { previous } : {}),
            known,
            knownScene,
            // Stored by a scan that linted every file (a previous scan of the current kind says so); a
            // scene path is looked up among the scenes only, an entry's among the entries.
            linted: (path, digest) =>
              previous !== undefined &&
              (path.startsWith(`${SCENE_DIRECTORY}/`) ? knownScene(path, digest) : known(path, digest)) !== undefined,
            deadlineMs,
            lintFile,
          });
    if (scan.unchanged && row?.coverage === 'complete') {
      if (settled) return null;
      // Nothing changed but the directories' stamps are new or were taken too close to a change:
      // keep the ones just taken, so the next check can stop at step 1.
      try {
        commitOn('memory', writerOf(), 'memoryFollowDirectories', (tx) => {
          if (readQuickProjection(tx.db, owner)?.generation === row.generation)
            keepDirectoryStamps(tx, owner, scan.directories);
        });
      } catch {
        // only costs the per-file check next time
      }
      return null;
    }
    // The same problems as last time, already recorded: nothing to write, the reason stands.
    if (
      scan.coverage === 'partial' &&
      row?.coverage === 'partial' &&
      row.problems_json === JSON.stringify(scan.problems)
    )
      return firstProblem(scan);
    let outcome: ReturnType<typeof syncApproved>;
    try {
      outcome = commitOn('memory', writerOf(), 'memoryFollowApproved', (tx) =>
        syncApproved(tx, scanInput(owner, row ? row.generation : null, scan)),
      );
    } catch (error) {
      if (isBusy(error))
        return 'memory-state is busy (another process is writing it), so the changed memory files could not be stored in time';
      return `the changed memory files could not be stored: ${describe(error)}`;
    }
    if (outcome.outcome === 'raced') continue;
    if (outcome.outcome === 'replaced') result.stored.push(owner.scope);
    return scan.coverage === 'partial' ? firstProblem(scan) : null;
  }
  return 'other syncs kept changing the projection while this one read the files';
}
