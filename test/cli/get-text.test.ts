// `get` in text: an entry's body is printed as the reviewer must read it — a terminal escape or a
// hidden character of a hand-written (or a teammate's) memory file shows as ⟨U+XXXX⟩, as the
// session snapshot writes it, instead of reaching the terminal raw. --json keeps the bytes.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli, gitRepo, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { MEMORY_ENTRY_ID_MAX_CHARS } from '../../source/limits.js';

after(() => c.closeStores());

describe('get text', () => {
  it("labels the body's control characters; --json gives the body as written", async () => {
    const home = tempHome('get-text');
    const repo = gitRepo(home, 'repo');
    // (A zero-width space would keep the whole file out: the memory lint blocks hidden characters.)
    const body = 'Use \u001b[31mred\u001b[0m for errors,\u0007\tthen\nstop.';
    writeEntry(projectRoot(repo), 'colours', 'Colours', body);
    const sync = await runCli(['memory', 'sync', '--home', home], { cwd: repo });
    assert.equal(sync.code, 0, sync.stderr);
    const text = await runCliInProcess(['get', 'colours', '--home', home], { cwd: repo });
    assert.equal(text.code, 0, text.stderr);
    assert.doesNotMatch(text.stdout, /[\u001b\u0007]/);
    assert.match(text.stdout, /^Use ⟨U\+001B⟩\[31mred⟨U\+001B⟩\[0m for errors,⟨U\+0007⟩\tthen\nstop\.$/m);
    const json = await runCliInProcess(['get', 'colours', '--home', home, '--json'], { cwd: repo });
    assert.ok(JSON.parse(json.stdout).body.startsWith(body), json.stdout);
  });
  // A link elsewhere in the memory root keeps the whole scope from being read: the entry's own file
  // is there, so "no memory file has the id" would be false; the answer names why it was not read.
  it('an id not read because the memory files could not all be read says so, not that no file has it', async () => {
    const home = tempHome('get-partial');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'colours', 'Colours', 'Use red for errors.');
    symlinkSync(join(repo, 'elsewhere.md'), join(projectRoot(repo), 'work_method', 'link.md'));
    const sync = await runCliInProcess(['memory', 'sync', '--home', home], { cwd: repo });
    assert.equal(sync.code, 3, 'the project scope stays partial');
    const run = await runCliInProcess(['get', 'colours', '--home', home], { cwd: repo });
    assert.equal(run.code, 6, run.stderr);
    assert.doesNotMatch(run.stderr, /in this repository's or the user's memory files\. Run/);
    assert.match(run.stderr, /the memory files could not all be read: .*link\.md is a symbolic link/);
    assert.match(run.stderr, /memory sync/);
  });
  // An id longer than any entry's names nothing: as the API and MCP refuse it (api/proposal.ts
  // entryIdText), the command line says it is too long — a usage error — rather than "not found".
  it('an id longer than an entry id may be is a usage error that says the limit', async () => {
    const home = tempHome('get-long-id');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'colours', 'Colours', 'Use red for errors.');
    assert.equal((await runCliInProcess(['memory', 'sync', '--home', home], { cwd: repo })).code, 0);
    const fits = await runCliInProcess(['get', 'a'.repeat(MEMORY_ENTRY_ID_MAX_CHARS), '--home', home], { cwd: repo });
    assert.equal(fits.code, 6, `${MEMORY_ENTRY_ID_MAX_CHARS} characters may name an entry: ${fits.stderr}`);
    for (const argv of [
      ['get', 'a'.repeat(MEMORY_ENTRY_ID_MAX_CHARS + 1)],
      ['memory', 'retire', 'a'.repeat(MEMORY_ENTRY_ID_MAX_CHARS + 1)],
    ]) {
      const run = await runCliInProcess([...argv, '--home', home], { cwd: repo });
      assert.equal(run.code, 2, `${argv[0]}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`at most ${MEMORY_ENTRY_ID_MAX_CHARS} characters`));
      assert.match(run.stderr, new RegExp(`this one has ${MEMORY_ENTRY_ID_MAX_CHARS + 1}\\.`));
    }
  });
});
