// The approved projection as the API serves it: `memory sync` scans the caller's memory roots (the
// user root in the data home and, inside a git worktree, the worktree's) and stores each scan
// through the writer; `memory search` and `get` read memory-state read-only. The scopes a caller
// sees come from its directory: its worktree's and the user's, never another repository's.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MEMORY_ENTRY_MAX_BYTES, MEMORY_FOLLOW_READ_BUDGET_MS, RESULTS_LIMIT_MAX } from '../limits.js';
import { sha256Hex } from '../ground/digests.js';
import { followApproved, type FollowResult, scanInput } from '../store/memory/approved-follow.js';
import { readMemoryFile } from '../effects/safe-files.js';
import { parseEntry } from '../memory/entry-format.js';
import { blockedFileProblem } from '../memory/file-lint.js';
import { echoed } from '../echo-text.js';
import { CmError } from '../errors.js';
import type {
  MemoryEntryView,
  MemoryProblemView,
  MemorySearchResult,
  MemoryStaleResult,
  MemorySyncResult,
} from '../api/memory-views.js';
import { readAnchorSummary, readStaleEntries } from '../store/memory/verdict-read.js';
import { decodePreviousScan, type PreviousScan, scanApprovedRoot } from '../effects/approved-projection.js';
import { type ApprovedHit, readApprovedEntry, readOwnerView, searchApproved } from '../store/memory/approved-reads.js';
import {
  type ApprovedOwner,
  readProjection,
  storedDigestsByPath,
  type SyncApprovedInput,
  type SyncApprovedResult,
} from '../store/memory/approved-sync.js';
import { readEntryUsageView } from '../store/memory/usage-reads.js';
import { readLeftOutFiles } from '../store/memory/memory-reads.js';
import { readScene, SCENE_ID_PREFIX, type SceneView, sceneBody, searchScenes } from '../store/memory/scene-reads.js';
import {
  DOCTRINE_ID_PREFIX,
  type DoctrineView,
  doctrineBody,
  readDoctrine,
  searchDoctrine,
} from '../store/memory/doctrine-reads.js';
import { memoryRootOf } from '../effects/memory-root.js';
import { resolveScopeQuickly, USER_SCOPE } from '../effects/repository.js';
import type { MemoryRoot } from '../effects/safe-files.js';
import { withMemoryState } from '../store/memory/state-database.js';
import type { Db } from '../store/database.js';
import { readVerdicts, type VerdictRead, verdictFor } from '../store/memory/verdict-read.js';
import { rankStaleLast, staleNote } from '../memory/staleness.js';
import { checkedLimit } from '../ground/limit-check.js';

/** Scans of one root per sync: a scan that saw a file change, or lost a race with another sync, is retried. */
const SYNC_ATTEMPTS = 3;
export const MEMORY_SEARCH_DEFAULT_LIMIT = 20;
/** Scenes a search gives at most, before the entries. */
export const MEMORY_SEARCH_SCENES_MAX = 5;

interface Target {
  owner: ApprovedOwner;
  /** The root's anchor and path: the worktree or the data home. */
  anchor: string;
}

const userOwner: ApprovedOwner = {
  scope: 'user',
  repositoryKey: USER_SCOPE.repositoryKey,
  worktreeKey: USER_SCOPE.worktreeKey,
};

/** The caller's owners, the repository's first: the order of precedence for one id in both. */
function targetsOf(home: string, cwd: string): Target[] {
  // Without a git process where the layout is plain (the same binding: effects/repository.ts): a
  // read (`get`, `memory search`, the MCP tools) is a whole process that scripts and agents start.
  const scope = resolveScopeQuickly(cwd);
  const targets: Target[] = [];
  if (scope.scope === 'project') {
    targets.push({
      owner: { scope: 'project', repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey },
      anchor: scope.rootRealpath,
    });
  }
  targets.push({ owner: userOwner, anchor: home });
  return targets;
}

export const ownersOf = (cwd: string): ApprovedOwner[] => targetsOf('', cwd).map((target) => target.owner);

export interface SyncDeps {
  memoryStatePath: string;
  home: string;
  /** Opens (creates, migrates) memory-state in the writer. */
  open(): Promise<unknown>;
  store(input: SyncApprovedInput): Promise<SyncApprovedResult>;
}

