// The session-start snapshot read from memory-state: the approved entries of the session's
// worktree and of the user scope, highest priority first, as many as the byte budget holds
// (snapshot.ts renders and bounds them). Read-only and light — node:* and better-sqlite3 only —
// because the SessionStart hook runs it on its fast path: the order is taken from the sort keys
// alone, and only the entries that can fit are read whole.
import type { Db } from '../database.js';
import { MEMORY_SNAPSHOT_MAX_BYTES } from '../../limits.js';
import { resolveScopeQuickly, USER_SCOPE } from '../../effects/repository.js';
import {
  sceneIdOf,
  selectSnapshot,
  type Snapshot,
  type SnapshotEntry,
  type SnapshotScene,
  type WithheldEntry,
} from '../../memory/snapshot.js';
import { readVerdicts, type StoredVerdict, type VerdictRead, verdictFor } from './verdict-read.js';
import { openMemoryStateReadOnly } from './state-database.js';
import { memoryRootOf } from '../../effects/memory-root.js';
import { type FollowTarget, followApproved } from './approved-follow.js';
import type { FileLint } from '../../effects/approved-scan.js';
import { readProjectionCoverage, readProjectionState } from './approved-sync.js';
import { readSnapshotDoctrine } from './doctrine-reads.js';

export interface SnapshotOwner {
  scope: 'project' | 'user';
  repositoryKey: string;
  worktreeKey: string;
}

/** The owners a session at `cwd` reads: its worktree's (inside git), then the user scope's. */
export function snapshotOwners(cwd: string | null | undefined): SnapshotOwner[] {
  return snapshotTargets(cwd, '').map((target) => target.owner);
}

/** The owners with their memory roots: the worktree's root and `home`'s user root. */
function snapshotTargets(cwd: string | null | undefined, home: string): FollowTarget[] {
  const scope = resolveScopeQuickly(cwd);
  const user: FollowTarget = {
    owner: { scope: 'user', repositoryKey: USER_SCOPE.repositoryKey, worktreeKey: USER_SCOPE.worktreeKey },
    root: () => memoryRootOf('user', home),
  };
  if (scope.scope !== 'project') return [user];
  const project: FollowTarget = {
    owner: { scope: 'project', repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey },
    root: () => memoryRootOf('project', scope.rootRealpath),
  };
  return [project, user];
}

/**
 * The smallest rendered entry is longer than this many bytes (its id, scope, priority and quoted
 * title on one line), so no budget holds more than budget / this entries: only that many are read.
 */
const MIN_ENTRY_BYTES = 32;

/** Of each body, the characters its excerpt is taken from: more than its first lines need, far below 64 KiB. */
const EXCERPT_SOURCE_CHARS = 4 * 1024;

interface OrderRow {
  entry_id: string;
  scope: 'project' | 'user';
  priority: number | null;
  created: string | null;
  frontmatter_json: string;
  body_text: string;
  content_digest: string;
}

/**
 * Rows read per owner first: more than a full budget of ordinary entries needs (each renders to
 * well over 100 bytes). Only a budget filled by very short entries reads again, up to the bound.
 */
const FIRST_PAGE_ROWS = 64;

/**
 * The snapshot of `owners` from an open memory-state (read-only is enough); one read transaction.
 * `cli`: the shell command the frame names beside the MCP tools (selectSnapshot).
 */
export function snapshotFromState(
  db: Db,
  owners: readonly SnapshotOwner[],
  budgetBytes: number = MEMORY_SNAPSHOT_MAX_BYTES,
  cli?: string,
  /** Why the projection may not match the files (it could not be brought up to date now). */
  partialReason?: string,
): Snapshot {
  const bound = Math.ceil(budgetBytes / MIN_ENTRY_BYTES) + 1;
  return db.transaction((): Snapshot => {
    // Each owner's first entries in the order of its index (state-schema v3): no sort of them all.
    const first = db.prepare(
      `SELECT entry_id, scope, json_extract(frontmatter_json, '$.priority') AS priority,
              json_extract(frontmatter_json, '$.created') AS created, frontmatter_json,
              substr(body_text, 1, ${EXCERPT_SOURCE_CHARS}) AS body_text, content_digest
       FROM approved_entries WHERE repository_key = ? AND worktree_key = ? AND status = 'approved'
       ORDER BY json_extract(frontmatter_json, '$.priority') DESC, json_extract(frontmatter_json, '$.created') DESC,
                entry_id
       LIMIT ?`,
    );
    // Kept by the sync that replaced the owner's entries (state-schema v7): counting 10k entries
    // here cost the hook a few milliseconds at every session start.
    const count = db
      .prepare('SELECT entries FROM approved_entry_counts WHERE repository_key = ? AND worktree_key = ?')
      .pluck();
    let total = 0;
    // A scope whose last reading of its files was partial keeps its previous projection: said so.
    let reason = partialReason;
    for (const owner of owners) {
      const row = reason === undefined ? readProjectionCoverage(db, owner) : undefined;
      if (row?.coverage === 'partial') {
        const problems = JSON.parse(readProjectionState(db, owner)?.problems_json ?? '[]') as Array<{
          message?: string;
        }>;
        reason = problems[0]?.message ?? `the ${owner.scope} memory files were not all read`;
      }
      // An id held by both owners is counted twice here: "N more" may then say one too many.
      total += (count.get(owner.repositoryKey, owner.worktreeKey) as number | undefined) ?? 0;
    }
    let scenes: SnapshotScene[] | undefined;
    // The doctrine whose basis holds: a few short rows, named in one bounded line.
    const doctrine = readSnapshotDoctrine(db, owners);
    const select = (limit: number): Snapshot => {
      const rows: OrderRow[] = [];
      for (const owner of owners)
        rows.push(...(first.all(owner.repositoryKey, owner.worktreeKey, limit) as OrderRow[]));
      const { given, withheld } = withholdStale(db, owners, rows);
      // Only when the entries do not all fit are the scenes read: one short row each.
      const sceneRows = () => {
        scenes ??= readSnapshotScenes(db, owners);
        return scenes;
      };
      return selectSnapshot(given.map(snapshotEntry), budgetBytes, total, cli, reason, withheld, sceneRows, doctrine);
    };
    const page = Math.min(FIRST_PAGE_ROWS, bound);
    const firstTry = select(page);
    // Within the first `page` of the merged order no owner can have run out of read rows: the
    // selection (and the entry it stopped at) is the one the whole lists give. Stale entries left
    // out count as read rows.
    if (firstTry.entryIds.length + (firstTry.withheld?.length ?? 0) < page || page === bound) return firstTry;
    return select(bound);
  })();
}

