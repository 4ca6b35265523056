import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

const UUID = '00000000-0000-4000-8000-000000000000';

describe('reads on a home without a store', () => {
  const reads: string[][] = [
    ['log'],
    ['timeline'],
    ['status'],
    ['agent', 'list'],
    ['message', UUID],
    ['operation', 'op-1'],
  ];
  for (const args of reads) {
    it(`${args.join(' ')} says there is no store, exits 6 and creates nothing`, async () => {
      const home = tempHome('no-store');
      const result = await runCli([...args, '--home', home]);
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /No store in .* yet/);
      assert.equal(
        existsSync(home),
        false,
        `the data home was created: ${existsSync(home) ? readdirSync(home).join(', ') : ''}`,
      );
      const json = await runCli([...args, '--json', '--home', home]);
      assert.equal(json.code, 6);
      assert.equal(JSON.parse(json.stderr).error.code, 'not_found');
      assert.deepEqual(readdirSync(dirname(home)), [], 'nothing beside the home either');
    });
  }

  it('status after hooks ran and could not record their events points at their errors, not at installing hooks', async () => {
    const home = tempHome('no-store-hook-errors');
    // A hook given what is not a hook payload: it records the error and creates no store.
    const hook = await runCli(['hook', 'claude', '--home', home], { input: 'not a hook payload' });
    assert.ok(existsSync(storeFiles(home).hookErrors), `the hook recorded no error: ${hook.stderr}`);
    assert.equal(existsSync(storeFiles(home).core), false);
    const result = await runCli(['status', '--home', home]);
    assert.equal(result.code, 6, result.stderr);
    assert.match(result.stderr, /No store in .* yet/);
    assert.match(result.stderr, /hooks ran here and could not record their events/);
    assert.ok(result.stderr.includes(storeFiles(home).hookErrors), result.stderr);
    assert.doesNotMatch(result.stderr, /Install the hooks/);
  });

  // `memory init --scope user` lays out <home>/memory and makes no store: a person who then writes
  // an entry there by hand has memory in this home, and "nothing was recorded there" would be false.
  it('get and memory status on a home whose user memory holds files name memory sync, not installing hooks', async () => {
    const home = tempHome('no-store-user-memory');
    assert.equal((await runCli(['memory', 'init', '--scope', 'user', '--home', home])).code, 0);
    assert.equal(existsSync(storeFiles(home).core), false, 'init makes no store');
    for (const args of [
      ['get', 'my-editor'],
      ['memory', 'status'],
    ]) {
      const result = await runCliInProcess([...args, '--home', home]);
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /No store in .* yet/);
      assert.match(result.stderr, /user memory .* has not been read yet: run common-memory memory sync/);
      assert.doesNotMatch(result.stderr, /nothing was recorded there/);
    }
    assert.equal(existsSync(storeFiles(home).core), false, 'the reads made none either');
  });

  // A fresh clone: its team's memory files are committed in the repository, and no data home exists
  // yet. "Nothing was recorded there … install the hooks" would hide that there is memory to read.
  it('search and get in a fresh clone with team memory files and no data home name memory sync for them', async () => {
    const home = tempHome('no-store-clone');
    const repo = join(dirname(home), 'repo');
    execFileSync('git', ['init', '-q', repo]);
    mkdirSync(join(repo, '.common-memory', 'memory', 'work_method'), { recursive: true });
    writeFileSync(
      join(repo, '.common-memory', 'memory', 'work_method', 'use-pnpm.md'),
      '---\nid: "use-pnpm"\ntype: work_method\ntitle: Use pnpm\n---\nUse pnpm.\n',
    );
    const below = join(repo, 'src');
    mkdirSync(below);
    for (const args of [
      ['memory', 'search', 'pnpm'],
      ['get', 'use-pnpm'],
    ]) {
      const result = await runCliInProcess([...args, '--home', home], { cwd: below });
      assert.equal(result.code, 6, result.stderr);
      assert.match(
        result.stderr,
        /this repository's memory files \(.*\.common-memory\/memory\) have not been read yet: run common-memory memory sync/,
      );
      assert.doesNotMatch(result.stderr, /nothing was recorded there/);
    }
    assert.equal(existsSync(home), false, 'the reads made no data home');
  });

  it('a note written without a host is the only row of a fresh journal; host.lease is 0600', async () => {
    const home = tempHome('local-lease');
    assert.equal((await runCli(['note', 'first', '--home', home])).code, 0);
    assert.equal(statSync(storeFiles(home).lease).mode & 0o777, 0o600);
    const log = JSON.parse((await runCli(['log', '--json', '--home', home])).stdout) as { rows: { kind: string }[] };
    assert.deepEqual(
      log.rows.map((row) => row.kind),
      ['client.note'],
    );
    for (const name of readdirSync(home))
      assert.equal(statSync(`${home}/${name}`).mode & 0o077, 0, `${name} is readable by others`);
  });

  // A read on a home that is a file (or a FIFO) is not "no store yet": nothing could ever be
  // recorded there. It says what the path is (exit 7, as a write there says) and touches nothing.
  const fileReads: string[][] = [['log'], ['status'], ['sessions'], ['memory', 'review'], ['get', 'x'], ['doctor']];
  for (const args of fileReads) {
    it(`${args.join(' ')} on a home that is a file or a FIFO says so (exit 7) and leaves it as it was`, async () => {
      const file = tempHome('file-home');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, 'not a directory');
      const result = await runCliInProcess([...args, '--home', file]);
      assert.equal(result.code, 7, result.stderr);
      assert.match(result.stderr, /The data home .*home is a file, not a directory/);
      assert.doesNotMatch(result.stderr, /No store/);
      const json = await runCliInProcess([...args, '--json', '--home', file]);
      assert.equal(json.code, 7, json.stderr);
      assert.equal(JSON.parse(json.stderr).error.code, 'store_unavailable');
      assert.equal(readFileSync(file, 'utf8'), 'not a directory');
      const fifo = `${file}-fifo`;
      execFileSync('mkfifo', [fifo]);
      const piped = await runCliInProcess([...args, '--home', fifo]);
      assert.equal(piped.code, 7, piped.stderr);
      assert.match(piped.stderr, /is a file, not a directory/);
    });
  }
});
