// Reads of the usefulness counts (memory-state v11; usage-store.ts writes them): an entry's counts,
// the totals and most re-taught entries, the re-teaches a candidate makes, the suggestions' rows.
// Each answers `unavailable` with the reason when the tables cannot be read, never zero as if it
// were a count. Apart from the writes so that `get` and `memory review` load no zod schema.
import { USAGE_TOP_RETAUGHT } from '../../limits.js';
import { type EntryUsage, NO_USAGE, type SuggestionEntry } from '../../memory/usefulness.js';
import { USER_SCOPE } from '../../effects/repository.js';
import { prepared, type Db } from '../database.js';
import type { OwnerKeys } from './verdict-read.js';
import type { EntryUsageView, UsageSummaryView } from '../../api/memory-usage.js';

export const cursorOf = (db: Db, source: 'snapshots' | 'ledger'): number =>
  (prepared(db, 'SELECT position FROM usage_cursors WHERE source = ?').pluck().get(source) as number | undefined) ?? 0;

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
  /** When counting began (memory-state v11). */
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
    // Usage unreadable: the review is shown without the notes, as before v11.
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
