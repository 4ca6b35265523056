// Applying a promotion plan (memory/promotion-plan.ts) to a memory root: a sequence of per-file
// steps a journal can drive and replay. Each re-reads its target and writes only if the target is
// still what the plan saw; the plan itself is a pure value built elsewhere.
import { sha256Hex } from '../ground/digests.js';
import { MEMORY_ENTRY_MAX_BYTES } from '../limits.js';
import { gitBlobOid } from '../memory/blob-oid.js';
import type { PlanFile, PromotionScope } from '../memory/promotion-plan.js';
import { writeModesFor } from './memory-root.js';
import {
  type CheckedDirectory,
  checkDirectory,
  type MemoryRoot,
  readFileInDirectory,
  removeFileInDirectory,
  splitRelativePath,
  syncDirectories,
  syncDirectory,
  verifyDirectory,
  type WriteOptions,
  writeFileInDirectory,
} from './safe-files.js';

export type ApplyOutcome =
  /** The approved bytes were written. */
  | { outcome: 'written' }
  /** A retirement's file was removed. */
  | { outcome: 'removed' }
  /** The target already holds exactly the approved bytes (a step replayed after a crash). */
  | { outcome: 'skipped' }
  /** The target is not what the plan saw: the plan must be voided and nothing more written. */
  | { outcome: 'drift'; expected: string | null; found: string | null };

/**
 * One application of a plan (promote's file steps): each directory's chain is checked once and
 * verified around every rename, and the fsyncs of directories it made are owed to
 * syncPlanDirectories, each directory once. Without a session every step checks and flushes on its own.
 */
export interface ApplySession {
  /** Checked directories by path relative to the root ("" for the root). */
  readonly directories: Map<string, CheckedDirectory>;
  /** Directories that gained a subdirectory, by path: flushed by syncPlanDirectories. */
  readonly unsynced: Map<string, string>;
}

export const applySession = (): ApplySession => ({ directories: new Map(), unsynced: new Map() });

/** The target's directory, checked (through the session's cache), and its name; null directory when missing. */
function targetDirectory(
  root: MemoryRoot,
  path: string,
  session: ApplySession | undefined,
): { directory: CheckedDirectory | null; name: string; key: string } {
  const parts = splitRelativePath(path);
  const dir = parts.slice(0, -1);
  const key = dir.join('/');
  const name = parts[parts.length - 1]!;
  const known = session?.directories.get(key);
  if (known) {
    // Checked earlier in the session: it must still be that directory before anything is read or
    // created through it (the same lstats a fresh check makes).
    verifyDirectory(known);
    return { directory: known, name, key };
  }
  const directory = checkDirectory(root, dir, { create: false });
  if (directory) session?.directories.set(key, directory);
  return { directory, name, key };
}

/**
 * What a target holds now, compared with the plan's view of it: null when it is what the plan saw
 * and the approved bytes are still to be written. The directory chain is verified by the caller
 * after the read: after all reads (driftedTargets), or after the read when nothing is written and
 * before and after the rename when something is (applyPlanFile).
 */
function targetState(file: PlanStep, directory: CheckedDirectory | null, name: string): ApplyOutcome | null {
  const current = directory ? readFileInDirectory(directory, name, MEMORY_ENTRY_MAX_BYTES) : null;
  if (file.action === 'remove') return removalState(file, current);
  if (current && Buffer.compare(current.bytes, file.content) === 0) return { outcome: 'skipped' };
  const found = current ? gitBlobOid(current.bytes) : null;
  if (found !== file.targetBlobHash) return { outcome: 'drift', expected: file.targetBlobHash, found };
  return null;
}

/** A plan's file as a step needs it; a file without an action is written (create or update). */
type PlanStep = Pick<PlanFile, 'targetBlobHash' | 'content'> & { action?: PlanFile['action'] };

/**
 * A removal's target: gone already is done (a step replayed after a crash, or removed by hand —
 * either way the entry is out); the blob the plan recorded is still to be removed; anything else
 * changed since the plan was made, and is kept.
 */
function removalState(file: PlanStep, current: ReturnType<typeof readFileInDirectory>): ApplyOutcome | null {
  if (!current) return { outcome: 'skipped' };
  const found = gitBlobOid(current.bytes);
  return found === file.targetBlobHash ? null : { outcome: 'drift', expected: file.targetBlobHash, found };
}

/**
 * Checks every target before the first write, so a plan whose files drifted since prepare is
 * voided with nothing written. Returns the paths that drifted.
 */
export function driftedTargets(
  root: MemoryRoot,
  plan: { files: ReadonlyArray<PlanStep & Pick<PlanFile, 'path'>> },
  session: ApplySession = applySession(),
): string[] {
  const states = targetStates(root, plan, session);
  return plan.files.filter((_, at) => states[at]?.outcome === 'drift').map((file) => file.path);
}

/**
 * What each target holds now against the plan, read only (no directory is made): skipped when it
 * already holds the approved bytes (a removal's: it is gone), drift when it changed since the plan
 * was made, null when promote would still write (or remove) it. `memory promote --dry-run` reads
 * an interrupted plan's progress from the files with it: the journal marks files only as the plan
 * closes.
 */