/** Scans and stores every root of the caller; a root that stays partial keeps its previous projection. */
export async function syncApproved(deps: SyncDeps, cwd: string): Promise<MemorySyncResult> {
  await deps.open();
  const scopes: MemorySyncResult['scopes'] = [];
  const problems: MemoryProblemView[] = [];
  for (const { owner, anchor } of targetsOf(deps.home, cwd)) {
    const one = await syncRoot(deps, owner, anchor);
    scopes.push(one.scope);
    problems.push(...one.problems);
  }
  return {
    generation: scopes.reduce((sum, s) => sum + s.generation, 0),
    coverage: scopes.every((s) => s.coverage === 'complete') ? 'complete' : 'partial',
    entries: scopes.reduce((sum, s) => sum + s.entries, 0),
    problems,
    scopes,
  };
}

/**
 * The owner's stored projection, its last scan (null when of an older kind, which is not reused) and
 * whether it holds a path's entry with given bytes — linted when stored, so not linted again. A
 * projection stored before entries were linted has no such scan, and none of its entries count.
 */
export function projectedState(
  memoryStatePath: string,
  owner: ApprovedOwner,
): {
  row: ReturnType<typeof readProjection>;
  previous: PreviousScan | null;
  linted: (path: string, contentDigest: string) => boolean;
} {
  const { row, stored } = withMemoryState(
    memoryStatePath,
    (): { row: ReturnType<typeof readProjection>; stored: Map<string, string> | undefined } => ({
      row: undefined,
      stored: undefined,
    }),
    (db) => ({ row: readProjection(db, owner), stored: storedDigestsByPath(db, owner) }),
  );
  const previous = row?.scan_json ? decodePreviousScan(row.scan_json) : null;
  return {
    row,
    previous,
    linted: (path, digest) => previous !== null && stored?.get(path) === digest,
  };
}

