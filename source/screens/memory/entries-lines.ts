// Approved memory as screen lines: the search answer's generation and coverage per scope, the
// heading of the stale entries' list, the memory files nothing gives back, and one entry read with
// `get` — its id, title, when it applies, whether it is stale and why, content digest, every
// source, the body. A file edited by hand may hold hidden characters: they are shown as ⟨U+XXXX⟩
// (visible-text.ts), as in review.
import type { MemoryStatus } from '../../api/memory-runs.js';
import type {
  MemoryEntryView,
  MemorySearchResult,
  MemoryScopeView,
  MemoryStaleResult,
} from '../../api/memory-views.js';
import { staleClaimPlace } from '../../memory/staleness.js';
import { visibleText } from '../../memory/visible-text.js';
import { usageLine } from './usage-lines.js';
import { type ScreenLine, wrapLines } from './wrap-lines.js';
import { counted } from '../../ground/count-text.js';

export function scopeText(scopes: MemoryScopeView[]): string {
  return scopes
    .map(
      (scope) =>
        `${scope.scope}: ${counted(scope.entries, 'entry', 'entries')}, generation ${scope.generation}, ${scope.coverage}`,
    )
    .join(' · ');
}

export function coverageLines(result: MemorySearchResult & { query: string }, columns: number): ScreenLine[] {
  const lines = wrapLines(
    `"${result.query}": ${result.results.length} found · generation ${result.generation} · coverage ${result.coverage}`,
    columns,
    'heading',
  );
  lines.push(...wrapLines(scopeText(result.scopes), columns, 'muted', '  '));
  if (result.results.length === 0)
    lines.push(
      ...wrapLines(
        'No approved entry matches. Promote candidates on Prepare & promote, or run common-memory memory sync after editing memory files by hand.',
        columns,
        'muted',
      ),
    );
  if (result.coverage === 'partial')
    lines.push(
      ...wrapLines(
        'Coverage is partial: some memory files were not read (changed during the scan, malformed, or never synced). Run common-memory memory sync to see which.',
        columns,
        'muted',
        '  ',
      ),
    );
  return lines;
}

export function entryLines(entry: MemoryEntryView, columns: number): ScreenLine[] {
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  add(visibleText(entry.title), 'heading');
  add(`id ${entry.id} · ${entry.type} · priority ${entry.priority}`, 'muted');
  if (entry.appliesWhen) add(`applies when: ${visibleText(entry.appliesWhen)}`, 'text');
  if (entry.stale) {
    const place = staleClaimPlace(entry.sources.slice(0, 1).map((source) => source.scope));
    add(`Stale: a claim it makes about ${place} does not hold — not given at session start.`, 'error');
    for (const failed of entry.failedAnchors ?? []) add(`✗ ${failed.reason}`, 'error', '  ');
  }
  add(`content digest sha256:${entry.contentDigest}`, 'muted');
  if (entry.usage) add(usageLine(entry.usage), entry.usage.state === 'unavailable' ? 'error' : 'muted');
  for (const source of entry.sources) add(`source ${source.scope}: ${source.path}`, 'muted');
  lines.push({ text: '', tone: 'muted' });
  add(visibleText(entry.body), 'text');
  return lines;
}

/** What the list shows before any search: the stale entries (or that there are none), then how to search. */
export function staleHeadingLines(stale: MemoryStaleResult | null, columns: number): ScreenLine[] {
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone']) => lines.push(...wrapLines(text, columns, tone));
  if (stale?.state === 'verified' && stale.total > 0) {
    const shown = stale.entries.length < stale.total ? ` (the first ${stale.entries.length})` : '';
    add(
      `Stale entries: ${stale.total}${shown} — each names something ${staleClaimPlace(stale.entries.map((e) => e.scope))} does not have; not given at session start.`,
      'heading',
    );
  } else if (stale?.state === 'verified') add('No stale entries: every claim checked still holds.', 'muted');
  else if (stale?.state === 'unverified')
    add('Entries not verified yet: common-memory memory status verifies them.', 'muted');
  else if (stale?.state === 'unavailable')
    add(`Stale entries cannot be read: ${stale.reason ?? 'unknown reason'}.`, 'muted');
  add('Press / and type words to search approved memory (e.g. release checklist), then Enter.', 'muted');
  return lines;
}

export type LeftOutFile = NonNullable<MemoryStatus['leftOutFiles']>[number];

/**
 * The files of a memory root that nothing gives back (memory status's leftOutFiles: an entry written
 * by hand that the lint blocks, a malformed scene…), as `memory status` names them: where each is,
 * why (kind and rule; a malformed one's message, already masked), and what to do. None: no lines.
 */
export function leftOutLines(files: readonly LeftOutFile[] | null | undefined, columns: number): ScreenLine[] {
  if (!files || files.length === 0) return [];
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  add(`Left out (nothing gives them back): ${files.length}`, 'heading');
  for (const file of files) {
    const where = file.scope === 'user' ? 'user' : `project ${file.repository ?? file.repositoryKey.slice(0, 12)}`;
    const line = file.line === null ? '' : `:${file.line}`;
    const why = `${file.kind}${file.rule ? ` ${file.rule}` : ''}`;
    lines.push(...wrapLines(`✗ ${where} ${visibleText(file.path)}${line} · ${why}`, columns, 'error', '  ', true));
    // A blocked file's message repeats its path and rule; another kind's says what is wrong.
    if (file.kind !== 'blocked') add(visibleText(file.message), 'text', '  ');
    add(file.fix, 'muted', '  ');
  }
  return lines;
}
