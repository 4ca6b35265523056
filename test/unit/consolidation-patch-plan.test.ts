// A consolidation patch as a promotion plan (issue 28, item 3), pure: the accepted operations become
// the exact bytes of every file created, updated and removed; the plan names the operations it
// carries and those left out; a patch resting on anything that changed since its task is stale.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gitBlobOid } from '../../source/memory/blob-oid.js';
import { sha256Hex } from '../../source/ground/digests.js';
import { buildConsolidationPlan, type PatchPlanInput } from '../../source/memory/consolidation/patch-plan.js';
import { type ConsolidationEntry, consolidate } from '../../source/memory/consolidation/builtin-consolidation.js';
import type { ConsolidationOperation } from '../../source/memory/consolidation/patch.js';
import { formatConsolidationFile } from '../../source/memory/consolidation/scene-format.js';
import { type CurrentFile, canonicalPlanJson, storedPlanProblem } from '../../source/memory/promotion-plan.js';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

// Hand-written entries: an odd spacing and a field of the writer's own are kept on an update.
const FILES: Record<string, string> = {
  'work_method/lint-in-ci.md':
    '---\nid: ci-1\ntype: work_method\ntitle:   "CI lints with biome before the unit tests"\nowner: "platform"\n---\nThe CI workflow runs `pnpm biome check`, then the unit tests.\n',
  'work_method/biome-first.md':
    '---\nid: ci-2\ntype: work_method\ntitle: Biome lint runs in CI before tests\n---\nCI runs `pnpm biome check` before the unit tests.\n',
  'work_fact/jest.md': '---\nid: jest\ntype: work_fact\ntitle: Unit tests run with jest\n---\nUse `pnpm jest`.\n',
  'work_fact/vitest.md':
    '---\nid: vitest\ntype: work_fact\ntitle: Vitest runs the unit suite\nsupersedes: ["jest"]\n---\nUse `pnpm vitest run`.\n',
};
const idOf = (path: string) => /\nid: ([^\n]+)\n/.exec(FILES[path]!)![1]!;
const entryFiles = Object.entries(FILES).map(([path, text]) => ({ path, bytes: encode(text) }));

const SCENE = formatConsolidationFile({
  kind: 'scene',
  name: 'ci-checks',
  title: 'What CI checks',
  appliesWhen: 'changing the CI workflow',
  entries: ['ci-1', 'ci-2'],
  extra: [],
  body: 'CI lints before it tests.\n',
});

const OPERATIONS: ConsolidationOperation[] = [
  {
    op: 'create',
    target: 'scene',
    name: 'ci-checks',
    newContent: SCENE,
    basedOn: [
      { entryId: 'ci-1', revision: 1 },
      { entryId: 'ci-2', revision: 1 },
    ],
    mergeSources: [],
    supersededBy: null,
    reason: 'CI lints before it tests.',
  },
  {
    op: 'merge',
    target: 'entry',
    name: 'ci-1',
    newContent: null,
    basedOn: [
      { entryId: 'ci-1', revision: 1 },
      { entryId: 'ci-2', revision: 1 },
    ],
    mergeSources: ['ci-2'],
    supersededBy: null,
    reason: 'same rule in other words',
  },
  {
    op: 'retire',
    target: 'entry',
    name: 'jest',
    newContent: null,
    basedOn: [
      { entryId: 'jest', revision: 2 },
      { entryId: 'vitest', revision: 1 },
    ],
    mergeSources: [],
    supersededBy: 'vitest',
    reason: 'vitest declares supersedes jest',
  },
];

const REVISIONS: Record<string, number> = { 'ci-1': 1, 'ci-2': 1, jest: 2, vitest: 1 };

