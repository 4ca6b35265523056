// Anchors and verdicts of approved entries in memory-state (v9): written by one command per owner
// after a verification run (pipeline/anchor-refresh.ts), with what that run reads back. The
// snapshot, `get`, search and `memory status` read the verdicts through verdict-read.ts.
import { z } from 'zod';
import { memoryCommand } from '../command.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import type { OwnerKeys } from './verdict-read.js';

export type { OwnerKeys } from './verdict-read.js';

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
