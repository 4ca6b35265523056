// The labelled consolidation set (test/corpus/consolidation/) is well-formed, its labels hold
// together, every row is a valid memory entry, and its test split stays frozen byte for byte.
// The consolidation figures on it (merge precision and recall, scene placement) are a bench, not
// asserted here.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  checkEntryId,
  checkSlug,
  ENTRY_TYPES,
  formatEntry,
  type MemoryEntry,
  parseEntry,
} from '../../source/memory/entry-format.js';

// The digest of test.jsonl as first committed, before any consolidation code existed.
const FROZEN_TEST = 'efb34bfdb393fd7a0f4a931ae75f9c6fc8f3bcb731f201ed04cca3b02ed22dce';

const SPLITS = ['train', 'test'] as const;
type Split = (typeof SPLITS)[number];

interface Labels {
  scene: string | null;
  duplicateOf: string | null;
  supersededBy: string | null;
  nearMissOf: string | null;
}

interface Row {
  id: string;
  repository: string;
  scope: 'project' | 'user';
  type: MemoryEntry['type'];
  title: string;
  appliesWhen: string | null;
  body: string;
  supersedes?: string[];
  labels: Labels;
}

const fileUrl = (name: string) => new URL(`../corpus/consolidation/${name}`, import.meta.url);
const readText = (name: string) => readFileSync(fileUrl(name), 'utf8');

const ROW_KEYS = ['id', 'repository', 'scope', 'type', 'title', 'appliesWhen', 'body', 'supersedes', 'labels'];
const LABEL_KEYS = ['scene', 'duplicateOf', 'supersededBy', 'nearMissOf'];

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() === value && value !== '';
const isTextOrNull = (value: unknown) => value === null || isText(value);

function readSplit(split: Split): Row[] {
  const text = readText(`${split}.jsonl`);
  assert.ok(text.endsWith('\n'), `${split}.jsonl ends with a newline`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, index) => {
      const where = `${split}.jsonl line ${index + 1}`;
      const row = JSON.parse(line) as Row;
      // One canonical form: what JSON.stringify writes, keys in the documented order.
      assert.equal(JSON.stringify(row), line, `${where} is not in canonical form`);
      assert.deepEqual(
        Object.keys(row),
        ROW_KEYS.filter((key) => key !== 'supersedes' || 'supersedes' in row),
        where,
      );
      assert.deepEqual(Object.keys(row.labels), LABEL_KEYS, where);
      assert.ok(isText(row.id) && isText(row.repository) && isText(row.title) && isText(row.body), where);
      assert.ok(!/[\r\n]/.test(row.title), `${where}: one-line title`);
      assert.ok(row.scope === 'project' || row.scope === 'user', where);
      assert.ok((ENTRY_TYPES as readonly string[]).includes(row.type), `${where}: type ${row.type}`);
      assert.ok(isTextOrNull(row.appliesWhen), where);
      if (row.supersedes !== undefined) {
        assert.ok(Array.isArray(row.supersedes) && row.supersedes.length > 0, where);
        for (const id of row.supersedes) assert.ok(isText(id), where);
      }
      for (const key of LABEL_KEYS) assert.ok(isTextOrNull(row.labels[key as keyof Labels]), `${where}: ${key}`);
      return row;
    });
}

const rows: Record<Split, Row[]> = { train: readSplit('train'), test: readSplit('test') };

/** Duplicate groups of a split: each group's first id → every id in the group (first included). */
function duplicateGroups(split: Row[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const row of split) {
    const first = row.labels.duplicateOf;
    if (first === null) continue;
    groups.set(first, [...(groups.get(first) ?? [first]), row.id]);
  }
  return groups;
}

interface Summary {
  entries: number;
  repositories: number;
  duplicateGroups: number;
  duplicatePairs: number;
  markedDuplicate: number;
  superseded: number;
  declaringSupersedes: number;
  scenes: number;
  inScene: number;
  nearMisses: number;
}

function summary(split: Row[]): Summary {
  const groups = duplicateGroups(split);
  const scenes = new Set(split.filter((r) => r.labels.scene).map((r) => `${r.repository}/${r.labels.scene}`));
  return {
    entries: split.length,
    repositories: new Set(split.map((r) => r.repository)).size,
    duplicateGroups: groups.size,
    duplicatePairs: [...groups.values()].reduce((sum, ids) => sum + (ids.length * (ids.length - 1)) / 2, 0),
    markedDuplicate: split.filter((r) => r.labels.duplicateOf).length,
    superseded: split.filter((r) => r.labels.supersededBy).length,
    declaringSupersedes: split.filter((r) => r.supersedes).length,
    scenes: scenes.size,
    inScene: split.filter((r) => r.labels.scene).length,
    nearMisses: split.filter((r) => r.labels.nearMissOf).length,
  };
}

