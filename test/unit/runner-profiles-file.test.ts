// runners.json is read at every `memory status` and every run: a FIFO (or any file that is not a
// regular file) in its place is refused with a line naming the fix, never read — a plain read of a
// FIFO with no writer blocks for ever, and `memory status` hung with it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CmError } from '../../source/errors.js';
import { loadRunnerProfiles, runnersFile } from '../../source/effects/runner-profiles.js';

const home = () => mkdtempSync(join(tmpdir(), 'cm-runners-file-'));

describe('runners.json that is not a regular file', () => {
  it('a FIFO is refused at once, naming the file and the fix', () => {
    const dir = home();
    execFileSync('mkfifo', [runnersFile(dir)]);
    assert.throws(
      () => loadRunnerProfiles(dir),
      (error: unknown) =>
        error instanceof CmError &&
        error.code === 'invalid_input' &&
        /runners\.json is not a regular file/.test(error.message) &&
        /Fix it in runners\.json in the data home/.test(error.message),
    );
  });

  it('a directory is refused the same way; a missing file is no profiles; a regular file is read', () => {
    const dir = home();
    mkdirSync(runnersFile(dir));
    assert.throws(() => loadRunnerProfiles(dir), /runners\.json is not a regular file/);
    assert.deepEqual(loadRunnerProfiles(home()), []);
    const ok = home();
    writeFileSync(runnersFile(ok), '{"profiles": []}');
    assert.deepEqual(loadRunnerProfiles(ok), []);
  });
});