export function targetStates(
  root: MemoryRoot,
  plan: { files: ReadonlyArray<PlanStep & Pick<PlanFile, 'path'>> },
  session: ApplySession = applySession(),
): Array<ApplyOutcome | null> {
  const states: Array<ApplyOutcome | null> = [];
  // Each directory is checked once for all its targets, then verified once after the reads.
  const directories = new Map<string, CheckedDirectory | null>();
  for (const file of plan.files) {
    const parts = splitRelativePath(file.path);
    const key = parts.slice(0, -1).join('/');
    if (!directories.has(key)) {
      const directory = session.directories.get(key) ?? checkDirectory(root, parts.slice(0, -1), { create: false });
      if (directory) session.directories.set(key, directory);
      directories.set(key, directory);
    }
    states.push(targetState(file, directories.get(key)!, parts[parts.length - 1]!));
  }
  // Every directory read from is still the one checked: a swap during the reads is reported, not believed.
  for (const directory of directories.values()) if (directory) verifyDirectory(directory);
  return states;
}

/**
 * One step of a promotion: re-read the target; if it already holds the approved bytes, skip; if
 * its blob OID is not the plan's, report drift and write nothing; else write the approved bytes
 * through the no-follow writer. Safe to replay after a crash at any point: the journal runs every
 * step again on resume and the content decides (a file's "applied" mark is progress, not proof —
 * until syncPlanDirectories, a rename survives a process crash but maybe not a power failure). An unsafe target (a
 * link, a directory, a file over the size cap) throws a MemoryFileError: the plan cannot go on.
 * With a session (promote), directories are checked once per plan and their fsyncs are left to
 * syncPlanDirectories with the same session.
 */
export function applyPlanFile(
  root: MemoryRoot,
  scope: PromotionScope,
  file: PlanStep & Pick<PlanFile, 'path' | 'sanitizedContentDigest'>,
  hooks: Pick<WriteOptions, 'beforeRename'> = {},
  session?: ApplySession,
): ApplyOutcome {
  if (sha256Hex(file.content) !== file.sanitizedContentDigest) {
    throw new Error(`the bytes for ${file.path} do not match the approved digest; the plan is damaged`);
  }
  const target = targetDirectory(root, file.path, session);
  if (file.action === 'remove') return removeTarget(file, target.directory, target.name);
  const state = targetState(file, target.directory, target.name);
  if (state) {
    if (target.directory) verifyDirectory(target.directory);
    return state;
  }
  const modes = writeModesFor(scope);
  let directory = target.directory;
  if (!directory) {
    const parts = splitRelativePath(file.path).slice(0, -1);
    directory = checkDirectory(root, parts, {
      create: true,
      mode: modes.directoryMode,
      ...(session ? { unsynced: session.unsynced } : {}),
    })!;
    session?.directories.set(target.key, directory);
  }
  // The rename's directory fsync is syncPlanDirectories' (once per directory); the chain is
  // verified before the rename, which covers the read above, and after it.
  writeFileInDirectory(directory, target.name, file.content, { ...modes, ...hooks, syncDirectory: false });
  return { outcome: 'written' };
}

/**
 * A retirement's step: the file is removed only while it holds the bytes the plan recorded (the
 * read's stamp is checked again at the unlink), gone already is done, changed is drift.
 */
function removeTarget(file: PlanStep, directory: CheckedDirectory | null, name: string): ApplyOutcome {
  if (!directory) return { outcome: 'skipped' };
  const current = readFileInDirectory(directory, name, MEMORY_ENTRY_MAX_BYTES);
  const state = removalState(file, current);
  if (state || !current) {
    verifyDirectory(directory);
    return state ?? { outcome: 'skipped' };
  }
  removeFileInDirectory(directory, name, current.stamp);
  return { outcome: 'removed' };
}

/**
 * The last file step of a promotion: one fsync per directory the plan wrote into and per directory
 * the session made a subdirectory in, so every rename is durable before the journal records the
 * plan as applied. `ancestors`: also every directory from the anchor down (a resumed plan, whose
 * crashed run may have made directories and not flushed them). Replaying it is harmless.
 */
export function syncPlanDirectories(
  root: MemoryRoot,
  plan: { files: ReadonlyArray<Pick<PlanFile, 'path'>> },
  session?: ApplySession,
  options: { ancestors?: boolean } = {},
): void {
  const directories = new Set(plan.files.map((file) => file.path.split('/').slice(0, -1).join('/')));
  if (options.ancestors) {
    const chains = new Map<string, string>();
    const checked: CheckedDirectory[] = [];
    for (const directory of directories) {
      const one = checkDirectory(root, directory === '' ? [] : splitRelativePath(directory), { create: false });
      if (!one) continue;
      checked.push(one);
      chains.set(root.anchor, '');
      for (const link of one.chain) chains.set(link.path, link.display);
    }
    syncDirectories(chains);
    for (const one of checked) verifyDirectory(one);
    return;
  }
  if (session) syncDirectories(session.unsynced);
  for (const directory of [...directories].sort()) syncDirectory(root, directory);
}
