import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  buildFtsQuery,
  buildSessionSearchQuery,
  FTS_QUERY_MAX_TERMS,
  ftsTerms,
  quoteFtsTerm,
  sessionSearchTerms,
} from '../../source/memory/fts-query.js';

// The index the session search uses: porter stemming over unicode61.
function turnsIndex(rows: string[]) {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE turns USING fts5(text, tokenize = 'porter unicode61')");
  const insert = db.prepare('INSERT INTO turns (rowid, text) VALUES (?, ?)');
  for (const [index, text] of rows.entries()) insert.run(index + 1, text);
  const search = db.prepare('SELECT rowid AS id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns), rowid');
  return { db, match: (query: string) => (search.all(query) as { id: number }[]).map((row) => row.id) };
}

const rows = [
  'We use pnpm for the workspace, never npm install in CI.',
  'The migration runs in BEGIN IMMEDIATE so a hook never waits.',
  'Prefer better-sqlite3 over node:sqlite on Node 20.',
  'NEAR the end of the file there is a TODO about src/index.ts',
  'Do not touch the OR-mapper; AND keep NOT NULL constraints.',
  'column:value filters are an FTS5 feature',
  'He said "quote me" and left',
];

describe('buildFtsQuery', () => {
  const cases: [input: string, expected: string | null][] = [
    ['pnpm workspace', '"pnpm" OR "workspace"'],
    ['What did we decide about pnpm?', '"decide" OR "pnpm"'],
    ['the and of', null],
    ['', null],
    ['   \t\n ', null],
    ['*** ^^^ ::: ()', null],
    ['foo AND bar', '"foo" OR "bar"'],
    ['foo OR bar NOT baz', '"foo" OR "bar" OR "baz"'],
    ['NEAR(foo bar, 3)', '"near" OR "foo" OR "bar" OR "3"'],
    ['pre*', '"pre"'],
    ['^start', '"start"'],
    ['text:hello', '"text" OR "hello"'],
    ['"unbalanced quote', '"unbalanced" OR "quote"'],
    ['better-sqlite3 src/index.ts', '"better-sqlite3" OR "src/index.ts"'],
    ['Pnpm PNPM pnpm', '"pnpm"'],
    ['naïve café', '"naïve" OR "café"'],
    ['nul\u0000byte', '"nul" OR "byte"'],
    ["it's don't we've", null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${expected}`, () => assert.equal(buildFtsQuery(input), expected));
  }

  it('doubles a quote inside a term, the only FTS5 escape', () => {
    assert.equal(quoteFtsTerm('say "hi"'), '"say ""hi"""');
  });

  it('keeps at most FTS_QUERY_MAX_TERMS distinct terms, in first-seen order', () => {
    const words = Array.from({ length: FTS_QUERY_MAX_TERMS + 10 }, (_, i) => `word${i}`);
    const terms = ftsTerms(words.join(' '));
    assert.equal(terms.length, FTS_QUERY_MAX_TERMS);
    assert.deepEqual(terms, words.slice(0, FTS_QUERY_MAX_TERMS));
  });
});

describe('buildSessionSearchQuery', () => {
  const cases: [input: string, expected: string | null][] = [
    ['What did we decide about pnpm?', '"decide" OR "pnpm"'],
    ['what size must the tui support?', '"size" OR "must" OR "tui" OR "support"'],
    ['should we, cannot we', '"should" OR "cannot"'],
    ['the first frame with NODE_ENV', '"first" OR "frame" OR "node_env" OR "node" OR "env"'],
    [
      'better-sqlite3 src/index.ts',
      '"better-sqlite3" OR "better" OR "sqlite3" OR "src/index.ts" OR "src" OR "index" OR "ts"',
    ],
    ['the-and-of', '"the-and-of"'],
    ['the and of', null],
    ['*** ^^^ ::: ()', null],
    ['foo OR bar NOT baz', '"foo" OR "bar" OR "baz"'],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${expected}`, () => assert.equal(buildSessionSearchQuery(input), expected));
  }

  it('keeps at most FTS_QUERY_MAX_TERMS terms, parts of compound words included', () => {
    const words = Array.from({ length: FTS_QUERY_MAX_TERMS }, (_, i) => `a${i}-b${i}`);
    const terms = sessionSearchTerms(words.join(' '));
    assert.equal(terms.length, FTS_QUERY_MAX_TERMS);
    assert.deepEqual(terms.slice(0, 3), ['a0-b0', 'a0', 'b0']);
  });

  it('recall keeps dropping obligation words (ftsTerms is unchanged)', () => {
    assert.deepEqual(ftsTerms('we must use pnpm'), ['use', 'pnpm']);
  });
});

const BUILDERS = { buildFtsQuery, buildSessionSearchQuery };

