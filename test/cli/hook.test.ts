// The hook dispatch path: the shim sends `hook` to the fast path, which commits one inbox envelope
// and never fails the user's agent.
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import { hookDeadlineMs, waitBudgetMs } from '../../source/hook/busy-wait.js';
import {
  CLAUDE_SESSION_END_TIMEOUT_SEC,
  HOOK_LOCK_WAIT_MIN_MS,
  HOOK_REPLY_MARGIN_MS,
  HOOK_TIMEOUT_SEC,
} from '../../source/limits.js';
import { runCli, tempHome } from '../support/cli.js';

const payload = JSON.stringify({
  session_id: 's1',
  transcript_path: null,
  cwd: '/tmp',
  hook_event_name: 'SessionStart',
  source: 'startup',
});

describe('hook dispatch', () => {
  it('commits one inbox envelope with the exact payload and exits 0, with no context while nothing is approved', async () => {
    const home = tempHome('hook');
    const result = await runCli(['hook', 'codex', '--home', home], { input: payload });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '', 'no memory yet: no context (hook-snapshot.test.ts gives some)');
    const db = openDatabase(storeFiles(home).core, { readonly: true });
    const rows = db.prepare('SELECT client, event, payload FROM inbox').all();
    db.close();
    assert.deepEqual(rows, [{ client: 'codex', event: 'SessionStart', payload }]);
  });

  it("runs as one bundled CommonJS file, through a loader of node:* only (and the code-cache reader, itself node:* only), that holds better-sqlite3's JavaScript and requires only Node's own modules (no ES module loader)", () => {
    const shim = readFileSync(new URL('../../bin/common-memory.cjs', import.meta.url), 'utf8');
    assert.match(
      shim,
      /require\('\.\/hook-loader\.cjs'\)\.loadHook\(\)/,
      'the shim loads the bundle through its loader',
    );
    const loader = readFileSync(new URL('../../bin/hook-loader.cjs', import.meta.url), 'utf8');
    assert.match(loader, /join\(__dirname, '\.\.', 'dist', 'hook\.cjs'\)/, 'the loader loads the bundle');
    // The loader and the code-cache reader it shares with the plain CLI (bin/code-cache.cjs).
    const cacheReader = readFileSync(new URL('../../bin/code-cache.cjs', import.meta.url), 'utf8');
    for (const [file, text] of [
      ['hook-loader.cjs', loader],
      ['code-cache.cjs', cacheReader],
    ] as const)
      for (const [, name] of text.matchAll(/\brequire\('([^']+)'\)/g))
        assert.ok(
          name!.startsWith('node:') || (file === 'hook-loader.cjs' && name === './code-cache.cjs'),
          `${file} requires ${name}`,
        );
    const bundle = readFileSync(new URL('../../dist/hook.cjs', import.meta.url), 'utf8');
    const required = new Set([...bundle.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!));
    assert.ok(bundle.includes('better_sqlite3.node'), "better-sqlite3's JavaScript is in the bundle");
    // better-sqlite3's own files name Node's modules without the node: prefix; `bindings` is its
    // search for the addon, run only when no addon path is given (the store always gives one).
    for (const name of required)
      assert.ok(
        name.startsWith('node:') || builtinModules.includes(name) || name === 'bindings',
        `the bundle requires ${name}`,
      );
    assert.doesNotMatch(bundle, /\bimport\(/, 'no dynamic import: that would start the ES module loader');
  });

  it('bad input is recorded for status and the agent is never blocked (exit 0)', async () => {
    const home = tempHome('hook-bad');
    const result = await runCli(['hook', 'codex', '--home', home], { input: '{not json' });
    assert.equal(result.code, 0);
    const failures = readFileSync(storeFiles(home).hookErrors, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(failures.length, 1);
    assert.equal(failures[0].code, 'invalid_input');
  });

  it('an event the hook could not record is quarantined byte for byte, with the way to replay it', async () => {
    const home = tempHome('hook-quarantine');
    const bad = Buffer.from('{"hook_event_name": "Stop", "session_id": 7, "note": "caf\u00e9"}');
    const result = await runCli(['hook', 'claude', '--home', home], { input: bad });
    assert.equal(result.code, 0, 'the agent is never blocked');
    const [failure] = readFileSync(storeFiles(home).hookErrors, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(failure.code, 'invalid_input');
    assert.ok(failure.quarantined, 'the failure names its quarantine file');
    assert.deepEqual(readFileSync(join(home, failure.quarantined)), bad);
    assert.equal(statSync(join(home, failure.quarantined)).mode & 0o777, 0o600);
    assert.match(failure.replay, /common-memory\.cjs hook claude --home .* < /);
  });

  it('the replay line of a quarantined event works as it is once the cause is fixed', async () => {
    const home = tempHome('hook-replay');
    mkdirSync(storeFiles(home).core, { recursive: true }); // a directory where the store should be: it cannot open
    const event = JSON.stringify({
      session_id: 's-replay',
      transcript_path: null,
      cwd: '/tmp',
      hook_event_name: 'Stop',
    });
    assert.equal((await runCli(['hook', 'claude', '--home', home], { input: event })).code, 0);
    const [failure] = readFileSync(storeFiles(home).hookErrors, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    rmSync(storeFiles(home).core, { recursive: true });
    execFileSync('/bin/sh', ['-c', failure.replay], { env: { ...process.env, PATH: '/usr/bin:/bin' } });
    const db = openDatabase(storeFiles(home).core, { readonly: true });
    const rows = db.prepare('SELECT event, payload FROM inbox').all();
    db.close();
    assert.deepEqual(rows, [{ event: 'Stop', payload: event }], 'the quarantined bytes, replayed once');
  });

  it('a replayed SessionEnd closes its own activation, not a new one: flush then exits 0', async () => {
    const home = tempHome('hook-replay-end');
    const transcript = join(home, '..', 's-end.jsonl');
    writeFileSync(transcript, '');
    const event = (name: string) =>
      JSON.stringify({ session_id: 's-end', transcript_path: transcript, cwd: '/tmp', hook_event_name: name });
    // The client process the events came from; the replay later runs from another one.
    const client = { COMMON_MEMORY_HOOK_INSTANCE: 'client-a' };
    assert.equal(
      (await runCli(['hook', 'claude', '--home', home], { input: event('SessionStart'), env: client })).code,
      0,
    );
    const failed = await runCli(['hook', 'claude', '--home', home], {
      input: event('SessionEnd'),
      env: { ...client, COMMON_MEMORY_FAULTS: 'hookCapture.beforeCommit=throw' },
    });
    assert.equal(failed.code, 0);
    assert.equal((await runCli(['flush', '--home', home])).code, 3, 'the activation is still open');
    const [failure] = readFileSync(storeFiles(home).hookErrors, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    execFileSync('/bin/sh', ['-c', failure.replay], { env: { PATH: '/usr/bin:/bin' } });
    const db = openDatabase(storeFiles(home).core, { readonly: true });
    const activations = db.prepare('SELECT process_instance, state FROM capture_activations').all();
    db.close();
    assert.deepEqual(activations, [{ process_instance: 'given:client-a', state: 'ended' }]);
    const flush = await runCli(['flush', '--home', home]);
    assert.equal(flush.code, 0, flush.stdout + flush.stderr);
  });

  it('leaves a notice that it waits for the write lock while it waits (a drain steps aside for it), and takes it away once kept', async () => {
    const home = tempHome('hook-waits');
    assert.equal((await runCli(['hook', 'codex', '--home', home], { input: payload })).code, 0);
    assert.deepEqual(readdirSync(storeFiles(home).lockWaiters), [], 'a kept event leaves no notice');
    const blocker = openDatabase(storeFiles(home).core);
    blocker.exec('BEGIN IMMEDIATE');
    let seen: string[] = [];
    const watch = setInterval(() => {
      if (!blocker.inTransaction || !existsSync(storeFiles(home).lockWaiters)) return;
      seen = readdirSync(storeFiles(home).lockWaiters);
      if (seen.length > 0) blocker.exec('ROLLBACK');
    }, 10);
    let result: Awaited<ReturnType<typeof runCli>>;
    try {
      result = await runCli(['hook', 'codex', '--home', home], {
        input: JSON.stringify({ ...JSON.parse(payload), session_id: 's-waits' }),
      });
    } finally {
      clearInterval(watch);
      if (blocker.inTransaction) blocker.exec('ROLLBACK');
      blocker.close();
    }
    assert.equal(result.code, 0, result.stderr);
    assert.equal(seen.length, 1, 'one notice while the lock was held');
    assert.match(seen[0]!, /^[1-9][0-9]*$/, 'named by the waiting process id');
    assert.deepEqual(readdirSync(storeFiles(home).lockWaiters), [], 'withdrawn once the event was kept');
    const db = openDatabase(storeFiles(home).core, { readonly: true });
    const sessions = db.prepare('SELECT host_session_id FROM capture_activations ORDER BY 1').pluck().all();
    db.close();
    assert.deepEqual(sessions, ['s-waits', 's1'], 'the waiting event was kept');
  });

  it("a lock held past the host's deadline: the event is quarantined at the deadline, then kept once by the same hook", async () => {
    const home = tempHome('hook-late');
    const event = JSON.stringify({
      session_id: 's-late',
      transcript_path: null,
      cwd: '/tmp',
      hook_event_name: 'SessionEnd',
    });
    assert.equal((await runCli(['hook', 'codex', '--home', home], { input: payload })).code, 0);
    // Another process holds the write lock past Codex's 3 s SessionEnd clamp: until the hook has
    // quarantined the event (its error line is the event waited for), then lets it go.
    const blocker = openDatabase(storeFiles(home).core);
    blocker.exec('BEGIN IMMEDIATE');
    const deadlineMs = hookDeadlineMs('codex', 'SessionEnd');
    const started = performance.now();
    let heldMs = Number.POSITIVE_INFINITY;
    const watch = setInterval(() => {
      if (!blocker.inTransaction || !existsSync(storeFiles(home).hookErrors)) return;
      heldMs = performance.now() - started;
      blocker.exec('ROLLBACK');
    }, 20);
    let result: Awaited<ReturnType<typeof runCli>>;
    try {
      result = await runCli(['hook', 'codex', '--home', home], { input: event });
    } finally {
      clearInterval(watch);
      if (blocker.inTransaction) blocker.exec('ROLLBACK');
      blocker.close();
    }
    assert.equal(result.code, 0);
    // The hook gives up at its deadline less the margin it keeps to reply in time.
    assert.ok(
      heldMs >= deadlineMs - HOOK_REPLY_MARGIN_MS - 100,
      `the lock was held until the hook's deadline (${heldMs} ms)`,
    );
    assert.ok(performance.now() - started >= heldMs, 'the hook waited for the lock');
    const lines = readFileSync(storeFiles(home).hookErrors, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines.length, 2, 'one failure at the deadline, then its resolution');
    assert.equal(lines[0].code, 'SQLITE_BUSY');
    assert.ok(lines[0].elapsedMs < heldMs, 'quarantined before the lock was free: at the deadline');
    assert.deepEqual([lines[1].resolved, lines[1].how], [lines[0].quarantined, 'kept late']);
    assert.equal(
      existsSync(join(home, lines[0].quarantined)),
      false,
      'the quarantine file goes once its event is kept',
    );
    const count = () => {
      const db = openDatabase(storeFiles(home).core, { readonly: true });
      const rows = db.prepare("SELECT count(*) FROM inbox WHERE event = 'SessionEnd'").pluck().get();
      db.close();
      return rows;
    };
    assert.equal(count(), 1);
    const status = JSON.parse((await runCli(['status', '--json', '--home', home])).stdout);
    assert.deepEqual([status.host.hookErrors, status.host.lastHookError], [0, null], 'nothing left to report');
    // The replay line, run anyway (its file is gone; the same bytes on stdin), keeps nothing twice.
    const replay = await runCli(
      ['hook', 'codex', '--home', home, '--instance', lines[0].instance, '--quarantined', lines[0].quarantined],
      {
        input: event,
      },
    );
    assert.equal(replay.code, 0);
    assert.match(replay.stderr, /already kept/);
    assert.equal(count(), 1, 'kept once');
  });

  it("waits for the write lock as long as its host's deadline for the event allows, never less than the floor", () => {
    assert.equal(hookDeadlineMs('claude', 'SessionEnd'), CLAUDE_SESSION_END_TIMEOUT_SEC * 1000);
    assert.equal(hookDeadlineMs('codex', 'SessionEnd'), 3000);
    assert.equal(hookDeadlineMs('codex', 'Interrupt'), 3000);
    assert.equal(hookDeadlineMs('claude', 'Stop'), HOOK_TIMEOUT_SEC * 1000);
    assert.equal(waitBudgetMs(3000, 200), 3000 - 200 - HOOK_REPLY_MARGIN_MS);
    assert.equal(waitBudgetMs(3000, 2900), HOOK_LOCK_WAIT_MIN_MS, 'start-up ate the deadline: still the floor');
  });

  it('an unknown client is a usage error', async () => {
    const result = await runCli(['hook', 'emacs'], { input: payload });
    assert.equal(result.code, 2);
  });
});
