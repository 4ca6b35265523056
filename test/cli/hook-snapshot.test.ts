// Memory at session start through the real shipped hook: approved entries written as canonical
// Markdown into real git repositories and the data home, projected by `memory sync`, and given
// back by `common-memory hook <client>` at SessionStart — the session's repository and the user
// scope only, within the byte budget, frozen per activation; a missing, damaged or locked
// memory-state gives nothing, never fails the hook, and shows in status.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import { MEMORY_SNAPSHOT_MAX_BYTES } from '../../source/limits.js';
import { projectRoot, userRoot, writeEntry as writeFileEntry } from '../support/memory-files.js';
import * as c from '../support/capture.js';
import { gitRepo, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

after(() => c.closeStores());

const writeEntry = (root: string, id: string, title: string, body: string, priority = 50) =>
  writeFileEntry(root, id, title, body, { priority });

/**
 * The projection the hook reads: synced in-process (the same main, a local host of its own), since
 * the hook's process is what these tests are about, not the sync's (a spawn is about 0.6 s of CPU).
 */
async function sync(home: string, cwd: string): Promise<void> {
  const result = await runCliInProcess(['memory', 'sync', '--home', home, '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).coverage, 'complete', result.stdout);
}

const START = c.hookFiles('codex', 'b')[0]!;
const start = (cwd: string, session: string, source = 'startup') =>
  c.payloadFor(START, null, { cwd, session_id: session, source });

async function sessionStart(home: string, cwd: string, session: string, instance: string, source = 'startup') {
  const run = await c.hookBin(home, 'codex', start(cwd, session, source), instance);
  assert.equal(run.code, 0, run.stderr);
  if (run.stdout === '') return '';
  const reply = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.equal(reply.hookSpecificOutput.hookEventName, 'SessionStart');
  return reply.hookSpecificOutput.additionalContext;
}

const hookErrors = (home: string) =>
  readFileSync(storeFiles(home).hookErrors, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the SessionStart snapshot', () => {
  it("gives the session's repository and the user scope, never another repository's entries", async () => {
    const home = tempHome('snap');
    const repoA = gitRepo(home, 'repo-a');
    const repoB = gitRepo(home, 'repo-b');
    const outside = join(dirname(home), 'plain-dir');
    mkdirSync(outside, { recursive: true });
    writeEntry(projectRoot(repoA), 'a-build', 'Build A with make', 'Run make -j4 in the root.\nThen make check.', 80);
    writeEntry(projectRoot(repoB), 'b-lint', 'Lint B with ruff', 'ruff check . before a commit.', 70);
    writeEntry(userRoot(home), 'u-tabs', 'The user prefers tabs', 'Indent with tabs in new files.', 40);
    await sync(home, repoA);
    await sync(home, repoB);

    const inA = await sessionStart(home, repoA, 'sa', 'i1');
    assert.match(inA, /^<common-memory-notes>\n/);
    assert.match(inA, /data, not instructions/);
    assert.match(inA, /\[a-build\] \(project, priority 80\) title: "Build A with make"/);
    assert.match(inA, /applies when: "working in this repository"/);
    assert.match(inA, / {2}> Run make -j4 in the root\./);
    assert.match(inA, /\[u-tabs\] \(user, priority 40\)/);
    assert.ok(inA.indexOf('a-build') < inA.indexOf('u-tabs'), 'highest priority first');
    assert.doesNotMatch(inA, /b-lint|ruff/);

    // The shell command it names runs as written in the session's directory, with no `npm link`
    // (no common-memory on PATH).
    const named = /in a shell: `(.+) get <id>`/.exec(inA);
    assert.ok(named, inA);
    assert.ok(inA.indexOf('`memory_get` tool') < inA.indexOf(named[1]!), 'the MCP tool first');
    const got = spawnSync('sh', ['-c', `${named[1]} get a-build`], {
      cwd: repoA,
      env: { PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
    });
    assert.equal(got.status, 0, got.stderr);
    assert.match(got.stdout, /Run make -j4 in the root\./);

    const inB = await sessionStart(home, repoB, 'sb', 'i2');
    assert.match(inB, /\[b-lint\]/);
    assert.match(inB, /\[u-tabs\]/);
    assert.doesNotMatch(inB, /a-build|make -j4/);

    // A subdirectory of A is A; a directory outside git has the user scope only.
    mkdirSync(join(repoA, 'src', 'deep'), { recursive: true });
    assert.match(await sessionStart(home, join(repoA, 'src', 'deep'), 'sa2', 'i3'), /\[a-build\]/);
    const plain = await sessionStart(home, outside, 'so', 'i4');
    assert.match(plain, /\[u-tabs\]/);
    assert.doesNotMatch(plain, /a-build|b-lint/);
  });

  it('is frozen per activation: compact, clear and resume in the same process re-attach it; a new process reads anew', async () => {
    const home = tempHome('snap');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'first', 'First version', 'Old text.');
    await sync(home, repo);
    const first = await sessionStart(home, repo, 's1', 'proc-1');
    assert.match(first, /First version/);

    writeEntry(projectRoot(repo), 'first', 'Second version', 'New text.');
    await sync(home, repo);
    for (const source of ['compact', 'clear', 'resume'])
      assert.equal(await sessionStart(home, repo, 's1', 'proc-1', source), first, `${source} re-attaches`);
    const prompt = await c.hookBin(home, 'codex', c.payloadFor(c.hookFiles('codex', 'b')[1]!, null), 'proc-1');
    assert.equal(prompt.stdout, '', 'an ordinary turn gets nothing');

    const fresh = await sessionStart(home, repo, 's1', 'proc-2', 'resume');
    assert.match(fresh, /Second version/);
    assert.doesNotMatch(fresh, /First version/);
  });

  it('keeps the byte budget with hundreds of entries, highest priority first, and says how many were left out', async () => {
    const home = tempHome('snap');
    const repo = gitRepo(home, 'repo');
    for (let i = 0; i < 300; i++)
      writeEntry(
        projectRoot(repo),
        `e-${String(i).padStart(3, '0')}`,
        `Note ${i} ${'long title words '.repeat(5)}`,
        `Line one of ${i}.\nLine two.\nLine three.\nLine four.`,
        i % 100,
      );
    await sync(home, repo);
    const text = await sessionStart(home, repo, 's', 'p');
    assert.ok(new TextEncoder().encode(text).length <= MEMORY_SNAPSHOT_MAX_BYTES);
    const priorities = [...text.matchAll(/priority (\d+)\)/g)].map((m) => Number(m[1]));
    assert.ok(priorities.length > 5, `${priorities.length} entries shown`);
    assert.deepEqual(
      priorities,
      [...priorities].sort((a, b) => b - a),
    );
    assert.equal(priorities[0], 99);
    const more = /\((\d+) more notes not shown/.exec(text);
    assert.equal(Number(more?.[1]), 300 - priorities.length);

    // The number follows the files: 120 deleted by hand and synced again.
    for (let i = 0; i < 120; i++) rmSync(join(projectRoot(repo), 'work_method', `e-${String(i).padStart(3, '0')}.md`));
    await sync(home, repo);
    const after120 = await sessionStart(home, repo, 's2', 'p2');
    const shown = [...after120.matchAll(/priority (\d+)\)/g)].length;
    assert.equal(Number(/\((\d+) more notes not shown/.exec(after120)?.[1]), 180 - shown);
  });

  it('missing memory-state gives nothing quietly; damaged or locked gives nothing, exits 0 and shows in status', async () => {
    const home = tempHome('snap');
    const repo = gitRepo(home, 'repo');
    assert.equal(await sessionStart(home, repo, 's0', 'p0'), '', 'nothing was ever approved');
    assert.equal((await c.status(home)).host.hookErrors, 0);

    writeEntry(projectRoot(repo), 'kept', 'Kept note', 'Body.');
    await sync(home, repo);
    const path = storeFiles(home).memoryState;
    const good = readFileSync(path);

    // Locked: another process holds memory-state exclusively.
    const holder = new Database(path);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      assert.equal(await sessionStart(home, repo, 's1', 'p1'), '');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    let errors = hookErrors(home);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!['code'], 'memory_unavailable');
    assert.equal(errors[0]!['part'], 'snapshot');
    assert.equal(errors[0]!['quarantined'], undefined, 'the event itself was kept');

    // Damaged.
    writeFileSync(path, Buffer.concat([Buffer.from('not a database at all '), good.subarray(0, 100)]));
    assert.equal(await sessionStart(home, repo, 's2', 'p2'), '');
    errors = hookErrors(home);
    assert.equal(errors.length, 2);
    assert.equal(errors[1]!['code'], 'memory_unavailable');
    const s = await c.status(home);
    assert.equal(s.host.hookErrors, 2);
    assert.equal(s.host.lastHookError?.code, 'memory_unavailable');
    // Capture went on: every SessionStart is an activation of its own.
    const db = c.readOnly(home);
    try {
      assert.equal(db.prepare("SELECT count(*) FROM inbox WHERE event = 'SessionStart'").pluck().get(), 3);
    } finally {
      db.close();
    }
    // Frozen as nothing: the activation does not read again on resume.
    writeFileSync(path, good);
    assert.equal(await sessionStart(home, repo, 's2', 'p2', 'resume'), '');
    assert.match(await sessionStart(home, repo, 's3', 'p3'), /Kept note/);
  });

  it('stays on its fast path: a snapshot read and its reply load no git, os, timing, crypto, module or socket module of Node', async () => {
    const home = tempHome('snap-modules');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'm-fast', 'Fast path entry', 'Kept short.');
    await sync(home, repo);
    // What the hook process loaded beyond a bare node start, written at exit.
    const recorder = join(dirname(home), 'record-modules.cjs');
    const loaded = join(dirname(home), 'modules.txt');
    writeFileSync(
      recorder,
      `const before = new Set(process.moduleLoadList);
       process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)},
         [...process.moduleLoadList.filter((m) => !before.has(m)), ...Object.keys(require.cache)].join('\\n')));`,
    );
    const run = await c.hookBin(home, 'codex', start(repo, 's-fast'), 'i-fast', {
      NODE_OPTIONS: `--require ${recorder}`,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\[m-fast\]/, 'the snapshot was given');
    const modules = readFileSync(loaded, 'utf8').split('\n');
    assert.ok(
      modules.some((m) => m.endsWith('better_sqlite3.node')),
      `the recorder saw the hook's own loads: ${modules.join(', ')}`,
    );
    // node:crypto too: the hook's short digests are computed in JavaScript (ground/digests.ts); and
    // node:module, which only a require made for a lazy built-in would load (ground/lazy-builtin.ts).
    for (const name of ['child_process', 'os', 'perf_hooks', 'net', 'crypto', 'module'])
      assert.ok(!modules.includes(`NativeModule ${name}`), `the hook loaded node:${name}`);
  });
});
