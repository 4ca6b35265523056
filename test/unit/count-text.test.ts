// A count and its noun: the singular for exactly one, the plural otherwise (zero included).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { counted } from '../../source/ground/count-text.js';

describe('counted', () => {
  it('says "1 entry" and "0 entries", "1 turn" and "2 turns"', () => {
    assert.equal(counted(1, 'entry', 'entries'), '1 entry');
    assert.equal(counted(0, 'entry', 'entries'), '0 entries');
    assert.equal(counted(12, 'entry', 'entries'), '12 entries');
    assert.equal(counted(1, 'user turn'), '1 user turn');
    assert.equal(counted(2, 'user turn'), '2 user turns');
  });
});
