// One verification run for one owner (a repository worktree, or the user scope against the home
// directory): the entries' anchors (re-extracted
// only for entries whose text changed), verified against the worktree with the last run's stamp
// cache, stored with their verdicts in one writer command. The seam for `memory sync`, `memory
// status` and the host's tree watcher; the SessionStart hook only reads the stored verdicts.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { type VerifyCache, type VerifyCounts, verifyAnchors } from '../effects/anchor-verify.js';
import { type Anchor, extractAnchors } from '../memory/anchors.js';
import { extractUserAnchors } from '../memory/user-anchors.js';
import type { Db } from '../store/database.js';
import {
  type OwnerKeys,
  type RecordAnchorsInput,
  readAnchorState,
  readEntriesForAnchors,
} from '../store/memory/anchor-store.js';
import type { WriterPort } from '../store/writer-commands.js';
import { resolveScope, USER_SCOPE } from '../effects/repository.js';
import { withMemoryState } from '../store/memory/state-database.js';

export interface AnchorRunPlan {
  input: RecordAnchorsInput;
  counts: VerifyCounts & { extracted: number; entries: number; stale: number };
}

function parseCache(json: string | null): VerifyCache | undefined {
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as VerifyCache;
  } catch {
    return undefined; // a damaged cache only costs a full verification
  }
}

/** How an entry's anchors are read: a worktree's entries by extractAnchors, the user scope's by extractUserAnchors. */
type Extract = (source: { title: string; body: string }, root: string) => Anchor[];
const worktreeAnchors: Extract = (source, root) => extractAnchors(source, { worktreeRoot: root });

/** Reads what the run needs (read-only `db`), verifies, and returns the command input. */
export function planAnchorRun(
  db: Db,
  owner: OwnerKeys,
  worktreeRoot: string,
  extract: Extract = worktreeAnchors,
): AnchorRunPlan {
  const entries = readEntriesForAnchors(db, owner);
  const state = readAnchorState(db, owner);
  const stored = new Map(state.anchors.map((row) => [row.entryId, row]));
  let extracted = 0;
  const anchored = entries.map((entry) => {
    const before = stored.get(entry.entryId);
    let anchors: Anchor[];
    if (before && before.contentDigest === entry.contentDigest) anchors = JSON.parse(before.anchorsJson) as Anchor[];
    else {
      extracted++;
      anchors = extract({ title: entry.title, body: entry.body }, worktreeRoot);
    }
    return { ...entry, anchors };
  });
  const report = verifyAnchors(
    worktreeRoot,
    anchored.map(({ entryId, anchors }) => ({ entryId, anchors })),
    parseCache(state.cacheJson),
  );
  let stale = 0;
  const input: RecordAnchorsInput = {
    owner: { repositoryKey: owner.repositoryKey, worktreeKey: owner.worktreeKey },
    entries: anchored.map((entry) => {
      const verdict = report.verdicts.get(entry.entryId)!;
      if (verdict.verdict === 'stale') stale++;
      return {
        entryId: entry.entryId,
        contentDigest: entry.contentDigest,
        anchors: entry.anchors as unknown as Array<Record<string, unknown>>,
        verdict: verdict.verdict,
        failed: verdict.verdict === 'stale' ? verdict.failed : [],
      };
    }),
    cacheJson: JSON.stringify(report.cache),
  };
  return { input, counts: { ...report.counts, extracted, entries: entries.length, stale } };
}

/** Verifies one owner's entries and stores the verdicts. */
export async function refreshAnchors(
  db: Db,
  writer: WriterPort,
  owner: OwnerKeys,
  worktreeRoot: string,
): Promise<AnchorRunPlan['counts']> {
  const plan = planAnchorRun(db, owner, worktreeRoot);
  await writer.call('memoryRecordAnchors', plan.input);
  return plan.counts;
}

/** What one verification of a worktree's entries did, as `memory sync` and the host report it. */
export interface AnchorRunSummary {
  /** verified: the verdicts are stored; skipped: nothing to verify here; failed: the reason says why. */
  state: 'verified' | 'skipped' | 'failed';
  entries: number;
  stale: number;
  reason: string | null;
}

/**
 * Verifies the user scope's entries against the home directory (docs/memory-staleness.md): only
 * their absolute paths under the home (and `~/` paths) are anchors; every other claim names no one
 * repository and is not checked, so an entry with none of them is never stale. Null: the user
 * scope holds no entries (nothing is stored, nothing said).
 */
export async function verifyUserAnchors(
  memoryStatePath: string,
  writer: Pick<WriterPort, 'call'>,
  home: string = homedir(),
): Promise<AnchorRunSummary | null> {
  let root: string;
  try {
    root = realpathSync(home);
  } catch {
    return null;
  }
  const owner = { repositoryKey: USER_SCOPE.repositoryKey, worktreeKey: USER_SCOPE.worktreeKey };
  const plan = withMemoryState(
    memoryStatePath,
    () => undefined,
    (db) =>
      readEntriesForAnchors(db, owner).length === 0 ? undefined : planAnchorRun(db, owner, root, extractUserAnchors),
  );
  if (!plan) return null;
  await writer.call('memoryRecordAnchors', plan.input);
  return { state: 'verified', entries: plan.counts.entries, stale: plan.counts.stale, reason: null };
}

/** The worktree's run and the user scope's, as one answer: counts added, verified if either was. */
function withUser(run: AnchorRunSummary, user: AnchorRunSummary | null): AnchorRunSummary {
  if (!user || run.state === 'failed') return run;
  if (run.state === 'skipped') return user;
  return { ...run, entries: run.entries + user.entries, stale: run.stale + user.stale };
}

/**
 * Verifies the approved entries of the worktree at `cwd`, then the user scope's against the home
 * directory, and stores their verdicts (the seam for `memory sync`, `memory status` and the host's
 * watch of the tree). A run that fails stores nothing and says why; the verdicts of the last run stand.
 */
export async function verifyWorktreeAnchors(
  memoryStatePath: string,
  writer: Pick<WriterPort, 'call'>,
  cwd: string,
): Promise<AnchorRunSummary> {
  const run = await verifyProjectAnchors(memoryStatePath, writer, cwd);
  const user = await verifyUserAnchors(memoryStatePath, writer).catch(
    (error: unknown): AnchorRunSummary => ({
      state: 'failed',
      entries: 0,
      stale: 0,
      reason: error instanceof Error ? error.message : String(error),
    }),
  );
  return withUser(run, user);
}

async function verifyProjectAnchors(
  memoryStatePath: string,
  writer: Pick<WriterPort, 'call'>,
  cwd: string,
): Promise<AnchorRunSummary> {
  try {
    const scope = resolveScope(cwd);
    if (scope.scope !== 'project')
      return { state: 'skipped', entries: 0, stale: 0, reason: 'not inside a git worktree' };
    const owner = { repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey };
    const plan = withMemoryState(
      memoryStatePath,
      () => undefined,
      (db) => planAnchorRun(db, owner, scope.rootRealpath),
    );
    if (!plan) return { state: 'skipped', entries: 0, stale: 0, reason: 'nothing is approved yet' };
    await writer.call('memoryRecordAnchors', plan.input);
    return { state: 'verified', entries: plan.counts.entries, stale: plan.counts.stale, reason: null };
  } catch (error) {
    return { state: 'failed', entries: 0, stale: 0, reason: error instanceof Error ? error.message : String(error) };
  }
}
