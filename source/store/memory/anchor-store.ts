// Anchors and verdicts of approved entries in memory-state (v9): written by one command per owner
// after a verification run, read by the snapshot, `get`, search and `memory status`. A read that
// cannot reach the store answers `unavailable` with the reason — never "everything is stale", and
// never a different snapshot than the one without verification.
import { z } from 'zod';
import { memoryCommand } from '../command.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

const failedSchema = z.object({ anchor: z.string(), key: z.string(), reason: z.string() }).strict();

export const recordAnchorsInput = z
  .object({
    owner: z.object({ repositoryKey: hex64, worktreeKey: hex64 }).strict(),
    /** Every entry of the owner that was verified; rows of other entries of the owner are removed. */
    entries: z
      .array(
        z
          .object({
            entryId: z.string().min(1),
            contentDigest: hex64,
            /** The extracted anchors (memory/anchors.ts Anchor[]), kept as they were read. */
            anchors: z.array(z.record(z.string(), z.unknown())).max(64),
            verdict: z.enum(['fresh', 'stale', 'unknown']),
            failed: z.array(failedSchema),
          })
          .strict(),
      )
      .max(200_000),
    /** The verifier's stamp cache (effects/anchor-verify.ts VerifyCache), as JSON. */
    cacheJson: z.string(),
  })
  .strict();

export type RecordAnchorsInput = z.input<typeof recordAnchorsInput>;

export function recordAnchors(
  tx: Tx<'memory'>,
  input: z.infer<typeof recordAnchorsInput>,
): { entries: number; stale: number } {
  const { repositoryKey, worktreeKey } = input.owner;
  prepared(tx.db, 'DELETE FROM entry_anchors WHERE repository_key = ? AND worktree_key = ?').run(
    repositoryKey,
    worktreeKey,
  );
  const insert = prepared(
    tx.db,
    `INSERT INTO entry_anchors (repository_key, worktree_key, entry_id, content_digest, anchors_json, verdict, failed_json, verified_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let stale = 0;
  for (const entry of input.entries) {
    if (entry.verdict === 'stale') stale++;
    insert.run(
      repositoryKey,
      worktreeKey,
      entry.entryId,
      entry.contentDigest,
      JSON.stringify(entry.anchors),
      entry.verdict,
      JSON.stringify(entry.failed),
      tx.nowMs,
    );
  }
  prepared(
    tx.db,
    `INSERT INTO anchor_verification (repository_key, worktree_key, cache_json, stale_entries, verified_at_ms) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (repository_key, worktree_key) DO UPDATE SET cache_json = excluded.cache_json,
       stale_entries = excluded.stale_entries, verified_at_ms = excluded.verified_at_ms`,
  ).run(repositoryKey, worktreeKey, input.cacheJson, stale, tx.nowMs);
  return { entries: input.entries.length, stale };
}

export const anchorCommands = {
  /** Stores one owner's anchors and verdicts and the verifier's cache, replacing the previous run's. */
  memoryRecordAnchors: memoryCommand({
    schema: recordAnchorsInput,
    run: (tx, _context, input) => recordAnchors(tx, input),
  }),
};

// ---- reads (a read-only connection) ----

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

export interface StoredAnchors {
  entryId: string;
  contentDigest: string;
  anchorsJson: string;
}

/** What a verification run starts from: the anchors stored per entry, and the last stamp cache. */
export function readAnchorState(db: Db, owner: OwnerKeys): { anchors: StoredAnchors[]; cacheJson: string | null } {
  const anchors = prepared(
    db,
    `SELECT entry_id AS entryId, content_digest AS contentDigest, anchors_json AS anchorsJson
     FROM entry_anchors WHERE repository_key = ? AND worktree_key = ?`,
  ).all(owner.repositoryKey, owner.worktreeKey) as StoredAnchors[];
  const cacheJson = prepared(
    db,
    'SELECT cache_json FROM anchor_verification WHERE repository_key = ? AND worktree_key = ?',
  )
    .pluck()
    .get(owner.repositoryKey, owner.worktreeKey) as string | undefined;
  return { anchors, cacheJson: cacheJson ?? null };
}

/** The approved entries of an owner with the text anchors are read from. */
export function readEntriesForAnchors(
  db: Db,
  owner: OwnerKeys,
): Array<{ entryId: string; contentDigest: string; title: string; body: string }> {
  return prepared(
    db,
    `SELECT entry_id AS entryId, content_digest AS contentDigest, json_extract(frontmatter_json, '$.title') AS title, body_text AS body
     FROM approved_entries WHERE repository_key = ? AND worktree_key = ?`,
  ).all(owner.repositoryKey, owner.worktreeKey) as Array<{
    entryId: string;
    contentDigest: string;
    title: string;
    body: string;
  }>;
}

export type VerdictRead =
  | { available: true; verdicts: Map<string, StoredVerdict> }
  | { available: false; reason: string };

/**
 * The stored verdicts of the owners' entries (all of them, or `entryIds`). Any failure to read —
 * a damaged, locked or older store — is `unavailable` with its reason: the caller then gives
 * entries exactly as it would without verification.
 */
export function readVerdicts(db: Db, owners: readonly OwnerKeys[], entryIds?: readonly string[]): VerdictRead {
  try {
    const verdicts = new Map<string, StoredVerdict>();
    const read = prepared(
      db,
      `SELECT entry_id, content_digest, verdict, failed_json, verified_at_ms FROM entry_anchors
       WHERE repository_key = ? AND worktree_key = ?`,
    );
    const wanted = entryIds ? new Set(entryIds) : null;
    for (const owner of owners) {
      const rows = read.all(owner.repositoryKey, owner.worktreeKey) as Array<{
        entry_id: string;
        content_digest: string;
        verdict: StoredVerdict['verdict'];
        failed_json: string;
        verified_at_ms: number;
      }>;
      for (const row of rows) {
        // The first owner (the repository) wins over the user scope, as readApprovedEntry does.
        if ((wanted && !wanted.has(row.entry_id)) || verdicts.has(row.entry_id)) continue;
        verdicts.set(row.entry_id, {
          entryId: row.entry_id,
          contentDigest: row.content_digest,
          verdict: row.verdict,
          failed: JSON.parse(row.failed_json) as StoredVerdict['failed'],
          verifiedAt: new Date(row.verified_at_ms).toISOString(),
        });
      }
    }
    return { available: true, verdicts };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
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
