// Session search's query planning: time expressions read against the clock, words widened by
// related words and word families, and "what next" questions. Pure; the store is in session-search.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSessionSearch } from '../../source/memory/fts-query.js';
import { expandTerms, wordRoot } from '../../source/memory/query-expansion.js';
import { readTimeExpressions } from '../../source/memory/time-expression.js';

// Friday 2026-03-27, 16:00 UTC.
const NOW = Date.parse('2026-03-27T16:00:00Z');
const days = (text: string) =>
  readTimeExpressions(text, NOW).windows.map(
    (w) => `${new Date(w.sinceMs).toISOString().slice(0, 10)}/${new Date(w.untilMs).toISOString().slice(0, 10)}`,
  );

describe('time expressions in a search', () => {
  it('reads days, weeks and months against the time of the search, in UTC', () => {
    assert.deepEqual(days('what did I say yesterday'), ['2026-03-26/2026-03-27']);
    assert.deepEqual(days('three days ago'), ['2026-03-24/2026-03-25']);
    assert.deepEqual(days('on Monday'), ['2026-03-23/2026-03-24']);
    assert.deepEqual(days('last Tuesday'), ['2026-03-24/2026-03-25']);
    // The day before is "yesterday": on a Friday, "last Thursday" is the week before.
    assert.deepEqual(days('last Thursday'), ['2026-03-19/2026-03-20']);
    assert.deepEqual(days('this week'), ['2026-03-23/2026-03-30']);
    assert.deepEqual(days('last week'), ['2026-03-16/2026-03-23']);
    assert.deepEqual(days('a couple of weeks back'), ['2026-03-09/2026-03-16']);
    assert.deepEqual(days('on March 5th'), ['2026-03-05/2026-03-06']);
    assert.deepEqual(days('the 2nd of March'), ['2026-03-02/2026-03-03']);
    assert.deepEqual(days('on Friday the 13th'), ['2026-03-13/2026-03-14']);
    assert.deepEqual(days('on 2026-03-03'), ['2026-03-03/2026-03-04']);
    assert.deepEqual(days('the first Monday of March'), ['2026-03-02/2026-03-03']);
    assert.deepEqual(days('in February'), ['2026-02-01/2026-03-01']);
    // A date later in the year than today is last year's.
    assert.deepEqual(days('on December 24'), ['2025-12-24/2025-12-25']);
  });

  it('takes the expressions out of the words and leaves words that only look like them', () => {
    assert.equal(
      readTimeExpressions('last week, how did we fix the lease?', NOW).rest.trim(),
      ', how did we fix the lease?',
    );
    for (const text of ['how many agents may run at once?', 'the weekly report', 'monday.ts fails', 'step 3 of 5']) {
      const reading = readTimeExpressions(text, NOW);
      assert.deepEqual(reading, { windows: [], rest: text }, text);
    }
  });
});

describe('widening the words of a search', () => {
  it('finds the root of a word the porter stemmer keeps apart from it', () => {
    assert.equal(wordRoot('formatter'), 'format');
    assert.equal(wordRoot('linter'), 'lint');
    assert.equal(wordRoot('slowly'), 'slow');
    // Too short a root would match half the vocabulary; plurals are the stemmer's.
    assert.equal(wordRoot('user'), null);
    // Porter already joins "manager" and "manage": the family would count the word twice.
    assert.equal(wordRoot('manager'), null);
    assert.equal(wordRoot('tests'), null);
    assert.equal(wordRoot('better-sqlite3'), null);
  });

  it("adds a product for its maker's name and related words, never the query's own words again", () => {
    assert.deepEqual(expandTerms(['anthropic', 'claude']).words, []);
    assert.deepEqual(expandTerms(['openai']).words, ['codex']);
    assert.deepEqual(expandTerms(['linter']), { words: ['lint', 'eslint', 'biome'], prefixes: ['lint'] });
  });

  it('plans one OR query of the terms, their related words and families, with the windows named', () => {
    const plan = planSessionSearch('which formatter did we pick last week?', NOW);
    assert.equal(plan.match, '"formatter" OR "pick" OR "format" OR "prettier" OR "biome" OR "format"*');
    assert.equal(plan.windows.length, 1);
    assert.equal(plan.follow, false);
    assert.equal(planSessionSearch('yesterday', NOW).match, null, 'only a time: no words to match');
  });

  it('marks a question about what came next, and leaves the word out of the terms', () => {
    const plan = planSessionSearch('after the benchmark, what did I say next?', NOW);
    assert.equal(plan.follow, true);
    assert.equal(plan.match, '"benchmark"');
    assert.equal(planSessionSearch('the next release', NOW).follow, true);
    assert.equal(planSessionSearch('the release notes', NOW).follow, false);
  });
});
