// `memory patch <patch-id>` in a real git repository: one consolidation patch whole — its numbered
// operations, where it stands (pending, prepared into a plan, applied by it) and the text of every
// file it would write — as text and --json, by its id or a unique start of it; an unknown id is exit
// 6, no id exit 2; its --help fits 80 columns. One call of each command and each exit code goes
// through the real shipped bin; the others call the same main in this process
// (support/cli-in-process.ts), each spawn of the bin being 0.5–1.5 s of CPU.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { gitRepo, runCli, startHost, stopHost, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, writeConsolidationEntries } from '../support/memory-files.js';

after(() => c.closeStores());

describe('memory patch <patch-id>', () => {
  it('shows one patch with its status and file texts, through prepare and promote', async () => {
    const home = tempHome('cm-memory-patch');
    const repo = gitRepo(home, 'repo');
    writeConsolidationEntries(projectRoot(repo));
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    const consolidated = JSON.parse((await local('memory', 'consolidate', '--json')).stdout);
    const taskId = consolidated.taskId as string;
    const operations = consolidated.patch.operations as Array<{ op: string; target: string; newContent: string }>;
    const scene = operations.findIndex((o) => o.target === 'scene') + 1;
    assert.ok(scene > 0);

    const json = await local('memory', 'patch', taskId.slice(0, 10), '--json');
    assert.equal(json.code, 0, json.stderr);
    const view = JSON.parse(json.stdout);
    assert.equal(view.taskId, taskId, 'a unique start names the whole id');
    assert.equal(view.status, 'pending');
    assert.equal(view.planId, null);
    assert.equal(view.scope, 'project');
    assert.deepEqual(view.operations, operations);

    const text = await cli('memory', 'patch', taskId);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^${taskId}  consolidation  ${operations.length} operation\\(s\\)`, 'm'));
    assert.match(text.stdout, /^ {2}\d+\. retire entry jest, superseded by vitest/m);
    assert.match(text.stdout, /^ {2}status: pending, waiting in memory review$/m);
    assert.match(text.stdout, new RegExp(`^${scene}\\. create scene [a-z0-9-]+: scenes/[a-z0-9-]+\\.md$`, 'm'));
    // The scene's whole text, every line indented under its operation.
    for (const line of operations[scene - 1]!.newContent.trimEnd().split('\n'))
      assert.ok(text.stdout.includes(`\n    ${line}`), line);

    const plan = JSON.parse((await cli('memory', 'prepare', taskId, '--json')).stdout);
    const prepared = JSON.parse((await local('memory', 'patch', taskId, '--json')).stdout);
    assert.equal(prepared.status, 'prepared');
    assert.equal(prepared.planId, plan.planId);
    assert.match(
      (await local('memory', 'patch', taskId)).stdout,
      // At 80 columns the command may go to the next line, whole.
      new RegExp(`^ {2}status: prepared, plan ${plan.planId}\\s+\\(common-memory memory plan ${plan.planId}\\)`, 'm'),
    );
    assert.equal((await cli('memory', 'approve', plan.planId, '--digest', plan.planDigest)).code, 0);
    assert.equal((await cli('memory', 'promote', plan.planId)).code, 0);
    const applied = await local('memory', 'patch', taskId);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, new RegExp(`^ {2}status: applied by plan ${plan.planId}`, 'm'));
    assert.doesNotMatch(applied.stdout, /prepare it:/, 'an applied patch is never prepared again');

    // Through a running host (its API, the response checked against its schema) the answer is the same.
    const host = await startHost(home, {}, repo);
    try {
      const served = await local('memory', 'patch', taskId, '--json');
      assert.equal(served.code, 0, served.stderr);
      assert.deepEqual(JSON.parse(served.stdout), { ...view, status: 'applied', planId: plan.planId });
      const unknown = await local('memory', 'patch', 'con-ffffffffffff');
      assert.equal(unknown.code, 6, unknown.stderr);
    } finally {
      await stopHost(host.child);
    }
  });

  it('an unknown id is exit 6, no id exit 2, and its help fits 80 columns', async () => {
    const home = tempHome('cm-memory-patch-bad');
    const repo = gitRepo(home, 'repo');
    writeConsolidationEntries(projectRoot(repo));
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    assert.equal((await cli('memory', 'consolidate')).code, 0);
    const unknown = await cli('memory', 'patch', 'con-ffffffffffff', '--json');
    assert.equal(unknown.code, 6, unknown.stderr);
    const error = JSON.parse(unknown.stderr).error;
    assert.equal(error.code, 'not_found');
    assert.match(error.message, /No consolidation patch "con-ffffffffffff"/);
    assert.match(error.message, /memory review lists them/);
    const none = await cli('memory', 'patch');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /common-memory memory patch <patch-id>/);
    const two = await local('memory', 'patch', 'con-1', 'con-2');
    assert.equal(two.code, 2, 'one patch at a time');
    const help = await local('memory', 'patch', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /memory patch <patch-id>/);
    for (const line of help.stdout.split('\n')) assert.ok(line.length <= 80, line);
  });
});
