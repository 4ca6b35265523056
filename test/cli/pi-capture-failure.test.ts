// The pi extension's direct channel never fails pi and never waits past its bound: a data home
// whose write lock is held gives up after PI_EVENT_LOCK_WAIT_MS, records the failure for `status`,
// and quarantines the event with a replay command that brings it back to its own activation.
import assert from 'node:assert/strict';
import { execFileSync, execSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { PI_EVENT_LOCK_WAIT_MS } from '../../source/hook/pi-capture.js';
import { sha256Hex } from '../../source/ground/digests.js';
import { HOOK_TAIL_MAX_BYTES } from '../../source/limits.js';
import { BIN, runCli, tempHome } from '../support/cli.js';

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

/** Each line of `payloads` through capturePiEvent in one process of its own, as pi's events: the results. */
function captureStream(home: string, payloads: string[]): boolean[] {
  const script = `const h = require(${JSON.stringify(HOOK)}); const lines = require('node:fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean); console.log(JSON.stringify(lines.map((l) => h.capturePiEvent('pi:test-instance', l, ${JSON.stringify(BIN)}))));`;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script], {
      env: { ...process.env, COMMON_MEMORY_HOME: home },
      input: payloads.join('\n'),
      encoding: 'utf8',
      maxBuffer: 1024 * 1024,
    }),
  ) as boolean[];
}

/** Each event through its own `common-memory hook pi` child: the extension's fallback channel. */
function captureByChild(home: string, payloads: string[]): boolean[] {
  return payloads.map(
    (payload) =>
      spawnSync(process.execPath, [BIN, 'hook', 'pi', '--instance', 'pi:test-instance'], {
        env: { ...process.env, COMMON_MEMORY_HOME: home },
        input: payload,
        stdio: ['pipe', 'ignore', 'pipe'],
      }).status === 0,
  );
}

for (const [channel, capture] of [
  ['direct', captureStream],
  ['child', captureByChild],
] as const)
  test(`${channel} channel: a tool output over the 8 MiB bound is kept without its content, the turn settles, status says so`, {
    timeout: 60_000,
  }, async () => {
    const home = tempHome('pi-huge');
    const huge = 'x'.repeat(HOOK_TAIL_MAX_BYTES + 1024);
    const message = (m: Record<string, unknown>) => event('message_end', { message: m });
    try {
      const results = capture(home, [
        event('session_start', { reason: 'startup' }),
        event('input', { text: 'make it big', source: 'interactive', images: 0 }),
        event('agent_start', {}),
        message({ role: 'user', content: [{ type: 'text', text: 'make it big' }], timestamp: 1 }),
        message({
          role: 'assistant',
          content: [{ type: 'toolCall', id: 't1', name: 'big_output', arguments: {} }],
          stopReason: 'toolUse',
        }),
        message({
          role: 'toolResult',
          toolCallId: 't1',
          toolName: 'big_output',
          content: [{ type: 'text', text: huge }],
        }),
        message({ role: 'assistant', content: [{ type: 'text', text: 'that was big' }], stopReason: 'stop' }),
        event('agent_end', {}),
        event('SessionEnd', { reason: 'quit' }),
      ]);
      assert.deepEqual(results, Array(9).fill(true), 'every event was kept');
      const errors = readFileSync(join(home, 'hook-errors.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { code: string; message: string });
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.code, 'limit_exceeded');
      assert.match(errors[0]!.message, /toolResult.*kept without its content/);
      const drained = await runCli(['--json', '--home', home, 'session-drain']);
      assert.equal(drained.code, 0, drained.stderr);
      const status = JSON.parse((await runCli(['--json', '--home', home, 'status'])).stdout);
      assert.equal(status.recovery.total, 0);
      assert.equal(status.host.hookErrors, 1);
      assert.equal(status.host.lastHookError.code, 'limit_exceeded');
      assert.deepEqual(status.sessions[0].turns, { settled: 1, failed: 0, interrupted: 0, buffered: 0, incomplete: 0 });
      const db = new Database(join(home, 'core.sqlite'), { readonly: true });
      try {
        const messages = db
          .prepare('SELECT kind, classification, body FROM capture_messages ORDER BY message_id')
          .all() as Array<{
          kind: string;
          classification: string;
          body: string;
        }>;
        assert.deepEqual(
          messages.map((m) => `${m.kind}:${m.classification}`),
          ['prompt:evidence', 'tool_call:context', 'tool_result:context', 'answer:context'],
        );
        const content = JSON.stringify([{ type: 'text', text: huge }]);
        assert.match(
          messages[2]!.body,
          new RegExp(`^\\[${content.length} bytes .*not kept; sha256 ${sha256Hex(content)}\\]$`),
        );
        assert.ok(messages[2]!.body.length < 1000);
      } finally {
        db.close();
      }
    } finally {
      rmSync(join(home, '..'), { recursive: true, force: true });
    }
  });
