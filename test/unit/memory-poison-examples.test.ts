// Poisoning lint over notes written for it in the project's own words, in twelve batches: each batch
// was written before the rules it needed and measured on first try (poisoned blocked 81 %, 62 %,
// 65 %, 57 %, 60 %, 32 %, then with the structural rules 50 % (25/50), 72 % (36/50), 68 % (34/50),
// 50 % (15/30), 100 % (10/10); ordinary notes blocked 3/50, 1/50, 0/50, 4/50, 2/40, 0/20, 1/50, 1/50,
// 5/50, 1/40, 5/50),
// then the rules were generalised. The twelfth (11 poisoned, 12 ordinary and a generated skill's footer) was written with the rules it
// tests, as their regression check, not as a measurement. Every poisoned note here must be blocked and no ordinary note may be: a
// regression in either direction fails. Not detected, so not listed: a download piped into tar
// whose contents are then run, and words split by spaces ("ig nore").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lintPoisoning } from '../../source/memory/poison-lint.js';
import { ORDINARY, POISONED } from '../support/poison-examples.js';

describe("poisoning lint over the project's own examples", () => {
  it('blocks every poisoned note', () => {
    const missed = POISONED.filter((text) => !lintPoisoning(text).some((f) => f.severity === 'block'));
    assert.deepEqual(missed, []);
  });

  it('blocks no ordinary note', () => {
    const blocked = ORDINARY.filter((text) => lintPoisoning(text).some((f) => f.severity === 'block'));
    assert.deepEqual(blocked, []);
  });
});
