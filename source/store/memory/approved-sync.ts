// Storing a scan of a memory root in the approved projection, with no zod: the writer's command
// (approved-store.ts) checks its input and runs this, and the SessionStart hook, `get`, search and
// the MCP reads run it too when they find the files changed (approved-follow.ts), because the hook's
// fast path loads no schema library. One owner per call, one transaction (the caller's Tx).
//
// A complete scan of a changed tree bumps the generation and changes only the rows whose entry
// changed (an edited, added or removed file, or a file moved): unchanged rows and their FTS rows are
// left alone, so a pull that touches one entry of ten thousand costs one entry's writes. A partial
// scan only records its coverage and problems, so readers keep the last complete projection. The
// scan happened outside the transaction: the caller's expected generation is compared first, and a
// sync that committed in between wins (the caller scans again or reports partial).
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import type {
  DirectoryStamps,
  MemoryScope,
  ProjectionProblem,
  ScannedDoctrine,
  ScannedScene,
} from '../../effects/approved-scan.js';
import { replaceDoctrine } from './doctrine-sync.js';
import { approvedSearchableText, indexRecallRow, unindexRecallRow } from './recall-terms.js';

/** What the FTS rows index and how: a change re-indexes on the next complete scan. */
export const APPROVED_ANALYZER_VERSION = 'approved-fts@1';
export const APPROVED_RECALL_VERSION = 'recall-rrf@1';

export interface ApprovedOwner {
  scope: MemoryScope;
  repositoryKey: string;
  worktreeKey: string;
}

/** One entry as a scan gives it (ApprovedEntry): the frontmatter fields, the body, where it is. */
export interface StoredEntryInput {
  id: string;
  title: string;
  appliesWhen: string | null;
  type: string;
  priority: number;
  confidence: string | null;
  evidence: unknown;
  created: string | null;
  supersedes: string[];
  extra: Record<string, unknown>;
  body: string;
  scope: MemoryScope;
  paths: string[];
  contentDigest: string;
}

/** A scan to store (approved-store.ts checks the same shape with zod for the writer's command). */
export interface SyncApprovedInput {
  owner: ApprovedOwner;
  /** The generation the caller saw before it scanned (null: no projection yet). */
  expectedGeneration: number | null;
  coverage: 'complete' | 'partial';
  unchanged: boolean;
  sourceTreeDigest: string;
  /** encodePreviousScan of a complete scan; kept for the next short circuit. */
  scanJson: string;
  problems: Array<Omit<ProjectionProblem, 'kind'> & { kind: string }>;
  entries: StoredEntryInput[];
  /** The scene files of the root (absent: none), kept with a complete projection. */
  scenes?: ScannedScene[] | undefined;
  /** The doctrine files of the root (absent: none), kept with a complete projection. */
  doctrine?: ScannedDoctrine[] | undefined;
  /** The root's directory stamps as the scan took them: kept with a complete projection only. */
  directories?: DirectoryStamps | undefined;
}

export interface SyncApprovedResult {
  /** raced: another sync committed after this scan began; scan again. */
  outcome: 'replaced' | 'unchanged' | 'partial' | 'raced';
  generation: number;
  coverage: 'complete' | 'partial';
  entries: number;
}

export interface ProjectionRow {
  scope: MemoryScope;
  generation: number;
  source_tree_digest: string;
  coverage: 'complete' | 'partial';
  scan_json: string | null;
  problems_json: string;
  synced_at_ms: number | null;
}

/** What a projection row says without its scan: the scan of a large root is megabytes of JSON. */
export type ProjectionState = Omit<ProjectionRow, 'scan_json' | 'source_tree_digest'>;

/**
 * An owner's scope, generation and coverage alone: the columns stored before the scan. Reading a
 * column stored after it (problems, when synced) walks the scan's overflow pages — at 10k entries a
 * tenth of the SessionStart hook, which needs the problems only of a partial projection.
 */
export function readProjectionCoverage(
  db: Db,
  owner: Omit<ApprovedOwner, 'scope'>,
): Pick<ProjectionRow, 'scope' | 'generation' | 'coverage'> | undefined {
  return prepared(
    db,
    'SELECT scope, generation, coverage FROM approved_projection WHERE repository_key = ? AND worktree_key = ?',
  ).get(owner.repositoryKey, owner.worktreeKey) as Pick<ProjectionRow, 'scope' | 'generation' | 'coverage'> | undefined;
}

/**
 * An owner's generation, coverage and problems without the scan: what the session snapshot, `get`
 * and status read (with 10k entries, reading the scan was a fifth of the SessionStart hook).
 */
