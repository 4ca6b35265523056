// The pi extension's direct channel never fails pi and never waits past its bound: a data home
// whose write lock is held gives up after PI_EVENT_LOCK_WAIT_MS, records the failure for `status`,
// and quarantines the event with a replay command that brings it back to its own activation.
import assert from 'node:assert/strict';
import { execFileSync, execSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { PI_EVENT_LOCK_WAIT_MS } from '../source/hook/pi-capture.js';
import { BIN, runCli, tempHome } from './support/cli.js';

const HOOK = join(BIN, '..', '..', 'dist', 'hook.cjs');
const event = (name: string, record: Record<string, unknown>) =>
  JSON.stringify({ hook_event_name: name, session_id: 'sess-1', cwd: '/w', record: { type: name, ...record } });

/** capturePiEvent in a process of its own, as in pi's: its result and how long it took. */
function captureInChild(home: string, payload: string): { ok: boolean; ms: number } {
  const script = `const h = require(${JSON.stringify(HOOK)}); const t = Date.now(); const ok = h.capturePiEvent('pi:test-instance', process.argv[1], ${JSON.stringify(BIN)}); console.log(JSON.stringify({ ok, ms: Date.now() - t }));`;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script, payload], {
      env: { ...process.env, COMMON_MEMORY_HOME: home },
      encoding: 'utf8',
    }),
  ) as { ok: boolean; ms: number };
}

test('a held write lock: the event gives up within its bound, status shows it, the replay keeps it', {
  timeout: 30_000,
}, async () => {
  const home = tempHome('pi-fail');
  try {
    assert.deepEqual(captureInChild(home, event('session_start', { reason: 'startup' })).ok, true);
    const blocker = new Database(join(home, 'core.sqlite'));
    blocker.exec('BEGIN IMMEDIATE');
    let held: { ok: boolean; ms: number };
    try {
      held = captureInChild(home, event('input', { text: 'kept anyway', source: 'interactive' }));
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    assert.equal(held.ok, false);
    assert.ok(
      held.ms >= PI_EVENT_LOCK_WAIT_MS - 100 && held.ms < PI_EVENT_LOCK_WAIT_MS + 2000,
      `gave up after ${held.ms} ms`,
    );
    const status = await runCli(['--json', '--home', home, 'status']);
    assert.equal(JSON.parse(status.stdout).host.hookErrors, 1);
    const [line] = readFileSync(join(home, 'hook-errors.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { client: string; instance: string; replay: string });
    assert.equal(line!.client, 'pi');
    assert.equal(line!.instance, 'pi:test-instance');
    execSync(line!.replay, { env: { ...process.env, COMMON_MEMORY_HOME: '' } });
    const db = new Database(join(home, 'core.sqlite'), { readonly: true });
    try {
      assert.deepEqual(
        db.prepare("SELECT event, activation_id AS a FROM inbox WHERE client = 'pi' ORDER BY id").all(),
        [
          { event: 'session_start', a: 1 },
          { event: 'input', a: 1 },
        ],
      );
      assert.deepEqual(db.prepare('SELECT body FROM prompt_candidates').pluck().all(), ['kept anyway']);
    } finally {
      db.close();
    }
  } finally {
    rmSync(join(home, '..'), { recursive: true, force: true });
  }
});