/**
 * The scenes of `owners` that hold at least one approved entry, as the last complete sync of their
 * files stored them (state-schema v13): no scene file is read here.
 */
export function readSnapshotScenes(db: Db, owners: readonly SnapshotOwner[]): SnapshotScene[] {
  const read = db.prepare(
    `SELECT name, scope, title, applies_when, entry_ids_json FROM approved_scenes
     WHERE repository_key = ? AND worktree_key = ? AND entries > 0 ORDER BY name`,
  );
  const scenes: SnapshotScene[] = [];
  for (const owner of owners) {
    const rows = read.all(owner.repositoryKey, owner.worktreeKey) as Array<{
      name: string;
      scope: 'project' | 'user';
      title: string;
      applies_when: string | null;
      entry_ids_json: string;
    }>;
    for (const row of rows)
      scenes.push({
        sceneId: sceneIdOf(row.name),
        scope: row.scope,
        title: row.title,
        appliesWhen: row.applies_when,
        entryIds: JSON.parse(row.entry_ids_json) as string[],
      });
  }
  return scenes;
}

/**
 * The rows whose stored verdict (for this very text) is stale are left out and named; every other
 * row is given. The repository's entries have verdicts against its worktree, the user scope's
 * against the home directory (one primary-key probe each: the rows read, never the tree). Verdicts that cannot be read — a damaged, locked or older store — leave
 * the rows exactly as without verification, never "everything is stale".
 */
function withholdStale(
  db: Db,
  owners: readonly SnapshotOwner[],
  rows: readonly OrderRow[],
): { given: OrderRow[]; withheld: WithheldEntry[] } {
  if (owners.length === 0 || rows.length === 0) return { given: [...rows], withheld: [] };
  // Each row's verdict from its own scope's owner: the repository's against its worktree, the user
  // scope's against the home directory (one probe a row, not one per owner).
  // The repository's first: an id both scopes hold keeps the repository's verdict, as before.
  const ordered = [...owners].sort((a, b) => (a.scope === b.scope ? 0 : a.scope === 'project' ? -1 : 1));
  const verdicts = new Map<string, StoredVerdict>();
  for (const owner of ordered) {
    const ids = rows.filter((row) => row.scope === owner.scope).map((row) => row.entry_id);
    if (ids.length === 0) continue;
    const scoped = readVerdicts(db, [owner], { entryIds: ids });
    if (!scoped.available) return { given: [...rows], withheld: [] };
    for (const [id, verdict] of scoped.verdicts) if (!verdicts.has(id)) verdicts.set(id, verdict);
  }
  const read: VerdictRead = { available: true, verdicts };
  const given: OrderRow[] = [];
  const withheld: WithheldEntry[] = [];
  for (const row of rows) {
    const verdict = verdictFor(read, row.entry_id, row.content_digest);
    if (verdict?.verdict === 'stale' && verdict.failed.length > 0)
      withheld.push({ entryId: row.entry_id, reason: verdict.failed[0]!.reason, more: verdict.failed.length - 1 });
    else given.push(row);
  }
  return { given, withheld };
}

function snapshotEntry(row: OrderRow): SnapshotEntry {
  const front = JSON.parse(row.frontmatter_json) as { title?: unknown; appliesWhen?: unknown };
  return {
    entryId: row.entry_id,
    scope: row.scope,
    title: typeof front.title === 'string' ? front.title : row.entry_id,
    appliesWhen: typeof front.appliesWhen === 'string' ? front.appliesWhen : null,
    priority: typeof row.priority === 'number' ? row.priority : 50,
    body: row.body_text,
    created: typeof row.created === 'string' ? row.created : null,
  };
}

/**
 * The snapshot for a session at `cwd` from the memory-state file at `path`: empty when the file
 * does not exist yet (nothing was ever approved); throws memory_unavailable when it is locked,
 * damaged or of another version. `cli`: the shell command the frame names (hook/cli-command.ts).
 * With `follow`, the projection is first brought up to date with the files of the session's
 * memory roots (approved-follow.ts), within `budgetMs`; what could not be is said in the frame.
 */
export function readSessionSnapshot(
  path: string,
  cwd: string | null | undefined,
  cli: string,
  budgetBytes?: number,
  follow?: { home: string; budgetMs: number; fileStampsUpTo?: number; lintFile: FileLint },
): Snapshot {
  let partialReason: string | undefined;
  if (follow) {
    const followed = followApproved(path, snapshotTargets(cwd, follow.home), follow);
    partialReason = followed.partial[0]?.reason;
  }
  const state = openMemoryStateReadOnly(path);
  // Nothing was ever approved: no repository to find.
  if (!state) return selectSnapshot([], budgetBytes);
  try {
    return snapshotFromState(state.db, snapshotOwners(cwd), budgetBytes, cli, partialReason);
  } finally {
    state.db.close();
  }
}
