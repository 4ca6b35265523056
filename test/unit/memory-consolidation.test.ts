// The consolidation domain: scene and doctrine files round-trip byte for byte, patch operations are
// checked, and the built-in runner is deterministic, retires what is declared superseded, never
// merges an old rule with its replacement, and cites every entry a scene holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentWords } from '../../source/memory/adjudication-rules.js';
import { type ConsolidationEntry, consolidate } from '../../source/memory/consolidation/builtin-consolidation.js';
import {
  type ConsolidationOperation,
  checkOperation,
  describeOperation,
  staleEntries,
} from '../../source/memory/consolidation/patch.js';
import {
  type ConsolidationFile,
  consolidationPath,
  formatConsolidationFile,
  parseConsolidationFile,
  updateConsolidationFile,
} from '../../source/memory/consolidation/scene-format.js';
import { serializeEntryDocument } from '../../source/memory/entry-format.js';
import { seededPicker } from '../support/seeded-random.js';

const encode = (text: string) => new TextEncoder().encode(text);

const random = seededPicker;

const PIECES = [
  'pnpm',
  'Ünïcødé',
  '日本語',
  '"quoted"',
  'back\\slash',
  '[brackets]',
  '{braces}',
  'a: b',
  '---',
  '#',
  'x',
];
const words = (r: ReturnType<typeof random>, n: number) =>
  Array.from({ length: 1 + r.int(n) }, () => r.pick(PIECES)).join(r.pick([' ', '-']));

function generated(seed: number): ConsolidationFile {
  const r = random(seed);
  const ids = Array.from({ length: r.int(40) + 1 }, (_, i) => `m-${seed}-${i}`);
  const extra: Array<[string, string]> = r.next() < 0.3 ? [['owner', words(r, 3)]] : [];
  const body = `${Array.from({ length: r.int(6) }, () => words(r, 8)).join('\n')}\n`;
  return r.next() < 0.6
    ? {
        kind: 'scene',
        name: `scene-${seed}`,
        title: words(r, 5).trim() || 'title',
        appliesWhen: r.next() < 0.7 ? words(r, 6) : null,
        entries: ids,
        extra,
        body,
      }
    : { kind: 'doctrine', name: `doctrine-${seed}`, title: words(r, 5).trim() || 'title', cites: ids, extra, body };
}

describe('scene and doctrine files', () => {
  it('parse → value and serialise → the same bytes, over 400 generated files and their hand-edited forms', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const file = generated(seed);
      const text = formatConsolidationFile(file);
      const parsed = parseConsolidationFile(encode(text));
      assert.ok(parsed.ok, `seed ${seed}: ${!parsed.ok && parsed.problem.message}`);
      assert.deepEqual(parsed.value.file, file, `seed ${seed}`);
      assert.equal(serializeEntryDocument(parsed.value.document), text, `seed ${seed}`);
      // A person reflows the id list and uses CRLF: same value, and the bytes are kept.
      const edited = text
        .replace(/^(entries|cites): (.*)$/m, (_, key, value) => `${key}: ${JSON.stringify(JSON.parse(value), null, 3)}`)
        .replace(/\n/g, '\r\n');
      const reparsed = parseConsolidationFile(encode(edited));
      assert.ok(reparsed.ok, `seed ${seed} edited: ${!reparsed.ok && reparsed.problem.message}`);
      assert.deepEqual(
        reparsed.value.file.kind === 'scene' ? reparsed.value.file.entries : reparsed.value.file.cites,
        file.kind === 'scene' ? file.entries : file.cites,
      );
      assert.equal(serializeEntryDocument(reparsed.value.document), edited);
    }
  });

  it('keeps hand-written fields and spacing when the entries change', () => {
    const original =
      '---\nscene: testing\nowner:   "platform team"\ntitle: Tests\nentries: ["a", "b"]\n---\nSummary.\n';
    const parsed = parseConsolidationFile(encode(original));
    assert.ok(parsed.ok);
    const file = parsed.value.file;
    assert.equal(file.kind, 'scene');
    if (file.kind !== 'scene') return;
    const next = updateConsolidationFile(parsed.value.document, { ...file, entries: ['a', 'b', 'c'] });
    assert.equal(
      next,
      '---\nscene: testing\nowner:   "platform team"\ntitle: Tests\nentries: ["a","b","c"]\n---\nSummary.\n',
    );
    assert.equal(consolidationPath(file), 'scenes/testing.md');
  });

  it('refuses a malformed file with its line', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['---\ntitle: x\nentries: []\n---\n', 4, /scene: <name>/],
      ['---\nscene: Not A Slug\ntitle: x\nentries: []\n---\n', 2, /lower-case/],
      ['---\nscene: s\ntitle: x\nentries: ["a", "a"]\n---\n', 4, /twice/],
      ['---\nscene: s\ntitle: x\nentries: "a"\n---\n', 4, /array of entry ids/],
      ['---\nscene: s\nentries: []\n---\n', 4, /title/],
      ['---\ndoctrine: d\ntitle: x\ncites: []\n---\n', 4, /at least one/],
      ['---\nscene: s\ndoctrine: d\ntitle: x\nentries: []\n---\n', 3, /not both/],
    ];
    for (const [text, line, message] of cases) {
      const parsed = parseConsolidationFile(encode(text));
      assert.equal(parsed.ok, false, text);
      if (parsed.ok) continue;
      assert.equal(parsed.problem.line, line, text);
      assert.match(parsed.problem.message, message, text);
    }
  });
});

