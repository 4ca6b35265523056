// The stored verdicts of approved entries (memory-state v9, written by anchor-store.ts), read
// without zod or the writer so that the SessionStart hook may load this module: the snapshot, `get`,
// search and `memory status` read here. Every failure to read is `unavailable` with its reason —
// the caller then answers exactly as it would without verification, never "everything is stale".
import { prepared, type Db } from '../database.js';

export interface OwnerKeys {
  repositoryKey: string;
  worktreeKey: string;
}

export interface StoredVerdict {
  entryId: string;
  /** The entry text the verdict is about: a verdict of an older text is not this entry's. */
  contentDigest: string;
  verdict: 'fresh' | 'stale' | 'unknown';
  failed: Array<{ anchor: string; key: string; reason: string }>;
  verifiedAt: string;
}

export type VerdictRead =
  | { available: true; verdicts: Map<string, StoredVerdict> }
  | { available: false; reason: string };

interface VerdictRow {
  entry_id: string;
  content_digest: string;
  verdict: StoredVerdict['verdict'];
  failed_json: string;
  verified_at_ms: number;
}

const COLUMNS = 'entry_id, content_digest, verdict, failed_json, verified_at_ms';

/**
 * Stored verdicts of the owners' entries: of `entryIds` (one primary-key probe each: what the
 * snapshot and `get` need), or only the stale ones (a partial index: what search needs to rank
 * them last). The first owner (the repository) wins over the user scope, as readApprovedEntry does.
 * Any failure to read — a damaged, locked or older store — is `unavailable` with its reason: the
 * caller then gives entries exactly as it would without verification.
 */
export function readVerdicts(
  db: Db,
  owners: readonly OwnerKeys[],
  which: { entryIds: readonly string[] } | { stale: true },
): VerdictRead {
  try {
    const verdicts = new Map<string, StoredVerdict>();
    const add = (row: VerdictRow | undefined) => {
      if (!row || verdicts.has(row.entry_id)) return;
      verdicts.set(row.entry_id, {
        entryId: row.entry_id,
        contentDigest: row.content_digest,
        verdict: row.verdict,
        failed: JSON.parse(row.failed_json) as StoredVerdict['failed'],
        verifiedAt: new Date(row.verified_at_ms).toISOString(),
      });
    };
    if ('entryIds' in which) {
      const one = prepared(
        db,
        `SELECT ${COLUMNS} FROM entry_anchors WHERE repository_key = ? AND worktree_key = ? AND entry_id = ?`,
      );
      for (const owner of owners)
        for (const id of which.entryIds)
          add(one.get(owner.repositoryKey, owner.worktreeKey, id) as VerdictRow | undefined);
    } else {
      const stale = prepared(
        db,
        `SELECT ${COLUMNS} FROM entry_anchors WHERE repository_key = ? AND worktree_key = ? AND verdict = 'stale'`,
      );
      for (const owner of owners)
        for (const row of stale.all(owner.repositoryKey, owner.worktreeKey) as VerdictRow[]) add(row);
    }
    return { available: true, verdicts };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The verdict that applies to an entry as it is now: a verdict read from another text of the
 * entry (it was edited since the last run) is not this entry's, and says nothing.
 */
export function verdictFor(read: VerdictRead, entryId: string, contentDigest: string): StoredVerdict | null {
  if (!read.available) return null;
  const verdict = read.verdicts.get(entryId);
  return verdict && verdict.contentDigest === contentDigest ? verdict : null;
}

export interface AnchorSummary {
  state: 'verified' | 'unverified' | 'unavailable';
  reason: string | null;
  staleEntries: { project: number; user: number };
  verifiedAt: string | null;
}

/** Stale entries per scope over every owner, for `memory status`: the counts each run kept, no scan. */
export function readAnchorSummary(db: Db): AnchorSummary {
  try {
    const rows = prepared(
      db,
      `SELECT coalesce(p.scope, 'project') AS scope, sum(v.stale_entries) AS stale, max(v.verified_at_ms) AS at
       FROM anchor_verification v LEFT JOIN approved_projection p
         ON p.repository_key = v.repository_key AND p.worktree_key = v.worktree_key
       GROUP BY 1`,
    ).all() as Array<{ scope: 'project' | 'user'; stale: number; at: number }>;
    if (rows.length === 0)
      return { state: 'unverified', reason: null, staleEntries: { project: 0, user: 0 }, verifiedAt: null };
    const staleEntries = { project: 0, user: 0 };
    for (const row of rows) staleEntries[row.scope] += row.stale;
    const at = Math.max(...rows.map((row) => row.at));
    return { state: 'verified', reason: null, staleEntries, verifiedAt: new Date(at).toISOString() };
  } catch (error) {
    return {
      state: 'unavailable',
      reason: error instanceof Error ? error.message : String(error),
      staleEntries: { project: 0, user: 0 },
      verifiedAt: null,
    };
  }
}

/** Stale entries per owner, for `memory status` (a count kept by the run, never a scan). */
export function countStaleEntries(
  db: Db,
  owners: readonly OwnerKeys[],
): { available: true; stale: number[] } | { available: false; reason: string } {
  try {
    const read = prepared(
      db,
      'SELECT stale_entries FROM anchor_verification WHERE repository_key = ? AND worktree_key = ?',
    ).pluck();
    return {
      available: true,
      stale: owners.map((owner) => (read.get(owner.repositoryKey, owner.worktreeKey) as number | undefined) ?? 0),
    };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** A stale entry as the Memory screen lists it: the current text's verdict only. */
export interface StaleEntryRow {
  entryId: string;
  scope: 'project' | 'user';
  title: string;
  pathsJson: string;
  failedJson: string;
  verifiedAtMs: number;
}

/**
 * The owners' entries whose verdict is stale for the text the projection holds now (an entry edited
 * since the run has no verdict yet), by id, at most `limit`; and how many there are in all.
 */
export function readStaleEntries(
  db: Db,
  owners: readonly OwnerKeys[],
  limit: number,
): { rows: StaleEntryRow[]; total: number } {
  const from = `FROM entry_anchors e JOIN approved_entries a
       ON a.repository_key = e.repository_key AND a.worktree_key = e.worktree_key
      AND a.entry_id = e.entry_id AND a.content_digest = e.content_digest
     WHERE e.repository_key = ? AND e.worktree_key = ? AND e.verdict = 'stale'`;
  const page = prepared(
    db,
    `SELECT e.entry_id AS entryId, a.scope, json_extract(a.frontmatter_json, '$.title') AS title,
            a.paths_json AS pathsJson, e.failed_json AS failedJson, e.verified_at_ms AS verifiedAtMs
     ${from} ORDER BY e.entry_id LIMIT ?`,
  );
  const count = prepared(db, `SELECT count(*) ${from}`).pluck();
  const rows: StaleEntryRow[] = [];
  let total = 0;
  for (const owner of owners) {
    rows.push(...(page.all(owner.repositoryKey, owner.worktreeKey, limit) as StaleEntryRow[]));
    total += count.get(owner.repositoryKey, owner.worktreeKey) as number;
  }
  return { rows: rows.slice(0, limit), total };
}
