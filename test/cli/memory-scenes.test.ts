// Scenes in what is given back (issue 28, item 4), through the shipped bin with real files in a
// real git repository: scene files (`scenes/<name>.md`) are read by the sync with the entries and
// kept in memory-state; past the 8 KiB budget the SessionStart snapshot indexes the scenes holding
// notes it could not show (and only those; a scene file changed since the last sync waits for the
// sync's lint), `get scene:<name>` and MCP `memory_get` read a scene
// with its entries, and `memory search` gives matching scenes first, marked as scenes. With no
// scene files the snapshot's bytes are the ones it gave before.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MEMORY_SNAPSHOT_MAX_BYTES } from '../../source/limits.js';
import { formatConsolidationFile } from '../../source/memory/consolidation/scene-format.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { McpTestClient } from '../support/mcp-client.js';

after(() => c.closeStores());

const AREAS = ['deploy-pipeline', 'database-migrations', 'frontend-styling'] as const;

const START = c.hookFiles('codex', 'b')[0]!;

async function sessionStart(home: string, cwd: string, session: string, instance: string): Promise<string> {
  const run = await c.hookBin(
    home,
    'codex',
    c.payloadFor(START, null, { cwd, session_id: session, source: 'startup' }),
    instance,
  );
  assert.equal(run.code, 0, run.stderr);
  const reply = JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } };
  return reply.hookSpecificOutput.additionalContext;
}

async function sync(home: string, cwd: string): Promise<void> {
  const result = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).coverage, 'complete', result.stdout);
}

function writeScene(
  root: string,
  name: string,
  title: string,
  appliesWhen: string,
  entries: string[],
  summary: string,
) {
  mkdirSync(join(root, 'scenes'), { recursive: true });
  writeFileSync(
    join(root, 'scenes', `${name}.md`),
    formatConsolidationFile({ kind: 'scene', name, title, appliesWhen, entries, extra: [], body: summary }),
  );
}

/** 40 entries per area, each with a few lines: far more than 8 KiB. The two "pinned" ones come first. */
function writeEntries(root: string): void {
  writeEntry(root, 'pinned-one', 'Always run the linter', 'Run the linter before each commit.', { priority: 90 });
  writeEntry(root, 'pinned-two', 'Keep commits small', 'One change per commit.', { priority: 90 });
  for (const area of AREAS)
    for (let i = 0; i < 40; i++)
      writeEntry(
        root,
        `${area}-${String(i).padStart(2, '0')}`,
        `${area.replace('-', ' ')} rule ${i}`,
        `Rule ${i} of the ${area} area, written so that it fills a line of the snapshot.\nIts second line.\nIts third line.`,
      );
}

function writeScenes(root: string): void {
  writeScene(
    root,
    'house-rules',
    'House rules',
    'every change',
    ['pinned-one', 'pinned-two'],
    'Rules for every change.\n',
  );
  for (const area of AREAS)
    writeScene(
      root,
      area,
      `The ${area.replace('-', ' ')} area`,
      `working on the ${area.replace('-', ' ')}`,
      [...Array.from({ length: 40 }, (_, i) => `${area}-${String(i).padStart(2, '0')}`), 'retired-long-ago'],
      `How the ${area.replace('-', ' ')} is done here, in one place.\n`,
    );
}