describe('the labelled consolidation set', () => {
  it('keeps its frozen test split byte for byte', () => {
    const digest = createHash('sha256')
      .update(readFileSync(fileUrl('test.jsonl')))
      .digest('hex');
    assert.equal(digest, FROZEN_TEST, 'test.jsonl is frozen: measure on it, never edit or tune on it');
  });

  it('has unique ids across both splits, at least 420 entries, and each repository in one split only', () => {
    const all = [...rows.train, ...rows.test];
    assert.ok(all.length >= 420, `${all.length} entries`);
    const ids = all.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    for (const id of ids) {
      assert.equal(checkEntryId(id), null, id);
      assert.equal(checkSlug(id), null, id);
    }
    const splitOf = new Map<string, Split>();
    const scopeOf = new Map<string, Row['scope']>();
    for (const split of SPLITS) {
      for (const row of rows[split]) {
        assert.equal(splitOf.get(row.repository) ?? split, split, `${row.repository} appears in both splits`);
        assert.equal(scopeOf.get(row.repository) ?? row.scope, row.scope, `${row.repository} mixes scopes`);
        splitOf.set(row.repository, split);
        scopeOf.set(row.repository, row.scope);
      }
      assert.ok(
        rows[split].some((r) => r.scope === 'user'),
        `${split} has user-scope entries`,
      );
      assert.ok(new Set(rows[split].filter((r) => r.scope === 'project').map((r) => r.repository)).size >= 3);
    }
  });

  for (const split of SPLITS) {
    it(`${split}: every label names an entry of the same repository and split, and the labels agree`, () => {
      const byId = new Map(rows[split].map((r) => [r.id, r]));
      const sameRepository = (row: Row, id: string, what: string) => {
        const target = byId.get(id);
        assert.ok(target, `${row.id}: ${what} ${id} is not in ${split}`);
        assert.equal(target.repository, row.repository, `${row.id}: ${what} ${id} is in another repository`);
        assert.notEqual(id, row.id, `${row.id}: ${what} itself`);
        return target;
      };
      for (const row of rows[split]) {
        const { duplicateOf, supersededBy, nearMissOf } = row.labels;
        if (duplicateOf !== null) {
          const first = sameRepository(row, duplicateOf, 'duplicateOf');
          assert.equal(first.labels.duplicateOf, null, `${row.id}: duplicateOf must name its group's first id`);
        }
        if (supersededBy !== null) sameRepository(row, supersededBy, 'supersededBy');
        if (nearMissOf !== null) {
          const other = sameRepository(row, nearMissOf, 'nearMissOf');
          const group = (r: Row) => r.labels.duplicateOf ?? r.id;
          assert.notEqual(group(row), group(other), `${row.id}: a near-miss cannot be in its duplicate group`);
        }
        // An entry is either kept as a duplicate of a live rule or retired by a newer one, not both.
        assert.ok(duplicateOf === null || supersededBy === null, `${row.id}: both duplicate and superseded`);
        for (const old of row.supersedes ?? []) {
          const target = sameRepository(row, old, 'supersedes');
          assert.equal(target.labels.supersededBy, row.id, `${row.id} declares supersedes ${old}, the label disagrees`);
        }
        // Supersession never loops.
        const seen = new Set([row.id]);
        for (let next = supersededBy; next !== null; next = byId.get(next)?.labels.supersededBy ?? null) {
          assert.ok(!seen.has(next), `${row.id}: supersession cycle through ${next}`);
          seen.add(next);
        }
      }
    });

    it(`${split}: enough duplicates, superseded entries, scenes and near-misses to measure`, () => {
      const counts = summary(rows[split]);
      assert.ok(counts.entries >= 200, `${counts.entries} entries`);
      assert.ok(counts.duplicatePairs >= 60, `${counts.duplicatePairs} duplicate pairs`);
      assert.ok(counts.markedDuplicate >= 60, `${counts.markedDuplicate} entries marked duplicate`);
      assert.ok(counts.superseded >= 25, `${counts.superseded} superseded entries`);
      assert.ok(counts.scenes >= 10, `${counts.scenes} scenes`);
      assert.ok(counts.nearMisses >= 20, `${counts.nearMisses} near-misses`);
      // Most entries are ordinary: neither a later duplicate nor retired.
      assert.ok(counts.markedDuplicate + counts.superseded < counts.entries / 2);
      // Some superseding entries declare it, some leave it to be found.
      assert.ok(counts.declaringSupersedes > 0 && counts.declaringSupersedes < counts.superseded);
      const sceneSizes = new Map<string, number>();
      for (const row of rows[split].filter((r) => r.labels.scene)) {
        const key = `${row.repository}/${row.labels.scene}`;
        sceneSizes.set(key, (sceneSizes.get(key) ?? 0) + 1);
      }
      for (const [scene, size] of sceneSizes) assert.ok(size >= 3, `scene ${scene} groups only ${size} entries`);
    });

    it(`${split}: every row is a valid memory entry that survives the file format`, () => {
      for (const row of rows[split]) {
        const entry: MemoryEntry = {
          id: row.id,
          type: row.type,
          title: row.title,
          appliesWhen: row.appliesWhen,
          priority: 50,
          confidence: 'high',
          evidence: null,
          created: null,
          supersedes: row.supersedes ?? [],
          extra: [],
          body: row.body,
        };
        const parsed = parseEntry(new TextEncoder().encode(formatEntry(entry)));
        assert.ok(parsed.ok, `${row.id}: ${parsed.ok ? '' : parsed.problem.message}`);
        const back = parsed.value.entry;
        assert.deepEqual(
          [back.id, back.type, back.title, back.appliesWhen, back.supersedes, back.body.trim()],
          [row.id, row.type, row.title, row.appliesWhen, row.supersedes ?? [], row.body],
          row.id,
        );
      }
    });
  }

  it('states the counts of each split in its README', () => {
    const readme = readText('README.md');
    for (const split of SPLITS) {
      const c = summary(rows[split]);
      const line = `| ${split} | ${c.entries} | ${c.repositories} | ${c.duplicateGroups} | ${c.duplicatePairs} | ${c.markedDuplicate} | ${c.superseded} | ${c.declaringSupersedes} | ${c.scenes} | ${c.inScene} | ${c.nearMisses} |`;
      assert.ok(readme.includes(line), `README.md lacks the line ${line}`);
    }
  });
});
