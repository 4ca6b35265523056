// "Did you mean …?" after an unknown flag, command or subcommand (source/cli/parse.ts): a typo is
// answered with what was meant; a word that only shares a length with a real one is not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { didYouMean } from '../../source/cli/parse.js';

const FLAGS = ['--home', '--json', '--limit', '--scope', '--follow', '--since', '--until'];

describe('did you mean', () => {
  it('names the flag or command a typo was meant for', () => {
    for (const [typed, meant, among] of [
      ['--limt', '--limit', FLAGS],
      ['--scpoe', '--scope', FLAGS],
      ['--folow', '--follow', FLAGS],
      ['--hmoe', '--home', FLAGS], // two letters swapped is one slip
      ['--jsno', '--json', FLAGS],
      ['--sicne', '--since', FLAGS],
      ['timelin', 'timeline', ['timeline', 'sessions', 'search']],
      ['serach', 'search', ['timeline', 'sessions', 'search']],
    ] as const)
      assert.equal(didYouMean(typed, among), ` Did you mean ${meant}?`, typed);
  });

  it('suggests nothing for a word that is not a slip of any of them', () => {
    // "--nope" is two letters away from "--home": half of what was typed, so no slip.
    for (const typed of ['--nope', '--x', '--verbose', '--colour', 'frobnicate', 'xyz'])
      assert.equal(didYouMean(typed, [...FLAGS, 'timeline', 'search']), '', typed);
  });
});
