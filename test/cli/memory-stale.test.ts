// Stale entries are never given as true (issue 29, items 1–3): a real git repository with an
// approved entry that names a file and a package script; the file and the script are removed and
// committed. The running host sees the commit and verifies again; the next real SessionStart hook
// leaves the entry out and says why in one line; `memory status --json` counts it; `get --json`
// and MCP `memory_get` say stale with the failed anchors; search marks it and ranks it last.
// Without a host, `memory status` verifies first. Verdicts that cannot be read leave the snapshot
// exactly as it is without verification.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import * as c from '../support/capture.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { git, gitRepo, runCli, startHost, stopHost, tempHome, waitFor } from '../support/cli.js';
import { McpTestClient } from '../support/mcp-client.js';
import { formatConsolidationFile } from '../../source/memory/consolidation/scene-format.js';

after(() => c.closeStores());

const START = c.hookFiles('codex', 'b')[0]!;

async function sessionStart(home: string, cwd: string, session: string): Promise<string> {
  const run = await c.hookBin(home, 'codex', c.payloadFor(START, null, { cwd, session_id: session }), session);
  assert.equal(run.code, 0, run.stderr);
  if (run.stdout === '') return '';
  return (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

const idsIn = (snapshot: string) => [...snapshot.matchAll(/^- \[([^\]]+)\] \(/gm)].map((m) => m[1]!).sort();

const LEGACY_BODY = 'Configuration is loaded by `src/legacy/config.ts`; run `pnpm run lint:legacy` after editing it.';

/** A repository whose file and script the `legacy-config` entry names, and a `kept-rule` entry that names nothing. */
function repository(home: string): string {
  const repo = gitRepo(home, 'repo');
  mkdirSync(join(repo, 'src', 'legacy'), { recursive: true });
  writeFileSync(join(repo, 'src', 'legacy', 'config.ts'), 'export function loadConfig() {}\n');
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: { 'lint:legacy': 'true', test: 'true' } }));
  writeEntry(projectRoot(repo), 'legacy-config', 'Where configuration is loaded', LEGACY_BODY, { priority: 70 });
  writeEntry(projectRoot(repo), 'kept-rule', 'Keep reviews small', 'Keep each configuration review under 400 lines.', {
    priority: 60,
  });
  git(repo, 'add', '--all');
  git(repo, 'commit', '-q', '-m', 'start');
  return repo;
}

/** The file and the script are removed, and the removal committed. */
function removeFileAndScript(repo: string): void {
  rmSync(join(repo, 'src', 'legacy', 'config.ts'));
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: { test: 'true' } }));
  git(repo, 'add', '--all');
  git(repo, 'commit', '-q', '-m', 'drop the legacy loader');
}

function readState<T>(home: string, sql: string, ...args: unknown[]): T | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Database(storeFiles(home).memoryState, { readonly: true, fileMustExist: true });
    return db
      .prepare(sql)
      .pluck()
      .get(...args) as T | undefined;
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

const storedVerdict = (home: string, entryId: string) =>
  readState<string>(home, 'SELECT verdict FROM entry_anchors WHERE entry_id = ?', entryId);
const lastVerifiedAt = (home: string) =>
  readState<number>(home, 'SELECT max(verified_at_ms) FROM anchor_verification') ?? 0;

interface EntryJson {
  stale: boolean;
  verification: string;
  failedAnchors: Array<{ anchor: string; reason: string }>;
}

