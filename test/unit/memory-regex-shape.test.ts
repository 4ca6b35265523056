// What a pattern's source proves about its matches (regex-shape.ts), which lets the poisoning lint
// skip a pattern on a text without its keywords and read a line-local pattern line by line: the
// keywords and line-locality of small patterns, what the reader refuses, and — property-tested over
// seeded random texts — that every match holds a keyword and stays within a line when said so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeywordLists, mayMatch, regexShape } from '../../source/memory/regex-shape.js';
import { seededRandom } from '../support/seeded-random.js';

const keywords = (pattern: RegExp) => regexShape(pattern).keywords?.slice().sort() ?? null;

describe('regexShape', () => {
  it('reads the words an alternation and a sequence require', () => {
    assert.deepEqual(keywords(/\b(?:ignore|disregard)\s+rules\b/g), ['disregard', 'ignore']);
    assert.deepEqual(keywords(/(?:ab|cd)e/), ['abe', 'cde']);
    assert.deepEqual(keywords(/tokens?|secrets?/u), ['secret', 'token']);
    assert.deepEqual(keywords(/(?<!\p{L})(?:envoie\p{L}*|schick)(?!\p{L})/gu), ['envoie', 'schick']);
    assert.deepEqual(keywords(/x[sz]y/), ['xsy', 'xzy']);
    assert.deepEqual(keywords(/(?:ab)+c/), ['ab']);
  });

  it('proves nothing when a match can be anything or the flags fold case', () => {
    assert.equal(keywords(/\w+|rules/), null);
    assert.equal(keywords(/(?:rules)?x*/), null);
    assert.equal(keywords(/ignore/i), null);
    assert.equal(keywords(/(a)\1/), null);
    assert.equal(regexShape(/\k<x>(?<x>a)/).keywords, null);
  });

  it('finds a pattern line-local only when nothing in it reaches a line break', () => {
    assert.equal(regexShape(/\bsend\b[^.\n]{0,40}token/g).lineLocal, true);
    assert.equal(regexShape(/(?<!\p{L})schick(?!\p{L})/gu).lineLocal, true);
    assert.equal(regexShape(/send\s+token/g).lineLocal, false);
    assert.equal(regexShape(/send[^.]token/g).lineLocal, false);
    assert.equal(regexShape(/send(?=\s)/g).lineLocal, false);
    assert.equal(regexShape(/^send/g).lineLocal, false);
    assert.equal(regexShape(/^send/gm).lineLocal, true);
    assert.equal(regexShape(/send.token/gs).lineLocal, false);
    assert.equal(regexShape(/send\P{L}token/gu).lineLocal, false);
  });

  it('never rules out a text that holds a match, nor finds a line-local match across lines', () => {
    const patterns = [
      /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:previous|prior)\s+instructions?\b/g,
      /(?<!\p{L})(?:envoie\p{L}*|schick\p{L}*|sende)(?!\p{L})[^.;\n]{0,20}?(?:token|clé)/gu,
      /\b(?:curl|wget)\b[^\n|;]{0,40}?\|\s*(?:ba)?sh\b/g,
      /(?:^|\n)[ \t]*(?:system|assistant)[ \t]*:/g,
      /x(?:ab|c[de])+y|q{2,3}r/g,
    ];
    const words = [
      'ignore',
      'all',
      'previous',
      'instructions',
      'envoie',
      'schickt',
      'sende',
      'token',
      'clé',
      'curl',
      'wget',
      '|',
      'sh',
      'bash',
      'system',
      'assistant',
      ':',
      'xaby',
      'xcdcey',
      'qqr',
      'a',
      '.',
      ';',
    ];
    const next = seededRandom(7);
    for (let n = 0; n < 400; n++) {
      let text = '';
      for (let i = 0; i < 12; i++) text += words[Math.floor(next() * words.length)] + (next() < 0.2 ? '\n' : ' ');
      for (const pattern of patterns) {
        const matches = [...text.matchAll(pattern)];
        if (matches.length > 0) assert.equal(mayMatch(pattern, text), true, `${pattern} on ${JSON.stringify(text)}`);
        const { keywords: kw, lineLocal } = regexShape(pattern);
        for (const match of matches) {
          if (kw !== null)
            assert.ok(
              kw.some((k) => match[0].includes(k)),
              `${pattern}: ${match[0]}`,
            );
          if (lineLocal) assert.ok(!match[0].includes('\n'), `${pattern}: ${match[0]}`);
        }
      }
    }
  });
});

describe('KeywordLists', () => {
  it('says which lists have a keyword in a text, overlapping and nested keywords included', () => {
    const lists = new KeywordLists([['he', 'she'], ['his', 'hers'], ['x'], []]);
    assert.deepEqual([...lists.present('ushers')], [1, 1, 0, 0]);
    assert.deepEqual([...lists.present('shi')], [0, 0, 0, 0]);
    assert.deepEqual([...lists.present('ahe')], [1, 0, 0, 0]);
    assert.deepEqual([...lists.present('hhis x')], [0, 1, 1, 0]);
    assert.deepEqual([...lists.present('')], [0, 0, 0, 0]);
  });

  it('agrees with includes over seeded random lists and texts', () => {
    const random = seededRandom(11);
    const word = (max: number) =>
      Array.from({ length: 1 + Math.floor(random() * max) }, () => 'abc '[Math.floor(random() * 4)]).join('');
    for (let trial = 0; trial < 500; trial++) {
      const lists = Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
        Array.from({ length: Math.floor(random() * 4) }, () => word(4)),
      );
      const index = new KeywordLists(lists);
      for (let t = 0; t < 10; t++) {
        const text = word(30);
        assert.deepEqual(
          [...index.present(text)],
          lists.map((list) => (list.some((k) => text.includes(k)) ? 1 : 0)),
          `${JSON.stringify(lists)} in ${JSON.stringify(text)}`,
        );
      }
    }
  });
});
