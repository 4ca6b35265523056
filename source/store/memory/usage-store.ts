// Usefulness of approved entries in memory-state (v10; issue 29, item 4): how often an entry was
// given in a SessionStart snapshot, read by an agent (memory_get, from the read ledger) and
// re-taught — said again by the user in a later session, which adjudication finds when a draft
// repeats an approved entry. Counts are per entry id on this machine, across the worktrees and
// clones that hold the entry. Writes: the collector command (snapshots from core.sqlite on the
// writer's connection, ledger reads passed in by the caller, each source behind its cursor) and
// recordReteach inside an adjudication submission. Reads answer `unavailable` with the reason when
// the tables cannot be read, never zero as if it were a count.
import { z } from 'zod';
import { USAGE_COLLECT_BATCH, USAGE_SNAPSHOT_SETTLE_MS, USAGE_TOP_RETAUGHT } from '../../limits.js';
import { type EntryUsage, NO_USAGE, snapshotEntryIds, type SuggestionEntry } from '../../memory/usefulness.js';
import { USER_SCOPE } from '../../effects/repository.js';
import { memoryCommand } from '../command.js';
import { lastActivationId, readSnapshotDeliveries } from '../core/snapshot-deliveries.js';
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import type { OwnerKeys } from './verdict-read.js';
import type { EntryUsageView, UsageSummaryView } from '../../api/memory-usage.js';

/** Batches of activations one collection folds before it commits (the rest waits for the next). */
const SNAPSHOT_BATCHES_PER_COMMAND = 1;

const cursorOf = (db: Db, source: 'snapshots' | 'ledger'): number =>
  (prepared(db, 'SELECT position FROM usage_cursors WHERE source = ?').pluck().get(source) as number | undefined) ?? 0;

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

// ---- reads (a read-only connection) ----

export type UsageRead<T> = { available: true; value: T } | { available: false; reason: string };

