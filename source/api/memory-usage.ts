// Usefulness of approved memory (issue 29, items 4 and 5): the counts `get`, `memory status` and the
// Memory screen show, and the retirement suggestions of `memory suggestions`. Counts that cannot be
// read are `unavailable` with the reason and null numbers — never zero given as a fact.
import { z } from 'zod';
import { nullableText, projectOrUser } from './common-schemas.js';

const nullableCount = z.number().nullable();

/** One entry's counts (in `get` and MCP `memory_get`). */
export const entryUsageSchema = z.strictObject({
  /** counted: the numbers are this machine's counts since counting began; unavailable: they cannot be read. */
  state: z.enum(['counted', 'unavailable']),
  reason: nullableText,
  /** Times a SessionStart snapshot gave it. */
  given: nullableCount,
  /** Times a root agent read it with memory_get (the read ledger). */
  read: nullableCount,
  /** User turns in later sessions that said again what it says (found by the dedup at extraction). */
  reteach: nullableCount,
  lastGivenAt: nullableText,
  lastReadAt: nullableText,
  lastReteachAt: nullableText,
});
export type EntryUsageView = z.infer<typeof entryUsageSchema>;

const retaughtSchema = z.strictObject({
  entryId: z.string(),
  title: nullableText,
  reteach: z.number(),
  lastReteachAt: z.string(),
});

/** `memory status`'s usage: totals and the most re-taught entries of each scope. */
export const usageSummarySchema = z.strictObject({
  state: z.enum(['counted', 'unavailable']),
  reason: nullableText,
  /** When counting began on this machine; null before memory-state exists. */
  since: nullableText,
  /** The last time snapshots and ledger reads were folded in; null before the first. */
  collectedAt: nullableText,
  totals: z.strictObject({ entries: z.number(), given: z.number(), read: z.number(), reteach: z.number() }).nullable(),
  topRetaught: z.strictObject({ project: z.array(retaughtSchema), user: z.array(retaughtSchema) }),
});
export type UsageSummaryView = z.infer<typeof usageSummarySchema>;

export const suggestionSchema = z.strictObject({
  entryId: z.string(),
  title: z.string(),
  scope: projectOrUser,
  reasons: z.array(
    z.strictObject({ kind: z.enum(['stale', 'unused']), text: z.string(), failedAnchors: z.number().optional() }),
  ),
  usage: entryUsageSchema,
});

/** `memory suggestions`: entries to consider retiring, each with why. Nothing is retired by it. */
export const memorySuggestionsSchema = z.strictObject({
  /** unavailable: memory-state (or its counts) cannot be read; the list is then empty and says so. */
  state: z.enum(['ready', 'unavailable']),
  reason: nullableText,
  days: z.number(),
  /** When counting began; entries go unused "since counting began" at the earliest. */
  countingSince: nullableText,
  /** Before this date counting is younger than `days`: no entry is named for going unused yet. */
  unusedFrom: nullableText,
  /** Stale verdicts: verified | unverified (no run yet) | unavailable. */
  anchors: z.enum(['verified', 'unverified', 'unavailable']),
  total: z.number(),
  suggestions: z.array(suggestionSchema),
});
export type MemorySuggestions = z.infer<typeof memorySuggestionsSchema>;

export const memorySuggestionsBody = z.strictObject({
  cwd: z.string().min(1).max(4096),
  /** Days without a read or a re-teach (1–3650; default 90). */
  days: z.number().optional(),
});
export type MemorySuggestionsRequest = z.infer<typeof memorySuggestionsBody>;
