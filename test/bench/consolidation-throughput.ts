// The built-in consolidation runner over 1,000 approved entries of one scope (the labelled set's
// 433 entries, repeated with per-copy words so that copies are near but not equal): the runner
// alone, and end to end on a real memory-state — plan the task from the projection, claim, run,
// submit with the revision check, read the review item — each the median of 5. Target ≤ 2 s.
// `npm run bench -- consolidation-throughput`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../../source/ground/digests.js';
import { consolidate, type ConsolidationEntry } from '../../source/memory/consolidation/builtin-consolidation.js';
import { consolidateWithBuiltin } from '../../source/pipeline/consolidation.js';
import type { AnyCommand } from '../../source/store/command.js';
import { readConsolidationReview } from '../../source/store/memory/consolidation-reads.js';
import { openMemoryState } from '../../source/store/memory/state-database.js';
import { commit } from '../../source/store/transaction.js';
import { type WriterPort, writerCommands } from '../../source/store/writer-commands.js';
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

/** Plan → claim → run → submit → review read over `entries` synced into a fresh memory-state, in ms. */
async function endToEnd(entries: readonly ConsolidationEntry[], run: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'cm-bench-consolidation-'));
  const path = join(dir, 'memory-state.sqlite');
  const state = openMemoryState(path);
  const db = state.db;
  const context = { storeId: 'bench', memoryStateUuid: state.memoryStateUuid, core: db };
  const writer: WriterPort = {
    storeId: 'bench',
    call: ((name: string, input: unknown) => {
      const command = (writerCommands as Record<string, AnyCommand>)[name]!;
      return Promise.resolve(commit(db, name, (tx) => command.run(tx, context, command.schema.parse(input))));
    }) as WriterPort['call'],
  };
  const owner = { scope: 'project' as const, repositoryKey: sha256Hex(`repo-${run}`), worktreeKey: sha256Hex('w') };
  try {
    await writer.call('memorySyncApproved', {
      owner,
      expectedGeneration: null,
      coverage: 'complete',
      unchanged: false,
      sourceTreeDigest: sha256Hex('tree'),
      scanJson: '{}',
      problems: [],
      entries: entries.map((entry) => ({
        id: entry.id,
        type: entry.type,
        title: entry.title,
        appliesWhen: entry.appliesWhen,
        priority: 50,
        confidence: 'high',
        evidence: null,
        created: null,
        supersedes: [...entry.supersedes],
        body: entry.body,
        extra: {},
        scope: 'project' as const,
        paths: [`${entry.type}/${entry.id}.md`],
        contentDigest: sha256Hex(`${entry.title}\n${entry.body}`),
      })),
    });
    const start = process.hrtime.bigint();
    const result = await consolidateWithBuiltin(writer, path, owner, 'bench');
    const review = readConsolidationReview(db, owner);
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.outcome !== 'accepted' || review.length !== 1) throw new Error(`consolidation ${result.outcome}`);
    return elapsed;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runConsolidationThroughputBench(): Promise<Figure[]> {
  const entries = thousandEntries();
  const times: number[] = [];
  let operations = 0;
  for (let run = 0; run < 5; run++) times.push(timeMs(() => (operations = consolidate({ entries }).length)));
  const value = median(times);
  const whole: number[] = [];
  for (let run = 0; run < 5; run++) whole.push(await endToEnd(entries, run));
  const wholeValue = median(whole);
  process.stdout.write(
    `${entries.length} entries → ${operations} operations; runner ${times.map((t) => t.toFixed(0)).join(', ')} ms; end to end ${whole.map((t) => t.toFixed(0)).join(', ')} ms\n`,
  );
  const figures: Figure[] = [
    {
      name: 'consolidation task → patch → review item, 1,000 entries (median of 5)',
      value: `${wholeValue.toFixed(0)} ms`,
      target: '≤ 2000 ms',
      met: wholeValue <= 2000,
    },
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
