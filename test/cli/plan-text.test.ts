// A plan's diff in text (`memory retire`, `memory plan`): the removal of a hand-written memory file
// holding a terminal escape shows it as ⟨U+001B⟩, never raw — the person approves what they read.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCliInProcess } from '../support/cli-in-process.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';

after(() => c.closeStores());

describe('plan diff text', () => {
  it("labels a removed file's control characters in the retire and plan text; --json keeps the diff", async () => {
    const home = tempHome('plan-text');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'colours', 'Colours', 'Use \u001b[31mred\u001b[0m for errors.\r\nThen stop.');
    const retire = await runCli(['memory', 'retire', 'colours', '--home', home], { cwd: repo });
    assert.equal(retire.code, 0, retire.stderr);
    assert.doesNotMatch(retire.stdout, /\u001b/);
    assert.match(retire.stdout, /^-Use ⟨U\+001B⟩\[31mred⟨U\+001B⟩\[0m for errors\.\r?$/m);
    const planId = /plan (plan-[0-9a-f]+)/.exec(retire.stdout)![1]!;
    const plan = await runCliInProcess(['memory', 'plan', planId, '--home', home], { cwd: repo });
    assert.equal(plan.code, 0, plan.stderr);
    assert.doesNotMatch(plan.stdout, /\u001b/);
    assert.match(plan.stdout, /^-Use ⟨U\+001B⟩\[31mred⟨U\+001B⟩\[0m for errors\./m);
    const json = await runCliInProcess(['memory', 'plan', planId, '--home', home, '--json'], { cwd: repo });
    assert.match(JSON.parse(json.stdout).diff, /\u001b\[31mred/);
  });
});
