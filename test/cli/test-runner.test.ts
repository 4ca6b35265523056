// `npm test`'s runner (scripts/test.mjs) on one real test file: the file runs as the module
// scripts/test-bundle.mjs builds from it, and is still named by its test file in the per-file table;
// every temp dir the run makes is gone at its end, and so is the built module. The file chosen,
// test/unit/user-file.test.ts, leaves its temp dir behind (as most tests do): the runner has to.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const FILE = 'test/unit/user-file.test.ts';

describe('the test runner', () => {
  it('runs a file as its built module, names it by its test file, and leaves no temp dir', () => {
    const temp = mkdtempSync(join(tmpdir(), 'runner-'));
    try {
      // node:test marks its test processes (NODE_TEST_CONTEXT) and will not start a run within one.
      const { NODE_TEST_CONTEXT: _, ...env } = process.env;
      const run = spawnSync(process.execPath, ['scripts/test.mjs', FILE], {
        cwd: ROOT,
        env: { ...env, TMPDIR: temp },
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^# pass [1-9]\d*$/m);
      assert.match(run.stdout, /^# fail 0$/m);
      assert.match(run.stderr, /^# 1 test files built in [\d.]+ s$/m);
      // The table's row is the test file's, with the figures its process measured.
      assert.match(run.stderr, /^# +\d+\.\d +\d+\.\d {2}test\/unit\/user-file\.test\.ts$/m);
      assert.doesNotMatch(run.stderr, /\.test\.mjs/);
      assert.deepEqual(readdirSync(temp), []);
      const built = join(ROOT, 'node_modules', '.cache', 'common-memory-tests', `run-${run.pid}`);
      assert.equal(existsSync(built), false);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('removes the built modules a killed run left, and only those of runs whose process is gone', () => {
    const cache = join(ROOT, 'node_modules', '.cache', 'common-memory-tests');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const left = join(cache, `run-${gone}`);
    const alive = join(cache, `run-${process.pid}`);
    mkdirSync(left, { recursive: true });
    mkdirSync(alive, { recursive: true });
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    try {
      const run = spawnSync(process.execPath, ['scripts/test.mjs', FILE], { cwd: ROOT, env, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(existsSync(left), false, 'the dead run’s modules are removed');
      assert.equal(existsSync(alive), true, 'a live run’s are kept');
    } finally {
      rmSync(left, { recursive: true, force: true });
      rmSync(alive, { recursive: true, force: true });
    }
  });

  it('keeps a module’s own import.meta: the source file, not the built one', () => {
    // This file runs built under `npm test`, from source under tsx: both must see the source's path.
    assert.match(import.meta.url, /\/test\/cli\/test-runner\.test\.ts$/);
    assert.equal(import.meta.filename, join(ROOT, 'test', 'cli', 'test-runner.test.ts'));
    assert.equal(import.meta.dirname, join(ROOT, 'test', 'cli'));
  });
});
