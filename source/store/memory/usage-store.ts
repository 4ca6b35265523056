// Usefulness of approved entries in memory-state (v11; issue 29, item 4): how often an entry was
// given in a SessionStart snapshot, read by an agent (memory_get, from the read ledger) and
// re-taught — said again by the user in a later session, which adjudication finds when a draft
// repeats an approved entry. Counts are per entry id on this machine, across the worktrees and
// clones that hold the entry. Writes: the collector command (snapshots from core.sqlite on the
// writer's connection, ledger reads passed in by the caller, each source behind its cursor) and
// recordReteach inside an adjudication submission. The reads are in usage-reads.ts.
import { z } from 'zod';
import { USAGE_COLLECT_BATCH, USAGE_SNAPSHOT_SETTLE_MS, USAGE_TOP_RETAUGHT } from '../../limits.js';
import { type EntryUsage, NO_USAGE, snapshotEntryIds, type SuggestionEntry } from '../../memory/usefulness.js';
import { USER_SCOPE } from '../../effects/repository.js';
import { memoryCommand } from '../command.js';
import { lastActivationId, readSnapshotDeliveries } from '../core/snapshot-deliveries.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import type { OwnerKeys } from './verdict-read.js';
import { cursorOf } from './usage-reads.js';

/** Batches of activations one collection folds before it commits (the rest waits for the next). */
const SNAPSHOT_BATCHES_PER_COMMAND = 1;

function setCursor(tx: Tx<'memory'>, source: 'snapshots' | 'ledger', position: number): void {
  prepared(
    tx.db,
    `INSERT INTO usage_cursors (source, position, collected_at_ms) VALUES (?, ?, ?)
     ON CONFLICT (source) DO UPDATE SET position = excluded.position, collected_at_ms = excluded.collected_at_ms`,
  ).run(source, position, tx.nowMs);
}

const collectInput = z
  .object({
    /** Ledger reads after the cursor the caller saw (`from`), up to `to`; null: the ledger was not read. */
    ledger: z
      .object({
        from: z.number().int().min(0),
        to: z.number().int().min(0),
        reads: z
          .array(z.object({ entryId: z.string().min(1).max(256), observedAtMs: z.number().int() }).strict())
          .max(USAGE_COLLECT_BATCH),
      })
      .strict()
      .nullable(),
  })
  .strict();

export type CollectUsageInput = z.input<typeof collectInput>;

export interface CollectUsageResult {
  /** Snapshots counted (one per activation that was given one). */
  snapshots: number;
  /** Ledger reads counted. */
  reads: number;
  /** The ledger reads were counted by another collection first (the cursor moved): none were added. */
  ledgerMoved: boolean;
  /** More activations wait than one collection folds: collect again. */
  more: boolean;
}

function collectUsage(tx: Tx<'memory'>, core: Db, input: z.infer<typeof collectInput>): CollectUsageResult {
  const given = prepared(
    tx.db,
    `INSERT INTO entry_usage (entry_id, given, last_given_ms) VALUES (?, 1, ?)
     ON CONFLICT (entry_id) DO UPDATE SET given = given + 1, last_given_ms = max(coalesce(last_given_ms, 0), excluded.last_given_ms)`,
  );
  let cursor = cursorOf(tx.db, 'snapshots');
  // A cursor past the last activation: core.sqlite was made anew, so its activations start over.
  if (cursor > lastActivationId(core)) cursor = 0;
  let snapshots = 0;
  let more = false;
  batches: for (let batch = 0; batch < SNAPSHOT_BATCHES_PER_COMMAND; batch++) {
    const rows = readSnapshotDeliveries(core, cursor, USAGE_COLLECT_BATCH);
    for (const row of rows) {
      // A young activation without its snapshot may still get one (its SessionStart comes later):
      // the cursor waits before it rather than pass it uncounted.
      if (row.snapshot === null && row.state === 'active' && tx.nowMs - row.startedAtMs < USAGE_SNAPSHOT_SETTLE_MS)
        break batches;
      const ids = row.snapshot ? snapshotEntryIds(row.snapshot) : [];
      for (const id of ids) given.run(id, row.startedAtMs);
      if (ids.length > 0) snapshots++;
      cursor = row.activationId;
    }
    if (rows.length < USAGE_COLLECT_BATCH) break;
    more = batch === SNAPSHOT_BATCHES_PER_COMMAND - 1;
  }
  setCursor(tx, 'snapshots', cursor);

  let reads = 0;
  let ledgerMoved = false;
  if (input.ledger) {
    if (cursorOf(tx.db, 'ledger') !== input.ledger.from) ledgerMoved = true;
    else {
      const read = prepared(
        tx.db,
        `INSERT INTO entry_usage (entry_id, read, last_read_ms) VALUES (?, 1, ?)
         ON CONFLICT (entry_id) DO UPDATE SET read = read + 1, last_read_ms = max(coalesce(last_read_ms, 0), excluded.last_read_ms)`,
      );
      for (const event of input.ledger.reads) read.run(event.entryId, event.observedAtMs);
      reads = input.ledger.reads.length;
      setCursor(tx, 'ledger', input.ledger.to);
    }
  }
  return { snapshots, reads, ledgerMoved, more };
}

/**
 * The draft `candidateId` says again what approved entry `entryId` says: one re-teach event per
 * user turn its evidence cites (session, turn, when), once — the key is the entry and the turn, so
 * a re-extraction or a replay records nothing new. A turn of a session the entry itself was
 * promoted from is the entry's own source, not a re-teach.
 */
export function recordReteach(tx: Tx<'memory'>, candidateId: string, entryId: string, owner: OwnerKeys): number {
  return prepared(
    tx.db,
    `INSERT OR IGNORE INTO entry_reteach (entry_id, session_key, turn_key, client, candidate_id, repository_key, worktree_key, recorded_at_ms)
     SELECT DISTINCT ?, r.session_key, r.turn_key, r.client, ?, ?, ?, ? FROM evidence_refs r
     WHERE r.candidate_id = ? AND NOT EXISTS (
       SELECT 1 FROM promotion_files f, json_each(f.candidate_ids_json) c
         JOIN evidence_refs o ON o.candidate_id = c.value
       WHERE f.entry_id = ? AND o.session_key = r.session_key)`,
  ).run(entryId, candidateId, owner.repositoryKey, owner.worktreeKey, tx.nowMs, candidateId, entryId).changes;
}

export const usageCommands = {
  /**
   * Folds the snapshots given since the last collection (core.sqlite's activations) and the ledger
   * reads the caller read into the usefulness counts; each source moves its cursor in this commit.
   */
  memoryCollectUsage: memoryCommand({
    schema: collectInput,
    run: (tx, context, input) => collectUsage(tx, context.core, input),
  }),
};
