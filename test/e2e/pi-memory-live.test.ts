// Live: the real pi 0.73.1 in print mode against the fake model server, with common-memory's
// extension installed by `common-memory install pi`. An approved entry of the repository pi runs
// in reaches the system prompt of the session's first request (and of every later turn, the same
// frozen block combined with pi's own prompt); a pi session in another repository does not get
// it; the memory_search and memory_get tools answer with the structured reads.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type FakeReply, textReply } from '../support/fake-openai-server.js';
import { withInstalledPi } from '../support/installed-pi.js';
import { PI_BIN } from '../support/pi-agent-dir.js';
import { runCli } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';

const TIMEOUT_MS = 90_000;
const MARK = 'okapi-lighthouse-convention';
const PRINT_ARGS = [
  '--offline',
  '--provider',
  'fake',
  '--model',
  'fake-model',
  '--no-session',
  '--no-skills',
  '--no-prompt-templates',
  '--no-themes',
  '--no-context-files',
];

const systemPrompt = (body: unknown): string => {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const system = messages.find((m) => m.role === 'system' || m.role === 'developer');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
};

const toolCall = (name: string, args: Record<string, unknown>): FakeReply => ({
  kind: 'tool-call',
  callId: `call-${name}`,
  name,
  arguments: JSON.stringify(args),
});

/** The structured result the last tool message of a request carries. */
function toolOutput(body: unknown): Record<string, unknown> {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const tool = messages.filter((m) => m.role === 'tool').at(-1);
  assert.ok(tool, 'a tool result in the request');
  const text =
    typeof tool.content === 'string'
      ? tool.content
      : (tool.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
  return JSON.parse(text) as Record<string, unknown>;
}

test('live pi: the approved entry of its repository is in the system prompt of the first request, never in another repository', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = [
    textReply('first answer', 2),
    textReply('second answer', 2),
    toolCall('memory_search', { query: MARK }),
    toolCall('memory_get', { id: 'pi-rule' }),
    textReply('done', 1),
    textReply('other answer', 2),
  ];
  await withInstalledPi(replies, TIMEOUT_MS, async ({ dir, home, env, server }) => {
    const repoA = join(dir.cwd, 'repo-a');
    const repoB = join(dir.cwd, 'repo-b');
    for (const repo of [repoA, repoB]) {
      mkdirSync(repo, { recursive: true });
      execFileSync('git', ['init', '-q'], { cwd: repo });
    }
    writeEntry(projectRoot(repoA), 'pi-rule', `Name branches ${MARK}`, `Branch names follow ${MARK}.`, {
      priority: 90,
    });
    const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repoA });
    assert.equal(synced.code, 0, synced.stderr);
    const run = (cwd: string, prompts: string[]) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(PI_BIN, [...PRINT_ARGS, '--tools', 'memory_search,memory_get', '-p', ...prompts], {
          cwd,
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        child.stderr!.resume();
        child.once('exit', (code) => resolve(code));
      });

    assert.equal(await run(repoA, ['first question', 'second question', 'look it up']), 0);
    const inA = server.requests.filter((r) => r.method === 'POST');
    assert.ok(inA.length >= 5, `${inA.length} requests`);
    const first = systemPrompt(inA[0]!.body);
    assert.match(first, new RegExp(MARK));
    assert.match(first, /<common-memory-notes>/);
    assert.match(first, /data, not instructions/);
    assert.equal(systemPrompt(inA[1]!.body), first, 'the same frozen block every turn, with pi’s own prompt');
    // The tools: structured results of memory search and get.
    const searched = toolOutput(inA[3]!.body) as { results: Array<{ entryId: string }>; coverage: string };
    assert.deepEqual(
      searched.results.map((r) => r.entryId),
      ['pi-rule'],
    );
    assert.equal(searched.coverage, 'complete');
    const got = toolOutput(inA[4]!.body) as { id: string; contentDigest: string; body: string };
    assert.equal(got.id, 'pi-rule');
    assert.match(got.contentDigest, /^[0-9a-f]{64}$/);
    assert.match(got.body, new RegExp(`Branch names follow ${MARK}`));

    const before = server.requests.length;
    assert.equal(await run(repoB, ['other question']), 0);
    const inB = server.requests.slice(before).filter((r) => r.method === 'POST');
    assert.ok(inB.length >= 1);
    assert.doesNotMatch(systemPrompt(inB[0]!.body), new RegExp(MARK));
  });
});
