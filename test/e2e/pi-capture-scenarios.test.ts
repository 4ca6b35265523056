// Live: the real pi 0.73.1 with common-memory's extension installed by `common-memory install pi`,
// against the fake model server, through what an interactive session does — a tool loop, a
// provider 500 that pi retries, a compaction, a reload mid-session, two pi processes in one session —
// each captured with every user turn exactly once, the right states and no recovery items.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type FakeReply, SDK_REQUESTS_PER_ATTEMPT, textReply } from '../support/fake-openai-server.js';
import { withInstalledPi } from '../support/installed-pi.js';
import { drainAndRead, rows, RpcPi, runPrint, TEST_EXTENSION } from '../support/pi-scenario.js';

const TIMEOUT_MS = 90_000;
const LIFETIME_MS = TIMEOUT_MS + 10_000;
const toolCall = (name: string, args: Record<string, unknown>, callId = `call-${name}`): FakeReply => ({
  kind: 'tool-call',
  callId,
  name,
  arguments: JSON.stringify(args),
});
const http500: FakeReply = { kind: 'http-error', status: 500, message: 'fake upstream exploded' };
const settledOnly = (settled: number) => ({ settled, failed: 0, interrupted: 0, buffered: 0, incomplete: 0 });

test('live pi: a tool loop is one settled turn with its call, its result and the answer', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = [toolCall('bash', { command: 'echo tool-ran-here' }), textReply('the tool said so', 2)];
  await withInstalledPi(replies, LIFETIME_MS, async ({ dir, home, env, server }) => {
    const pi = await runPrint(['--no-session', '--tools', 'bash'], ['run the tool'], { env, cwd: dir.cwd });
    assert.equal(pi.code, 0, pi.stderr);
    assert.equal(server.requests.length, 2);
    const { status, evidence, messages, hookErrors } = await drainAndRead(home);
    assert.deepEqual(hookErrors, []);
    assert.equal(status.sessions.length, 1);
    assert.equal(status.sessions[0]!.state, 'complete');
    assert.deepEqual(status.sessions[0]!.turns, settledOnly(1));
    assert.equal(status.recovery.total, 0);
    assert.deepEqual(evidence, ['run the tool']);
    assert.deepEqual(
      messages.map((m) => m.kind),
      ['prompt', 'tool_call', 'tool_result', 'answer'],
    );
    assert.match(messages[2]!.body, /tool-ran-here/);
  });
});

test('live pi: a provider 500 that pi retries stays inside one settled turn', { timeout: TIMEOUT_MS }, async () => {
  const replies = [
    ...Array.from({ length: SDK_REQUESTS_PER_ATTEMPT }, () => http500),
    textReply('answer after the retry', 2),
  ];
  await withInstalledPi(
    replies,
    LIFETIME_MS,
    async ({ dir, home, env, server }) => {
      const pi = await runPrint(['--no-session', '--no-tools'], ['retry me'], { env, cwd: dir.cwd });
      assert.equal(pi.code, 0, pi.stderr);
      assert.equal(server.requests.length, SDK_REQUESTS_PER_ATTEMPT + 1, 'one failed attempt, then the retry');
      const { status, evidence, messages, hookErrors } = await drainAndRead(home);
      assert.deepEqual(hookErrors, []);
      assert.deepEqual(status.sessions[0]!.turns, settledOnly(1));
      assert.equal(status.recovery.total, 0);
      assert.deepEqual(evidence, ['retry me']);
      assert.deepEqual(
        messages.filter((m) => m.kind === 'answer').map((m) => m.body),
        ['answer after the retry'],
      );
    },
    { retry: { enabled: true, maxRetries: 2, baseDelayMs: 50 } },
  );
});

