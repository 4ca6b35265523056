// The approved projection in memory-state (seed 004 DEV-1): per owner (a repository worktree, or
// the user scope) the entries of its memory root with their FTS rows, the generation, the source
// tree digest and the coverage of the last scan. A complete scan of a changed tree replaces the
// owner's entries and FTS rows and bumps the generation in one transaction; a partial scan only
// records its coverage and problems, so readers keep the last complete projection; the same tree
// again changes nothing. The scan itself happens outside the writer (approved-projection.ts): the
// command refuses it when another sync committed since it began, and the caller scans again.
import { z } from 'zod';
import { memoryCommand } from '../command.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import type { ApprovedEntry, MemoryScope, ProjectionProblem } from '../../effects/approved-projection.js';
import { buildFtsQuery } from '../../memory/fts-query.js';
import { approvedSearchableText, indexRecallRow, unindexRecallRow } from './recall-terms.js';

/** What the FTS rows index and how: a change re-indexes on the next complete scan. */
export const APPROVED_ANALYZER_VERSION = 'approved-fts@1';
export const APPROVED_RECALL_VERSION = 'recall-rrf@1';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

export interface ApprovedOwner {
  scope: MemoryScope;
  repositoryKey: string;
  worktreeKey: string;
}

const ownerSchema = z.object({ scope: z.enum(['project', 'user']), repositoryKey: hex64, worktreeKey: hex64 }).strict();

const entrySchema = z
  .object({
    id: z.string().min(1),
    type: z.string(),
    title: z.string(),
    appliesWhen: z.string().nullable(),
    priority: z.number(),
    confidence: z.string().nullable(),
    evidence: z.unknown(),
    created: z.string().nullable(),
    supersedes: z.array(z.string()),
    body: z.string(),
    extra: z.record(z.string(), z.unknown()),
    scope: z.enum(['project', 'user']),
    paths: z.array(z.string()).min(1),
    contentDigest: hex64,
  })
  .strict();

const problemSchema = z
  .object({ kind: z.string(), path: z.string(), line: z.number().nullable(), message: z.string() })
  .strict();

export const syncInput = z
  .object({
    owner: ownerSchema,
    /** The generation the caller saw before it scanned (null: no projection yet). */
    expectedGeneration: z.number().int().nullable(),
    coverage: z.enum(['complete', 'partial']),
    unchanged: z.boolean(),
    sourceTreeDigest: hex64,
    /** encodePreviousScan of a complete scan; kept for the next short circuit. */
    scanJson: z.string(),
    problems: z.array(problemSchema),
    entries: z.array(entrySchema),
  })
  .strict();

export type SyncApprovedInput = z.input<typeof syncInput>;

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

export function readProjection(db: Db, owner: Omit<ApprovedOwner, 'scope'>): ProjectionRow | undefined {
  return prepared(
    db,
    `SELECT scope, generation, source_tree_digest, coverage, scan_json, problems_json, synced_at_ms
     FROM approved_projection WHERE repository_key = ? AND worktree_key = ?`,
  ).get(owner.repositoryKey, owner.worktreeKey) as ProjectionRow | undefined;
}

function replaceEntries(tx: Tx, owner: ApprovedOwner, entries: z.infer<typeof entrySchema>[]): void {
  const db = tx.db;
  const old = prepared(
    db,
    `SELECT rowid, entry_id, revision, content_digest, frontmatter_json, body_text
     FROM approved_entries WHERE repository_key = ? AND worktree_key = ?`,
  ).all(owner.repositoryKey, owner.worktreeKey) as Array<{
    rowid: number;
    entry_id: string;
    revision: number;
    content_digest: string;
    frontmatter_json: string;
    body_text: string;
  }>;
  for (const row of old) {
    const { title, appliesWhen } = JSON.parse(row.frontmatter_json) as Pick<ApprovedEntry, 'title' | 'appliesWhen'>;
    unindexRecallRow(db, 'approved', row.rowid, approvedSearchableText({ title, appliesWhen, body: row.body_text }));
  }
  prepared(db, 'DELETE FROM approved_entries WHERE repository_key = ? AND worktree_key = ?').run(
    owner.repositoryKey,
    owner.worktreeKey,
  );
  const previous = new Map(old.map((row) => [row.entry_id, row]));
  const insert = prepared(
    db,
    `INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status, scope, paths_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'approved', ?, ?)`,
  );
  for (const entry of entries) {
    const { body, paths, contentDigest, scope: _scope, ...frontmatter } = entry;
    const before = previous.get(entry.id);
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
      JSON.stringify(paths),
    );
    indexRecallRow(db, 'approved', lastInsertRowid, approvedSearchableText(entry));
  }
}