export function readProjectionState(db: Db, owner: Omit<ApprovedOwner, 'scope'>): ProjectionState | undefined {
  return prepared(
    db,
    `SELECT scope, generation, coverage, problems_json, synced_at_ms
     FROM approved_projection WHERE repository_key = ? AND worktree_key = ?`,
  ).get(owner.repositoryKey, owner.worktreeKey) as ProjectionState | undefined;
}

export function readProjection(db: Db, owner: Omit<ApprovedOwner, 'scope'>): ProjectionRow | undefined {
  return prepared(
    db,
    `SELECT scope, generation, source_tree_digest, coverage, scan_json, problems_json, synced_at_ms
     FROM approved_projection WHERE repository_key = ? AND worktree_key = ?`,
  ).get(owner.repositoryKey, owner.worktreeKey) as ProjectionRow | undefined;
}

/**
 * The directory stamps of an owner's root beside its projection, in memory_state_meta (a key per
 * owner): the hook reads this one short row, not the stamps of every file, to see nothing changed.
 * Kept only while the projection is complete and matches them.
 */
const directoriesKey = (owner: Omit<ApprovedOwner, 'scope'>) =>
  `approved_directories:${owner.repositoryKey}:${owner.worktreeKey}`;

export interface QuickProjection {
  generation: number;
  coverage: 'complete' | 'partial';
  directories: DirectoryStamps | null;
}

/** The generation, coverage and directory stamps of an owner: what the unchanged-tree check needs. */
export function readQuickProjection(db: Db, owner: Omit<ApprovedOwner, 'scope'>): QuickProjection | undefined {
  const row = prepared(
    db,
    `SELECT p.generation, p.coverage, m.value AS directories FROM approved_projection p
     LEFT JOIN memory_state_meta m ON m.key = ?
     WHERE p.repository_key = ? AND p.worktree_key = ?`,
  ).get(directoriesKey(owner), owner.repositoryKey, owner.worktreeKey) as
    | { generation: number; coverage: 'complete' | 'partial'; directories: string | null }
    | undefined;
  if (!row) return undefined;
  let directories: DirectoryStamps | null = null;
  try {
    directories = row.directories === null ? null : (JSON.parse(row.directories) as DirectoryStamps);
  } catch {
    // unreadable: only costs the per-file check
  }
  return { generation: row.generation, coverage: row.coverage, directories };
}

