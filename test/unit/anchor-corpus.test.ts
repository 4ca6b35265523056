// The labelled staleness set (test/corpus/anchors/) is well-formed and its test split stays frozen.
// The staleness figures on it are a bench (`npm run bench -- anchor-quality`), not asserted here.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { generate } from '../corpus/anchors/generate.js';
import { readAnchorCases } from '../support/anchor-cases.js';

// The digest of the test split as first committed (before the extractor and verifier existed).
const FROZEN_TEST = 'ea197949b3afd39c21475054cf8da62d05a6521d03bb72a1fcbd30052e33d9f4';

describe('the labelled staleness set', () => {
  it('keeps its test split byte for byte, and the generator still writes exactly it', () => {
    const url = new URL('../corpus/anchors/test.jsonl', import.meta.url);
    const bytes = readFileSync(url);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), FROZEN_TEST);
    assert.equal(
      `${generate('test')
        .map((row) => JSON.stringify(row))
        .join('\n')}\n`,
      bytes.toString('utf8'),
    );
  });

  for (const split of ['test', 'train'] as const) {
    it(`${split}: unique ids, both labels, every kind present, changes naming files the case has`, () => {
      const cases = readAnchorCases(split);
      assert.equal(new Set(cases.map((c) => c.id)).size, cases.length);
      assert.ok(cases.filter((c) => c.stale).length >= 60);
      assert.ok(cases.filter((c) => !c.stale).length >= 50);
      for (const c of cases) {
        for (const change of c.change) {
          if (change.op === 'delete') assert.ok(change.path in c.files, `${c.id}: deletes ${change.path}`);
          if (change.op === 'rename') assert.ok(change.from in c.files, `${c.id}: renames ${change.from}`);
        }
      }
    });
  }

  it('no phrasing is shared between the splits', () => {
    const bodies = (split: 'test' | 'train') =>
      new Set(
        readAnchorCases(split).map(
          (c) => `${c.kind}|${c.entry.body.replace(/\W+/g, ' ').split(' ').slice(0, 3).join(' ')}`,
        ),
      );
    const test = bodies('test');
    const shared = [...bodies('train')].filter((key) => test.has(key));
    assert.ok(shared.length <= 2, `shared openings: ${shared.join('; ')}`);
  });
});
