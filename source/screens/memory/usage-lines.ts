// Usefulness of approved memory as text (issue 29, items 4 and 5): one entry's counts in a line,
// `memory status`'s totals and most re-taught entries, and the retirement suggestions with their
// reasons — for the CLI and the Memory screen's Usage view alike. Counts that cannot be read say
// `unavailable`, never 0.
import type { EntryUsageView, MemorySuggestions, UsageSummaryView } from '../../api/memory-usage.js';
import { reteachAdvice } from '../../memory/usefulness.js';
import { visibleText } from '../../memory/visible-text.js';
import { type ScreenLine, wrapLines } from './wrap-lines.js';

const day = (iso: string | null) => (iso === null ? null : iso.slice(0, 10));
const plain = (text: string) => visibleText(text).replace(/\s+/g, ' ');

/** "given 12 · read 3 · re-taught 1 (last 2026-11-02)", or why there are no counts. */
export function usageLine(usage: EntryUsageView | undefined): string {
  if (usage === undefined) return 'usage: not reported by this host';
  if (usage.state === 'unavailable') return `usage: unavailable — ${usage.reason ?? 'unknown reason'}`;
  const last = day(usage.lastReteachAt) ?? day(usage.lastReadAt);
  const lastText = last === null ? '' : ` (last ${usage.lastReteachAt ? 're-taught' : 'read'} ${last})`;
  return `usage: given ${usage.given} · read ${usage.read} · re-taught ${usage.reteach}${lastText}`;
}

/** A review candidate's note for each approved entry it repeats. */
export const reteachLines = (entryIds: readonly string[] | undefined): string[] =>
  (entryIds ?? []).map((id) => reteachAdvice(id));

/** `memory status`'s lines about usefulness. */
export function usageSummaryLines(usage: UsageSummaryView | undefined): string[] {
  if (usage === undefined) return [];
  if (usage.state === 'unavailable' || usage.totals === null)
    return [`usefulness: unavailable — ${usage.reason ?? 'unknown reason'}`];
  const t = usage.totals;
  const lines = [
    // `entries` counts those given, read or re-taught at least once, not every approved entry.
    `usefulness since ${day(usage.since) ?? 'now'}: given ${t.given} times, read ${t.read}, re-taught ${t.reteach}, over ${t.entries} ${t.entries === 1 ? 'entry' : 'entries'}`,
  ];
  for (const scope of ['project', 'user'] as const)
    for (const row of usage.topRetaught[scope])
      lines.push(
        `  re-taught ×${row.reteach} (${scope}) ${row.entryId}${row.title ? ` ${JSON.stringify(plain(row.title))}` : ''}: consider a better title, appliesWhen or priority`,
      );
  return lines;
}

/** One suggestion: its title and id, then a line per reason. */
export function suggestionTexts(result: MemorySuggestions): Array<{ head: string; reasons: string[] }> {
  return result.suggestions.map((s) => ({
    head: `${s.entryId} (${s.scope}) ${JSON.stringify(plain(s.title))}`,
    reasons: s.reasons.map((reason) => plain(reason.text)),
  }));
}

/** What the list is about, or why it is empty. */
export function suggestionsHeading(result: MemorySuggestions): string[] {
  if (result.state === 'unavailable')
    return [`retirement suggestions: unavailable — ${result.reason ?? 'unknown reason'}`];
  const lines = [
    `retirement suggestions (stale, or not read nor re-taught in ${result.days} days): ${result.total}`,
    'nothing is retired without your approval: a retirement is a plan you approve.',
  ];
  if (result.unusedFrom !== null)
    lines.push(
      `counting began ${day(result.countingSince)}: entries can be named for going unused from ${day(result.unusedFrom)}.`,
    );
  if (result.anchors === 'unverified') lines.push('anchors not verified yet: memory status verifies them.');
  if (result.anchors === 'unavailable') lines.push('stale verdicts cannot be read: only unused entries are listed.');
  return lines;
}

/** The Usage view of the Memory screen: totals, the most re-taught entries, then the suggestions. */
export function usageViewLines(
  usage: UsageSummaryView | undefined,
  suggestions: MemorySuggestions | null,
  columns: number,
): ScreenLine[] {
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  const summary = usageSummaryLines(usage);
  if (summary.length === 0) add('usefulness: reading…', 'muted');
  for (const [index, line] of summary.entries()) add(line.trim(), index === 0 ? 'heading' : 'text', index ? '  ' : '');
  lines.push({ text: '', tone: 'muted' });
  if (suggestions === null) {
    add('retirement suggestions: reading…', 'muted');
    return lines;
  }
  for (const [index, line] of suggestionsHeading(suggestions).entries()) add(line, index === 0 ? 'heading' : 'muted');
  for (const item of suggestionTexts(suggestions)) {
    add(item.head, 'text');
    for (const reason of item.reasons) add(reason, reason.startsWith('stale') ? 'error' : 'muted', '  ');
  }
  return lines;
}