describe('scenes in what is given back', () => {
  it('indexes scenes past the snapshot budget, reads a scene with get and memory_get, and finds it with search', async () => {
    const home = tempHome('scenes');
    const repo = gitRepo(home, 'repo');
    const root = projectRoot(repo);
    writeEntries(root);
    await sync(home, repo);
    const before = await sessionStart(home, repo, 's0', 'i0');
    assert.doesNotMatch(before, /\(scenes — /);
    assert.match(before, /more notes not shown/);

    writeScenes(root);
    await sync(home, repo);
    const indexed = await sessionStart(home, repo, 's1', 'i1');
    assert.ok(Buffer.byteLength(indexed) <= MEMORY_SNAPSHOT_MAX_BYTES, `${Buffer.byteLength(indexed)} bytes`);
    assert.match(indexed, /\[pinned-one\]/);
    assert.match(
      indexed,
      /\n\(scenes — groups of these notes.*`memory_get` reads a scene by its id, or `.+ get <id>`:\)\n/,
    );
    for (const area of AREAS)
      assert.match(
        indexed,
        new RegExp(
          `\\n- \\[scene:${area}\\] \\(project scene, 40 notes\\) title: "The ${area.replace('-', ' ')} area" applies when: "working on the ${area.replace('-', ' ')}"\\n`,
        ),
      );
    // Both of its notes are shown: the house rules are not indexed.
    assert.doesNotMatch(indexed, /scene:house-rules/);

    // get reads a scene: its summary, its entries by id and title, and their bodies within a bound.
    const got = await runCli(['get', 'scene:deploy-pipeline', '--home', home, '--json'], { cwd: repo });
    assert.equal(got.code, 0, got.stderr);
    const scene = JSON.parse(got.stdout);
    assert.equal(scene.type, 'scene');
    assert.equal(scene.id, 'scene:deploy-pipeline');
    assert.deepEqual(scene.sources, [{ scope: 'project', path: 'scenes/deploy-pipeline.md' }]);
    assert.equal(scene.scene.entries.length, 40);
    assert.deepEqual(scene.scene.missing, ['retired-long-ago']);
    assert.equal(scene.scene.entries[0].entryId, 'deploy-pipeline-00');
    assert.match(scene.scene.entries[0].body, /Rule 0 of the deploy-pipeline area/);
    assert.match(scene.body, /^How the deploy pipeline is done here, in one place\.\n\nNotes in this scene \(40\):/);
    assert.match(scene.body, /## deploy pipeline rule 7 \[deploy-pipeline-07\]/);
    const text = await runCli(['get', 'scene:deploy-pipeline', '--home', home], { cwd: repo });
    assert.match(text.stdout, /^scene:deploy-pipeline: The deploy pipeline area\nscene of 40 notes/);
    const unknown = await runCli(['get', 'scene:nowhere', '--home', home, '--json'], { cwd: repo });
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stdout + unknown.stderr, /No scene has the id/);

    // search gives the matching scene first, marked as a scene; the entries follow.
    const search = await runCli(['memory', 'search', 'database migrations', '--home', home, '--json'], { cwd: repo });
    assert.equal(search.code, 0, search.stderr);
    const results = JSON.parse(search.stdout).results as Array<{ entryId: string; kind?: string; entries?: number }>;
    assert.deepEqual(results[0], {
      entryId: 'scene:database-migrations',
      title: 'The database migrations area',
      scope: 'project',
      path: 'scenes/database-migrations.md',
      kind: 'scene',
      entries: 40,
    });
    assert.ok(results.slice(1).every((r) => r.kind === undefined && r.entryId.startsWith('database-migrations-')));
    const searchText = await runCli(['memory', 'search', 'database migrations', '--home', home], { cwd: repo });
    assert.match(
      searchText.stdout,
      // The title wraps under itself at 80 columns; the path is whole on a line of its own.
      /^scene:database-migrations {2}project \[scene of 40 notes\] The database migrations\n {35}area\n {2}scenes\/database-migrations\.md$/m,
    );

    // The MCP tools answer as the CLI does.
    const client = await McpTestClient.start(home, repo);
    try {
      const viaMcp = await client.call('memory_get', { id: 'scene:deploy-pipeline' });
      assert.equal(viaMcp.isError, undefined);
      assert.deepEqual(viaMcp.structuredContent, scene);
      const found = await client.call('memory_search', { query: 'database migrations' });
      assert.deepEqual(found.structuredContent, JSON.parse(search.stdout));
    } finally {
      await client.close();
    }

    // A scene edited by hand is linted by the SessionStart hook (which loads the lint for a changed
    // file) and given at once; one with a secret is not, nor is its earlier text. With the scene
    // files gone the snapshot is the one given before them, byte for byte.
    writeScene(root, 'deploy-pipeline', 'Shipping', 'releasing', ['deploy-pipeline-39'], 'Shipping.\n');
    const edited = await sessionStart(home, repo, 's2', 'i2');
    assert.match(
      edited,
      /\n- \[scene:deploy-pipeline\] \(project scene, 1 note\) title: "Shipping" applies when: "releasing"\n/,
    );
    const token = ['gh', 'p_', 'aB3dE5fG7hJ9kL1m', 'N3pQ5rS7tU9vW1xY3zA5'].join('');
    writeScene(root, 'deploy-pipeline', 'Shipping', 'releasing', ['deploy-pipeline-39'], `Uses ${token}.\n`);
    const blocked = await sessionStart(home, repo, 's2b', 'i2b');
    assert.doesNotMatch(blocked, /scene:deploy-pipeline/);
    assert.match(blocked, /\[scene:database-migrations\]/, 'the other scenes stand');
    rmSync(join(root, 'scenes'), { recursive: true });
    assert.equal(await sessionStart(home, repo, 's3', 'i3'), before);
  });

  it('names a malformed scene file and leaves it out; the entries and the other scenes stand', async () => {
    const home = tempHome('scenes');
    const repo = gitRepo(home, 'repo');
    const root = projectRoot(repo);
    writeEntries(root);
    writeScenes(root);
    writeFileSync(join(root, 'scenes', 'broken.md'), '---\nscene: broken\n---\nno title\n');
    const result = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    const synced = JSON.parse(result.stdout);
    assert.equal(synced.coverage, 'complete');
    assert.equal(synced.entries, 122);
    assert.deepEqual(
      synced.problems.map((p: { path: string; kind: string }) => [p.path, p.kind]),
      [['scenes/broken.md', 'malformed']],
    );
    assert.match(synced.problems[0].message, /`title` is required/);
    const broken = await runCli(['get', 'scene:broken', '--home', home, '--json'], { cwd: repo });
    assert.notEqual(broken.code, 0);
    const got = await runCli(['get', 'scene:frontend-styling', '--home', home, '--json'], { cwd: repo });
    assert.equal(got.code, 0, got.stderr);
    assert.equal(JSON.parse(got.stdout).scene.entries.length, 40);
  });
});