/** Scans one owner's root (its anchor known: promote syncs what it wrote without asking git) and stores the scan. */
export async function syncRoot(
  deps: Pick<SyncDeps, 'memoryStatePath' | 'store'>,
  owner: ApprovedOwner,
  anchor: string,
): Promise<{ scope: MemorySyncResult['scopes'][number]; problems: MemoryProblemView[] }> {
  let root: MemoryRoot;
  try {
    root = memoryRootOf(owner.scope, anchor);
  } catch (error) {
    throw new CmError(
      'invalid_input',
      `Cannot open the ${owner.scope} memory root: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  const problems: MemoryProblemView[] = [];
  let result: SyncApprovedResult | undefined;
  let last: ReturnType<typeof scanApprovedRoot> | undefined;
  for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
    const { row, previous, linted } = projectedState(deps.memoryStatePath, owner);
    const scan = scanApprovedRoot(root, owner.scope, previous ? { previous, linted } : {});
    last = scan;
    result = await deps.store(scanInput(owner, row ? row.generation : null, scan));
    const drifted = scan.problems.some((problem) => problem.kind === 'changed');
    if (result.outcome !== 'raced' && !drifted) break;
  }
  for (const problem of [...last!.problems, ...last!.leftOut]) problems.push({ scope: owner.scope, ...problem });
  if (result!.outcome === 'raced') {
    // Other syncs kept committing while this one scanned: theirs stand; this one reports partial.
    const message = 'other syncs changed the projection while this one scanned; sync again';
    problems.push({ scope: owner.scope, kind: 'changed', path: '', line: null, message });
    return {
      scope: {
        scope: owner.scope,
        generation: result!.generation,
        coverage: 'partial',
        entries: 0,
        outcome: 'partial',
      },
      problems,
    };
  }
  const { generation, coverage, entries } = result!;
  return {
    scope: {
      scope: owner.scope,
      generation,
      coverage,
      entries,
      outcome: result!.outcome as 'replaced' | 'unchanged' | 'partial',
    },
    problems,
  };
}

/** What `memory sync` would do to one scope, and what the projection holds now. */
export type SyncPreviewScope = MemorySyncResult['scopes'][number] & {
  current: { generation: number; entries: number };
};

/**
 * `memory sync --dry-run`: scans the caller's roots the way sync does and compares each scan with
 * the stored projection, read-only; nothing is stored and no file or store is created. A data home
 * that does not exist yet has an empty user root.
 */
export function previewSyncApproved(
  memoryStatePath: string,
  home: string,
  cwd: string,
): Omit<MemorySyncResult, 'scopes'> & { scopes: SyncPreviewScope[] } {
  const scopes: SyncPreviewScope[] = [];
  const problems: MemoryProblemView[] = [];
  for (const { owner, anchor } of targetsOf(home, cwd)) {
    const stored = withMemoryState(
      memoryStatePath,
      () => undefined,
      (db) => ({ row: readProjection(db, owner), view: readOwnerView(db, owner) }),
    );
    const current = { generation: stored?.view.generation ?? 0, entries: stored?.view.entries ?? 0 };
    let scan: ReturnType<typeof scanApprovedRoot> | null = null;
    if (existsSync(anchor)) {
      let root: MemoryRoot;
      try {
        root = memoryRootOf(owner.scope, anchor);
      } catch (error) {
        throw new CmError(
          'invalid_input',
          `Cannot open the ${owner.scope} memory root: ${error instanceof Error ? error.message : String(error)}.`,
        );
      }
      scan = scanApprovedRoot(root, owner.scope);
      for (const problem of scan.problems) problems.push({ scope: owner.scope, ...problem });
    }
    const row = stored?.row;
    const scope = owner.scope;
    if (scan && scan.coverage === 'partial') {
      scopes.push({ scope, ...current, coverage: 'partial', outcome: 'partial', current });
    } else if (row && (scan === null ? current.entries === 0 : row.source_tree_digest === scan.sourceTreeDigest)) {
      scopes.push({ scope, ...current, coverage: 'complete', outcome: 'unchanged', current });
    } else {
      const entries = scan?.entries.length ?? 0;
      scopes.push({
        scope,
        generation: current.generation + 1,
        coverage: 'complete',
        entries,
        outcome: 'replaced',
        current,
      });
    }
  }
  return {
    generation: scopes.reduce((sum, s) => sum + s.generation, 0),
    coverage: scopes.every((s) => s.coverage === 'complete') ? 'complete' : 'partial',
    entries: scopes.reduce((sum, s) => sum + s.entries, 0),
    problems,
    scopes,
  };
}

const validLimit = (limit: number | undefined): number =>
  checkedLimit(limit, RESULTS_LIMIT_MAX, MEMORY_SEARCH_DEFAULT_LIMIT);

export function memorySearchAt(path: string, cwd: string, query: string, limit?: number): MemorySearchResult {
  if (query.trim() === '')
    throw new CmError('usage', 'Give words to search for, e.g. common-memory memory search "release checklist".');
  const max = validLimit(limit);
  const owners = ownersOf(cwd);
  const followed = followFiles(path, cwd);
  const found = withMemoryState(
    path,
    // No memory-state: a scope the follow found nothing wrong with has no memory files (the follow
    // creates memory-state for any), so it is read whole, and empty; one it could not read (no data
    // home yet, a store it could not open) is partial.
    () => ({
      ...emptyView(owners, (owner) => (followed.partial.some((p) => p.scope === owner.scope) ? 'partial' : 'complete')),
      results: [],
    }),
    (db) =>
      db.transaction((): MemorySearchResult => {
        // Scenes first (each a way into many entries), marked as scenes; the entries fill the limit.
        const scenes = searchScenes(db, owners, query, Math.min(MEMORY_SEARCH_SCENES_MAX, max - 1));
        // Then doctrine (a principle citing entries): one whose basis changed is marked stale and comes last.
        const doctrine = searchDoctrine(
          db,
          owners,
          query,
          Math.min(MEMORY_SEARCH_SCENES_MAX, max - 1 - scenes.length),
        ).map((hit) => ({
          entryId: hit.doctrineId,
          title: hit.title,
          scope: hit.scope,
          path: hit.path,
          kind: 'doctrine' as const,
          entries: hit.cites,
          ...(hit.basisChanged === null ? {} : { stale: true, staleNote: hit.basisChanged }),
        }));
        const entries = staleLast(db, owners, searchApproved(db, owners, query, max - scenes.length - doctrine.length));
        return {
          ...scopesView(db, owners),
          results: [
            ...scenes.map((scene) => ({
              entryId: scene.sceneId,
              title: scene.title,
              scope: scene.scope,
              path: scene.path,
              kind: 'scene' as const,
              entries: scene.entries,
            })),
            ...doctrine.filter((hit) => !hit.stale),
            ...entries,
            ...doctrine.filter((hit) => hit.stale),
          ],
        };
      })(),
  );
  return withFollowed(found, followed);
}

/**
 * Search's results with each stale entry marked (`stale: true` and its first failed anchor's note) and moved last
 * (docs/memory-staleness.md). Verdicts that cannot be read leave the results as they were.
 */
function staleLast(db: Db, owners: ApprovedOwner[], hits: ApprovedHit[]): MemorySearchResult['results'] {
  const read = readVerdicts(db, owners, { entryIds: hits.map((hit) => hit.entryId) });
  const marked = hits.map(({ contentDigest, ...hit }) => {
    const verdict = verdictFor(read, hit.entryId, contentDigest);
    return verdict?.verdict === 'stale' ? { ...hit, stale: true, staleNote: staleNote(verdict.failed) } : hit;
  });
  return rankStaleLast(marked, new Set(marked.filter((hit) => 'stale' in hit).map((hit) => hit.entryId)));
}

/** What the stored verdicts say of this text of an entry: `get` and MCP `memory_get` carry it. */
function withVerification(entry: MemoryEntryView, read: VerdictRead | undefined): MemoryEntryView {
  if (!read?.available) return { ...entry, verification: 'unavailable', stale: false, failedAnchors: [] };
  const verdict = verdictFor(read, entry.id, entry.contentDigest);
  if (!verdict) return { ...entry, verification: 'unverified', stale: false, failedAnchors: [] };
  const failedAnchors = verdict.failed.map(({ anchor, reason }) => ({ anchor, reason }));
  return { ...entry, verification: verdict.verdict, stale: verdict.verdict === 'stale', failedAnchors };
}

/**
 * Brings the projection of `cwd`'s scopes up to date with their files before a read answers
 * (approved-follow.ts): what could not be is a partial scope with its reason, never a stale
 * answer given as complete. memory-state lives in the data home, the user root's anchor.
 */
export function followFiles(memoryStatePath: string, cwd: string): FollowResult {
  const targets = targetsOf(dirname(memoryStatePath), cwd)
    // No data home yet: the user scope has no root to read (it lives in the home), and its absence
    // is no failure to report; a read creates no data home.
    .filter(({ owner, anchor }) => owner.scope !== 'user' || existsSync(anchor))
    .map(({ owner, anchor }) => ({ owner, root: () => memoryRootOf(owner.scope, anchor) }));
  return followApproved(memoryStatePath, targets, {
    budgetMs: MEMORY_FOLLOW_READ_BUDGET_MS,
    lintFile: blockedFileProblem,
  });
}

/**
 * What a host watches for a session at `cwd`: the absolute paths of the memory roots it reads
 * (whether they exist or not), and its worktree (null outside git), whose git state it follows.
 */
export function watchedPathsOf(home: string, cwd: string): { roots: string[]; worktree: string | null } {
  const roots: string[] = [];
  let worktree: string | null = null;
  for (const { owner, anchor } of targetsOf(home, cwd)) {
    if (owner.scope === 'project') worktree = anchor;
    try {
      const root = memoryRootOf(owner.scope, anchor);
      roots.push(join(root.anchor, ...root.parts));
    } catch {
      // an anchor that cannot be opened has no root to watch
    }
  }
  return { roots, worktree };
}

/** The view with every scope the follow could not bring up to date marked partial, with the first reason. */
function withFollowed<T extends ApprovedView>(view: T, followed: FollowResult): T {
  if (followed.partial.length === 0) return view;
  const partial = new Set(followed.partial.map((p) => p.scope));
  const scopes = view.scopes.map((s) => (partial.has(s.scope) ? { ...s, coverage: 'partial' as const } : s));
  const first = followed.partial[0]!;
  return {
    ...view,
    scopes,
    coverage: 'partial',
    reason: first.reason,
    ...(first.unfinishedPlan ? { unfinishedPlan: first.unfinishedPlan } : {}),
  };
}

type ApprovedView = Omit<MemorySearchResult, 'results'>;

/**
 * No memory-state: nothing projected. Each scope's coverage is the caller's: complete only where
 * it knows the scope has no memory (its files read and none found, or no root at all).
 */
function emptyView(
  owners: ApprovedOwner[],
  coverageOf: (owner: ApprovedOwner, at: number) => 'complete' | 'partial',
): ApprovedView {
  const scopes = owners.map((o, at) => ({ scope: o.scope, generation: 0, coverage: coverageOf(o, at), entries: 0 }));
  return { generation: 0, coverage: scopes.every((s) => s.coverage === 'complete') ? 'complete' : 'partial', scopes };
}

/** Whether a scope's memory root is not there at all: it has no memory, read or not. */
function rootAbsent(target: Target): boolean {
  try {
    const root = memoryRootOf(target.owner.scope, target.anchor);
    return !existsSync(join(root.anchor, ...root.parts));
  } catch {
    // No anchor (a data home not made yet) has no root below it; one that cannot be opened is not known.
    return !existsSync(target.anchor);
  }
}

function scopesView(db: Db, owners: ApprovedOwner[]): ApprovedView {
  const scopes = owners.map((owner) => {
    const { scope, generation, coverage, entries } = readOwnerView(db, owner);
    return { scope, generation, coverage, entries };
  });
  return {
    generation: scopes.reduce((sum, s) => sum + s.generation, 0),
    coverage: scopes.every((s) => s.coverage === 'complete') ? 'complete' : 'partial',
    scopes,
  };
}

/** Generation, coverage and entry counts of the caller's scopes: what a status shows, no entry text. */
export function approvedViewAt(path: string, cwd: string): ApprovedView {
  const targets = targetsOf(dirname(path), cwd);
  const owners = targets.map((target) => target.owner);
  return withMemoryState(
    path,
    // Nothing projected: a scope with no memory root is empty (a status reads no files); one with a root is not known yet.
    () => emptyView(owners, (_, at) => (rootAbsent(targets[at]!) ? 'complete' : 'partial')),
    (db) => db.transaction(() => scopesView(db, owners))(),
  );
}

/** A scene as get gives it: an entry-like view of type "scene" whose body is its summary and entries. */
function sceneEntryView(scene: SceneView): MemoryEntryView {
  return {
    id: scene.id,
    title: scene.title,
    appliesWhen: scene.appliesWhen,
    contentDigest: scene.contentDigest,
    sources: [{ scope: scene.scope, path: scene.path }],
    body: sceneBody(scene),
    type: 'scene',
    priority: 0,
    scene: { name: scene.name, entries: scene.entries, missing: scene.missing, bodiesLeftOut: scene.bodiesLeftOut },
  };
}

/**
 * A doctrine as get gives it: type "doctrine", its body the principle and the notes it cites; when
 * its basis changed (a cited note edited, gone or stale) it is `stale` and the body says so first.
 */
function doctrineEntryView(doctrine: DoctrineView): MemoryEntryView {
  return {
    id: doctrine.id,
    title: doctrine.title,
    appliesWhen: null,
    contentDigest: doctrine.contentDigest,
    sources: [{ scope: doctrine.scope, path: doctrine.path }],
    body: doctrineBody(doctrine),
    type: 'doctrine',
    priority: 0,
    ...(doctrine.basisChanged.length > 0 ? { stale: true } : {}),
    doctrine: { name: doctrine.name, cites: doctrine.cites, basisChanged: doctrine.basisChanged },
  };
}

/**
 * `get scene:<name>` / `get doctrine:<name>`: the scene or doctrine as the projection holds it (the
 * follow first brings it up to date), as an entry-like view; not found names what was asked for.
 */
function groupGetAt<T>(
  path: string,
  cwd: string,
  id: string,
  noun: 'scene' | 'doctrine',
  read: (db: Db, owners: ApprovedOwner[], id: string) => T | undefined,
  toView: (found: T) => MemoryEntryView,
  findIds: string,
): MemoryEntryView {
  const owners = ownersOf(cwd);
  const followed = followFiles(path, cwd);
  const found = withMemoryState(
    path,
    () => undefined,
    (db) => db.transaction(() => read(db, owners, id))(),
  );
  if (found === undefined) throw notFoundError(noun, id, followed, findIds);
  const view = toView(found);
  const first = followed.partial[0];
  if (!first) return view;
  // A plan part-way through the files: they were read whole; what they say is not the plan's end yet.
  const why = first.unfinishedPlan ? first.reason : `the memory files could not all be read now: ${first.reason}`;
  return { ...view, body: `${view.body}\n(${why})\n` };
}

/**
 * No `noun` has the id — said as what was read: while a scope could not be read whole, or a plan is
 * part-way through its files, "no memory file has it" would be false, so the reason is named.
 */
function notFoundError(noun: string, id: string, followed: FollowResult, findIds: string): CmError {
  const first = followed.partial[0];
  return new CmError(
    'not_found',
    first?.noDataHome
      ? `No ${noun} has the id ${echoed(id)} in what was read: ${first.reason}.`
      : first?.unfinishedPlan
        ? // Merged or retired by the plan, or written by the rest of it: the files now are no answer.
          `No ${noun} has the id ${echoed(id)} in the memory files now, but ${first.reason}; then ask again.`
        : first
          ? `No ${noun} has the id ${echoed(id)} in what was read: the memory files could not all be read: ${first.reason}. Fix that, then run common-memory memory sync (it lists every file left out) and ask again.`
          : `No ${noun} has the id ${echoed(id)} in this repository's or the user's memory files. ${findIds}`,
  );
}

/**
 * Not found — or, when the caller's memory root holds a file named for the id that the last scan
 * left out (the lint blocked it), that file, its place and rule, masked: a person who wrote it by
 * hand learns why it is not given.
 */
function leftOutOrNotFound(db: Db, owners: ApprovedOwner[], entryId: string, notFound: () => CmError): CmError {
  const file = readLeftOutFiles(db).find(
    (left) =>
      // The id the file declares (a promoted file is named for its title), else a file named for the id.
      (left.entryId === entryId || left.path.endsWith(`/${entryId}.md`)) &&
      owners.some((owner) => owner.scope === left.scope && owner.repositoryKey === left.repositoryKey),
  );
  if (!file) return notFound();
  const where = file.line === null ? file.path : `${file.path}:${file.line}`;
  const why = file.kind === 'blocked' ? `the memory lint blocks it (${file.rule ?? 'a blocking finding'})` : file.kind;
  return new CmError(
    'not_found',
    `${echoed(entryId)} is not given: its ${file.scope} memory file ${where} is left out because ${why}. ${file.fix.replace(/^./, (c) => c.toUpperCase())}.`,
  );
}

/** Where a caller of the CLI or the API finds ids; an MCP caller is told its own tool instead. */
export const FIND_IDS_CLI = 'Run common-memory memory search to find ids.';

export function memoryGetAt(path: string, cwd: string, typed: string, findIds = FIND_IDS_CLI): MemoryEntryView {
  // An id never holds whitespace (entry-format.ts checkEntryId; a scene's name is a slug): around
  // a pasted id it is the paste's, not the id's. Trimmed here, the one read the CLI's get, the
  // API and MCP memory_get share, so they answer alike.
  const entryId = typed.trim();
  if (entryId === '')
    throw new CmError('usage', 'Give an entry id, e.g. common-memory get use-pnpm (memory search lists them).');
  if (entryId.startsWith(SCENE_ID_PREFIX))
    return groupGetAt(path, cwd, entryId, 'scene', readScene, sceneEntryView, findIds);
  if (entryId.startsWith(DOCTRINE_ID_PREFIX))
    return groupGetAt(path, cwd, entryId, 'doctrine', readDoctrine, doctrineEntryView, findIds);
  const owners = ownersOf(cwd);
  const followed = followFiles(path, cwd);
  // A scope the follow could not read keeps its last reading: the id may be in a file not read, so
  // "no memory file has it" would be false; say what kept the files from being read instead.
  const notFound = () => notFoundError('approved memory entry', entryId, followed, findIds);
  const stored = withMemoryState(
    path,
    () => undefined,
    (db) => {
      const found = readApprovedEntry(db, owners, entryId);
      if (!found) return { missing: leftOutOrNotFound(db, owners, entryId, notFound) };
      return {
        entry: found,
        verdicts: readVerdicts(db, owners, { entryIds: [entryId] }),
        usage: readEntryUsageView(db, entryId),
      };
    },
  );
  if (!stored) throw notFound();
  if ('missing' in stored) throw stored.missing;
  const entry = { ...withVerification(stored.entry, stored.verdicts), usage: stored.usage };
  if (followed.partial.length === 0) return entry;
  // The projection could not be brought up to date: the entry is given from its file — as
  // projected when the file still holds those bytes, else as the file says now — never the body
  // of a removed file.
  const home = dirname(path);
  const anchors = new Map(targetsOf(home, cwd).map((t) => [t.owner.scope, t.anchor]));
  let present = false;
  for (const source of entry.sources) {
    const anchor = anchors.get(source.scope);
    if (anchor === undefined) continue;
    try {
      const read = readMemoryFile(memoryRootOf(source.scope, anchor), source.path, MEMORY_ENTRY_MAX_BYTES);
      if (!read) continue;
      present = true;
      const digest = sha256Hex(read.bytes);
      if (digest === entry.contentDigest) return entry;
      const parsed = parseEntry(read.bytes);
      if (parsed.ok && parsed.value.entry.id === entry.id) {
        // Bytes no scan has linted yet: linted here, as every read of a memory file is.
        const blocked = blockedFileProblem(source.path, new TextDecoder().decode(read.bytes));
        if (blocked)
          throw new CmError(
            'not_found',
            // The file named as memory lint takes it, as memory status's fix names it (memory-reads.ts).
            `${echoed(entryId)} is not given: its ${source.scope} memory file ${source.path}:${blocked.line} is blocked by the memory lint (${blocked.rule}); take the secret or the instruction to the model out of the file (common-memory memory lint ${source.scope === 'project' ? '.common-memory/memory' : '<data home>/memory'}/${source.path} names it), or remove it.`,
          );
        const now = parsed.value.entry;
        return {
          ...withVerification(
            {
              id: now.id,
              title: now.title,
              appliesWhen: now.appliesWhen,
              contentDigest: digest,
              sources: [source],
              body: now.body,
              type: now.type,
              priority: now.priority,
            },
            stored.verdicts,
          ),
          usage: stored.usage,
        };
      }
    } catch (error) {
      if (error instanceof CmError) throw error;
      // unreadable: judged like a changed file below
    }
  }
  if (!present) throw notFound();
  throw new CmError(
    'memory_unavailable',
    `The file of ${echoed(entryId)} changed and the projection could not be brought up to date: ${followed.partial[0]!.reason}. Try again, or run common-memory memory sync.`,
  );
}

/** Stale entries the Memory screen lists at most. */
export const MEMORY_STALE_LIST_MAX = 200;

/**
 * The stale entries of `cwd`'s worktree, then the user scope's, with their failed anchors, from the
 * last verification. Verdicts that cannot be read are `unavailable`.
 */
export function memoryStaleAt(path: string, cwd: string): MemoryStaleResult {
  const owners = ownersOf(cwd);
  const none = (state: MemoryStaleResult['state'], reason: string | null): MemoryStaleResult => ({
    state,
    reason,
    total: 0,
    entries: [],
  });
  try {
    return withMemoryState(
      path,
      () => none('unverified', null),
      (db) =>
        db.transaction((): MemoryStaleResult => {
          const summary = readAnchorSummary(db);
          if (summary.state !== 'verified') return none(summary.state, summary.reason);
          const { rows, total } = readStaleEntries(db, owners, MEMORY_STALE_LIST_MAX);
          return {
            state: 'verified',
            reason: null,
            total,
            entries: rows.map((row) => ({
              entryId: row.entryId,
              title: row.title,
              scope: row.scope,
              path: (JSON.parse(row.pathsJson) as string[])[0] ?? '',
              failedAnchors: (JSON.parse(row.failedJson) as Array<{ anchor: string; reason: string }>).map(
                ({ anchor, reason }) => ({ anchor, reason }),
              ),
              verifiedAt: new Date(row.verifiedAtMs).toISOString(),
            })),
          };
        })(),
    );
  } catch (error) {
    return none('unavailable', error instanceof Error ? error.message : String(error));
  }
}
