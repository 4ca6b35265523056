// `memory lint` in process (it reads no data home): a file named twice is one input, its findings
// listed once, as it is read once; a file name holding control characters (a terminal escape in a
// name committed to a repository) is printed quoted, never as raw bytes to the terminal.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliInProcess } from '../support/cli-in-process.js';

const token = 'ghp_Qw3rTy7UiOp9AsDfGhJkL2zXcVbNm8PoIuYt';

describe('memory lint', () => {
  it('a file named twice is linted once: each finding is listed once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-lint-'));
    const file = join(dir, 'note.md');
    writeFileSync(file, `token = ${token}\n`);
    const run = await runCliInProcess(['memory', 'lint', file, file, '--json']);
    assert.equal(run.code, 11, run.stderr);
    assert.deepEqual(
      JSON.parse(run.stdout).findings.map((f: { path: string; rule: string }) => `${f.path} ${f.rule}`),
      [`${file} github-token`],
    );
  });

  it('a file name with control characters is quoted in the text lines and in a refusal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-lint-'));
    const file = join(dir, 'evil\u001b[2J\nname.md');
    writeFileSync(file, `token = ${token}\n`);
    const run = await runCliInProcess(['memory', 'lint', file]);
    assert.equal(run.code, 11, run.stderr);
    assert.doesNotMatch(run.stdout, /\u001b/);
    assert.ok(run.stdout.startsWith(`${JSON.stringify(file)}:1:9 block github-token`), run.stdout);
    const missing = await runCliInProcess(['memory', 'lint', join(dir, 'gone\u001b[31m.md')]);
    assert.equal(missing.code, 6);
    assert.doesNotMatch(missing.stderr, /\u001b/);
    assert.match(missing.stderr, /Cannot read ".*gone\\u001b\[31m\.md": no such file/);
  });
});