export function syncApproved(tx: Tx, input: z.infer<typeof syncInput>): SyncApprovedResult {
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
    return { outcome: 'unchanged', generation: current.generation, coverage: 'complete', entries: count() };
  }
  replaceEntries(tx, owner, input.entries);
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
  // One row per id (the primary key refuses a second): the count replaceEntries just inserted.
  prepared(
    tx.db,
    `INSERT INTO approved_entry_counts (repository_key, worktree_key, entries) VALUES (?, ?, ?)
     ON CONFLICT (repository_key, worktree_key) DO UPDATE SET entries = excluded.entries`,
  ).run(owner.repositoryKey, owner.worktreeKey, input.entries.length);
  return { outcome: 'replaced', generation, coverage: 'complete', entries: input.entries.length };
}

export const approvedCommands = {
  /** Stores one owner's scan: replace + new generation, or coverage only, or nothing (same tree). */
  memorySyncApproved: memoryCommand({ schema: syncInput, run: (tx, _context, input) => syncApproved(tx, input) }),
};

// ---- reads (a read-only connection) ----

export interface OwnerView {
  scope: MemoryScope;
  generation: number;
  coverage: 'complete' | 'partial';
  entries: number;
  problems: ProjectionProblem[];
  syncedAt: string | null;
}

/** An owner never synced reads as partial: nothing is known of its files yet. */
export function readOwnerView(db: Db, owner: ApprovedOwner): OwnerView {
  const row = readProjection(db, owner);
  if (!row) return { scope: owner.scope, generation: 0, coverage: 'partial', entries: 0, problems: [], syncedAt: null };
  const entries = prepared(db, 'SELECT count(*) FROM approved_entries WHERE repository_key = ? AND worktree_key = ?')
    .pluck()
    .get(owner.repositoryKey, owner.worktreeKey) as number;
  return {
    scope: owner.scope,
    generation: row.generation,
    coverage: row.coverage,
    entries,
    problems: JSON.parse(row.problems_json) as ProjectionProblem[],
    syncedAt: row.synced_at_ms === null ? null : new Date(row.synced_at_ms).toISOString(),
  };
}

export interface ApprovedHit {
  entryId: string;
  title: string;
  scope: MemoryScope;
  path: string;
}

/** BM25 over the approved entries of the owners, best first; ties by scope order then id. */
export function searchApproved(db: Db, owners: ApprovedOwner[], query: string, limit: number): ApprovedHit[] {
  const match = buildFtsQuery(query);
  if (match === null || owners.length === 0) return [];
  const where = owners.map(() => '(a.repository_key = ? AND a.worktree_key = ?)').join(' OR ');
  const rows = db
    .prepare(
      `SELECT a.entry_id AS entryId, a.scope, json_extract(a.frontmatter_json, '$.title') AS title, a.paths_json AS pathsJson
       FROM approved_fts CROSS JOIN approved_entries a ON a.rowid = approved_fts.rowid
       WHERE approved_fts MATCH ? AND (${where})
       ORDER BY bm25(approved_fts), CASE a.scope WHEN 'project' THEN 0 ELSE 1 END, a.entry_id LIMIT ?`,
    )
    .all(match, ...owners.flatMap((o) => [o.repositoryKey, o.worktreeKey]), limit) as Array<{
    entryId: string;
    scope: MemoryScope;
    title: string;
    pathsJson: string;
  }>;
  return rows.map((row) => ({
    entryId: row.entryId,
    title: row.title,
    scope: row.scope,
    path: (JSON.parse(row.pathsJson) as string[])[0]!,
  }));
}

export interface ApprovedEntryView {
  id: string;
  title: string;
  appliesWhen: string | null;
  contentDigest: string;
  sources: Array<{ scope: MemoryScope; path: string }>;
  body: string;
  type: string;
  priority: number;
}

/**
 * One entry by id across the owners. Every source holding the same id and digest is listed; when
 * the owners hold different contents under the id, the first owner's (the repository's) wins.
 */
export function readApprovedEntry(db: Db, owners: ApprovedOwner[], entryId: string): ApprovedEntryView | undefined {
  const read = prepared(
    db,
    'SELECT content_digest, frontmatter_json, body_text, scope, paths_json FROM approved_entries WHERE entry_id = ? AND repository_key = ? AND worktree_key = ?',
  );
  let view: ApprovedEntryView | undefined;
  for (const owner of owners) {
    const row = read.get(entryId, owner.repositoryKey, owner.worktreeKey) as
      | { content_digest: string; frontmatter_json: string; body_text: string; scope: MemoryScope; paths_json: string }
      | undefined;
    if (!row) continue;
    const sources = (JSON.parse(row.paths_json) as string[]).map((path) => ({ scope: row.scope, path }));
    if (!view) {
      const front = JSON.parse(row.frontmatter_json) as {
        title: string;
        appliesWhen: string | null;
        type: string;
        priority: number;
      };
      view = {
        id: entryId,
        title: front.title,
        appliesWhen: front.appliesWhen,
        contentDigest: row.content_digest,
        sources,
        body: row.body_text,
        type: front.type,
        priority: front.priority,
      };
    } else if (row.content_digest === view.contentDigest) view.sources.push(...sources);
  }
  return view;
}
