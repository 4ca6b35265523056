import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decideBatch,
  decideDraft,
  normalizeStatement,
  type RecalledItem,
} from '../../source/memory/adjudication-rules.js';
import { readDedupPairs, scoreDedup } from '../bench/dedup.js';

const item = (id: string, content: string, revision = 1, sourceKind = 'candidate'): RecalledItem => ({
  id,
  sourceKind,
  content,
  revision,
});

describe('normalizeStatement', () => {
  const cases: [string, string][] = [
    ['Don’t use default exports.', 'do not use default exports'],
    ["We can't  use   NPM!", 'we cannot use npm'],
    ['**Always** use `pnpm` in src/index.ts.', 'always use pnpm in src/index.ts'],
    ['Use node:test, not Jest; target Python 3.12.', 'use node:test not jest target python 3.12'],
    ["We're moving to @scope/pkg v2.", 'we are moving to @scope/pkg v2'],
    ['Ｆｕｌｌｗｉｄｔｈ ＡＢＣ', 'fullwidth abc'],
    ['kebab-case, snake_case and C++', 'kebab-case snake_case and c++'],
    ['...', ''],
  ];
  for (const [input, expected] of cases)
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () =>
      assert.equal(normalizeStatement(input), expected));
});

describe('decideDraft', () => {
  const table: { name: string; draft: string; recalled: RecalledItem[]; expected: ReturnType<typeof decideDraft> }[] = [
    { name: 'nothing recalled → store', draft: 'Use pnpm.', recalled: [], expected: { decision: 'store' } },
    {
      name: 'equal after normalisation → skip, naming the target and its revision',
      draft: 'Don’t use default exports!',
      recalled: [item('c1', 'do not use default exports', 3)],
      expected: { decision: 'skip', targetId: 'c1', targetRevision: 3 },
    },
    {
      name: 'same content words reworded → skip',
      draft: 'Feature branches are squash merged.',
      recalled: [item('c1', 'We squash merge feature branches.')],
      expected: { decision: 'skip', targetId: 'c1', targetRevision: 1 },
    },
    {
      name: 'the draft says less than the target → skip',
      draft: 'Use pnpm.',
      recalled: [item('a1', 'Use pnpm for installs and never commit package-lock.json.', 2, 'approved')],
      expected: { decision: 'skip', targetId: 'a1', targetRevision: 2 },
    },
    {
      name: 'the draft says more than the target → merge',
      draft: 'Use pnpm for installs and never commit package-lock.json.',
      recalled: [item('c9', 'Use pnpm.', 4)],
      expected: { decision: 'merge', targetId: 'c9', targetRevision: 4 },
    },
    {
      name: 'the same words negated → update',
      draft: 'Never squash merge feature branches.',
      recalled: [item('c2', 'Always squash merge feature branches.', 7)],
      expected: { decision: 'update', targetId: 'c2', targetRevision: 7 },
    },
    {
      name: 'another version number → store',
      draft: 'We target Node 20.',
      recalled: [item('c1', 'We target Node 18.')],
      expected: { decision: 'store' },
    },
    {
      name: 'another path in a long, otherwise equal statement → store',
      draft: 'Put new React hooks in src/hooks/ with one hook per file and a test beside it.',
      recalled: [item('c1', 'Put new React hooks in src/components/ with one hook per file and a test beside it.')],
      expected: { decision: 'store' },
    },
    {
      name: 'one plain word changed in a long statement → merge',
      draft: 'Run the type checker, the linter and the unit tests before pushing a branch.',
      recalled: [item('c1', 'Run the type checker, the linter and the unit tests before pushing any commit.')],
      expected: { decision: 'merge', targetId: 'c1', targetRevision: 1 },
    },
    {
      name: 'a code span is content even when it is a common word',
      draft: 'Never use enums in public types.',
      recalled: [item('c1', 'Never use `any` in public types.')],
      expected: { decision: 'store' },
    },
    {
      name: 'the exact duplicate wins over an earlier-ranked weaker match',
      draft: 'Use pnpm for the workspace.',
      recalled: [item('weak', 'Use pnpm.'), item('exact', 'use pnpm for the workspace')],
      expected: { decision: 'skip', targetId: 'exact', targetRevision: 1 },
    },
    {
      name: 'between equal reasons, the earlier-ranked item wins',
      draft: 'We use pnpm.',
      recalled: [item('first', 'Use pnpm.'), item('second', 'Always use pnpm.')],
      expected: { decision: 'skip', targetId: 'first', targetRevision: 1 },
    },
    {
      name: 'a draft of only common words is compared by its normalised text alone',
      draft: 'We should always do it.',
      recalled: [item('c1', 'We must do it.')],
      expected: { decision: 'store' },
    },
  ];
  for (const { name, draft, recalled, expected } of table) {
    it(name, () => assert.deepEqual(decideDraft({ content: draft }, recalled), expected));
  }

  it('reads words that name object properties (constructor, toString) as plain words', () => {
    const recalled = [item('x', 'Build commands in a constructor function, never at package level.')];
    assert.deepEqual(
      decideDraft({ content: 'Build commands in a constructor function, never at package level.' }, recalled),
      {
        decision: 'skip',
        targetId: 'x',
        targetRevision: 1,
      },
    );
    assert.equal(
      decideDraft({ content: 'Override toString and valueOf on the Money class.' }, recalled).decision,
      'store',
    );
  });

  it('is deterministic and does not depend on extra fields', () => {
    const recalled = [item('x', 'Use pnpm.')];
    assert.deepEqual(
      decideDraft({ content: 'Use pnpm for builds.' }, recalled),
      decideDraft({ content: 'Use pnpm for builds.' }, [...recalled]),
    );
  });
});

