// `memory prepare <patch-id> [--operations]` in a real git repository: a person reads the numbered
// operations in `memory review`, prepares some of them, reads which were left out, approves and
// promotes — the exit codes, the text and --json a script relies on. A stale patch exits 5 and sends
// the person to `memory consolidate`; bad numbers are usage errors. One call of each command and
// each exit code goes through the real shipped bin; the others call the same main in this process
// (support/cli-in-process.ts), each spawn of the bin being 0.5–1.5 s of CPU.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, writeConsolidationEntries } from '../support/memory-files.js';

after(() => c.closeStores());

function repository(home: string): string {
  const repo = gitRepo(home, 'repo');
  writeConsolidationEntries(projectRoot(repo));
  return repo;
}

describe('memory prepare <patch-id>', () => {
  it('prepares the numbered operations a person names, says which were left out; approve and promote write and remove them', async () => {
    const home = tempHome('cm-prepare-patch');
    const repo = repository(home);
    const root = projectRoot(repo);
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    const consolidated = JSON.parse((await cli('memory', 'consolidate', '--json')).stdout);
    const operations = consolidated.patch.operations as Array<{ op: string; target: string; name: string }>;
    const retire = operations.findIndex((o) => o.op === 'retire') + 1;
    const scene = operations.findIndex((o) => o.target === 'scene') + 1;
    assert.ok(retire > 0 && scene > 0);

    const usage = await cli('memory', 'prepare', consolidated.taskId, '--operations', '1,x');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--operations takes operation numbers from memory review, e\.g\. 1,3 or 2-4/);
    // --operations with a candidate's id: say the flag belongs to a patch, not "prepare one patch".
    const candidate = await local('memory', 'prepare', 'cand-0123abcd', '--operations', '1');
    assert.equal(candidate.code, 2);
    assert.match(
      candidate.stderr,
      /--operations picks operations of a consolidation patch \(con-…\); "cand-0123abcd" is not one\. Prepare a candidate without it/,
    );
    const outside = await local(
      'memory',
      'prepare',
      consolidated.taskId,
      '--operations',
      String(operations.length + 1),
    );
    assert.notEqual(outside.code, 0);
    assert.match(outside.stderr, new RegExp(`operation ${operations.length + 1} is not in the patch`));

    // A unique start of the patch id is enough, as for candidates and plans.
    const text = await local('memory', 'prepare', consolidated.taskId.slice(0, 12), '--operations', String(retire));
    assert.equal(text.code, 0, text.stderr);
    const left = operations.map((_, i) => i + 1).filter((n) => n !== retire);
    assert.match(
      text.stdout,
      new RegExp(
        `^consolidation patch ${consolidated.taskId}: operations ${retire}; left out: ${left.join(', ')}$`,
        'm',
      ),
    );
    // Wider than 80 columns on one line: the entry and blob go under the file.
    assert.match(text.stdout, /^ {2}remove work_method\/jest\.md\n {4}\(entry jest, blob [0-9a-f]{40}\)$/m);
    assert.match(text.stdout, /^--- a\/work_method\/jest\.md\n\+\+\+ \/dev\/null$/m);
    assert.match(text.stdout, /nothing is written or removed yet/);
    assert.ok(existsSync(join(root, 'work_method', 'jest.md')), 'prepare removes nothing');
    const review = await cli('memory', 'review');
    assert.doesNotMatch(review.stdout, new RegExp(consolidated.taskId), 'a prepared patch leaves the review queue');

    const plan = JSON.parse(
      (await local('memory', 'prepare', consolidated.taskId, '--operations', `${scene},${retire}`, '--json')).stdout,
    );
    assert.deepEqual(
      plan.consolidation.operations.map((o: { number: number }) => o.number),
      [scene, retire].sort((a, b) => a - b),
    );
    assert.equal(plan.files.length, 2);
    const sceneFile = plan.files.find((f: { action: string }) => f.action === 'create');
    assert.equal((await cli('memory', 'approve', plan.planId, '--digest', plan.planDigest)).code, 0);
    const promoted = await cli('memory', 'promote', plan.planId);
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.match(promoted.stdout, /is applied: 1 file\(s\) written, 1 removed/);
    assert.match(promoted.stdout, /^ {2}\.common-memory\/memory\/work_method\/jest\.md \(removed\)$/m);
    assert.equal(existsSync(join(root, 'work_method', 'jest.md')), false);
    assert.equal(
      readFileSync(join(root, sceneFile.path), 'utf8'),
      (operations[scene - 1] as { newContent?: string }).newContent,
      'the scene is the bytes the patch proposed',
    );
  });

  it('a patch whose entry was edited since exits 5 and says to consolidate again', async () => {
    const home = tempHome('cm-prepare-patch-stale');
    const repo = repository(home);
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    const consolidated = JSON.parse((await local('memory', 'consolidate', '--json')).stdout);
    const path = join(projectRoot(repo), 'work_method', 'vitest.md');
    writeFileSync(path, `${readFileSync(path, 'utf8')}Run it with --run in CI.\n`);
    const refused = await cli('memory', 'prepare', consolidated.taskId);
    assert.equal(refused.code, 5, refused.stderr);
    assert.match(refused.stderr, /is stale: entry vitest changed \(revision 1 → 2\)/);
    assert.match(refused.stderr, /run memory consolidate again for a new patch/);
    const json = await local('memory', 'prepare', consolidated.taskId, '--json');
    assert.equal(json.code, 5);
    assert.match(JSON.parse(json.stderr).error.message, /is stale/);
  });

  it('--help fits 80 columns and names --operations', async () => {
    const help = await runCliInProcess(['memory', 'prepare', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--operations 1,3/);
    for (const line of help.stdout.split('\n')) assert.ok(line.length <= 80, `over 80 columns: ${line}`);
  });
});
