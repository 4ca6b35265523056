// Built-in consolidation on the labelled set (test/corpus/consolidation/; written blind, test split
// frozen): each repository's entries are one scope, consolidated by the built-in runner; its merge,
// retirement and scene proposals are scored against the labels.
// `npm run bench -- consolidation-quality [--split train|test] [--misses]` (misses: train only).
import { readFileSync } from 'node:fs';
import { type ConsolidationEntry, consolidate } from '../../source/memory/consolidation/builtin-consolidation.js';
import type { ConsolidationOperation } from '../../source/memory/consolidation/patch.js';
import { type Figure, report } from './measure.js';

export type Split = 'train' | 'test';

interface Row {
  id: string;
  repository: string;
  scope: 'project' | 'user';
  type: string;
  title: string;
  appliesWhen: string | null;
  body: string;
  supersedes?: string[];
  labels: { scene: string | null; duplicateOf: string | null; supersededBy: string | null; nearMissOf: string | null };
}

export function readConsolidationSplit(split: Split): Row[] {
  const text = readFileSync(new URL(`../corpus/consolidation/${split}.jsonl`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Row);
}

export const toEntry = (row: Row): ConsolidationEntry => ({
  id: row.id,
  revision: 1,
  type: row.type,
  title: row.title,
  appliesWhen: row.appliesWhen,
  body: row.body,
  supersedes: row.supersedes ?? [],
});

export interface ConsolidationScore {
  entries: number;
  mergePrecision: number;
  mergeRecall: number;
  mergePairs: { proposed: number; labelled: number; found: number };
  retirePrecision: number;
  retireRecall: number;
  retirePairs: { proposed: number; labelled: number; found: number };
  /** Share of entries some proposed scene holds. */
  placed: number;
  /** Share of entries of proposed scenes whose labelled scene is their scene's majority label. */
  purity: number;
  /** Pairs placed together that share a labelled scene, over pairs placed together. */
  scenePairPrecision: number;
  /** Pairs sharing a labelled scene that are placed together. */
  scenePairRecall: number;
  scenes: number;
  misses: string[];
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
const ratio = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);

export function scoreConsolidation(split: Split): ConsolidationScore {
  const rows = readConsolidationSplit(split);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const repositories = [...new Set(rows.map((row) => row.repository))];
  const operations: ConsolidationOperation[] = [];
  const sceneOf = new Map<string, string>();
  for (const repository of repositories) {
    const ops = consolidate({ entries: rows.filter((row) => row.repository === repository).map(toEntry) });
    for (const operation of ops) {
      operations.push(operation);
      if (operation.target === 'scene')
        for (const item of operation.basedOn) sceneOf.set(item.entryId, `${repository}/${operation.name}`);
    }
  }
  // Labelled duplicate pairs: every pair inside a group (the first entry and its duplicates).
  const groups = new Map<string, string[]>();
  for (const row of rows) {
    const head = row.labels.duplicateOf ?? (rows.some((other) => other.labels.duplicateOf === row.id) ? row.id : null);
    if (head) groups.set(head, [...(groups.get(head) ?? []), row.id]);
  }
  const duplicates = new Set<string>();
  for (const ids of groups.values())
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) duplicates.add(pairKey(ids[i]!, ids[j]!));
  const proposedMerges = new Set<string>();
  for (const operation of operations) {
    if (operation.target !== 'entry' || operation.op !== 'merge') continue;
    const ids = operation.basedOn.map((item) => item.entryId);
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) proposedMerges.add(pairKey(ids[i]!, ids[j]!));
  }
  const mergeFound = [...proposedMerges].filter((pair) => duplicates.has(pair)).length;

  const supersessions = new Set(
    rows.filter((row) => row.labels.supersededBy).map((row) => `${row.id}>${row.labels.supersededBy}`),
  );
  const proposedRetirements = new Set(
    operations
      .filter((operation) => operation.op === 'retire')
      .map((operation) => `${operation.name}>${operation.supersededBy}`),
  );
  const retireFound = [...proposedRetirements].filter((pair) => supersessions.has(pair)).length;

  // Scenes.
  const members = new Map<string, string[]>();
  for (const [id, scene] of sceneOf) members.set(scene, [...(members.get(scene) ?? []), id]);
  let pure = 0;
  let placedTogether = 0;
  let placedTogetherRight = 0;
  for (const ids of members.values()) {
    const counts = new Map<string, number>();
    for (const id of ids) {
      const label = byId.get(id)!.labels.scene ?? '(none)';
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
    const majority = [...counts].filter(([label]) => label !== '(none)').sort((a, b) => b[1] - a[1])[0];
    pure += majority?.[1] ?? 0;
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        placedTogether++;
        const a = byId.get(ids[i]!)!.labels.scene;
        if (a !== null && a === byId.get(ids[j]!)!.labels.scene) placedTogetherRight++;
      }
  }
  let labelledTogether = 0;
  let labelledFound = 0;
  for (let i = 0; i < rows.length; i++)
    for (let j = i + 1; j < rows.length; j++) {
      const a = rows[i]!;
      const b = rows[j]!;
      if (a.repository !== b.repository || a.labels.scene === null || a.labels.scene !== b.labels.scene) continue;
      labelledTogether++;
      const sa = sceneOf.get(a.id);
      if (sa !== undefined && sa === sceneOf.get(b.id)) labelledFound++;
    }

  const misses: string[] = [];
  const show = (id: string) => `${id} "${byId.get(id)!.title}"`;
  for (const pair of proposedMerges)
    if (!duplicates.has(pair)) misses.push(`false merge: ${pair.split('|').map(show).join(' + ')}`);
  for (const pair of duplicates)
    if (!proposedMerges.has(pair)) misses.push(`missed merge: ${pair.split('|').map(show).join(' + ')}`);
  for (const pair of supersessions)
    if (!proposedRetirements.has(pair)) misses.push(`missed retirement: ${pair.split('>').map(show).join(' by ')}`);
  for (const pair of proposedRetirements) if (!supersessions.has(pair)) misses.push(`false retirement: ${pair}`);

  return {
    entries: rows.length,
    mergePrecision: ratio(mergeFound, proposedMerges.size),
    mergeRecall: ratio(mergeFound, duplicates.size),
    mergePairs: { proposed: proposedMerges.size, labelled: duplicates.size, found: mergeFound },
    retirePrecision: ratio(retireFound, proposedRetirements.size),
    retireRecall: ratio(retireFound, supersessions.size),
    retirePairs: { proposed: proposedRetirements.size, labelled: supersessions.size, found: retireFound },
    placed: sceneOf.size / rows.length,
    purity: ratio(pure, sceneOf.size),
    scenePairPrecision: ratio(placedTogetherRight, placedTogether),
    scenePairRecall: ratio(labelledFound, labelledTogether),
    scenes: members.size,
    misses,
  };
}