const op = (patch: Partial<ConsolidationOperation>): ConsolidationOperation => ({
  op: 'merge',
  target: 'entry',
  name: 'a',
  newContent: null,
  basedOn: [
    { entryId: 'a', revision: 1 },
    { entryId: 'b', revision: 2 },
  ],
  mergeSources: ['b'],
  supersededBy: null,
  reason: 'r',
  ...patch,
});

describe('consolidation patch operations', () => {
  it('accept what holds together and name what does not', () => {
    assert.equal(checkOperation(op({})), null);
    assert.match(checkOperation(op({ op: 'create' }))!, /not an operation on a entry/);
    assert.match(checkOperation(op({ mergeSources: [] }))!, /names no source/);
    assert.match(checkOperation(op({ mergeSources: ['c'] }))!, /does not rest on c/);
    assert.match(checkOperation(op({ op: 'retire', mergeSources: [] }))!, /names no replacement/);
    assert.equal(checkOperation(op({ op: 'retire', mergeSources: [], supersededBy: 'b' })), null);
    assert.match(checkOperation(op({ target: 'scene', op: 'create', mergeSources: [] }))!, /no newContent/);
    assert.match(checkOperation(op({ basedOn: [] }))!, /rests on no entry/);
  });

  it('a patch is stale when any entry it rests on changed revision or is gone', () => {
    const patch = { operations: [op({})] };
    assert.deepEqual(
      staleEntries(
        patch,
        new Map([
          ['a', 1],
          ['b', 2],
        ]),
      ),
      [],
    );
    assert.deepEqual(
      staleEntries(
        patch,
        new Map([
          ['a', 1],
          ['b', 3],
        ]),
      ),
      [{ entryId: 'b', revision: 2 }],
    );
    assert.deepEqual(staleEntries(patch, new Map([['b', 2]])), [{ entryId: 'a', revision: 1 }]);
    assert.match(describeOperation(op({})), /merge entries b into a .*rests on a@1, b@2/);
  });
});

const entry = (
  id: string,
  title: string,
  body: string,
  extra: Partial<ConsolidationEntry> = {},
): ConsolidationEntry => ({
  id,
  revision: 1,
  type: 'work_fact',
  title,
  appliesWhen: null,
  body,
  supersedes: [],
  ...extra,
});