function guarded<T>(read: () => T): UsageRead<T> {
  try {
    return { available: true, value: read() };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The ledger cursor a collector starts from. */
export const readLedgerCursor = (db: Db): number => cursorOf(db, 'ledger');

/** The counts of `entryIds` (entries never counted have zeros: counting is on). */
export function readEntryUsage(db: Db, entryIds: readonly string[]): UsageRead<Map<string, EntryUsage>> {
  return guarded(() => {
    const row = prepared(
      db,
      `SELECT given, read, last_given_ms AS lastGivenMs, last_read_ms AS lastReadMs FROM entry_usage WHERE entry_id = ?`,
    );
    const taught = prepared(
      db,
      'SELECT count(*) AS reteach, max(recorded_at_ms) AS lastReteachMs FROM entry_reteach WHERE entry_id = ?',
    );
    const out = new Map<string, EntryUsage>();
    for (const id of entryIds) {
      const counts = row.get(id) as Pick<EntryUsage, 'given' | 'read' | 'lastGivenMs' | 'lastReadMs'> | undefined;
      const re = taught.get(id) as { reteach: number; lastReteachMs: number | null };
      out.set(id, { ...NO_USAGE, ...counts, reteach: re.reteach, lastReteachMs: re.lastReteachMs });
    }
    return out;
  });
}

/** Every counted entry's usage (for suggestions over many entries: one pass each table). */
export function readAllUsage(db: Db): UsageRead<Map<string, EntryUsage>> {
  return guarded(() => {
    const out = new Map<string, EntryUsage>();
    for (const row of prepared(
      db,
      'SELECT entry_id AS entryId, given, read, last_given_ms AS lastGivenMs, last_read_ms AS lastReadMs FROM entry_usage',
    ).all() as Array<{ entryId: string } & Pick<EntryUsage, 'given' | 'read' | 'lastGivenMs' | 'lastReadMs'>>) {
      const { entryId, ...counts } = row;
      out.set(entryId, { ...NO_USAGE, ...counts });
    }
    for (const row of prepared(
      db,
      'SELECT entry_id AS entryId, count(*) AS reteach, max(recorded_at_ms) AS lastReteachMs FROM entry_reteach GROUP BY entry_id',
    ).all() as Array<{ entryId: string; reteach: number; lastReteachMs: number }>)
      out.set(row.entryId, {
        ...(out.get(row.entryId) ?? NO_USAGE),
        reteach: row.reteach,
        lastReteachMs: row.lastReteachMs,
      });
    return out;
  });
}

export interface RetaughtEntry {
  entryId: string;
  title: string | null;
  reteach: number;
  lastReteachMs: number;
}

export interface UsageSummary {
  /** Entries with any count, and the sums. */
  totals: { entries: number; given: number; read: number; reteach: number };
  topRetaught: { project: RetaughtEntry[]; user: RetaughtEntry[] };
  /** When counting began (memory-state v10). */
  sinceMs: number | null;
  /** The last collection of snapshots and ledger reads; null before the first. */
  collectedAtMs: number | null;
}

/** Totals, and the most re-taught entries of each scope (an entry's scope is the projection's). */
export function readUsageSummary(db: Db): UsageRead<UsageSummary> {
  return guarded(() => {
    const sums = prepared(
      db,
      'SELECT count(*) AS entries, coalesce(sum(given), 0) AS given, coalesce(sum(read), 0) AS read FROM entry_usage',
    ).get() as { entries: number; given: number; read: number };
    const reteach = prepared(db, 'SELECT count(*) FROM entry_reteach').pluck().get() as number;
    const counted = prepared(
      db,
      `SELECT count(*) FROM (SELECT entry_id FROM entry_usage UNION SELECT entry_id FROM entry_reteach)`,
    )
      .pluck()
      .get() as number;
    const top = (user: boolean) =>
      prepared(
        db,
        `SELECT t.entry_id AS entryId, count(*) AS reteach, max(t.recorded_at_ms) AS lastReteachMs,
           (SELECT json_extract(a.frontmatter_json, '$.title') FROM approved_entries a WHERE a.entry_id = t.entry_id LIMIT 1) AS title
         FROM entry_reteach t
         WHERE (SELECT count(*) FROM approved_entries a WHERE a.entry_id = t.entry_id AND a.repository_key = ?) ${user ? '>' : '='} 0
         GROUP BY t.entry_id ORDER BY reteach DESC, lastReteachMs DESC, t.entry_id LIMIT ?`,
      ).all(USER_SCOPE.repositoryKey, USAGE_TOP_RETAUGHT) as RetaughtEntry[];
    const since = prepared(db, "SELECT value FROM memory_state_meta WHERE key = 'usage_since'").pluck().get() as
      | string
      | undefined;
    const collected = prepared(db, 'SELECT max(collected_at_ms) FROM usage_cursors').pluck().get() as number | null;
    return {
      totals: { entries: counted, given: sums.given, read: sums.read, reteach },
      topRetaught: { project: top(false), user: top(true) },
      sinceMs: since === undefined ? null : Date.parse(since),
      collectedAtMs: collected,
    };
  });
}

/** The approved entries each candidate re-taught (for the review), by candidate. */
export function readReteachesOf(db: Db, candidateIds: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (candidateIds.length === 0) return out;
  try {
    const rows = prepared(
      db,
      `SELECT DISTINCT candidate_id AS candidateId, entry_id AS entryId FROM entry_reteach
       WHERE candidate_id IN (SELECT value FROM json_each(?)) ORDER BY candidate_id, entry_id`,
    ).all(JSON.stringify(candidateIds)) as Array<{ candidateId: string; entryId: string }>;
    for (const row of rows) out.set(row.candidateId, [...(out.get(row.candidateId) ?? []), row.entryId]);
  } catch {
    // Usage unreadable: the review is shown without the notes, as before v10.
  }
  return out;
}

/** The owners' approved entries as suggestions list them, each id once (the first owner wins). */
export function readSuggestionEntries(db: Db, owners: readonly OwnerKeys[]): SuggestionEntry[] {
  const seen = new Map<string, SuggestionEntry>();
  const rows = prepared(
    db,
    `SELECT entry_id AS entryId, json_extract(frontmatter_json, '$.title') AS title, scope,
       json_extract(frontmatter_json, '$.created') AS created
     FROM approved_entries WHERE repository_key = ? AND worktree_key = ? ORDER BY entry_id`,
  );
  for (const owner of owners)
    for (const row of rows.all(owner.repositoryKey, owner.worktreeKey) as SuggestionEntry[])
      if (!seen.has(row.entryId)) seen.set(row.entryId, { ...row, created: row.created ?? null });
  return [...seen.values()];
}

// ---- as the API shows them ----

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const unavailableUsage = (reason: string): EntryUsageView => ({
  state: 'unavailable',
  reason,
  given: null,
  read: null,
  reteach: null,
  lastGivenAt: null,
  lastReadAt: null,
  lastReteachAt: null,
});

export function entryUsageView(usage: EntryUsage): EntryUsageView {
  return {
    state: 'counted',
    reason: null,
    given: usage.given,
    read: usage.read,
    reteach: usage.reteach,
    lastGivenAt: iso(usage.lastGivenMs),
    lastReadAt: iso(usage.lastReadMs),
    lastReteachAt: iso(usage.lastReteachMs),
  };
}

/** One entry's counts as `get` shows them. */
export function readEntryUsageView(db: Db, entryId: string): EntryUsageView {
  const read = readEntryUsage(db, [entryId]);
  return read.available ? entryUsageView(read.value.get(entryId) ?? NO_USAGE) : unavailableUsage(read.reason);
}

export const unavailableSummary = (reason: string): UsageSummaryView => ({
  state: 'unavailable',
  reason,
  since: null,
  collectedAt: null,
  totals: null,
  topRetaught: { project: [], user: [] },
});

/** Nothing counted yet: no memory-state. */
export const emptySummary = (): UsageSummaryView => ({
  state: 'counted',
  reason: null,
  since: null,
  collectedAt: null,
  totals: { entries: 0, given: 0, read: 0, reteach: 0 },
  topRetaught: { project: [], user: [] },
});

export function readUsageSummaryView(db: Db): UsageSummaryView {
  const read = readUsageSummary(db);
  if (!read.available) return unavailableSummary(read.reason);
  const { value } = read;
  const view = (rows: RetaughtEntry[]) =>
    rows.map((row) => ({
      entryId: row.entryId,
      title: row.title,
      reteach: row.reteach,
      lastReteachAt: iso(row.lastReteachMs)!,
    }));
  return {
    state: 'counted',
    reason: null,
    since: iso(value.sinceMs),
    collectedAt: iso(value.collectedAtMs),
    totals: value.totals,
    topRetaught: { project: view(value.topRetaught.project), user: view(value.topRetaught.user) },
  };
}
