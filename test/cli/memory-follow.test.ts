// The projection follows the files with no command (issue 29, item 0): a teammate's clone commits
// an added, an edited and a removed entry; this clone pulls; the next real SessionStart hook gives
// exactly the files' entries, `get` of the removed entry is not found (exit 6), and search and the
// MCP read answer from the current files — no `memory sync`, no host.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import * as c from '../support/capture.js';
import { git, runCli, tempHome } from '../support/cli.js';
import { McpTestClient } from '../support/mcp-client.js';

after(() => c.closeStores());

/** A bare origin and two clones of it: ours and a teammate's. */
function clones(home: string): { ours: string; theirs: string } {
  const base = dirname(home);
  const origin = join(base, 'origin.git');
  mkdirSync(origin, { recursive: true });
  git(origin, 'init', '-q', '--bare', '-b', 'main');
  const ours = join(base, 'ours');
  const theirs = join(base, 'theirs');
  git(base, 'clone', '-q', origin, ours);
  git(ours, 'checkout', '-q', '-b', 'main');
  writeFileSync(join(ours, 'README.md'), 'project\n');
  git(ours, 'add', 'README.md');
  git(ours, 'commit', '-q', '-m', 'start');
  git(ours, 'push', '-q', 'origin', 'main');
  git(base, 'clone', '-q', '-b', 'main', origin, theirs);
  return { ours, theirs };
}

const START = c.hookFiles('codex', 'b')[0]!;

async function sessionStart(home: string, cwd: string, session: string): Promise<string> {
  const run = await c.hookBin(home, 'codex', c.payloadFor(START, null, { cwd, session_id: session }), session);
  assert.equal(run.code, 0, run.stderr);
  if (run.stdout === '') return '';
  return (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

const idsIn = (snapshot: string) => [...snapshot.matchAll(/^- \[([^\]]+)\] \(/gm)].map((m) => m[1]!).sort();

function commitAll(repo: string, message: string): void {
  git(repo, 'add', '--all', '.common-memory');
  git(repo, 'commit', '-q', '-m', message);
}

describe('the projection follows the files', () => {
  it('after a pull that adds, edits and removes entries, SessionStart, get, search and MCP answer from the files', async () => {
    const home = tempHome('follow');
    const { ours, theirs } = clones(home);
    writeEntry(projectRoot(ours), 'kept-rule', 'Kept rule', 'Run the kept check before a commit.', { priority: 60 });
    writeEntry(projectRoot(ours), 'edited-rule', 'Old title of the edited rule', 'Old body: use yarn.', {
      priority: 70,
    });
    writeEntry(projectRoot(ours), 'removed-rule', 'Removed rule', 'Old advice: run the legacy linter.', {
      priority: 80,
    });
    commitAll(ours, 'three entries');
    git(ours, 'push', '-q', 'origin', 'main');
    const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: ours });
    assert.equal(synced.code, 0, synced.stderr);
    assert.deepEqual(idsIn(await sessionStart(home, ours, 's1')), ['edited-rule', 'kept-rule', 'removed-rule']);

    // The teammate's commit, pulled here.
    git(theirs, 'pull', '-q', 'origin', 'main');
    writeEntry(projectRoot(theirs), 'added-rule', 'Added rule', 'New advice: run pnpm verify.', { priority: 65 });
    writeEntry(projectRoot(theirs), 'edited-rule', 'New title of the edited rule', 'New body: use pnpm.', {
      priority: 70,
    });
    rmSync(join(projectRoot(theirs), 'work_method', 'removed-rule.md'));
    commitAll(theirs, 'add, edit, remove');
    git(theirs, 'push', '-q', 'origin', 'main');
    git(ours, 'pull', '-q', '--ff-only', 'origin', 'main');

    const snapshot = await sessionStart(home, ours, 's2');
    assert.deepEqual(idsIn(snapshot), ['added-rule', 'edited-rule', 'kept-rule'], snapshot);
    assert.match(snapshot, /New title of the edited rule/);
    assert.doesNotMatch(snapshot, /Old title|Old body|legacy linter|coverage: partial/);

    const removed = await runCli(['get', 'removed-rule', '--home', home, '--json'], { cwd: ours });
    assert.equal(removed.code, 6, removed.stdout + removed.stderr);
    assert.doesNotMatch(removed.stdout + removed.stderr, /legacy linter/);
    const edited = await runCli(['get', 'edited-rule', '--home', home, '--json'], { cwd: ours });
    assert.equal(edited.code, 0, edited.stderr);
    assert.match(JSON.parse(edited.stdout).body, /New body: use pnpm\./);

    const search = await runCli(['memory', 'search', 'advice', '--home', home, '--json'], { cwd: ours });
    assert.equal(search.code, 0, search.stderr);
    const found = JSON.parse(search.stdout) as { coverage: string; results: Array<{ entryId: string }> };
    assert.equal(found.coverage, 'complete');
    assert.deepEqual(
      found.results.map((r) => r.entryId),
      ['added-rule'],
    );

    // A hand edit and a hand removal, then the MCP reads: no command in between.
    writeEntry(projectRoot(ours), 'kept-rule', 'Kept rule', 'Run the kept check twice before a commit.', {
      priority: 60,
    });
    rmSync(join(projectRoot(ours), 'work_method', 'added-rule.md'));
    const client = await McpTestClient.start(home, ours);
    try {
      const gone = await client.call('memory_get', { id: 'added-rule' });
      assert.equal(gone.isError, true, JSON.stringify(gone));
      const kept = await client.call('memory_get', { id: 'kept-rule' });
      assert.match(kept.structuredContent.body, /twice/);
      const hits = await client.call('memory_search', { query: 'advice' });
      assert.deepEqual(hits.structuredContent.results, []);
    } finally {
      assert.equal(await client.close(), 0);
    }

    // A write into the existing file (no directory changes): the next SessionStart sees it.
    appendFileSync(join(projectRoot(ours), 'work_method', 'kept-rule.md'), 'Appended by hand.\n');
    const appended = await sessionStart(home, ours, 's3');
    assert.deepEqual(idsIn(appended), ['edited-rule', 'kept-rule'], appended);
    assert.match(appended, /Appended by hand\./);
  });

  it('a fresh clone with entries and no memory-state yet gives them at its first SessionStart', async () => {
    const home = tempHome('follow-fresh');
    const { ours } = clones(home);
    writeEntry(projectRoot(ours), 'first-rule', 'First rule', 'Body of the first rule.');
    assert.deepEqual(idsIn(await sessionStart(home, ours, 's1')), ['first-rule']);
  });

  it('a locked memory-state leaves the hook answering: exit 0, the previous answer or nothing, and a reason', async () => {
    const home = tempHome('follow-locked');
    const { ours } = clones(home);
    writeEntry(projectRoot(ours), 'kept-rule', 'Kept rule', 'Body.');
    const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: ours });
    assert.equal(synced.code, 0, synced.stderr);
    writeEntry(projectRoot(ours), 'new-rule', 'New rule', 'Body of the new rule.');
    // A writer holds memory-state's write lock (reads still work in WAL mode): the projection
    // cannot be brought up to date, so the previous one is given, said to be partial, with why.
    const holder = new Database(storeFiles(home).memoryState);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const snapshot = await sessionStart(home, ours, 's1');
      assert.deepEqual(idsIn(snapshot), ['kept-rule']);
      assert.match(snapshot, /coverage: partial/);
      assert.match(snapshot, /memory-state is busy/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    assert.deepEqual(idsIn(await sessionStart(home, ours, 's2')), ['kept-rule', 'new-rule']);
  });
});
