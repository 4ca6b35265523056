import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { gitBlobOid } from '../../source/memory/blob-oid.js';

it('gitBlobOid matches `git hash-object` for empty, text, binary and multi-byte contents', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-blob-oid-'));
  try {
    execFileSync('git', ['init', '-q', dir]);
    const samples: Uint8Array[] = [
      new Uint8Array(),
      new TextEncoder().encode('---\nid: m-1\n---\nbody\n'),
      new TextEncoder().encode('日本語 🙂 crlf\r\nno final newline'),
      Uint8Array.from({ length: 70_000 }, (_, i) => (i * 131 + 7) % 256),
    ];
    for (const [index, bytes] of samples.entries()) {
      const file = join(dir, `sample-${index}`);
      writeFileSync(file, bytes);
      // --no-filters: the object id of the bytes as they are, whatever the repository's attributes.
      const expected = execFileSync('git', ['-C', dir, 'hash-object', '--no-filters', file], {
        encoding: 'utf8',
      }).trim();
      assert.equal(gitBlobOid(bytes), expected, `sample ${index}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