describe('buildFtsQuery against a real FTS5 table (porter)', () => {
  const hostile = [
    'AND',
    'OR',
    'NOT',
    'NEAR',
    'NEAR(',
    'NEAR(a b',
    'NEAR(a b, 10)',
    'a NEAR/3 b',
    '"',
    '""',
    '"""',
    '"a',
    "'",
    '*',
    'a*',
    '*a',
    '^',
    '^a',
    'a^',
    ':',
    'text:',
    ':text',
    'text:foo',
    'nosuchcolumn:foo',
    '{text}: foo',
    '-text:foo',
    '(',
    ')',
    '()',
    '(a OR b',
    'a) OR (b',
    '+',
    'a + b',
    '-',
    '- a',
    'a -b',
    'AND OR NOT',
    'foo AND',
    'OR foo',
    'NOT foo',
    'foo NOT',
    '(((((((((((a)))))))))))',
    'a'.repeat(10_000),
    '\u0000',
    'x\u0000y',
    '\\',
    "'; DROP TABLE turns; --",
    'rank MATCH 1',
    'bm25(turns)',
    '🙂 emoji 🚀',
    'ǅ ǈ ǋ',
    'NEAR("a" "b", 2) AND ^"c"*',
    'column:"x" OR {text} : y',
    `${'OR '.repeat(500)}foo`,
    Array.from({ length: 500 }, (_, i) => `t${i}`).join(' OR '),
  ];
  it('runs every hostile input without an error', () => {
    const index = turnsIndex(rows);
    for (const [name, build] of Object.entries(BUILDERS))
      for (const input of hostile) {
        const query = build(input);
        if (query === null) continue;
        assert.doesNotThrow(
          () => index.match(query),
          `${name} for ${JSON.stringify(input.slice(0, 40))}: ${query.slice(0, 80)}`,
        );
      }
    index.db.close();
  });

  it('the same inputs given raw to MATCH do fail, so the test above is testing something', () => {
    const index = turnsIndex(rows);
    const failing = hostile.filter((input) => {
      try {
        index.match(input);
        return false;
      } catch {
        return true;
      }
    });
    assert.ok(failing.length >= 20, `only ${failing.length} raw inputs failed`);
    index.db.close();
  });

  it('5,000 seeded random strings of FTS5 syntax, punctuation and Unicode all run without error', () => {
    const index = turnsIndex(rows);
    const pieces = [
      'AND',
      'OR',
      'NOT',
      'NEAR',
      'NEAR/2',
      '(',
      ')',
      '"',
      "'",
      '*',
      '^',
      ':',
      '{',
      '}',
      '-',
      '+',
      ',',
      ' ',
      '\t',
      '\n',
      'text',
      'pnpm',
      'é',
      'ß',
      '🙂',
      '\u0000',
      '\u2028',
      '\\',
      '%',
      '_',
      '.',
      '/',
      'a',
      '1',
      'İ',
      '\u0301',
      '\uFFFD',
    ];
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 5000; i += 1) {
      const input = Array.from(
        { length: 1 + Math.floor(next() * 12) },
        () => pieces[Math.floor(next() * pieces.length)],
      ).join('');
      for (const build of Object.values(BUILDERS)) {
        const query = build(input);
        if (query !== null) assert.doesNotThrow(() => index.match(query), `${JSON.stringify(input)} → ${query}`);
      }
    }
    index.db.close();
  });

  it('operators in the input are words, never operators', () => {
    const index = turnsIndex(rows);
    assert.deepEqual(index.match(buildFtsQuery('NOT pnpm')!), [1], 'NOT does not exclude');
    assert.deepEqual(index.match(buildFtsQuery('column:value')!), [6], 'no column filter');
    assert.deepEqual(index.match(buildFtsQuery('NEAR(TODO')!), [4]);
    assert.deepEqual(index.match(buildFtsQuery('"quote me"')!), [7]);
    assert.deepEqual(index.match(buildSessionSearchQuery('NOT pnpm')!), [1], 'NOT does not exclude');
    assert.deepEqual(index.match(buildSessionSearchQuery('column:value')!), [6], 'no column filter');
    assert.deepEqual(index.match(buildSessionSearchQuery('"quote me"')!), [7]);
    index.db.close();
  });

  it('OR of terms finds rows the whole-phrase query misses, and ranks rows with more terms first', () => {
    const index = turnsIndex(rows);
    const question = 'should the hook wait for the migration';
    const phrase = index.match(quoteFtsTerm(question));
    assert.deepEqual(phrase, [], 'the phrase is found nowhere');
    const found = index.match(buildFtsQuery(question)!);
    assert.equal(found[0], 2);
    index.db.close();
  });

  it('porter stems the quoted terms: "decided" finds "decide", "migrations" finds "migration"', () => {
    const index = turnsIndex(['we decide later', 'the migration step']);
    assert.deepEqual(index.match(buildFtsQuery('decided')!), [1]);
    assert.deepEqual(index.match(buildFtsQuery('migrations')!), [2]);
    index.db.close();
  });

  it('a hyphenated or dotted term matches as the phrase of its tokens', () => {
    const index = turnsIndex(rows);
    assert.deepEqual(index.match(buildFtsQuery('better-sqlite3')!), [3]);
    assert.deepEqual(index.match(buildFtsQuery('src/index.ts')!), [4]);
    index.db.close();
  });
});
