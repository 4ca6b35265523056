import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuseRrf, RECALL_ALGORITHM, recallQueryDigest, resultSetDigest, RRF_K } from '../../source/memory/rrf.js';

const a = (id: string) => ({ sourceKind: 'approved', id });
const c = (id: string) => ({ sourceKind: 'candidate', id });
const ids = (items: { sourceKind: string; id: string }[]) => items.map((item) => `${item.sourceKind}:${item.id}`);

describe('fuseRrf (recall-rrf@1)', () => {
  const cases: { name: string; lists: { sourceKind: string; id: string }[][]; expected: string[] }[] = [
    { name: 'no lists', lists: [], expected: [] },
    { name: 'two empty lists', lists: [[], []], expected: [] },
    {
      name: 'one list keeps its order',
      lists: [[c('z'), c('a'), c('m')]],
      expected: ['candidate:z', 'candidate:a', 'candidate:m'],
    },
    {
      name: 'an item in both lists beats items in one',
      lists: [
        [a('1'), a('2')],
        [c('9'), a('2')],
      ],
      expected: ['approved:2', 'approved:1', 'candidate:9'],
    },
    {
      name: 'equal ranks in two lists tie; tie broken by sourceKind then id',
      lists: [
        [c('b'), c('x')],
        [a('b'), a('a')],
      ],
      expected: ['approved:b', 'candidate:b', 'approved:a', 'candidate:x'],
    },
    {
      name: 'ties within one kind are ordered by id in code-unit order (uppercase first, no locale)',
      lists: [[c('b')], [c('B')], [c('a')]],
      expected: ['candidate:B', 'candidate:a', 'candidate:b'],
    },
    {
      name: 'a duplicate inside one list counts once, at its best rank',
      lists: [[c('x'), c('x'), c('y')], [c('y')]],
      expected: ['candidate:y', 'candidate:x'],
    },
    {
      name: 'the same id in two kinds is two items',
      lists: [[a('same')], [c('same')]],
      expected: ['approved:same', 'candidate:same'],
    },
  ];
  for (const { name, lists, expected } of cases) {
    it(name, () => assert.deepEqual(ids(fuseRrf(lists)), expected));
  }

  it('scores are Σ 1/(k + rank) with ranks from 1, and fused ranks count from 1', () => {
    const fused = fuseRrf([[a('1'), a('2')], [a('2')]]);
    assert.deepEqual(fused, [
      { rank: 1, sourceKind: 'approved', id: '2', score: 1 / (RRF_K + 2) + 1 / (RRF_K + 1) },
      { rank: 2, sourceKind: 'approved', id: '1', score: 1 / (RRF_K + 1) },
    ]);
  });

  it('k changes the weights: with a small k rank 1 of one list beats ranks 3+3 of two', () => {
    const lists = [
      [a('top'), a('p'), a('both')],
      [c('q'), c('r'), a('both')],
    ];
    assert.equal(fuseRrf(lists, 60)[0]!.id, 'both');
    assert.equal(fuseRrf(lists, 0.5)[0]!.id, 'top');
  });

  it('the result does not depend on the order of the lists', () => {
    const one = [a('1'), c('2'), a('3')];
    const two = [c('2'), a('4'), a('1')];
    assert.deepEqual(fuseRrf([one, two]), fuseRrf([two, one]));
  });

  it('refuses a constant that is not a positive number', () => {
    for (const k of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      assert.throws(() => fuseRrf([[a('1')]], k), RangeError);
  });

  it('keeps the caller’s extra fields out of the result', () => {
    const fused = fuseRrf([[{ sourceKind: 'candidate', id: 'x', content: 'secret-ish text' }]]);
    assert.deepEqual(Object.keys(fused[0]!).sort(), ['id', 'rank', 'score', 'sourceKind']);
  });
});

describe('recall digests', () => {
  const query = { ftsQuery: '"pnpm" OR "workspace"', perListLimit: 30, limit: 10 };
  it('are lower-case sha256 hex and stable', () => {
    assert.match(recallQueryDigest(query), /^[0-9a-f]{64}$/);
    assert.equal(recallQueryDigest(query), recallQueryDigest({ ...query }));
    assert.equal(
      recallQueryDigest(query),
      recallQueryDigest({ ...query, k: RRF_K }),
      'the default k is the explicit 60',
    );
  });
  it('a change of query, limit or constant changes the query digest', () => {
    const base = recallQueryDigest(query);
    assert.notEqual(recallQueryDigest({ ...query, ftsQuery: '"pnpm"' }), base);
    assert.notEqual(recallQueryDigest({ ...query, ftsQuery: null }), base);
    assert.notEqual(recallQueryDigest({ ...query, limit: 11 }), base);
    assert.notEqual(recallQueryDigest({ ...query, perListLimit: 31 }), base);
    assert.notEqual(recallQueryDigest({ ...query, k: 61 }), base);
  });
  it('the result-set digest follows order and identity, not scores', () => {
    const fused = fuseRrf([[a('1'), c('2')]]);
    const digest = resultSetDigest(fused);
    assert.equal(digest, resultSetDigest(fused.map((item) => ({ ...item, score: 0 }))));
    assert.notEqual(digest, resultSetDigest(fuseRrf([[c('2'), a('1')]])));
    assert.notEqual(digest, resultSetDigest(fuseRrf([[a('1'), a('2')]])));
    assert.notEqual(resultSetDigest([]), recallQueryDigest(query));
    assert.equal(RECALL_ALGORITHM, 'recall-rrf@1');
  });
});