describe('dedup quality on the labelled pairs', () => {
  const pairs = readDedupPairs();
  it('the set has at least 100 pairs of both kinds', () => {
    assert.ok(pairs.length >= 100);
    assert.ok(pairs.filter((pair) => pair.label === 'duplicate').length >= 40);
    assert.ok(pairs.filter((pair) => pair.label === 'distinct').length >= 40);
    for (const pair of pairs) assert.equal(pair.label === 'distinct', pair.expect === 'store', JSON.stringify(pair));
  });
  it('finds duplicates with precision ≥ 0.95 and recall ≥ 0.9', () => {
    const score = scoreDedup(pairs);
    assert.ok(score.precision >= 0.95, `precision ${score.precision}`);
    assert.ok(score.recall >= 0.9, `recall ${score.recall}`);
  });
});

describe('decideBatch', () => {
  it('a repeat of a kept sibling is a skip naming the sibling; a sibling is never updated or merged', () => {
    const drafts = [
      { draftRef: 'd1', content: 'Use pnpm for the workspace.' },
      { draftRef: 'd2', content: 'We use pnpm for the workspace.' },
      { draftRef: 'd3', content: 'Use pnpm for the workspace and never commit package-lock.json.' },
      { draftRef: 'd4', content: 'Never squash merge feature branches.' },
    ];
    const decisions = decideBatch(drafts, [[], [], [], [item('c7', 'Always squash merge feature branches.', 2)]]);
    assert.deepEqual(decisions, [
      { draftRef: 'd1', decision: 'store' },
      { draftRef: 'd2', decision: 'skip', targetId: 'd1' },
      { draftRef: 'd3', decision: 'store' },
      { draftRef: 'd4', decision: 'update', targetId: 'c7', targetRevision: 2 },
    ]);
  });

  it('siblings in a recall set are never its targets; only committed items are', () => {
    const d1 = { draftRef: 'd1', content: 'Use pnpm.' };
    const d2 = { draftRef: 'd2', content: 'Use pnpm for installs and for the workspace scripts.' };
    const d3 = { draftRef: 'd3', content: 'Use pnpm.' };
    const decisions = decideBatch(
      [d1, d2, d3],
      [
        [item('a1', 'use pnpm', 1, 'approved'), item('d2', d2.content)],
        [item('d1', d1.content), item('d3', d3.content)],
        [item('d1', d1.content), item('a1', 'use pnpm', 1, 'approved')],
      ],
    );
    assert.deepEqual(decisions, [
      { draftRef: 'd1', decision: 'skip', targetId: 'a1', targetRevision: 1 },
      { draftRef: 'd2', decision: 'store' },
      { draftRef: 'd3', decision: 'skip', targetId: 'a1', targetRevision: 1 },
    ]);
  });

  it('refuses recall sets that do not line up with the drafts', () => {
    assert.throws(() => decideBatch([{ draftRef: 'd1', content: 'x' }], []), RangeError);
  });
});