/** Records (or, with null, forgets) the directory stamps that match the owner's complete projection. */
export function keepDirectoryStamps(
  tx: Tx<'memory'>,
  owner: Omit<ApprovedOwner, 'scope'>,
  directories: DirectoryStamps | null,
): void {
  if (directories === null) prepared(tx.db, 'DELETE FROM memory_state_meta WHERE key = ?').run(directoriesKey(owner));
  else
    prepared(
      tx.db,
      'INSERT INTO memory_state_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(directoriesKey(owner), JSON.stringify(directories));
}

/** A stored entry as its file gave it: what an incremental scan reuses for a file whose stamp did not change. */
export interface StoredEntry {
  contentDigest: string;
  /** The frontmatter fields as stored (id, type, title, … extra). */
  frontmatter: Record<string, unknown>;
  body: string;
}

/** The owner's stored entries by each path that holds them. */
export function storedEntriesByPath(db: Db, owner: Omit<ApprovedOwner, 'scope'>): Map<string, StoredEntry> {
  const rows = prepared(
    db,
    `SELECT content_digest, frontmatter_json, body_text, paths_json
     FROM approved_entries WHERE repository_key = ? AND worktree_key = ?`,
  ).all(owner.repositoryKey, owner.worktreeKey) as Array<{
    content_digest: string;
    frontmatter_json: string;
    body_text: string;
    paths_json: string;
  }>;
  const byPath = new Map<string, StoredEntry>();
  for (const row of rows) {
    const entry: StoredEntry = {
      contentDigest: row.content_digest,
      frontmatter: JSON.parse(row.frontmatter_json) as Record<string, unknown>,
      body: row.body_text,
    };
    for (const path of JSON.parse(row.paths_json) as string[]) byPath.set(path, entry);
  }
  return byPath;
}

/** The content digest of the owner's stored entry at each path (no entry's text read or parsed). */
export function storedDigestsByPath(db: Db, owner: Omit<ApprovedOwner, 'scope'>): Map<string, string> {
  const rows = prepared(
    db,
    'SELECT content_digest, paths_json FROM approved_entries WHERE repository_key = ? AND worktree_key = ?',
  ).all(owner.repositoryKey, owner.worktreeKey) as Array<{ content_digest: string; paths_json: string }>;
  const byPath = new Map<string, string>();
  for (const row of rows)
    for (const path of JSON.parse(row.paths_json) as string[]) byPath.set(path, row.content_digest);
  return byPath;
}

/** Makes the owner's rows the scan's entries, touching only the rows that differ. */
function replaceEntries(tx: Tx<'memory'>, owner: ApprovedOwner, entries: ReadonlyArray<StoredEntryInput>): void {
  const db = tx.db;
  const old = prepared(
    db,
    `SELECT rowid, entry_id, revision, content_digest, paths_json
     FROM approved_entries WHERE repository_key = ? AND worktree_key = ?`,
  ).all(owner.repositoryKey, owner.worktreeKey) as Array<{
    rowid: number;
    entry_id: string;
    revision: number;
    content_digest: string;
    paths_json: string;
  }>;
  const previous = new Map(old.map((row) => [row.entry_id, row]));
  const readText = prepared(db, 'SELECT frontmatter_json, body_text FROM approved_entries WHERE rowid = ?');
  const remove = prepared(db, 'DELETE FROM approved_entries WHERE rowid = ?');
  const drop = (rowid: number): void => {
    const row = readText.get(rowid) as { frontmatter_json: string; body_text: string };
    const { title, appliesWhen } = JSON.parse(row.frontmatter_json) as { title: string; appliesWhen: string | null };
    unindexRecallRow(db, 'approved', rowid, approvedSearchableText({ title, appliesWhen, body: row.body_text }));
    remove.run(rowid);
  };
  const kept = new Set<string>();
  const insert = prepared(
    db,
    `INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status, scope, paths_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'approved', ?, ?)`,
  );
  for (const entry of entries) {
    kept.add(entry.id);
    const { body, paths, contentDigest, scope: _scope, ...frontmatter } = entry;
    const pathsJson = JSON.stringify(paths);
    const before = previous.get(entry.id);
    // The same bytes at the same paths: the row (and its FTS row) already says exactly this.
    if (before && before.content_digest === contentDigest && before.paths_json === pathsJson) continue;
    if (before) drop(before.rowid);
    // An entry's revision counts its content changes: recall compares it before applying a decision.
    const revision = !before ? 1 : before.content_digest === contentDigest ? before.revision : before.revision + 1;
    const { lastInsertRowid } = insert.run(
      entry.id,
      owner.repositoryKey,
      owner.worktreeKey,
      revision,
      contentDigest,
      JSON.stringify(frontmatter),
      body,
      owner.scope,
      pathsJson,
    );
    indexRecallRow(db, 'approved', lastInsertRowid, approvedSearchableText(entry));
  }
  for (const row of old) if (!kept.has(row.entry_id)) drop(row.rowid);
}

/**
 * Makes the owner's scene rows the scan's scenes. Each keeps the ids its file names and, apart,
 * those of them this projection holds (what a reader can open) with their count.
 */
function replaceScenes(
  tx: Tx<'memory'>,
  owner: ApprovedOwner,
  scenes: ReadonlyArray<ScannedScene>,
  entries: ReadonlyArray<StoredEntryInput>,
): void {
  prepared(tx.db, 'DELETE FROM approved_scenes WHERE repository_key = ? AND worktree_key = ?').run(
    owner.repositoryKey,
    owner.worktreeKey,
  );
  if (scenes.length === 0) return;
  const approved = new Set(entries.map((entry) => entry.id));
  const insert = prepared(
    tx.db,
    `INSERT INTO approved_scenes (repository_key, worktree_key, name, scope, title, applies_when, summary, file_entries_json, entry_ids_json, entries, path, content_digest)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const scene of scenes) {
    const held = scene.entries.filter((id) => approved.has(id));
    insert.run(
      owner.repositoryKey,
      owner.worktreeKey,
      scene.name,
      owner.scope,
      scene.title,
      scene.appliesWhen,
      scene.summary,
      JSON.stringify(scene.entries),
      JSON.stringify(held),
      held.length,
      scene.path,
      scene.contentDigest,
    );
  }
}

/** The owner's stored scenes by path: what an incremental scan reuses for a scene file whose stamp did not change. */
export function storedScenesByPath(db: Db, owner: Omit<ApprovedOwner, 'scope'>): Map<string, ScannedScene> {
  const rows = prepared(
    db,
    `SELECT name, title, applies_when, summary, file_entries_json, path, content_digest
     FROM approved_scenes WHERE repository_key = ? AND worktree_key = ?`,
  ).all(owner.repositoryKey, owner.worktreeKey) as Array<{
    name: string;
    title: string;
    applies_when: string | null;
    summary: string;
    file_entries_json: string;
    path: string;
    content_digest: string;
  }>;
  return new Map(
    rows.map((row) => [
      row.path,
      {
        name: row.name,
        title: row.title,
        appliesWhen: row.applies_when,
        entries: JSON.parse(row.file_entries_json) as string[],
        summary: row.summary,
        path: row.path,
        contentDigest: row.content_digest,
      },
    ]),
  );
}

export function syncApproved(tx: Tx<'memory'>, input: SyncApprovedInput): SyncApprovedResult {
  const { owner } = input;
  const current = readProjection(tx.db, owner);
  if ((current?.generation ?? null) !== input.expectedGeneration) {
    return {
      outcome: 'raced',
      generation: current?.generation ?? 0,
      coverage: current?.coverage ?? 'partial',
      entries: 0,
    };
  }
  const count = (): number =>
    prepared(tx.db, 'SELECT count(*) FROM approved_entries WHERE repository_key = ? AND worktree_key = ?')
      .pluck()
      .get(owner.repositoryKey, owner.worktreeKey) as number;
  const problemsJson = JSON.stringify(input.problems);
  if (input.coverage === 'partial') {
    // Readers keep the last complete projection; they are told it is not the whole tree.
    const outOfTime = input.problems.some((problem) => problem.kind === 'deadline');
    keepDirectoryStamps(tx, owner, outOfTime && input.directories ? { ...input.directories, outOfTime } : null);
    if (current) {
      prepared(
        tx.db,
        "UPDATE approved_projection SET coverage = 'partial', problems_json = ?, synced_at_ms = ? WHERE repository_key = ? AND worktree_key = ?",
      ).run(problemsJson, tx.nowMs, owner.repositoryKey, owner.worktreeKey);
    } else {
      prepared(
        tx.db,
        `INSERT INTO approved_projection (repository_key, worktree_key, generation, source_tree_digest, coverage, analyzer_version, recall_algorithm_version, scope, scan_json, problems_json, synced_at_ms)
         VALUES (?, ?, 0, '', 'partial', ?, ?, ?, NULL, ?, ?)`,
      ).run(
        owner.repositoryKey,
        owner.worktreeKey,
        APPROVED_ANALYZER_VERSION,
        APPROVED_RECALL_VERSION,
        owner.scope,
        problemsJson,
        tx.nowMs,
      );
    }
    return {
      outcome: 'partial',
      generation: current?.generation ?? 0,
      coverage: 'partial',
      entries: current ? count() : 0,
    };
  }
  if (current && (input.unchanged || current.source_tree_digest === input.sourceTreeDigest)) {
    // The same tree: no new generation. The stamps may be newer (a touched file), so keep them.
    prepared(
      tx.db,
      `UPDATE approved_projection SET coverage = 'complete', problems_json = '[]', synced_at_ms = ?, scan_json = CASE WHEN ? THEN scan_json ELSE ? END
       WHERE repository_key = ? AND worktree_key = ?`,
    ).run(tx.nowMs, input.unchanged ? 1 : 0, input.scanJson, owner.repositoryKey, owner.worktreeKey);
    keepDirectoryStamps(tx, owner, input.directories ?? null);
    return { outcome: 'unchanged', generation: current.generation, coverage: 'complete', entries: count() };
  }
  replaceEntries(tx, owner, input.entries);
  replaceScenes(tx, owner, input.scenes ?? [], input.entries);
  replaceDoctrine(tx, owner, input.doctrine ?? [], input.entries);
  keepDirectoryStamps(tx, owner, input.directories ?? null);
  const generation = (current?.generation ?? 0) + 1;
  prepared(
    tx.db,
    `INSERT INTO approved_projection (repository_key, worktree_key, generation, source_tree_digest, coverage, analyzer_version, recall_algorithm_version, scope, scan_json, problems_json, synced_at_ms)
     VALUES (?, ?, ?, ?, 'complete', ?, ?, ?, ?, '[]', ?)
     ON CONFLICT (repository_key, worktree_key) DO UPDATE SET generation = excluded.generation, source_tree_digest = excluded.source_tree_digest,
       coverage = 'complete', analyzer_version = excluded.analyzer_version, recall_algorithm_version = excluded.recall_algorithm_version,
       scan_json = excluded.scan_json, problems_json = '[]', synced_at_ms = excluded.synced_at_ms`,
  ).run(
    owner.repositoryKey,
    owner.worktreeKey,
    generation,
    input.sourceTreeDigest,
    APPROVED_ANALYZER_VERSION,
    APPROVED_RECALL_VERSION,
    owner.scope,
    input.scanJson,
    tx.nowMs,
  );
  // One row per id (the primary key refuses a second): the count replaceEntries just made.
  prepared(
    tx.db,
    `INSERT INTO approved_entry_counts (repository_key, worktree_key, entries) VALUES (?, ?, ?)
     ON CONFLICT (repository_key, worktree_key) DO UPDATE SET entries = excluded.entries`,
  ).run(owner.repositoryKey, owner.worktreeKey, input.entries.length);
  return { outcome: 'replaced', generation, coverage: 'complete', entries: input.entries.length };
}
