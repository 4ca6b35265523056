// readUserFile: what a person names with a path is read only when it is a bounded regular file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readUserFile } from '../../source/ground/user-file.js';

describe('a file named on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'user-file-'));
  const file = join(dir, 'note.md');
  writeFileSync(file, 'Use pnpm.\n');

  it('reads a regular file, also through a link', () => {
    assert.equal(readUserFile(file, 100, 'memory lint'), 'Use pnpm.\n');
    const link = join(dir, 'link.md');
    symlinkSync(file, link);
    assert.equal(readUserFile(link, 100, 'memory lint'), 'Use pnpm.\n');
  });

  it('refuses a FIFO without waiting for a writer, a directory, an over-size file and a missing one', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => readUserFile(fifo, 100, 'memory lint'), /fifo is not a regular file; give memory lint a file/);
    assert.throws(() => readUserFile(dir, 100, 'memory lint'), /is not a regular file/);
    assert.throws(() => readUserFile(file, 5, 'memory lint'), /10 bytes, over the 5-byte limit of memory lint/);
    assert.throws(() => readUserFile(join(dir, 'none'), 5, 'memory lint'), /no such file/);
  });
});