export async function runConsolidationQualityBench(argv: string[] = process.argv.slice(2)): Promise<Figure[]> {
  const at = argv.indexOf('--split');
  const wanted = at >= 0 ? argv[at + 1] : undefined;
  if (wanted !== undefined && wanted !== 'test' && wanted !== 'train') throw new Error('--split must be train or test');
  const splits: Split[] = wanted ? [wanted] : ['train', 'test'];
  const figures: Figure[] = [];
  for (const split of splits) {
    const score = scoreConsolidation(split);
    const { mergePairs: m, retirePairs: r } = score;
    process.stdout.write(
      `${split}: ${score.entries} entries; merge pairs ${m.found}/${m.proposed} proposed right, ${m.found}/${m.labelled} found; ` +
        `retirements ${r.found}/${r.proposed} right, ${r.found}/${r.labelled} found; ${score.scenes} scenes\n`,
    );
    const figure = (name: string, value: number, target: string, met: boolean | null): Figure => ({
      name: `${name} · ${split}`,
      value: value.toFixed(3),
      target,
      met,
    });
    figures.push(
      figure('merge precision', score.mergePrecision, '≥ 0.95', score.mergePrecision >= 0.95),
      figure('merge recall', score.mergeRecall, '≥ 0.80', score.mergeRecall >= 0.8),
      figure('retirement precision', score.retirePrecision, '≥ 0.95', score.retirePrecision >= 0.95),
      figure('retirement recall', score.retireRecall, 'reported', null),
      figure('entries placed in a scene', score.placed, 'reported', null),
      figure('scene purity', score.purity, 'reported', null),
      figure('scene pair precision', score.scenePairPrecision, 'reported', null),
      figure('scene pair recall', score.scenePairRecall, 'reported', null),
    );
    if (argv.includes('--misses')) {
      if (split === 'train') for (const miss of score.misses) process.stdout.write(`  ${miss}\n`);
      else process.stdout.write('  (misses are not listed for the test split: tune on train)\n');
    }
  }
  report(figures);
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await runConsolidationQualityBench();
