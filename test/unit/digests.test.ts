// sha256Hex computes short digests in JavaScript (the hook never loads node:crypto for them: see
// hook-snapshot.test.ts) and long ones natively: both must give exactly node:crypto's digest.
import { createHash, randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../source/ground/digests.js';

const reference = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('sha256Hex', () => {
  it('equals node:crypto for texts and bytes of every length around the block sizes and the native bound', () => {
    const inputs: Array<string | Uint8Array> = ['', 'a', 'root\0session', 'é€😀', '\ud800 lone \udc00', 'x'.repeat(55)];
    for (let length = 0; length < 4200; length += 37) {
      inputs.push(randomBytes(length).toString('latin1'), randomBytes(length));
    }
    // Shortest first: once a long input loads the native hash, every later one uses it.
    inputs.sort((a, b) => a.length - b.length);
    for (const input of inputs) {
      assert.equal(sha256Hex(input), reference(input), `${typeof input} of length ${input.length}`);
    }
  });
});
