// Whether approved memory helps (issue 29, items 4 and 5), as pure values: which entries a stored
// SessionStart snapshot gave, what the review says of a candidate that re-teaches an entry, and
// which entries to suggest for retirement and why. Nothing here retires anything: a suggestion is
// a line for a person, who retires an entry through a plan they approve.

const DAY_MS = 86_400_000;

/** An entry's line in the snapshot: `- [<id>] (<scope>, priority <n>) title: …` (snapshot.ts renderEntry). */
const ENTRY_LINE = /^- \[([A-Za-z0-9][A-Za-z0-9._-]*)\] \((?:project|user), priority -?\d+\) title: /gm;

/**
 * The ids of the entries a snapshot text gave, in order, each once. Lines the snapshot names but
 * withheld (stale) or only counted ("N more notes") are not given; nor is an excerpt line, which
 * starts with `  > `, so a body that quotes an entry line counts for nothing.
 */
export function snapshotEntryIds(text: string): string[] {
  const ids = new Set<string>();
  for (const match of text.matchAll(ENTRY_LINE)) ids.add(match[1]!);
  return [...ids];
}

/** What the review says of a candidate that says again what an approved entry says. */
export const reteachAdvice = (entryId: string): string =>
  `re-teaches ${entryId}: consider a better title, appliesWhen or priority`;

export interface EntryUsage {
  given: number;
  read: number;
  reteach: number;
  lastGivenMs: number | null;
  lastReadMs: number | null;
  lastReteachMs: number | null;
}

export const NO_USAGE: EntryUsage = {
  given: 0,
  read: 0,
  reteach: 0,
  lastGivenMs: null,
  lastReadMs: null,
  lastReteachMs: null,
};

export interface SuggestionEntry {
  entryId: string;
  title: string;
  scope: 'project' | 'user';
  /** The frontmatter's `created` (ISO date or time), when the file has one. */
  created: string | null;
}

export type SuggestionReason =
  | { kind: 'unused'; text: string }
  | { kind: 'stale'; text: string; failedAnchors: number };

export interface Suggestion extends SuggestionEntry {
  reasons: SuggestionReason[];
  usage: EntryUsage;
}

export interface SuggestionInput {
  entries: readonly SuggestionEntry[];
  usage: ReadonlyMap<string, EntryUsage>;
  /** Stale entries: the first failed anchor's reason and how many failed. */
  stale: ReadonlyMap<string, { reason: string; failed: number }>;
  nowMs: number;
  days: number;
  /** When usefulness counting began (memory-state v11): nothing before it was counted. */
  usageSinceMs: number;
}

export interface SuggestionResult {
  suggestions: Suggestion[];
  /** From when entries can be named for going unused: counting began too recently before it. */
  unusedFromMs: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Entries to consider retiring: those whose anchors are stale, and those neither read by an agent
 * nor re-taught by the user in the last `days` days. An entry is named for going unused only once
 * both it and the counting are at least `days` old: before that, "never read" would be a guess.
 * Being given in snapshots does not keep an entry: a note given every session that no agent reads
 * and nobody has to say again is the one this list is for. Stale first, then the oldest last use.
 */
export function suggestRetirement(input: SuggestionInput): SuggestionResult {
  const since = input.nowMs - input.days * DAY_MS;
  const unusedFromMs = input.usageSinceMs + input.days * DAY_MS;
  const suggestions: Suggestion[] = [];
  for (const entry of input.entries) {
    const usage = input.usage.get(entry.entryId) ?? NO_USAGE;
    const reasons: SuggestionReason[] = [];
    const stale = input.stale.get(entry.entryId);
    if (stale)
      reasons.push({
        kind: 'stale',
        text: `stale: ${stale.reason}${stale.failed > 1 ? ` (and ${stale.failed - 1} more)` : ''}`,
        failedAnchors: stale.failed,
      });
    const created = entry.created === null ? Number.NaN : Date.parse(entry.created);
    const oldEnough = input.usageSinceMs <= since && (Number.isNaN(created) || created <= since);
    const lastUse = Math.max(usage.lastReadMs ?? 0, usage.lastReteachMs ?? 0);
    if (oldEnough && lastUse < since)
      reasons.push({
        kind: 'unused',
        text:
          lastUse === 0
            ? `never read by an agent nor re-taught since counting began (${day(input.usageSinceMs)}); given ${usage.given} times`
            : `not read nor re-taught in ${input.days} days (last ${day(lastUse)}); given ${usage.given} times`,
      });
    if (reasons.length > 0) suggestions.push({ ...entry, reasons, usage });
  }
  const lastUseOf = (s: Suggestion) => Math.max(s.usage.lastReadMs ?? 0, s.usage.lastReteachMs ?? 0);
  suggestions.sort(
    (a, b) =>
      Number(b.reasons.some((r) => r.kind === 'stale')) - Number(a.reasons.some((r) => r.kind === 'stale')) ||
      lastUseOf(a) - lastUseOf(b) ||
      (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0),
  );
  return { suggestions, unusedFromMs };
}
