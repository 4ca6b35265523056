// Approved memory as screen lines: the search answer's generation and coverage per scope, and one
// entry read with `get` — its id, title, when it applies, content digest, every source, the body.
import type { MemoryEntryView, MemorySearchResult, MemoryScopeView } from '../../api/memory-views.js';
import { type ScreenLine, wrapLines } from './wrap-lines.js';

export function scopeText(scopes: MemoryScopeView[]): string {
  return scopes
    .map((scope) => `${scope.scope}: ${scope.entries} entries, generation ${scope.generation}, ${scope.coverage}`)
    .join(' · ');
}

export function coverageLines(result: MemorySearchResult & { query: string }, columns: number): ScreenLine[] {
  const lines = wrapLines(
    `"${result.query}": ${result.results.length} found · generation ${result.generation} · coverage ${result.coverage}`,
    columns,
    'heading',
  );
  lines.push(...wrapLines(scopeText(result.scopes), columns, 'muted', '  '));
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
  add(entry.title, 'heading');
  add(`id ${entry.id} · ${entry.type} · priority ${entry.priority}`, 'muted');
  if (entry.appliesWhen) add(`applies when: ${entry.appliesWhen}`, 'text');
  add(`content digest sha256:${entry.contentDigest}`, 'muted');
  for (const source of entry.sources) add(`source ${source.scope}: ${source.path}`, 'muted');
  lines.push({ text: '', tone: 'muted' });
  add(entry.body, 'text');
  return lines;
}
