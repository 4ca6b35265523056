// sha256Hex computes short digests in JavaScript (the hook never loads node:crypto for them) and
// long ones natively: both must give exactly the digest node:crypto gives, for any text or bytes.
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from '../source/ground/digests.js';
import { BIN, tempHome } from './support/cli.js';

const reference = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('sha256Hex', () => {
  it('equals node:crypto for texts and bytes of every length around the block sizes and the native bound', () => {
    const texts = ['', 'a', 'root\0session', 'é€😀', '\ud800 lone surrogate \udc00', 'x'.repeat(55), 'x'.repeat(56)];
    for (let length = 0; length < 4200; length += 37) texts.push(randomBytes(length).toString('latin1'));
    for (const text of texts) assert.equal(sha256Hex(text), reference(text), `text of ${text.length} chars`);
    for (let length = 0; length < 4200; length += 41) {
      const bytes = randomBytes(length);
      assert.equal(sha256Hex(bytes), reference(bytes), `${length} bytes`);
    }
  });

  it('the SessionStart hook does not load node:crypto on its path', () => {
    const home = tempHome('digests-hook');
    const event = (id: string) =>
      JSON.stringify({
        session_id: id,
        transcript_path: null,
        cwd: home,
        hook_event_name: 'SessionStart',
        source: 'startup',
      });
    // The first event creates the store (its id is random: node:crypto then); the second is the usual path.
    spawnSync(process.execPath, [BIN, 'hook', 'codex', '--home', home], { input: event('one') });
    // A preloaded script reports the loaded built-ins at exit (`node -e` would load node:crypto itself).
    const probe = join(home, 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => { if (process.moduleLoadList.includes('NativeModule crypto')) process.stderr.write('LOADED node:crypto'); });",
    );
    const run = spawnSync(process.execPath, ['--require', probe, BIN, 'hook', 'codex', '--home', home], {
      input: event('two'),
    });
    assert.equal(run.status, 0, run.stderr.toString());
    assert.doesNotMatch(run.stderr.toString(), /LOADED node:crypto/);
  });
});
