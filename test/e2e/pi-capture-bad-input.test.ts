// Live: the real pi 0.73.1 with common-memory's extension, when common-memory's side goes wrong —
// the data home deleted or read-only under a running pi, a tool output over the capture bound, a
// content block pi's types do not define. pi keeps working in every case, nothing accepted is
// lost, and `status` names the problem.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type FakeReply, textReply } from '../support/fake-openai-server.js';
import { withInstalledPi } from '../support/installed-pi.js';
import { drainAndRead, rows, RpcPi, runPrint, TEST_EXTENSION } from '../support/pi-scenario.js';
import { runCli } from '../support/cli.js';

const TIMEOUT_MS = 90_000;
const LIFETIME_MS = TIMEOUT_MS + 10_000;
const settledOnly = (settled: number) => ({ settled, failed: 0, interrupted: 0, buffered: 0, incomplete: 0 });
const toolCall = (name: string, args: Record<string, unknown>): FakeReply => ({
  kind: 'tool-call',
  callId: `call-${name}`,
  name,
  arguments: JSON.stringify(args),
});

test('live pi (RPC): the data home deleted mid-session: pi answers, the next turn goes to a new home that says so', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = [textReply('first answer', 2), textReply('second answer', 2)];
  await withInstalledPi(replies, LIFETIME_MS, async ({ dir, home, env, server }) => {
    const pi = new RpcPi(['--no-session', '--no-tools'], { env, cwd: dir.cwd });
    try {
      await pi.prompt('before the deletion');
      rmSync(home, { recursive: true, force: true });
      await pi.prompt('after the deletion');
      const exit = await pi.close();
      assert.equal(exit.code, 0, exit.stderr);
    } finally {
      pi.kill();
    }
    assert.equal(server.requests.length, 2, 'pi answered both prompts');
    const { status: view, evidence, hookErrors } = await drainAndRead(home);
    assert.equal(view.sessions.length, 1);
    assert.equal(view.sessions[0]!.state, 'complete');
    assert.deepEqual(view.sessions[0]!.turns, settledOnly(1));
    assert.equal(view.recovery.total, 0);
    assert.deepEqual(evidence, ['after the deletion']);
    assert.equal(hookErrors.length, 1, JSON.stringify(hookErrors));
    assert.equal(hookErrors[0]!['code'], 'store_replaced');
    assert.match(String(hookErrors[0]!['message']), /deleted or replaced while pi was running/);
    assert.equal(view.host.lastHookError?.code, 'store_replaced');
  });
});

test('live pi: a read-only data home: pi answers, status says the home cannot be written, nothing kept is touched', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = [textReply('first answer', 2), textReply('second answer', 2), textReply('third answer', 2)];
  await withInstalledPi(replies, LIFETIME_MS, async ({ dir, home, env, server }) => {
    const args = ['--no-session', '--no-tools'];
    assert.equal((await runPrint(args, ['while writable'], { env, cwd: dir.cwd })).code, 0);
    const before = rows(home, 'SELECT id, event FROM inbox ORDER BY id');
    // Root ignores permission bits; the immutable attribute stops it too (as a read-only mount would).
    const files = [home, ...readdirSync(home).map((f) => join(home, f))];
    execFileSync('chattr', ['+i', ...files]);
    try {
      const started = Date.now();
      const pi = await runPrint(args, ['while read-only'], { env, cwd: dir.cwd });
      assert.equal(pi.code, 0, pi.stderr);
      assert.match(pi.stdout, /second answer/);
      assert.ok(Date.now() - started < 20_000, `pi took ${Date.now() - started} ms`);
      // One line on pi's stderr for the cause, not one per event.
      assert.equal(pi.stderr.match(/common-memory/g)?.length, 1, pi.stderr);
      assert.match(pi.stderr, /cannot record this pi session/);
      const seen = await runCli(['--home', home, 'status']);
      assert.equal(seen.code, 0, seen.stderr);
      assert.match(seen.stdout, /DATA HOME NOT WRITABLE: .* is not writable \(EPERM\)/);
      const json = JSON.parse((await runCli(['--json', '--home', home, 'status'])).stdout);
      assert.match(json.host.notWritable, /cannot record anything/);
    } finally {
      execFileSync('chattr', ['-i', ...files]);
    }
    assert.deepEqual(rows(home, 'SELECT id, event FROM inbox ORDER BY id'), before, 'nothing kept was changed');
    assert.equal((await runPrint(args, ['writable again'], { env, cwd: dir.cwd })).code, 0);
    assert.equal(server.requests.length, 3);
    const { status: view, evidence } = await drainAndRead(home);
    assert.equal(view.host.notWritable, null);
    assert.deepEqual(evidence, ['while writable', 'writable again']);
    assert.equal(view.sessions.length, 2);
    assert.equal(view.recovery.total, 0);
  });
});

