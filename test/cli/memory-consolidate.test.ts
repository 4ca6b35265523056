// `memory consolidate` in a real git repository: the built-in runner proposes retirements, merges
// and scenes over the repository's approved entries; the patch waits in `memory review` (text and
// --json) as one item with its operations and what each rests on; no file in the memory root
// changes; the same entries again answer unchanged; an edited entry makes a new task; bad scopes are
// usage errors. One call of each command (consolidate, review, prepare, patch) and one usage error
// go through the real shipped bin; the others call the same main in this process
// (support/cli-in-process.ts), each spawn of the bin being 0.5–1.5 s of CPU.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { entryText, projectRoot, writeConsolidationEntries } from '../support/memory-files.js';
import { McpTestClient } from '../support/mcp-client.js';

after(() => c.closeStores());

interface Operation {
  op: string;
  target: string;
  name: string;
  basedOn: Array<{ entryId: string; revision: number }>;
  mergeSources: string[];
  supersededBy: string | null;
  newContent: string | null;
}

function repository(home: string): string {
  const repo = gitRepo(home, 'repo');
  writeConsolidationEntries(projectRoot(repo));
  return repo;
}

const snapshotFiles = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return `${path}:${readFileSync(path, 'utf8')}`;
    })
    .sort();

describe('memory consolidate', () => {
  it('queues the built-in runner’s patch as one review item and changes no file', async () => {
    const home = tempHome('cm-consolidate');
    const repo = repository(home);
    const before = snapshotFiles(projectRoot(repo));
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });

    const run = await cli('memory', 'consolidate', '--json');
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.outcome, 'accepted');
    assert.equal(result.scope, 'project');
    assert.equal(result.entries, 5);
    assert.match(result.taskId, /^con-[0-9a-f]{24}$/);
    const operations = result.patch.operations as Operation[];
    const retire = operations.find((o) => o.op === 'retire');
    assert.deepEqual(retire && [retire.name, retire.supersededBy], ['jest', 'vitest']);
    const scene = operations.find((o) => o.target === 'scene');
    assert.deepEqual(
      scene?.basedOn.map((b) => b.entryId),
      ['mig-1', 'mig-2', 'mig-3'],
    );
    assert.match(scene!.newContent!, /^scene: "migration/m);
    assert.deepEqual(snapshotFiles(projectRoot(repo)), before, 'no file in the memory root changed');

    const review = await local('memory', 'review', '--json');
    assert.equal(review.code, 0, review.stderr);
    const queued = JSON.parse(review.stdout);
    assert.equal(queued.patches.length, 1);
    assert.equal(queued.patches[0].taskId, result.taskId);
    assert.deepEqual(queued.patches[0].operations, operations);
    const text = await cli('memory', 'review');
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(`^${result.taskId}  consolidation  ${operations.length} operation\\(s\\)`, 'm'),
    );
    // Wrapped to 80 columns: an operation read as one text.
    const operationLines = text.stdout.replace(/\n {4}(?!common-memory)/g, ' ');
    assert.match(
      operationLines,
      /^ {2}\d+\. retire entry jest, superseded by vitest \(.*rests on jest@1, vitest@1\)$/m,
    );
    assert.match(operationLines, /^ {2}\d+\. create scene migration.* \(3 entries: mig-1@1, mig-2@1, mig-3@1\)$/m);
    assert.match(
      text.stdout,
      // At 80 columns the command stands whole on the line under its label.
      new RegExp(`^ {2}prepare it:\n {4}common-memory memory prepare ${result.taskId} \\[--operations 1,3\\]$`, 'm'),
    );

    const again = await local('memory', 'consolidate');
    assert.equal(again.code, 0, again.stderr);
    // Wrapped to 80 columns: read as one text.
    assert.match(again.stdout.replace(/\s+/g, ' '), new RegExp(`unchanged since consolidation ${result.taskId}`));

    // A hand edit of an entry: its revision grows, and the next consolidation is a new task.
    writeFileSync(
      join(projectRoot(repo), 'work_method', 'jest.md'),
      entryText('jest', 'Run the unit tests with jest', 'Use `pnpm jest --ci`.\n'),
    );
    const edited = JSON.parse((await local('memory', 'consolidate', '--json')).stdout);
    assert.equal(edited.outcome, 'accepted');
    assert.notEqual(edited.taskId, result.taskId);
    assert.deepEqual((edited.patch.operations as Operation[]).find((o) => o.op === 'retire')!.basedOn, [
      { entryId: 'jest', revision: 2 },
      { entryId: 'vitest', revision: 1 },
    ]);
  });

  it('consolidates the user scope with --scope user, and refuses --scope project outside git', async () => {
    const home = tempHome('cm-consolidate-user');
    const outside = join(dirname(home), 'plain-directory');
    mkdirSync(outside);
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: outside });
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: outside });
    const refused = await cli('memory', 'consolidate', '--scope', 'project');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /not inside a git worktree/);
    const bad = await local('memory', 'consolidate', '--scope', 'team');
    assert.equal(bad.code, 2);
    const text = await local('memory', 'consolidate', '--scope', 'user');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^no approved entries in the user memory: nothing to consolidate/);
    assert.doesNotMatch(text.stdout, /memory review/, 'a patch with no operation sends nobody to review');
    const user = JSON.parse((await local('memory', 'consolidate', '--scope', 'user', '--json')).stdout);
    assert.equal(user.scope, 'user');
    assert.equal(user.entries, 0);
    assert.deepEqual(user.patch.operations, []);
  });

  it('reads the root’s scenes: an existing scene is updated, not created again; a broken scene file is named', async () => {
    const home = tempHome('cm-consolidate-scenes');
    const repo = repository(home);
    const scenes = join(projectRoot(repo), 'scenes');
    mkdirSync(scenes);
    writeFileSync(
      join(scenes, 'schema-changes.md'),
      '---\nscene: schema-changes\ntitle: "How we change the schema"\nowner: "data team"\nentries: ["mig-1", "mig-2"]\n---\nOur own words.\n',
    );
    writeFileSync(join(scenes, 'broken.md'), '---\nscene: broken\n---\n');
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    const run = await local('memory', 'consolidate', '--json');
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.deepEqual(result.problems, ['scenes/broken.md:3: `title` is required: a non-empty string on one line']);
    const sceneOps = (result.patch.operations as Operation[]).filter((o) => o.target === 'scene');
    assert.deepEqual(
      sceneOps.map((o) => [o.op, o.name]),
      [['update', 'schema-changes']],
    );
    assert.equal(
      sceneOps[0]!.newContent,
      '---\nscene: schema-changes\ntitle: "How we change the schema"\nowner: "data team"\nentries: ["mig-1","mig-2","mig-3"]\n---\nOur own words.\n',
    );
    // The same entries with the scene file edited: a new task.
    writeFileSync(
      join(scenes, 'schema-changes.md'),
      '---\nscene: schema-changes\ntitle: "How we change the schema"\nentries: ["mig-1", "mig-2", "mig-3"]\n---\nOur own words.\n',
    );
    const again = JSON.parse((await local('memory', 'consolidate', '--json')).stdout);
    assert.equal(again.outcome, 'accepted');
    assert.notEqual(again.taskId, result.taskId);
    assert.deepEqual(
      (again.patch.operations as Operation[]).filter((o) => o.target === 'scene'),
      [],
      'nothing to propose for a scene whose members are the cluster',
    );
  });

  it('the text form names each file it left out, as --json does in problems', async () => {
    const home = tempHome('cm-consolidate-problems-text');
    const repo = repository(home);
    mkdirSync(join(projectRoot(repo), 'scenes'));
    writeFileSync(join(projectRoot(repo), 'scenes', 'broken.md'), '---\nscene: broken\n---\n');
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    const first = await local('memory', 'consolidate');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^left out: scenes\/broken\.md:3: `title` is required/m);
    // Run again (unchanged), the file is still left out and still named.
    const again = await local('memory', 'consolidate');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^left out: scenes\/broken\.md:3: `title` is required/m);
  });

  it('run again after its patch was prepared, it says the patch is prepared as its plan, not that it waits in review', async () => {
    const home = tempHome('cm-consolidate-prepared-again');
    const repo = repository(home);
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    const first = JSON.parse((await local('memory', 'consolidate', '--json')).stdout);
    const prepared = await cli('memory', 'prepare', first.taskId, '--json');
    assert.equal(prepared.code, 0, prepared.stderr);
    const planId = JSON.parse(prepared.stdout).planId as string;
    const again = await local('memory', 'consolidate');
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stdout, /in memory review/);
    assert.match(
      again.stdout.replace(/\s+/g, ' '),
      new RegExp(`its patch was prepared as plan ${planId} \\(memory plan ${planId}\\)`),
    );
  });

  it('counts one approved entry as one entry, in the text of a first run and of an unchanged one', async () => {
    const home = tempHome('cm-consolidate-one');
    const repo = gitRepo(home, 'repo');
    mkdirSync(join(projectRoot(repo), 'work_method'), { recursive: true });
    writeFileSync(join(projectRoot(repo), 'work_method', 'solo.md'), entryText('solo', 'Only rule', 'Keep it small.'));
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    const run = await local('memory', 'consolidate');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^consolidated 1 approved entry: nothing to propose/);
    const again = await local('memory', 'consolidate');
    assert.match(again.stdout, /^consolidated 1 approved entry: nothing to propose/);
  });

  // A task answered with no operation keeps no patch: the text hands out no id to prepare, and the
  // id --json gives (the task's) is answered as a task that proposed nothing, not as a typo.
  it('over no approved entries says there is nothing to consolidate; prepare and patch of its task say it kept no patch', async () => {
    const home = tempHome('cm-consolidate-empty');
    const repo = gitRepo(home, 'repo');
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
    const text = await local('memory', 'consolidate');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^no approved entries in the project memory: nothing to consolidate/);
    assert.doesNotMatch(text.stdout, /con-/, 'no id that nothing can be done with');
    const json = await local('memory', 'consolidate', '--json');
    assert.equal(json.code, 0, json.stderr);
    const taskId = JSON.parse(json.stdout).taskId as string;
    for (const command of ['prepare', 'patch']) {
      const run = await cli('memory', command, taskId);
      assert.equal(run.code, 6, `${command}: ${run.stderr}`);
      assert.doesNotMatch(run.stderr, /unique start/, command);
      assert.match(
        run.stderr,
        new RegExp(`Consolidation task ${taskId} proposed nothing, so it kept no patch`),
        command,
      );
      const short = await local('memory', command, taskId.slice(0, 8));
      assert.match(short.stderr, new RegExp(`task ${taskId} proposed nothing`), `${command} by a start of the id`);
    }
  });

  it('MCP memory_consolidate_preview over no approved entries says there is nothing to consolidate', async () => {
    const home = tempHome('cm-consolidate-preview-empty');
    const repo = gitRepo(home, 'repo');
    const client = await McpTestClient.start(home, repo);
    try {
      const made = await client.call('memory_consolidate_preview', {});
      assert.equal(made.isError, undefined, JSON.stringify(made));
      assert.equal(made.structuredContent.entries, 0);
      // Not "the user runs memory consolidate to propose the patch": that run proposes nothing.
      assert.doesNotMatch(String(made.structuredContent.next), /propose the patch/);
      assert.match(String(made.structuredContent.next), /no approved entries/i);
    } finally {
      await client.close();
    }
  });

  it('MCP memory_consolidate_preview makes the pending task only; memory consolidate runs that task', async () => {
    const home = tempHome('cm-consolidate-preview');
    const repo = repository(home);
    const before = snapshotFiles(projectRoot(repo));
    const local = (...args: string[]) => runCliInProcess([...args, '--home', home, '--json'], { cwd: repo });
    const client = await McpTestClient.start(home, repo);
    let preview: Record<string, unknown>;
    try {
      const made = await client.call('memory_consolidate_preview', {});
      assert.equal(made.isError, undefined, JSON.stringify(made));
      preview = made.structuredContent;
      assert.equal(preview['outcome'], 'pending');
      assert.equal(preview['scope'], 'project');
      assert.equal(preview['entries'], 5);
      assert.match(String(preview['taskId']), /^con-[0-9a-f]{24}$/);
      assert.match(String(preview['next']), /memory consolidate/);
      assert.ok(!JSON.stringify(made).includes('migrations/*.sql'), 'no entry text in what the model gets');
      const again = await client.call('memory_consolidate_preview', { scope: 'project' });
      assert.equal(again.structuredContent.taskId, preview['taskId'], 'the same entries make the same task');
      const refused = await client.call('memory_consolidate_preview', { scope: 'all', approve: true });
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.structuredContent), /invalid_input/);
    } finally {
      await client.close();
    }
    const review = await local('memory', 'review');
    assert.equal(review.code, 0, review.stderr);
    assert.deepEqual(JSON.parse(review.stdout).patches, [], 'a preview runs nothing');
    assert.deepEqual(snapshotFiles(projectRoot(repo)), before, 'and changes no file');

    const run = await local('memory', 'consolidate');
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.outcome, 'accepted');
    assert.equal(result.taskId, preview['taskId'], 'memory consolidate ran the task the preview made');
    const after = await McpTestClient.start(home, repo);
    try {
      const done = await after.call('memory_consolidate_preview', {});
      assert.equal(done.structuredContent.outcome, 'unchanged');
      assert.match(done.structuredContent.next, /memory review/);
    } finally {
      await after.close();
    }
  });
});