function input(overrides: Partial<PatchPlanInput> = {}): PatchPlanInput {
  return {
    planId: 'plan-1',
    scope: 'project',
    ownerKey: 'repo:worktree',
    anchor: '/repo',
    patch: { taskId: 'con-abc', operations: OPERATIONS },
    task: {
      entries: entryFiles.map((file) => ({
        id: idOf(file.path),
        revision: REVISIONS[idOf(file.path)]!,
        contentDigest: sha256Hex(file.bytes),
      })),
      scenes: [],
    },
    accepted: null,
    revisions: new Map(Object.entries(REVISIONS)),
    entryFiles,
    consolidationFiles: [],
    now: '2026-01-02T03:04:05.000Z',
    ...overrides,
  };
}

const built = (overrides: Partial<PatchPlanInput> = {}) => {
  const result = buildConsolidationPlan(input(overrides));
  assert.ok(result.ok, result.ok ? '' : result.refusal.message);
  return result.plan;
};

describe('consolidation patch → promotion plan', () => {
  it('writes the scene, rewrites the merge survivor, removes the merged and retired entries, with exact bytes', () => {
    const plan = built();
    assert.deepEqual(
      plan.files.map((f) => [f.action, f.path, f.entryId]),
      [
        ['create', 'scenes/ci-checks.md', 'scene:ci-checks'],
        ['remove', 'work_fact/jest.md', 'jest'],
        ['remove', 'work_method/biome-first.md', 'ci-2'],
        ['update', 'work_method/lint-in-ci.md', 'ci-1'],
      ],
    );
    const file = (path: string) => plan.files.find((f) => f.path === path)!;
    assert.equal(
      decode(file('scenes/ci-checks.md').content),
      SCENE.replace('entries: ["ci-1","ci-2"]', 'entries: ["ci-1"]'),
      'the scene no longer lists ci-2, merged into ci-1 by the same plan',
    );
    assert.equal(file('scenes/ci-checks.md').targetBlobHash, null, 'a new file must not exist');
    assert.equal(
      decode(file('work_method/lint-in-ci.md').content),
      '---\nid: ci-1\ntype: work_method\ntitle:   "CI lints with biome before the unit tests"\nowner: "platform"\nsupersedes: ["ci-2"]\nupdated: "2026-01-02T03:04:05.000Z"\n---\nThe CI workflow runs `pnpm biome check`, then the unit tests.\n',
      'the survivor keeps every byte it had and names the merged entry',
    );
    for (const path of ['work_fact/jest.md', 'work_method/biome-first.md']) {
      // A removal binds the bytes the file holds now and their blob: promote removes only those.
      assert.equal(decode(file(path).content), FILES[path]);
      assert.equal(file(path).targetBlobHash, gitBlobOid(encode(FILES[path]!)));
    }
    assert.equal(
      file('work_method/lint-in-ci.md').targetBlobHash,
      gitBlobOid(encode(FILES['work_method/lint-in-ci.md']!)),
    );
    assert.match(plan.diff, /--- a\/work_fact\/jest\.md\n\+\+\+ \/dev\/null/);
    assert.match(plan.diff, /--- \/dev\/null\n\+\+\+ b\/scenes\/ci-checks\.md/);
    assert.deepEqual(plan.candidates, []);
    assert.deepEqual(
      plan.consolidation.operations.map((o) => [o.number, o.op, o.target, o.name]),
      [
        [1, 'create', 'scene', 'ci-checks'],
        [2, 'merge', 'entry', 'ci-1'],
        [3, 'retire', 'entry', 'jest'],
      ],
    );
    assert.deepEqual(plan.consolidation.leftOut, []);
  });

  it('a scene written by the plan lists the survivor in place of an entry merged away or retired', () => {
    const scene = SCENE.replace('entries: ["ci-1","ci-2"]', 'entries: ["ci-2","jest"]');
    assert.notEqual(scene, SCENE);
    const operations = OPERATIONS.map((o, i) => (i === 0 ? { ...o, newContent: scene } : o));
    const plan = built({ patch: { taskId: 'con-abc', operations } });
    const written = decode(plan.files.find((f) => f.path === 'scenes/ci-checks.md')!.content);
    assert.equal(written, scene.replace('entries: ["ci-2","jest"]', 'entries: ["ci-1","vitest"]'));
    // Left out, the merge removes nothing: the scene is written as the runner proposed it.
    const alone = built({ patch: { taskId: 'con-abc', operations }, accepted: [1] });
    assert.equal(decode(alone.files.find((f) => f.path === 'scenes/ci-checks.md')!.content), scene);
  });

  it('an existing scene that lists an entry the plan removes is updated by the same plan, every other byte kept', () => {
    // Hand-written: an odd spacing and a field of the writer's own.
    const existing =
      '---\nscene: ci-checks\ntitle:   "What CI checks"\nentries: ["ci-2", "jest"]\nteam: "platform"\n---\nCI lints first.\n';
    const plan = built({
      accepted: [2],
      consolidationFiles: [{ path: 'scenes/ci-checks.md', bytes: encode(existing) }],
      task: { ...input().task, scenes: [{ name: 'ci-checks', contentDigest: sha256Hex(encode(existing)) }] },
    });
    assert.deepEqual(
      plan.files.map((f) => [f.action, f.path, f.entryId]),
      [
        ['update', 'scenes/ci-checks.md', 'scene:ci-checks'],
        ['remove', 'work_method/biome-first.md', 'ci-2'],
        ['update', 'work_method/lint-in-ci.md', 'ci-1'],
      ],
    );
    const scene = plan.files.find((f) => f.path === 'scenes/ci-checks.md')!;
    assert.equal(decode(scene.content), existing.replace('entries: ["ci-2", "jest"]', 'entries: ["ci-1","jest"]'));
    assert.equal(scene.targetBlobHash, gitBlobOid(encode(existing)), 'written only over the bytes read');
    assert.match(plan.diff, /\+\+\+ b\/scenes\/ci-checks\.md/);
    // A scene that lists neither is not touched.
    const other = '---\nscene: tests\ntitle: Tests\nentries: ["vitest"]\n---\nTests.\n';
    const untouched = built({ accepted: [2], consolidationFiles: [{ path: 'scenes/tests.md', bytes: encode(other) }] });
    assert.ok(!untouched.files.some((f) => f.path === 'scenes/tests.md'));
  });

  it('a partial approval carries only the accepted operations and names those left out; the digest binds which', () => {
    const all = built();
    const partial = built({ accepted: [3, 1] });
    assert.deepEqual(
      partial.files.map((f) => [f.action, f.path]),
      [
        ['create', 'scenes/ci-checks.md'],
        ['remove', 'work_fact/jest.md'],
      ],
    );
    assert.deepEqual(
      partial.consolidation.operations.map((o) => o.number),
      [1, 3],
    );
    assert.deepEqual(partial.consolidation.leftOut, [2]);
    assert.notEqual(partial.planDigest, all.planDigest);
    const canonical = JSON.parse(canonicalPlanJson(partial)) as { consolidation: { leftOut: number[] } };
    assert.deepEqual(canonical.consolidation.leftOut, [2], 'the digest is over what was left out too');
    assert.equal(
      storedPlanProblem({
        planId: partial.planId,
        scope: partial.scope,
        ownerKey: partial.ownerKey,
        candidateOwnerKey: partial.candidateOwnerKey,
        anchor: '/repo',
        canonicalJson: canonicalPlanJson(partial),
        planDigest: partial.planDigest,
        candidatesJson: '[]',
        policyVersion: partial.policyVersion,
        diff: partial.diff,
        files: partial.files.map((f) => ({
          path: f.path,
          entryId: f.entryId,
          action: f.action,
          candidateIdsJson: '[]',
          targetBlobHash: f.targetBlobHash,
          content: f.content,
          sanitizedContentDigest: f.sanitizedContentDigest,
          findingsJson: JSON.stringify(f.findings),
        })),
      }),
      null,
      'the journal check of every plan holds for a consolidation plan',
    );
    const refused = buildConsolidationPlan(input({ accepted: [4] }));
    assert.ok(!refused.ok);
    assert.match(refused.refusal.message, /operation 4 is not in the patch \(it has 3\)/);
  });

  it('is stale when an entry an accepted operation rests on changed revision, its file changed, or it is gone', () => {
    const cases: Array<[Partial<PatchPlanInput>, RegExp]> = [
      [{ revisions: new Map(Object.entries({ ...REVISIONS, 'ci-2': 2 })) }, /entry ci-2 changed \(revision 1 → 2\)/],
      [
        {
          entryFiles: entryFiles.map((f) =>
            f.path === 'work_fact/jest.md' ? { ...f, bytes: encode(`${FILES[f.path]}Edited.\n`) } : f,
          ),
        },
        /entry jest's file changed since revision 2/,
      ],
      [{ entryFiles: entryFiles.filter((f) => f.path !== 'work_fact/vitest.md') }, /entry vitest was removed/],
      [
        { consolidationFiles: [{ path: 'scenes/ci-checks.md', bytes: encode(SCENE) }] },
        /scenes\/ci-checks\.md was created since the task was made/,
      ],
    ];
    for (const [overrides, message] of cases) {
      const result = buildConsolidationPlan(input(overrides));
      assert.ok(!result.ok, `refused: ${message}`);
      assert.equal(result.refusal.reason, 'stale');
      assert.match(result.refusal.message, message);
      assert.match(result.refusal.message, /^patch con-abc is stale: /);
    }
    // An operation left out does not make the plan stale: ci-2 changed, only the retirement is taken.
    const partial = buildConsolidationPlan(
      input({ accepted: [3], revisions: new Map(Object.entries({ ...REVISIONS, 'ci-2': 2 })) }),
    );
    assert.ok(partial.ok);
  });

  it('an updated scene is stale when its file is not the one the task read', () => {
    const before = encode(SCENE.replace('CI lints before it tests.', 'Old words.'));
    const update: ConsolidationOperation = { ...OPERATIONS[0]!, op: 'update' };
    const task = { ...input().task, scenes: [{ name: 'ci-checks', contentDigest: sha256Hex(before) }] };
    const ok = built({
      patch: { taskId: 'con-abc', operations: [update] },
      task,
      consolidationFiles: [{ path: 'scenes/ci-checks.md', bytes: before }],
    });
    assert.deepEqual(
      ok.files.map((f) => [f.action, f.path, f.targetBlobHash]),
      [['update', 'scenes/ci-checks.md', gitBlobOid(before)]],
    );
    const edited = buildConsolidationPlan(
      input({
        patch: { taskId: 'con-abc', operations: [update] },
        task,
        consolidationFiles: [{ path: 'scenes/ci-checks.md', bytes: encode(`${decode(before)}Hand edit.\n`) }],
      }),
    );
    assert.ok(!edited.ok);
    assert.match(edited.refusal.message, /scenes\/ci-checks\.md changed since the task was made/);
  });

  it('refuses two accepted operations that change one file, and a secret in a scene', () => {
    const twice = buildConsolidationPlan(
      input({
        patch: {
          taskId: 'con-abc',
          operations: [
            OPERATIONS[2]!,
            { ...OPERATIONS[1]!, name: 'vitest', mergeSources: ['jest'], basedOn: OPERATIONS[2]!.basedOn },
          ],
        },
      }),
    );
    assert.ok(!twice.ok);
    assert.match(twice.refusal.message, /operations 1 and 2 both change work_fact\/jest\.md/);
    const secret = buildConsolidationPlan(
      input({
        patch: {
          taskId: 'con-abc',
          operations: [
            {
              ...OPERATIONS[0]!,
              newContent: SCENE.replace('CI lints', 'Deploy with ghp_Zq8vR3mW1tY6uP0aS5dF2gH7jK4lX9cB3nV6; CI lints'),
            },
          ],
        },
      }),
    );
    assert.ok(!secret.ok);
    assert.equal(secret.refusal.reason, 'secret');
    assert.match(secret.refusal.message, /operation 1 would write what looks like a secret/);
    assert.doesNotMatch(secret.refusal.message, /Zq8vR3mW1tY6uP0aS5dF2gH7jK4lX9cB3nV6/, 'masked');
  });
});