async function checkStaleReads(home: string, repo: string): Promise<void> {
  const status = await runCli(['memory', 'status', '--home', home, '--json'], { cwd: repo });
  assert.equal(status.code, 0, status.stderr);
  const anchors = JSON.parse(status.stdout).anchors;
  assert.equal(anchors.state, 'verified');
  assert.deepEqual(anchors.staleEntries, { project: 1, user: 0 });

  const got = await runCli(['get', 'legacy-config', '--home', home, '--json'], { cwd: repo });
  assert.equal(got.code, 0, got.stderr);
  const entry = JSON.parse(got.stdout) as EntryJson;
  assert.equal(entry.stale, true);
  assert.equal(entry.verification, 'stale');
  assert.deepEqual(
    entry.failedAnchors.map((f) => f.reason),
    [
      '`src/legacy/config.ts` no longer exists',
      '`npm run lint:legacy`: package.json no longer defines the script "lint:legacy"',
    ],
  );
  const kept = JSON.parse(
    (await runCliInProcess(['get', 'kept-rule', '--home', home, '--json'], { cwd: repo })).stdout,
  );
  assert.equal(kept.stale, false);
  assert.equal(kept.verification, 'fresh');

  const text = await runCliInProcess(['get', 'legacy-config', '--home', home], { cwd: repo });
  assert.match(text.stdout, /STALE/);
  assert.match(text.stdout, /src\/legacy\/config\.ts` no longer exists/);

  // Both match "configuration"; the stale one is ranked last and marked.
  const search = await runCliInProcess(['memory', 'search', 'configuration', '--home', home, '--json'], { cwd: repo });
  assert.equal(search.code, 0, search.stderr);
  const results = JSON.parse(search.stdout).results as Array<{ entryId: string; stale?: boolean; staleNote?: string }>;
  assert.deepEqual(
    results.map((r) => [r.entryId, r.stale]),
    [
      ['kept-rule', undefined],
      ['legacy-config', true],
    ],
  );
  assert.match(results[1]!.staleNote!, /^may be stale: `src\/legacy\/config\.ts` no longer exists \(and 1 more\)$/);

  const client = await McpTestClient.start(home, repo);
  try {
    const viaMcp = await client.call('memory_get', { id: 'legacy-config' });
    assert.equal(viaMcp.structuredContent.stale, true, JSON.stringify(viaMcp));
    assert.equal((viaMcp.structuredContent.failedAnchors as unknown[]).length, 2);
    const hits = await client.call('memory_search', { query: 'configuration' });
    assert.deepEqual(
      (hits.structuredContent.results as Array<{ entryId: string }>).map((r) => r.entryId),
      ['kept-rule', 'legacy-config'],
    );
  } finally {
    assert.equal(await client.close(), 0);
  }
}

describe('stale entries are never given as true', () => {
  it('the running host sees the commit; the next SessionStart leaves the entry out; status, get, search and MCP say stale', async () => {
    const home = tempHome('stale-host');
    const repo = repository(home);
    const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo });
    assert.equal(synced.code, 0, synced.stderr);
    assert.deepEqual(JSON.parse(synced.stdout).anchors, { state: 'verified', entries: 2, stale: 0, reason: null });
    const before = await sessionStart(home, repo, 's1');
    assert.deepEqual(idsIn(before), ['kept-rule', 'legacy-config']);
    assert.doesNotMatch(before, /may be stale/);

    const syncedAt = lastVerifiedAt(home);
    const { child } = await startHost(home, {}, repo);
    try {
      // The host verifies at its start (its sync), then watches the worktree's git directory.
      await waitFor('the start-up verification', () => lastVerifiedAt(home) > syncedAt || undefined);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const startedAt = lastVerifiedAt(home);
      assert.equal(storedVerdict(home, 'legacy-config'), 'fresh');
      removeFileAndScript(repo);
      await waitFor(
        'the host to verify after the commit',
        () => storedVerdict(home, 'legacy-config') === 'stale' || undefined,
        20_000,
      );
      assert.ok(lastVerifiedAt(home) > startedAt);

      const snapshot = await sessionStart(home, repo, 's2');
      assert.deepEqual(idsIn(snapshot), ['kept-rule'], snapshot);
      assert.doesNotMatch(snapshot, /loaded by/);
      const lines = snapshot.split('\n').filter((line) => line.includes('may be stale'));
      assert.deepEqual(lines, [
        '(may be stale, not given: legacy-config — `src/legacy/config.ts` no longer exists (and 1 more))',
      ]);
      await checkStaleReads(home, repo);
    } finally {
      await stopHost(child);
    }
  });

  it('without a host, memory status verifies first; damaged verdicts leave the snapshot as without verification', async () => {
    const home = tempHome('stale-status');
    const repo = repository(home);
    assert.equal((await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo })).code, 0);
    const before = await sessionStart(home, repo, 's1');
    removeFileAndScript(repo);
    // Nothing verified since: the stored verdict is the one of the tree before the commit.
    assert.equal(storedVerdict(home, 'legacy-config'), 'fresh');
    const text = await runCli(['memory', 'status', '--home', home], { cwd: repo });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /stale entries: 1 project, 0 user/);
    assert.equal(storedVerdict(home, 'legacy-config'), 'stale');
    assert.deepEqual(idsIn(await sessionStart(home, repo, 's2')), ['kept-rule']);
    await checkStaleReads(home, repo);

    // The verdicts cannot be read: the snapshot is exactly the one given without verification.
    const db = new Database(storeFiles(home).memoryState);
    db.prepare("UPDATE entry_anchors SET failed_json = '{not json'").run();
    db.close();
    const damaged = await sessionStart(home, repo, 's3');
    assert.equal(damaged, before);
    const got = JSON.parse(
      (await runCliInProcess(['get', 'legacy-config', '--home', home, '--json'], { cwd: repo })).stdout,
    );
    assert.equal(got.verification, 'unavailable');
    assert.equal(got.stale, false);
  });

  it('a promoted entry is verified as promote syncs it: no sync or status in between', async () => {
    const home = tempHome('stale-promote');
    const repo = repository(home);
    const client = await McpTestClient.start(home, repo);
    let candidateId: string;
    try {
      const proposed = await client.call('memory_propose', {
        title: 'Legacy lint',
        content: 'After editing `src/legacy/config.ts`, run `pnpm run lint:legacy`.',
        type: 'work_method',
        appliesWhen: 'editing configuration',
      });
      assert.equal(proposed.structuredContent.status, 'draft', JSON.stringify(proposed));
      candidateId = proposed.structuredContent.candidateId as string;
    } finally {
      assert.equal(await client.close(), 0);
    }
    const cli = (...args: string[]) => runCli([...args, '--home', home, '--json'], { cwd: repo });
    const prepared = await cli('memory', 'prepare', candidateId);
    assert.equal(prepared.code, 0, prepared.stderr);
    const plan = JSON.parse(prepared.stdout) as {
      planId: string;
      planDigest: string;
      files: Array<{ entryId: string }>;
    };
    assert.equal((await cli('memory', 'approve', plan.planId, '--digest', plan.planDigest)).code, 0);
    const entryId = plan.files[0]!.entryId;
    assert.equal(storedVerdict(home, entryId), undefined, 'not verified before it is promoted');
    const promoted = await cli('memory', 'promote', plan.planId);
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.equal(storedVerdict(home, entryId), 'fresh');
    const anchors = readState<string>(home, 'SELECT anchors_json FROM entry_anchors WHERE entry_id = ?', entryId);
    assert.match(anchors!, /src\/legacy\/config\.ts/);
    assert.match(anchors!, /lint:legacy/);
  });
  it('a scene that groups a stale entry says so at that entry in get and memory_get, never giving it unmarked', async () => {
    const home = tempHome('stale-scene');
    const repo = repository(home);
    mkdirSync(join(projectRoot(repo), 'scenes'), { recursive: true });
    writeFileSync(
      join(projectRoot(repo), 'scenes', 'configuration.md'),
      formatConsolidationFile({
        kind: 'scene',
        name: 'configuration',
        title: 'Configuration',
        appliesWhen: 'editing configuration',
        entries: ['legacy-config', 'kept-rule'],
        extra: [],
        body: 'How configuration is loaded and reviewed.\n',
      }),
    );
    git(repo, 'add', '--all');
    git(repo, 'commit', '-q', '-m', 'scene');
    assert.equal((await runCli(['memory', 'sync', '--home', home], { cwd: repo })).code, 0);
    removeFileAndScript(repo);
    assert.equal((await runCli(['memory', 'status', '--home', home], { cwd: repo })).code, 0);
    assert.equal(storedVerdict(home, 'legacy-config'), 'stale');

    const got = await runCliInProcess(['get', 'scene:configuration', '--home', home, '--json'], { cwd: repo });
    assert.equal(got.code, 0, got.stderr);
    const scene = JSON.parse(got.stdout).scene as {
      entries: Array<{ entryId: string; stale?: boolean; staleNote?: string }>;
    };
    const byId = new Map(scene.entries.map((e) => [e.entryId, e]));
    assert.equal(byId.get('legacy-config')?.stale, true);
    assert.match(byId.get('legacy-config')!.staleNote!, /^may be stale: `src\/legacy\/config\.ts` no longer exists/);
    assert.equal(byId.get('kept-rule')?.stale, undefined, 'a fresh member carries no mark');

    const text = await runCliInProcess(['get', 'scene:configuration', '--home', home], { cwd: repo });
    assert.match(
      text.stdout,
      /^## Where configuration is loaded \[legacy-config\]\n(?:applies when: .*\n)?STALE — not given as true: may be stale: `src\/legacy\/config\.ts` no longer exists/m,
    );
    const client = await McpTestClient.start(home, repo);
    try {
      const viaMcp = await client.call('memory_get', { id: 'scene:configuration' });
      assert.match(viaMcp.structuredContent.body as string, /STALE — not given as true: may be stale/);
    } finally {
      assert.equal(await client.close(), 0);
    }
  });
});
