// The approved projection through the real shipped bin: memory init / sync / search and get over a
// real git repository and a data home with memory files written by hand and by the formatter;
// edits picked up, a malformed file keeps the coverage partial with its path and line, the same
// tree twice changes nothing, and a damaged memory-state is `unavailable` (exit 12). The first
// search and get of each case and every write go through the bin; the reads that only check a
// result again (and the poll of the host's start-up sync) call the CLI in-process.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import type { MemoryEntry } from '../../source/memory/entry-format.js';
import { entryText } from '../support/memory-files.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { gitRepo, runCli, startHost, stopHost, tempHome } from '../support/cli.js';

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const generated = (id: string, title: string, body: string, type: MemoryEntry['type'] = 'work_method'): string =>
  entryText(id, title, body, { type });

const HAND_WRITTEN = `---
id: release-checklist
type: work_task
title: Release checklist
appliesWhen: before tagging a release
priority: 80
---
Run the changelog script, then bump the version in package.json.
`;

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('approved projection commands', () => {
  it('init, sync, search, get; a hand edit is picked up; a malformed file is partial with path and line; unknown id exits 6', async () => {
    const home = tempHome('approved-cli');
    const repo = gitRepo(home, 'repo');
    const other = gitRepo(home, 'other');
    const init = await runCli(['memory', 'init', '--home', home, '--json'], { cwd: repo });
    assert.equal(init.code, 0, init.stderr);
    assert.equal(json(init.stdout).scope, 'project');
    assert.equal(json(init.stdout).readmeWritten, true);
    const projectRoot = join(repo, '.common-memory', 'memory');
    write(projectRoot, 'work_task/release-checklist.md', HAND_WRITTEN);
    write(
      projectRoot,
      'work_method/use-pnpm.md',
      generated('use-pnpm', 'Use pnpm, not npm', 'Install with pnpm install; the lockfile is pnpm-lock.yaml.'),
    );
    const userInit = await runCli(['memory', 'init', '--scope', 'user', '--home', home, '--json'], { cwd: repo });
    assert.equal(userInit.code, 0, userInit.stderr);
    write(
      join(home, 'memory'),
      'work_method/named-exports.md',
      generated('named-exports', 'Prefer named exports', 'Use named exports in TypeScript modules.'),
    );

    const first = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo });
    assert.equal(first.code, 0, first.stderr);
    const synced = json(first.stdout);
    assert.equal(synced.coverage, 'complete');
    assert.equal(synced.entries, 3);
    assert.deepEqual(synced.problems, []);
    assert.deepEqual(
      synced.scopes.map((s: { scope: string; generation: number; outcome: string }) => [
        s.scope,
        s.generation,
        s.outcome,
      ]),
      [
        ['project', 1, 'replaced'],
        ['user', 1, 'replaced'],
      ],
    );
    assert.equal(synced.generation, 2);

    const again = json((await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.equal(again.generation, 2, 'the same tree twice: no new generation');
    assert.deepEqual(
      again.scopes.map((s: { outcome: string }) => s.outcome),
      ['unchanged', 'unchanged'],
    );

    const found = await runCli(['memory', 'search', 'changelog', 'version', '--home', home, '--json'], { cwd: repo });
    assert.equal(found.code, 0, found.stderr);
    const search = json(found.stdout);
    assert.equal(search.generation, 2);
    assert.equal(search.coverage, 'complete');
    assert.deepEqual(search.results, [
      {
        entryId: 'release-checklist',
        title: 'Release checklist',
        scope: 'project',
        path: 'work_task/release-checklist.md',
      },
    ]);
    const user = json(
      (await runCliInProcess(['memory', 'search', 'named exports', '--home', home, '--json'], { cwd: repo })).stdout,
    );
    assert.deepEqual(
      user.results.map((r: { entryId: string; scope: string }) => [r.entryId, r.scope]),
      [['named-exports', 'user']],
    );

    const got = await runCli(['get', 'release-checklist', '--home', home, '--json'], { cwd: repo });
    assert.equal(got.code, 0, got.stderr);
    const entry = json(got.stdout);
    assert.equal(entry.id, 'release-checklist');
    assert.equal(entry.title, 'Release checklist');
    assert.equal(entry.appliesWhen, 'before tagging a release');
    assert.match(entry.contentDigest, /^[0-9a-f]{64}$/);
    assert.deepEqual(entry.sources, [{ scope: 'project', path: 'work_task/release-checklist.md' }]);
    assert.match(entry.body, /changelog script/);
    const text = await runCli(['get', 'release-checklist', '--home', home], { cwd: repo });
    assert.match(text.stdout, /sources: project:work_task\/release-checklist\.md/);

    // Another repository sees the user scope, never this repository's entries.
    const elsewhere = await runCli(['get', 'release-checklist', '--home', home, '--json'], { cwd: other });
    assert.equal(elsewhere.code, 6, elsewhere.stderr);
    const unknown = await runCli(['get', 'no-such-entry', '--home', home, '--json'], { cwd: repo });
    assert.equal(unknown.code, 6, unknown.stderr);
    assert.equal(json(unknown.stderr).error.code, 'not_found');

    // A hand edit: the new text is found, the old is not, the generation moves on.
    write(
      projectRoot,
      'work_task/release-checklist.md',
      HAND_WRITTEN.replace('changelog script', 'release notes generator'),
    );
    const edited = json((await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.equal(edited.coverage, 'complete');
    assert.deepEqual(
      edited.scopes.map((s: { generation: number }) => s.generation),
      [2, 1],
    );
    const newText = json(
      (await runCliInProcess(['memory', 'search', 'generator', '--home', home, '--json'], { cwd: repo })).stdout,
    );
    assert.deepEqual(
      newText.results.map((r: { entryId: string }) => r.entryId),
      ['release-checklist'],
    );
    const oldText = json(
      (await runCliInProcess(['memory', 'search', 'changelog', '--home', home, '--json'], { cwd: repo })).stdout,
    );
    assert.deepEqual(oldText.results, []);
    assert.notEqual(
      json((await runCliInProcess(['get', 'release-checklist', '--home', home, '--json'], { cwd: repo })).stdout)
        .contentDigest,
      entry.contentDigest,
    );

    // A malformed file: partial, with its path and line; the last complete projection stays.
    write(
      projectRoot,
      'work_fact/broken.md',
      '---\nid: broken\ntype: work_fact\ntitle: Broken\nthis line is not a field\n---\nbody\n',
    );
    write(
      projectRoot,
      'work_method/use-pnpm.md',
      generated('use-pnpm', 'Use pnpm, not npm', 'A changed body that must not be projected yet.'),
    );
    const partial = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo });
    assert.equal(partial.code, 3, partial.stderr);
    const report = json(partial.stdout);
    assert.equal(report.coverage, 'partial');
    assert.deepEqual(
      report.scopes.map((s: { generation: number; coverage: string }) => [s.generation, s.coverage]),
      [
        [2, 'partial'],
        [1, 'complete'],
      ],
    );
    const problem = report.problems.find((p: { path: string }) => p.path === 'work_fact/broken.md');
    assert.ok(problem, JSON.stringify(report.problems));
    assert.equal(problem.kind, 'malformed');
    assert.equal(problem.line, 5);
    assert.equal(problem.scope, 'project');
    const during = json(
      (await runCliInProcess(['memory', 'search', 'pnpm', '--home', home, '--json'], { cwd: repo })).stdout,
    );
    assert.equal(during.coverage, 'partial');
    assert.deepEqual(
      during.results.map((r: { entryId: string }) => r.entryId),
      ['use-pnpm'],
    );
    // get answers from the entry's file, never from a projection the file no longer matches.
    assert.match(
      json((await runCliInProcess(['get', 'use-pnpm', '--home', home, '--json'], { cwd: repo })).stdout).body,
      /A changed body that must not be projected yet\./,
    );

    // Fixed: complete again, the pending edit is projected.
    write(projectRoot, 'work_fact/broken.md', '---\nid: broken\ntype: work_fact\ntitle: Broken no more\n---\nbody\n');
    const fixed = json((await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.equal(fixed.coverage, 'complete');
    assert.equal(fixed.entries, 4);
    assert.deepEqual(
      fixed.scopes.map((s: { generation: number }) => s.generation),
      [3, 1],
    );
    assert.match(
      json((await runCliInProcess(['get', 'use-pnpm', '--home', home, '--json'], { cwd: repo })).stdout).body,
      /must not be projected yet/,
    );
  });

  it('a running host syncs at start and answers sync, search and get; the same commands work without it', async () => {
    const home = tempHome('approved-host');
    const repo = gitRepo(home, 'repo');
    write(
      join(home, 'memory'),
      'work_fact/user-editor.md',
      generated('user-editor', 'The editor is Helix', 'Config lives in ~/.config/helix.', 'work_fact'),
    );
    mkdirSync(home, { recursive: true });
    const { child } = await startHost(home);
    try {
      // The host's own start-up sync covers the user root (its cwd is no repository of ours).
      const deadline = Date.now() + 15_000;
      let generation = 0;
      let last = '';
      while (Date.now() < deadline) {
        last = (await runCliInProcess(['memory', 'search', 'helix', '--home', home, '--json'], { cwd: repo })).stdout;
        generation = json(last).scopes.find((s: { scope: string }) => s.scope === 'user').generation;
        if (generation > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(generation, 1, `the host synced the user root at start (waited 15 s): ${last}`);
      write(
        join(repo, '.common-memory', 'memory'),
        'work_fact/repo-fact.md',
        generated('repo-fact', 'Builds use make', 'Run make all.', 'work_fact'),
      );
      const viaHost = json((await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo })).stdout);
      assert.equal(viaHost.entries, 2);
      assert.equal(
        json((await runCliInProcess(['get', 'repo-fact', '--home', home, '--json'], { cwd: repo })).stdout).title,
        'Builds use make',
      );
    } finally {
      await stopHost(child);
    }
    const readOnly = await runCli(['get', 'repo-fact', '--home', home, '--json'], { cwd: repo });
    assert.equal(readOnly.code, 0, readOnly.stderr);
    assert.equal(json(readOnly.stdout).title, 'Builds use make');
  });

  it('a damaged memory-state: sync, search and get exit 12 (unavailable), never 6', async () => {
    const home = tempHome('approved-damaged');
    const repo = gitRepo(home, 'repo');
    assert.equal((await runCli(['note', 'a store exists', '--home', home])).code, 0);
    writeFileSync(storeFiles(home).memoryState, 'garbage'.repeat(2000), { mode: 0o600 });
    for (const args of [
      ['memory', 'sync'],
      ['memory', 'search', 'anything'],
      ['get', 'some-id'],
    ]) {
      const result = await runCli([...args, '--home', home, '--json'], { cwd: repo });
      assert.equal(result.code, 12, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(json(result.stderr).error.code, 'memory_unavailable');
    }
  });
});