test('live pi (RPC): a compaction between two prompts is no turn of its own', { timeout: TIMEOUT_MS }, async () => {
  const replies = [textReply('first answer', 2), textReply('the summary of it all', 2), textReply('second answer', 2)];
  await withInstalledPi(replies, LIFETIME_MS, async ({ dir, home, env, server }) => {
    const pi = new RpcPi(['--no-session', '--no-tools'], { env, cwd: dir.cwd });
    try {
      await pi.prompt('before compaction');
      const at = pi.events.length;
      pi.send({ type: 'compact', id: 'compact-1' });
      const done = await pi.waitEvent('the compact response', (e) => e['id'] === 'compact-1', at);
      assert.equal(pi.events[done]!['success'], true, JSON.stringify(pi.events[done]));
      await pi.prompt('after compaction');
      const exit = await pi.close();
      assert.equal(exit.code, 0, exit.stderr);
    } finally {
      pi.kill();
    }
    assert.equal(server.requests.length, 3);
    const { status, evidence, hookErrors } = await drainAndRead(home);
    assert.deepEqual(hookErrors, []);
    assert.equal(status.sessions.length, 1);
    assert.equal(status.sessions[0]!.state, 'complete');
    assert.deepEqual(status.sessions[0]!.turns, settledOnly(2));
    assert.equal(status.recovery.total, 0);
    assert.deepEqual(evidence, ['before compaction', 'after compaction']);
    assert.equal(
      rows(home, "SELECT count(*) AS n FROM inbox WHERE client = 'pi' AND event = 'session_compact'")[0]!['n'],
      1,
    );
  });
});

test('live pi: a reload mid-session keeps the process instance: one session, every prompt once', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = [textReply('first answer', 2), textReply('second answer', 2)];
  await withInstalledPi(replies, LIFETIME_MS, async ({ dir, home, env }) => {
    const pi = await runPrint(
      ['--no-session', '--no-tools', '-e', TEST_EXTENSION],
      ['before reload', '/reload-now', 'after reload'],
      { env, cwd: dir.cwd },
    );
    assert.equal(pi.code, 0, pi.stderr);
    const { status, evidence, hookErrors } = await drainAndRead(home);
    assert.deepEqual(hookErrors, []);
    assert.equal(status.sessions.length, 1, 'the reload re-attached the same activation');
    assert.equal(status.sessions[0]!.state, 'complete');
    assert.deepEqual(status.sessions[0]!.turns, settledOnly(2));
    assert.equal(status.recovery.total, 0);
    assert.deepEqual(evidence, ['before reload', 'after reload']);
    const events = rows(home, "SELECT event FROM inbox WHERE client = 'pi' ORDER BY id").map((r) => r['event']);
    assert.ok(events.includes('session_shutdown'), events.join(' '));
    assert.equal(events.filter((e) => e === 'session_start').length, 2);
  });
});

test('live pi: two pi processes in one session id are two activations, each prompt once in its own', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = Array.from({ length: 5 }, (_, i) => textReply(`answer ${i}`, 2));
  await withInstalledPi(replies, LIFETIME_MS, async ({ dir, home, env }) => {
    const sessions = mkdtempSync(join(tmpdir(), 'cm-pi-sessions-'));
    try {
      const first = await runPrint(['--session-dir', sessions, '--no-tools'], ['first process'], {
        env,
        cwd: dir.cwd,
      });
      assert.equal(first.code, 0, first.stderr);
      const [sessionId] = rows(home, "SELECT DISTINCT host_session_id AS s FROM inbox WHERE client = 'pi'").map(
        (r) => r['s'] as string,
      );
      assert.ok(sessionId);
      const both = await Promise.all(
        ['second process', 'third process'].map((prompt) =>
          runPrint(['--session-dir', sessions, '--session', sessionId, '--no-tools'], [prompt], {
            env,
            cwd: dir.cwd,
          }),
        ),
      );
      for (const exit of both) assert.equal(exit.code, 0, exit.stderr);
      const { status, evidence, hookErrors } = await drainAndRead(home);
      assert.deepEqual(hookErrors, []);
      assert.equal(status.sessions.length, 3);
      for (const session of status.sessions) {
        assert.equal(session.state, 'complete');
        assert.deepEqual(session.turns, settledOnly(1));
      }
      assert.equal(status.recovery.total, 0);
      assert.deepEqual([...evidence].sort(), ['first process', 'second process', 'third process']);
      assert.deepEqual(
        rows(home, "SELECT DISTINCT host_session_id AS s FROM inbox WHERE client = 'pi'").map((r) => r['s']),
        [sessionId],
      );
    } finally {
      rmSync(sessions, { recursive: true, force: true });
    }
  });
});