// The built-in runner's own patch, through the plan: the scene text it proposes names the entries
// it groups, one of which the same patch merges away; an earlier plan's merge is named by the
// survivor's `supersedes` only. The text a plan writes never names an entry that is gone.
describe('scene text written by a plan names no entry merged away or retired', () => {
  const RUNNER_ENTRIES: ConsolidationEntry[] = [
    ['t1', 'Run the unit tests with vitest', 'Use `pnpm vitest run` for the unit suite; vitest replaced jest.', []],
    ['t2', 'Unit tests run under vitest', 'The unit suite runs under vitest: `pnpm vitest run`.', []],
    ['t3', 'Vitest snapshot files live beside tests', 'Vitest keeps snapshot files next to the unit test file.', []],
    ['j1', 'Run the unit tests with jest', 'Use `pnpm jest` for the unit suite.', []],
    ['j2', 'Jest is gone, vitest runs the unit suite', 'The unit suite moved from jest to vitest.', ['j1']],
    ['n18', 'CI runs Node 18', 'The CI image pins Node 18 for the unit suite.', []],
    ['n20', 'CI runs Node 20', 'The CI image pins Node 20 for the unit suite.', []],
  ].map(([id, title, body, supersedes]) => ({
    id: id as string,
    revision: 1,
    type: 'work_fact',
    title: title as string,
    appliesWhen: null,
    body: `${body as string}\n`,
    supersedes: supersedes as string[],
  }));
  const fileOf = (entry: ConsolidationEntry) => ({
    path: `work_fact/${entry.id}.md`,
    bytes: encode(
      `---\nid: ${entry.id}\ntype: work_fact\ntitle: ${JSON.stringify(entry.title)}\n${entry.supersedes.length > 0 ? `supersedes: ${JSON.stringify(entry.supersedes)}\n` : ''}---\n${entry.body}`,
    ),
  });
  const planOf = (entries: ConsolidationEntry[], operations: ConsolidationOperation[], scenes: CurrentFile[] = []) => {
    const files = entries.map(fileOf);
    return built({
      patch: { taskId: 'con-runner', operations },
      task: {
        entries: entries.map((entry, i) => ({ id: entry.id, revision: 1, contentDigest: sha256Hex(files[i]!.bytes) })),
        scenes: scenes.map((file) => ({
          name: file.path.slice('scenes/'.length, -3),
          contentDigest: sha256Hex(file.bytes),
        })),
      },
      revisions: new Map(entries.map((entry) => [entry.id, 1])),
      entryFiles: files,
      consolidationFiles: scenes,
    });
  };

  it('a new scene of the same patch: its member lines and its summary name the survivor, not the merged entry', () => {
    const operations = consolidate({ entries: RUNNER_ENTRIES });
    const scene = operations.find((o) => o.target === 'scene')!;
    assert.match(scene.newContent!, /^- t2: /m, 'the runner lists every member it groups, t2 too');
    assert.ok(operations.some((o) => o.op === 'merge' && o.mergeSources.includes('t2')));
    const plan = planOf(RUNNER_ENTRIES, operations);
    const written = decode(plan.files.find((f) => f.path === `scenes/${scene.name}.md`)!.content);
    assert.doesNotMatch(written, /\bt2\b/, written);
    assert.doesNotMatch(written, /\bj1\b/, written);
    assert.match(written, /^- t1: Run the unit tests with vitest$/m);
    assert.match(written, /`appliesWhen` from t1\./, 'a mention in the summary names the survivor');
    assert.equal(written.match(/^- t1: /gm)?.length, 1, 'the survivor is listed once');
    const members = written.match(/^- /gm)!.length;
    assert.match(written, new RegExp(`^${members} entries that share `, 'm'), 'the summary counts the members listed');
    assert.match(scene.newContent!, new RegExp(`^${members + 1} entries that share `, 'm'));
    // Left out, the merge removes nothing: the scene is written as the runner proposed it.
    const number = operations.indexOf(scene) + 1;
    const sceneOnly = built({
      ...input(),
      patch: { taskId: 'con-runner', operations },
      accepted: [number],
      task: {
        entries: RUNNER_ENTRIES.map((entry) => ({
          id: entry.id,
          revision: 1,
          contentDigest: sha256Hex(fileOf(entry).bytes),
        })),
        scenes: [],
      },
      revisions: new Map(RUNNER_ENTRIES.map((entry) => [entry.id, 1])),
      entryFiles: RUNNER_ENTRIES.map(fileOf),
    });
    assert.equal(decode(sceneOnly.files[0]!.content), scene.newContent);
  });

  it('an update of a scene names the survivor of an entry an earlier plan merged away', () => {
    // After the earlier plan: t2's file is gone and t1 names it in `supersedes`.
    const after = RUNNER_ENTRIES.filter((e) => e.id !== 't2').map((e) =>
      e.id === 't1' ? { ...e, supersedes: ['t2'] } : e,
    );
    const text =
      '---\nscene: unit-suite\ntitle: "Unit suite"\nentries: ["n18","t1","t3"]\n---\nHow we test; t2 says how to run it.\n\n- t1: Run the unit tests with vitest\n- t2: Unit tests run under vitest\n- t3: Vitest snapshot files live beside tests\n';
    const existing = {
      name: 'unit-suite',
      title: 'Unit suite',
      appliesWhen: null,
      entries: ['n18', 't1', 't3'],
      body: text.slice(text.indexOf('---\nHow') + 4),
      text,
    };
    const operations = consolidate({ entries: after, scenes: [existing] }).filter((o) => o.target === 'scene');
    const update = operations.find((o) => o.name === 'unit-suite');
    assert.equal(update?.op, 'update');
    assert.doesNotMatch(update!.newContent!, /\bt2\b/, 'the runner proposes no text naming t2');
    // A patch whose text still names t2 (an external runner's, or one made before) is relisted by the plan.
    const stale = {
      ...update!,
      newContent: text.replace('entries: ["n18","t1","t3"]', 'entries: ["j2","n18","n20","t1","t3"]'),
    };
    const plan = planOf(after, [stale], [{ path: 'scenes/unit-suite.md', bytes: encode(text) }]);
    const written = decode(plan.files.find((f) => f.path === 'scenes/unit-suite.md')!.content);
    assert.equal(
      written,
      '---\nscene: unit-suite\ntitle: "Unit suite"\nentries: ["j2","n18","n20","t1","t3"]\n---\nHow we test; t1 says how to run it.\n\n- t1: Run the unit tests with vitest\n- t3: Vitest snapshot files live beside tests\n',
    );
  });

  it('an existing scene the plan does not touch loses its member line of the merged entry too', () => {
    const existing =
      '---\nscene: unit-suite\ntitle: "Unit suite"\nentries: ["t2","t3"]\n---\nRun the suite as t2 says.\r\n- t2: Unit tests run under vitest\r\n- t3: Vitest snapshot files live beside tests\r\n';
    const operations = consolidate({ entries: RUNNER_ENTRIES }).filter((o) => o.op === 'merge');
    const plan = planOf(RUNNER_ENTRIES, operations, [{ path: 'scenes/unit-suite.md', bytes: encode(existing) }]);
    assert.equal(
      decode(plan.files.find((f) => f.path === 'scenes/unit-suite.md')!.content),
      '---\nscene: unit-suite\ntitle: "Unit suite"\nentries: ["t1","t3"]\n---\nRun the suite as t1 says.\r\n- t1: Run the unit tests with vitest\r\n- t3: Vitest snapshot files live beside tests\r\n',
    );
  });
});
