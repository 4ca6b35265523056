// Reads of the approved projection (a read-only connection): search, get and status. Apart from
// the sync command (approved-store.ts) so that a read loads no zod schema: the CLI's reads are
// whole processes that scripts and agents start in loops.
import { prepared, type Db } from '../database.js';
import type { MemoryScope, ProjectionProblem } from '../../effects/approved-scan.js';
import { buildFtsQuery } from '../../memory/fts-query.js';
import { type ApprovedOwner, readProjectionState } from './approved-sync.js';

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
  const row = readProjectionState(db, owner);
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
  /** The entry text's digest: whose verdict applies (verdict-read.ts verdictFor). */
  contentDigest: string;
}

/** BM25 over the approved entries of the owners, best first; ties by scope order then id. */
export function searchApproved(db: Db, owners: ApprovedOwner[], query: string, limit: number): ApprovedHit[] {
  const match = buildFtsQuery(query);
  if (match === null || owners.length === 0) return [];
  const where = owners.map(() => '(a.repository_key = ? AND a.worktree_key = ?)').join(' OR ');
  const rows = db
    .prepare(
      `SELECT a.entry_id AS entryId, a.scope, json_extract(a.frontmatter_json, '$.title') AS title, a.paths_json AS pathsJson,
              a.content_digest AS contentDigest
       FROM approved_fts CROSS JOIN approved_entries a ON a.rowid = approved_fts.rowid
       WHERE approved_fts MATCH ? AND (${where})
       ORDER BY bm25(approved_fts), CASE a.scope WHEN 'project' THEN 0 ELSE 1 END, a.entry_id LIMIT ?`,
    )
    .all(match, ...owners.flatMap((o) => [o.repositoryKey, o.worktreeKey]), limit) as Array<{
    entryId: string;
    scope: MemoryScope;
    title: string;
    pathsJson: string;
    contentDigest: string;
  }>;
  return rows.map((row) => ({
    entryId: row.entryId,
    title: row.title,
    scope: row.scope,
    path: (JSON.parse(row.pathsJson) as string[])[0]!,
    contentDigest: row.contentDigest,
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
