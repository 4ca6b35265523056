// `get` in text: an entry's body is printed as the reviewer must read it — a terminal escape or a
// hidden character of a hand-written (or a teammate's) memory file shows as ⟨U+XXXX⟩, as the
// session snapshot writes it, instead of reaching the terminal raw. --json keeps the bytes.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli, gitRepo, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';

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
});