const ENTRIES: ConsolidationEntry[] = [
  entry('t1', 'Run the unit tests with vitest', 'Use `pnpm vitest run` for the unit suite; vitest replaced jest.'),
  entry('t2', 'Unit tests run under vitest', 'The unit suite runs under vitest: `pnpm vitest run`.'),
  entry('t3', 'Vitest snapshot files live beside tests', 'Vitest keeps snapshot files next to the unit test file.'),
  entry('j1', 'Run the unit tests with jest', 'Use `pnpm jest` for the unit suite.'),
  entry('j2', 'Jest is gone, vitest runs the unit suite', 'The unit suite moved from jest to vitest.', {
    supersedes: ['j1'],
  }),
  entry('n18', 'CI runs Node 18', 'The CI image pins Node 18 for the unit suite.'),
  entry('n20', 'CI runs Node 20', 'The CI image pins Node 20 for the unit suite.'),
  entry('d1', 'Migrations are plain SQL files', 'Write each database migration by hand in migrations/*.sql.'),
  entry('d2', 'Never edit a merged migration', 'A database migration in migrations/ is never edited once merged.'),
  entry(
    'd3',
    'Fix a migration with a new migration',
    'A broken database migration in migrations/ gets a follow-up migration.',
  ),
];

describe('the built-in consolidation runner', () => {
  const operations = consolidate({ entries: ENTRIES });

  it('is deterministic whatever order the entries come in', () => {
    const shuffled = [...ENTRIES].reverse();
    assert.deepEqual(consolidate({ entries: shuffled }), operations);
    for (const operation of operations) assert.equal(checkOperation(operation), null, describeOperation(operation));
  });

  it('retires a declared superseded entry and never merges it with its replacement', () => {
    const retire = operations.filter((o) => o.op === 'retire');
    assert.deepEqual(
      retire.map((o) => [o.name, o.supersededBy]),
      [['j1', 'j2']],
    );
    const merged = operations.filter((o) => o.op === 'merge').map((o) => o.basedOn.map((b) => b.entryId));
    for (const ids of merged) assert.ok(!(ids.includes('j1') && ids.includes('j2')), JSON.stringify(ids));
  });

  it('merges a rule said twice, but not two rules that differ on a number', () => {
    const merged = operations.filter((o) => o.op === 'merge').map((o) => o.basedOn.map((b) => b.entryId));
    assert.ok(
      merged.some((ids) => ids.includes('t1') && ids.includes('t2')),
      JSON.stringify(merged),
    );
    assert.ok(!merged.some((ids) => ids.includes('n18') && ids.includes('n20')), JSON.stringify(merged));
  });

  it('proposes scenes that cite every member, with names made of the members’ own words', () => {
    const scenes = operations.filter((o) => o.target === 'scene');
    assert.ok(scenes.length >= 1);
    for (const scene of scenes) {
      assert.equal(scene.op, 'create');
      const parsed = parseConsolidationFile(encode(scene.newContent!));
      assert.ok(parsed.ok);
      const file = parsed.value.file;
      assert.equal(file.kind, 'scene');
      if (file.kind !== 'scene') continue;
      assert.deepEqual(
        file.entries,
        scene.basedOn.map((b) => b.entryId),
      );
      for (const id of file.entries) assert.match(file.body, new RegExp(`^- ${id}: `, 'm'));
      const memberWords = new Set(
        file.entries.flatMap((id) => {
          const e = ENTRIES.find((x) => x.id === id)!;
          return [...contentWords(`${e.title} ${e.appliesWhen ?? ''} ${e.body}`)];
        }),
      );
      for (const word of file.name.split('-'))
        assert.ok(
          [...contentWords(word)].every((w) => memberWords.has(w)),
          file.name,
        );
    }
    const migrations = scenes.find((s) => s.basedOn.some((b) => b.entryId === 'd1'));
    assert.ok(migrations, 'the migration entries form a scene');
    assert.deepEqual(
      migrations.basedOn.map((b) => b.entryId),
      ['d1', 'd2', 'd3'],
    );
  });

  it('updates an existing scene file in place: only its `entries` line changes', () => {
    const text =
      '---\r\nscene: migrations\r\ntitle:   "Database migrations"\r\nentries: [\r\n  "d1",\r\n  "d2"\r\n]\r\nteam: "data"\r\n---\r\nOurs.\r\n';
    const existing = {
      name: 'migrations',
      title: 'Database migrations',
      appliesWhen: null,
      entries: ['d1', 'd2'],
      body: 'Ours.\r\n',
      text,
    };
    const update = consolidate({ entries: ENTRIES, scenes: [existing] }).find((o) => o.name === 'migrations');
    assert.equal(update?.op, 'update');
    assert.equal(
      update!.newContent,
      '---\r\nscene: migrations\r\ntitle:   "Database migrations"\r\nentries: ["d1","d2","d3"]\r\nteam: "data"\r\n---\r\nOurs.\r\n',
    );
  });

  it('writes no doctrine', () => {
    assert.equal(operations.filter((o) => o.target === 'doctrine').length, 0);
  });

  it('keeps an existing scene’s name and title, and proposes nothing when its members are unchanged', () => {
    const scene = operations.find((o) => o.target === 'scene' && o.basedOn.some((b) => b.entryId === 'd1'))!;
    const existing = { name: 'migrations', title: 'Database migrations', appliesWhen: null, body: 'Ours.\n' };
    const same = consolidate({ entries: ENTRIES, scenes: [{ ...existing, entries: ['d1', 'd2', 'd3'] }] });
    assert.ok(!same.some((o) => o.target === 'scene' && o.basedOn.some((b) => b.entryId === 'd1')));
    const grown = consolidate({ entries: ENTRIES, scenes: [{ ...existing, entries: ['d1', 'd2'] }] });
    const update = grown.find((o) => o.target === 'scene' && o.name === 'migrations');
    assert.equal(update?.op, 'update');
    assert.match(update!.newContent!, /^title: "Database migrations"$/m);
    assert.match(update!.newContent!, /^entries: \["d1","d2","d3"\]\n---\nOurs\.\n$/m);
    assert.notEqual(scene.name, '');
  });
});

