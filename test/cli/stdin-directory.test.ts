// `note -` and `prompt <agent> -` with a directory as stdin (`< some/dir`): Node reads nothing from
// it, so the text looked empty and the refusal said "whitespace alone is refused". It says what stdin
// is instead, and nothing is written. Spawns the shipped bin (`npm run build` first).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, tempHome } from '../support/cli.js';

describe('a directory as stdin', () => {
  for (const args of [
    ['note', '-'],
    ['prompt', 'nobody', '-'],
  ]) {
    it(`${args.join(' ')} says stdin is a directory (exit 2)`, () => {
      const home = tempHome('stdin-dir');
      const dir = mkdtempSync(join(tmpdir(), 'stdin-dir-'));
      const fd = openSync(dir, 'r');
      try {
        const run = spawnSync(process.execPath, [BIN, '--home', home, ...args], {
          stdio: [fd, 'pipe', 'pipe'],
          encoding: 'utf8',
          timeout: 20_000,
        });
        assert.equal(run.status, 2, run.stderr);
        assert.match(run.stderr, /stdin is a directory/);
        assert.doesNotMatch(run.stderr, /whitespace alone/);
      } finally {
        closeSync(fd);
      }
    });
  }
});
