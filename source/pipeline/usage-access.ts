// Usefulness of approved memory (issue 29, items 4 and 5) as the API serves it: the collector that
// folds given snapshots and agents' reads into memory-state, and the retirement suggestions of
// `memory suggestions` and the Memory screen. A suggestion is only a line with its reason: nothing
// here retires an entry.
import { CmError } from '../errors.js';
import { USAGE_COLLECT_BATCH, USAGE_SUGGEST_DAYS_DEFAULT, USAGE_SUGGEST_DAYS_MAX } from '../limits.js';
import { ledgerCommitSeq, readLedgerReadsAfter } from '../store/ledger/ledger-usage.js';
import { openLedgerReadOnly } from '../store/ledger/ledger.js';
import type { WriterPort } from '../store/writer-commands.js';
import type { CollectUsageResult } from '../store/memory/usage-store.js';
import {
  entryUsageView,
  readAllUsage,
  readLedgerCursor,
  readSuggestionEntries,
  readUsageSummary,
} from '../store/memory/usage-reads.js';
import { readAnchorSummary, readStaleEntries } from '../store/memory/verdict-read.js';
import { NO_USAGE, suggestRetirement } from '../memory/usefulness.js';
import type { MemorySuggestions, MemorySuggestionsRequest } from '../api/memory-usage.js';
import { withMemoryState } from '../store/memory/state-database.js';
import { ownersOf } from './approved-access.js';

/** Collections one call runs at most (each a bounded batch): a long backlog is finished by later calls. */
const COLLECT_ROUNDS_MAX = 8;

/**
 * Folds what SessionStart snapshots gave (core.sqlite, read by the writer) and what root agents
 * read (ledger.sqlite, read here) into memory-state's counts, each behind its cursor. A ledger that
 * is missing or unreadable adds no reads (and moves no cursor); the snapshots are counted anyway.
 */
export async function collectUsage(
  writer: WriterPort,
  memoryStatePath: string,
  ledgerPath: string,
): Promise<CollectUsageResult> {
  const total: CollectUsageResult = { snapshots: 0, reads: 0, ledgerMoved: false, more: false };
  for (let round = 0; round < COLLECT_ROUNDS_MAX; round++) {
    const ledger = readLedgerBatch(memoryStatePath, ledgerPath);
    const result = await writer.call('memoryCollectUsage', { ledger });
    total.snapshots += result.snapshots;
    total.reads += result.reads;
    total.ledgerMoved ||= result.ledgerMoved;
    total.more = result.more || (ledger !== null && ledger.reads.length === USAGE_COLLECT_BATCH);
    if (!total.more || result.ledgerMoved) break;
  }
  return total;
}

function readLedgerBatch(memoryStatePath: string, ledgerPath: string) {
  try {
    const from = withMemoryState(memoryStatePath, () => 0, readLedgerCursor);
    const db = openLedgerReadOnly(ledgerPath);
    if (!db) return null;
    try {
      const seq = ledgerCommitSeq(db);
      // A cursor past the counter: the ledger was made anew, its reads start over.
      const after = from > seq ? 0 : from;
      const reads = readLedgerReadsAfter(db, after, USAGE_COLLECT_BATCH);
      const to = reads.at(-1)?.commitSeq ?? (from > seq ? 0 : from);
      return {
        from,
        to,
        reads: reads.map(({ entryId, observedAtMs }) => ({ entryId, observedAtMs })),
      };
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** --days as the API takes it: a whole number of days, 1–3650. */
export function suggestionDays(days: number | undefined): number {
  if (days === undefined) return USAGE_SUGGEST_DAYS_DEFAULT;
  if (!Number.isSafeInteger(days) || days < 1 || days > USAGE_SUGGEST_DAYS_MAX)
    throw new CmError('usage', `--days must be a whole number of days from 1 to ${USAGE_SUGGEST_DAYS_MAX}.`);
  return days;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Entries of `cwd`'s worktree and the user scope to consider retiring: stale ones (the last
 * verification's verdicts) and those neither read nor re-taught in `days` days. Counts or verdicts
 * that cannot be read are `unavailable` — then nothing is suggested for that reason, never
 * everything.
 */
export function memorySuggestionsAt(path: string, request: MemorySuggestionsRequest, nowMs = Date.now()) {
  const days = suggestionDays(request.days);
  const owners = ownersOf(request.cwd);
  const empty = (state: MemorySuggestions['state'], reason: string | null): MemorySuggestions => ({
    state,
    reason,
    days,
    countingSince: null,
    unusedFrom: null,
    anchors: 'unverified',
    total: 0,
    suggestions: [],
  });
  try {
    return withMemoryState(
      path,
      () => empty('ready', null),
      (db) =>
        db.transaction((): MemorySuggestions => {
          const summary = readUsageSummary(db);
          const usage = readAllUsage(db);
          if (!summary.available || !usage.available)
            return empty('unavailable', summary.available ? (usage as { reason: string }).reason : summary.reason);
          const anchors = readAnchorSummary(db);
          const entries = readSuggestionEntries(db, owners);
          const stale = new Map<string, { reason: string; failed: number }>();
          if (anchors.state === 'verified') {
            // Both scopes: user entries are verified against the home directory and their verdicts
            // kept under the user owner. A verdict counts for the entry listed under that id (the
            // repository's wins), never for a same-id entry of the other scope.
            const listedScope = new Map(entries.map((entry) => [entry.entryId, entry.scope]));
            for (const row of readStaleEntries(db, owners, Number.MAX_SAFE_INTEGER).rows) {
              if (listedScope.get(row.entryId) !== row.scope || stale.has(row.entryId)) continue;
              const failed = JSON.parse(row.failedJson) as Array<{ reason: string }>;
              stale.set(row.entryId, { reason: failed[0]?.reason ?? 'an anchor failed', failed: failed.length });
            }
          }
          const sinceMs = summary.value.sinceMs ?? nowMs;
          const result = suggestRetirement({
            entries,
            usage: usage.value,
            stale,
            nowMs,
            days,
            usageSinceMs: sinceMs,
          });
          return {
            state: 'ready',
            reason: null,
            days,
            countingSince: iso(sinceMs),
            unusedFrom: result.unusedFromMs > nowMs ? iso(result.unusedFromMs) : null,
            anchors: anchors.state,
            total: result.suggestions.length,
            suggestions: result.suggestions.map((s) => ({
              entryId: s.entryId,
              title: s.title,
              scope: s.scope,
              reasons: s.reasons,
              usage: entryUsageView(usage.value.get(s.entryId) ?? NO_USAGE),
            })),
          };
        })(),
    );
  } catch (error) {
    if (error instanceof CmError && error.code === 'usage') throw error;
    return empty('unavailable', error instanceof Error ? error.message : String(error));
  }
}