// Paraphrases put the same rule in their own words, titles first; an old rule and its replacement
// can be just as alike, and the replacement says so ("now", "replaced").
const PARAPHRASES: ConsolidationEntry[] = [
  ...ENTRIES,
  entry(
    'r1',
    'Releases are cut by goreleaser on tag push',
    'Push a vX.Y.Z tag; the release workflow runs goreleaser, which builds the archives and publishes the Homebrew formula.',
  ),
  entry(
    'r2',
    'A version tag triggers goreleaser',
    'Tag the commit vX.Y.Z and push it; goreleaser in the release workflow builds the archives and updates the Homebrew formula.',
  ),
  entry(
    'q1',
    'Background jobs run on BullMQ over Redis',
    'Define a queue and a worker for each job; Redis holds the job state.',
  ),
  entry(
    'q2',
    'Background jobs go through SQS',
    'Each job is a message on an SQS queue read by the worker; Redis is a cache now and holds no job state.',
  ),
];

describe('the built-in consolidation runner on paraphrases', () => {
  const merged = consolidate({ entries: PARAPHRASES })
    .filter((o) => o.op === 'merge')
    .map((o) => o.basedOn.map((b) => b.entryId));

  it('merges two strongly alike entries even when each title names something the other does not', () => {
    assert.ok(
      merged.some((ids) => ids.includes('r1') && ids.includes('r2')),
      JSON.stringify(merged),
    );
  });

  it('keeps apart two alike entries with titles of their own when one says something changed', () => {
    assert.ok(!merged.some((ids) => ids.includes('q1') && ids.includes('q2')), JSON.stringify(merged));
  });
});

describe('adjudication rules', () => {
  it('read a statement that holds a word named like an object property ("constructor") without failing', () => {
    assert.deepEqual([...contentWords('Build commands in a constructor function')].includes('constructor'), true);
  });
});
