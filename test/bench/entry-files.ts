// Approved entries for benchmarks: `count` real entry files in a repository's memory root, the
// way promote leaves them, to be projected by a real `memory sync`. Each bench says what they say.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_TYPES, formatEntry } from '../../source/memory/entry-format.js';

export interface BenchEntryText {
  title: string;
  appliesWhen: string;
  body: string;
}

export function writeBenchEntries(repo: string, count: number, text: (i: number) => BenchEntryText): void {
  for (const type of ENTRY_TYPES) mkdirSync(join(repo, '.common-memory', 'memory', type), { recursive: true });
  for (let i = 0; i < count; i++) {
    const type = ENTRY_TYPES[i % ENTRY_TYPES.length]!;
    const id = `bench-${String(i).padStart(6, '0')}`;
    const entry = formatEntry({
      id,
      type,
      ...text(i),
      priority: i % 101,
      confidence: 'high',
      evidence: { summary: '1 statement from 1 user turn' },
      created: '2026-11-30',
      supersedes: [],
      extra: [],
    });
    writeFileSync(join(repo, '.common-memory', 'memory', type, `${id}.md`), entry);
  }
}