test('live pi: a tool output over 8 MiB: pi answers, the turn settles with a marker for it, status says so', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = [toolCall('big_output', { bytes: 9 * 1024 * 1024 }), textReply('that was big', 2)];
  await withInstalledPi(
    replies,
    LIFETIME_MS,
    async ({ dir, home, env, server }) => {
      const pi = await runPrint(['--no-session', '--tools', 'big_output', '-e', TEST_EXTENSION], ['make it big'], {
        env,
        cwd: dir.cwd,
      });
      assert.equal(pi.code, 0, pi.stderr);
      assert.match(pi.stdout, /that was big/);
      assert.equal(server.requests.length, 2);
      const { status: view, evidence, hookErrors, messages } = await drainAndRead(home);
      assert.deepEqual(view.sessions[0]!.turns, settledOnly(1));
      assert.equal(view.sessions[0]!.state, 'complete');
      assert.equal(view.recovery.total, 0);
      assert.deepEqual(evidence, ['make it big']);
      assert.deepEqual(
        messages.map((m) => m.kind),
        ['prompt', 'tool_call', 'tool_result', 'answer'],
      );
      assert.match(
        messages[2]!.body,
        /^\[\d+ bytes of content over the capture bound, not kept; sha256 [0-9a-f]{64}\]$/,
      );
      assert.equal(hookErrors.length, 1);
      assert.equal(view.host.lastHookError?.code, 'limit_exceeded');
    },
    { maxBodyBytes: 16 * 1024 * 1024 },
  );
});

test('live pi: a content block pi does not define fails closed into one recovery item, every byte kept', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = [toolCall('odd_block', {}), textReply('odd indeed', 2), textReply('next answer', 2)];
  await withInstalledPi(replies, LIFETIME_MS, async ({ dir, home, env, server }) => {
    const pi = await runPrint(['--no-session', '--tools', 'odd_block', '-e', TEST_EXTENSION], ['be odd', 'next one'], {
      env,
      cwd: dir.cwd,
    });
    assert.equal(pi.code, 0, pi.stderr);
    assert.match(pi.stdout, /next answer/);
    assert.equal(server.requests.length, 3);
    const { status: view, hookErrors } = await drainAndRead(home);
    assert.deepEqual(hookErrors, []);
    assert.equal(view.sessions[0]!.state, 'isolated');
    assert.equal(view.recovery.total, 1);
    assert.equal(view.recovery.items[0]!.code, 'transcript_unknown_record');
    assert.match(view.recovery.items[0]!.detail, /unknown content block "hologram"/);
    // Nothing was dropped: every event is still in the inbox, the odd one with its bytes.
    const kept = rows(home, "SELECT count(*) AS n FROM inbox WHERE client = 'pi' AND state = 'pending'")[0]!['n'];
    assert.equal(kept, view.sessions[0]!.inbox);
    const tails = rows(home, 'SELECT bytes FROM inbox_tails ORDER BY inbox_id, seq')
      .map((r) => Buffer.from(r['bytes'] as Uint8Array).toString('utf8'))
      .join('');
    assert.match(tails, /"type":"hologram","payload":"odd-shape-payload"/);
    assert.equal(tails.match(/"type":"input"/g)?.length, 2);
  });
});
