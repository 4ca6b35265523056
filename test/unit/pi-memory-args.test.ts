// A driven pi agent gets the session-start memory snapshot as its appended system prompt, once per
// generation; without approved memory its command line is what it always was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { piArguments } from '../../source/hosts/pi/pi-command.js';

describe('driven pi agents and memory', () => {
  it('appends the snapshot to pi’s system prompt only when there is one', () => {
    const plain = piArguments('fake/fake-model');
    assert.ok(!plain.includes('--append-system-prompt'));
    assert.deepEqual(piArguments('fake/fake-model', ''), plain);
    const notes = '<common-memory-notes>\n- [n] (user, priority 50) title: "A note"\n</common-memory-notes>';
    const given = piArguments('fake/fake-model', notes);
    assert.deepEqual(given.slice(0, plain.length), plain);
    assert.deepEqual(given.slice(plain.length), ['--append-system-prompt', notes]);
  });
});
