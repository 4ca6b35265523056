// Live: `memory refresh` for a running pi session (the real pi 0.73.1 with the extension installed
// by `common-memory install pi`, in RPC mode, against the fake model server). pi's memory block is
// part of its system prompt at every turn, so a refresh replaces that block from pi's next prompt
// on — picked up once, then frozen again. Run from pi's own bash tool it finds its session with no
// key; by key it works from any terminal.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type FakeReply, textReply } from '../support/fake-openai-server.js';
import { withInstalledPi } from '../support/installed-pi.js';
import { BIN, runCli } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { RpcPi, rows, systemPrompt } from '../support/pi-scenario.js';

const TIMEOUT_MS = 90_000;

const lastToolText = (body: unknown): string => {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const tool = messages.filter((m) => m.role === 'tool').at(-1);
  assert.ok(tool, 'a tool result in the request');
  return typeof tool.content === 'string'
    ? tool.content
    : (tool.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
};

test('live pi (RPC): memory refresh replaces the session’s memory block from pi’s next prompt on, once', {
  timeout: TIMEOUT_MS,
}, async () => {
  const refreshCall: FakeReply = {
    kind: 'tool-call',
    callId: 'call-refresh',
    name: 'bash',
    arguments: JSON.stringify({
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} memory refresh --json`,
    }),
  };
  const replies = [
    textReply('one', 1),
    refreshCall,
    textReply('refreshed', 1),
    textReply('three', 1),
    textReply('four', 1),
    textReply('five', 1),
  ];
  await withInstalledPi(replies, TIMEOUT_MS, async ({ dir, home, env, server }) => {
    const repo = join(dir.cwd, 'repo');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const sync = async () => {
      const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo });
      assert.equal(synced.code, 0, synced.stderr);
    };
    writeEntry(projectRoot(repo), 'rule-one', 'Rule okapi-one', 'Body okapi-one.', { priority: 90 });
    await sync();
    const pi = new RpcPi(['--no-session', '--tools', 'bash'], { env, cwd: repo });
    let key = '';
    try {
      await pi.prompt('first');
      const posts = () => server.requests.filter((r) => r.method === 'POST');
      assert.match(systemPrompt(posts()[0]!.body), /okapi-one/);

      writeEntry(projectRoot(repo), 'rule-two', 'Rule okapi-two', 'Body okapi-two.', { priority: 80 });
      await sync();
      // From pi's own bash tool: no key needed.
      await pi.prompt('refresh your notes');
      const output = lastToolText(posts()[2]!.body);
      const answer = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as Record<
        string,
        unknown
      >;
      assert.equal(answer['client'], 'pi', JSON.stringify(answer));
      assert.equal(answer['entries'], 2);
      assert.match(String(answer['delivery']), /next pi prompt/);
      assert.doesNotMatch(systemPrompt(posts()[2]!.body), /okapi-two/, 'the running prompt keeps its block');

      await pi.prompt('third');
      const third = systemPrompt(posts()[3]!.body);
      assert.match(third, /okapi-one/);
      assert.match(third, /okapi-two/);
      await pi.prompt('fourth');
      assert.equal(systemPrompt(posts()[4]!.body), third, 'picked up once, then frozen again');
      const [{ pending }] = rows(
        home,
        "SELECT snapshot_pending AS pending FROM capture_activations WHERE client = 'pi'",
      ) as [{ pending: number }];
      assert.equal(pending, 0);

      // By key, from another terminal.
      writeEntry(projectRoot(repo), 'rule-three', 'Rule okapi-three', 'Body okapi-three.', { priority: 70 });
      await sync();
      key = rows(home, "SELECT session_key AS key FROM capture_activations WHERE client = 'pi'")[0]!['key'] as string;
      const byKey = await runCli(['memory', 'refresh', '--session', key, '--home', home]);
      assert.equal(byKey.code, 0, byKey.stderr);
      assert.match(byKey.stdout, /pi's system prompt from its next prompt on/);
      await pi.prompt('fifth');
      assert.match(systemPrompt(posts()[5]!.body), /okapi-three/);
      const exit = await pi.close();
      assert.equal(exit.code, 0, exit.stderr);
    } finally {
      pi.kill();
    }

    const ended = await runCli(['memory', 'refresh', '--session', key, '--home', home]);
    assert.notEqual(ended.code, 0);
    assert.match(ended.stderr, /has ended/);
  });
});
