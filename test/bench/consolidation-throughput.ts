// The built-in consolidation runner over 1,000 approved entries of one scope (the labelled set's
// 433 entries, repeated with per-copy words so that copies are near but not equal): median of 5.
// Target ≤ 2 s. `npm run bench -- consolidation-throughput`.
import { consolidate, type ConsolidationEntry } from '../../source/memory/consolidation/builtin-consolidation.js';
import { readConsolidationSplit, toEntry } from './consolidation-quality.js';
import { type Figure, median, report, timeMs } from './measure.js';

const AREAS = ['billing', 'search', 'accounts', 'gateway', 'reports', 'mobile', 'exports', 'audit'];

export function thousandEntries(count = 1000): ConsolidationEntry[] {
  const rows = [...readConsolidationSplit('train'), ...readConsolidationSplit('test')].map(toEntry);
  return Array.from({ length: count }, (_, index) => {
    const row = rows[index % rows.length]!;
    const copy = Math.floor(index / rows.length);
    if (copy === 0) return row;
    const area = AREAS[(index + copy) % AREAS.length]!;
    return {
      ...row,
      id: `${row.id}-${copy}`,
      title: `${row.title} in ${area}`,
      body: `${row.body} This holds for the ${area} module.`,
      supersedes: row.supersedes.map((id) => `${id}-${copy}`),
    };
  });
}

export async function runConsolidationThroughputBench(): Promise<Figure[]> {
  const entries = thousandEntries();
  const times: number[] = [];
  let operations = 0;
  for (let run = 0; run < 5; run++) times.push(timeMs(() => (operations = consolidate({ entries }).length)));
  const value = median(times);
  process.stdout.write(
    `${entries.length} entries → ${operations} operations; runs ${times.map((t) => t.toFixed(0)).join(', ')} ms\n`,
  );
  const figures: Figure[] = [
    {
      name: 'built-in consolidation, 1,000 entries (median of 5)',
      value: `${value.toFixed(0)} ms`,
      target: '≤ 2000 ms',
      met: value <= 2000,
    },
  ];
  report(figures);
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await runConsolidationThroughputBench();
