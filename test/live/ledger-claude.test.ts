// The read ledger and the MCP server with the real Claude Code 2.1.332 (a fake Messages server
// scripts the model): `install claude` registers our hooks and MCP server; the model loads
// memory_get through ToolSearch and reads an entry; PostToolUse records the read; the model spawns
// a subagent, whose own first model request carries the hint (the entry's id and title, never its
// body). A subagent's own memory_get is not hinted to the next subagent of the root; a proposal is
// sourced from the conversation; a broken ledger changes nothing the agent sees but the hint.
// What was verified here about the client is written down in README "Memory tools for agents".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sha256Hex } from '../../source/ground/digests.js';
import { storeFiles } from '../../source/home.js';
import {
  type MessagesReply,
  type RecordedRequest,
  startFakeAnthropicServer,
} from '../support/fake-anthropic-server.js';
import { BIN, runCli } from '../support/cli.js';
import { projectRoot, userRoot, writeEntry } from '../support/memory-files.js';
import {
  type ClaudeSandbox,
  HOOK_RECORD_ENV,
  createClaudeSandbox,
  readHookRecords,
  recordingHookCommand,
  runClaude,
} from './harness.js';

const BODY_MARK = 'quokka-lockfile-body-7781';
const SUB_BODY_MARK = 'wallaby-exports-body-3319';
const ROOT_PROMPT = 'Read the pnpm rule, then delegate the check';
const SUB_PROMPT = 'Subagent: check the exports as well';
const AGAIN_PROMPT = 'Delegate one more check';
const SUB_AGAIN_PROMPT = 'Second subagent: look around';
const HINT_HEAD = 'common-memory: the agent that started you read these reviewed memory entries';
const MEMORY_GET = 'mcp__common-memory__memory_get';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** ToolSearch loads a deferred MCP tool's schema (Claude Code defers MCP tools), then the model calls it. */
const mcpCall = (tool: string, input: Record<string, unknown>, then: MessagesReply | string): MessagesReply => ({
  type: 'tool',
  name: 'ToolSearch',
  input: { query: `select:${tool}`, max_results: 1 },
  then: { type: 'tool', name: tool, input, then },
});

const subagent = (prompt: string, then: string): MessagesReply => ({
  type: 'tool',
  name: 'Agent',
  input: { description: 'Check the repository', prompt, subagent_type: 'general-purpose' },
  then,
});

function script(prompt: string | null): MessagesReply {
  // The last user message holds the prompt among the client's own reminders.
  const said = [ROOT_PROMPT, SUB_PROMPT, AGAIN_PROMPT].find((text) => prompt?.includes(text));
  switch (said) {
    case ROOT_PROMPT:
      return mcpCall(
        MEMORY_GET,
        { id: 'use-pnpm' },
        mcpCall(
          'mcp__common-memory__memory_propose',
          { title: 'Check exports', content: 'The user wants exports checked.', type: 'work_method' },
          subagent(SUB_PROMPT, 'Root: all done.'),
        ),
      );
    case SUB_PROMPT:
      return mcpCall(MEMORY_GET, { id: 'named-exports' }, 'Subagent: checked.');
    case AGAIN_PROMPT:
      return subagent(SUB_AGAIN_PROMPT, 'Root: done again.');
    default:
      return { type: 'text', text: 'Subagent: nothing to do.' };
  }
}

interface World {
  sandbox: ClaudeSandbox;
  home: string;
  requests: readonly RecordedRequest[];
  records: string;
}

/** A sandboxed Claude Code with `install claude` done, a repository with two approved entries, a recording hook. */
async function world(label: string): Promise<World> {
  const server = await startFakeAnthropicServer({ script: ({ prompt }) => script(prompt) });
  cleanups.push(() => server.close());
  const records = '';
  const sandbox = await createClaudeSandbox({
    baseUrl: server.baseUrl,
    env: (paths) => ({ [HOOK_RECORD_ENV]: join(paths.root, 'hooks.jsonl') }),
  });
  cleanups.push(() => sandbox.cleanup());
  const home = join(sandbox.root, `cm-home-${label}`);
  execFileSync('git', ['init', '-q'], { cwd: sandbox.cwd });
  writeEntry(projectRoot(sandbox.cwd), 'use-pnpm', 'Use pnpm, not npm', `Install with pnpm; ${BODY_MARK}.`);
  writeEntry(userRoot(home), 'named-exports', 'Prefer named exports', `Named exports only; ${SUB_BODY_MARK}.`);
  const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: sandbox.cwd });
  assert.equal(synced.code, 0, synced.stderr);
  const installed = await runCli(['install', 'claude', '--claude-dir', sandbox.configDir, '--home', home]);
  assert.equal(installed.code, 0, installed.stderr);
  // Beside ours, a hook that records what the client passes (the payload shapes checked below).
  const settings = JSON.parse(execFileSync('cat', [sandbox.settingsPath], { encoding: 'utf8' })) as {
    hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
  };
  for (const event of ['PostToolUse', 'SubagentStart'])
    (settings.hooks[event] ??= []).push({
      hooks: [{ type: 'command', command: (recordingHookCommand as (e: string) => string)(event), timeout: 30 }],
    });
  writeFileSync(sandbox.settingsPath, `${JSON.stringify(settings, null, 2)}\n`);
  return { sandbox, home, requests: server.requests, records: records || join(sandbox.root, 'hooks.jsonl') };
}

/** The final answer of a `-p` run (its stream's result line). */
const resultOf = (run: { events: ReadonlyArray<Record<string, unknown>> }) =>
  run.events.find((e) => e['type'] === 'result')?.['result'];

const ALLOWED = ['ToolSearch', MEMORY_GET, 'mcp__common-memory__memory_propose', 'Agent'];

/** Each subagent's first model request (Claude marks a subagent's requests with x-claude-code-agent-id). */
function subagentFirstRequests(requests: readonly RecordedRequest[]): Map<string, string> {
  const first = new Map<string, string>();
  for (const request of requests) {
    const agent = request.headers['x-claude-code-agent-id'];
    if (typeof agent === 'string' && !first.has(agent) && request.path.startsWith('/v1/messages'))
      first.set(agent, JSON.stringify(request.body));
  }
  return first;
}

async function statusJson(home: string, cwd: string) {
  const status = await runCli(['status', '--home', home, '--json'], { cwd });
  assert.equal(status.code, 0, status.stderr);
  return JSON.parse(status.stdout) as { ledger: { state: string; roots: number; entries: number; reason: string } };
}

describe('the read ledger with the real Claude Code', { timeout: 600_000 }, () => {
  it('a root read reaches its subagent as a hint with id and title, never the body; a subagent read stays its own', async () => {
    const { sandbox, home, requests, records } = await world('ledger');
    const run = await runClaude(sandbox, { prompt: ROOT_PROMPT, allowedTools: ALLOWED, timeoutMs: 180_000 });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(resultOf(run), 'Root: all done.');

    // The MCP server answered memory_get: its result reached the model as the tool result.
    const all = requests.map((r) => JSON.stringify(r.body)).join('\n');
    assert.ok(all.includes(BODY_MARK), 'the root model got the entry body from memory_get');

    // What the client passes at PostToolUse for an MCP tool, and at a subagent's PostToolUse.
    const posts = readHookRecords(records).filter((r) => r.payload?.['hook_event_name'] === 'PostToolUse');
    const gets = posts.filter((r) => r.payload?.['tool_name'] === MEMORY_GET);
    assert.equal(gets.length, 2, JSON.stringify(posts.map((r) => r.payload?.['tool_name'])));
    const [rootGet, subGet] = gets.map((r) => r.payload!);
    assert.equal(rootGet!['agent_id'], undefined, 'the root agent names no agent_id');
    assert.equal(typeof subGet!['agent_id'], 'string', 'a subagent PostToolUse names its agent_id');
    // Claude Code 2.1.332 passes an MCP tool's result of one text block as that text: a plain string.
    const response = rootGet!['tool_response'];
    assert.equal(typeof response, 'string', JSON.stringify(response).slice(0, 300));
    assert.equal(JSON.parse(response as string).id, 'use-pnpm');

    const firsts = subagentFirstRequests(requests);
    assert.equal(firsts.size, 1, 'one subagent ran');
    const [subRequest] = [...firsts.values()];
    assert.ok(subRequest!.includes(HINT_HEAD), 'the subagent got the hint');
    assert.ok(subRequest!.includes('use-pnpm') && subRequest!.includes('Use pnpm, not npm'), 'with id and title');
    assert.ok(!subRequest!.includes(BODY_MARK), 'never the body');
    assert.equal([...firsts.keys()][0], subGet!['agent_id'], "the header is the hook payload's agent_id");

    const status = await statusJson(home, sandbox.cwd);
    assert.deepEqual([status.ledger.state, status.ledger.roots, status.ledger.entries], ['ready', 1, 1]);

    // The proposal is sourced from this conversation: the client's own name and its session, as a digest.
    const review = await runCli(['memory', 'review', '--home', home, '--json'], { cwd: sandbox.cwd });
    const [proposed] = JSON.parse(review.stdout).candidates as Array<{ origin: Record<string, unknown> }>;
    assert.deepEqual(proposed!.origin, {
      kind: 'proposal',
      client: 'claude-code',
      clientVersion: '2.1.332',
      conversation: sha256Hex(`claude-code\0${run.sessionId}`),
    });

    // The next subagent of the root (the same conversation resumed) gets the root's read, not the subagent's.
    const before = requests.length;
    const again = await runClaude(sandbox, {
      prompt: AGAIN_PROMPT,
      resumeSessionId: run.sessionId!,
      allowedTools: ALLOWED,
      timeoutMs: 180_000,
    });
    assert.equal(again.exitCode, 0, again.stderr);
    const next = [...subagentFirstRequests(requests.slice(before)).values()];
    assert.equal(next.length, 1);
    assert.ok(next[0]!.includes(HINT_HEAD) && next[0]!.includes('use-pnpm'), 'the resumed root still hints its read');
    assert.ok(!next[0]!.includes('named-exports'), "the first subagent's own read is not the root's");

    // /clear: Claude Code 2.1.332 ends the session (SessionEnd "clear") and starts a new one under a
    // new session id (SessionStart "clear"): the new generation's subagent gets no hint.
    const cleared = await runClaude(sandbox, {
      prompt: '/clear',
      resumeSessionId: run.sessionId!,
      allowedTools: ALLOWED,
    });
    assert.equal(cleared.exitCode, 0, cleared.stderr);
    assert.notEqual(cleared.sessionId, run.sessionId, 'a clear is a new session');
    const beforeClear = requests.length;
    const afterClear = await runClaude(sandbox, {
      prompt: AGAIN_PROMPT,
      resumeSessionId: cleared.sessionId!,
      allowedTools: ALLOWED,
      timeoutMs: 180_000,
    });
    assert.equal(afterClear.exitCode, 0, afterClear.stderr);
    const fresh = [...subagentFirstRequests(requests.slice(beforeClear)).values()];
    assert.equal(fresh.length, 1, 'the subagent after the clear ran');
    assert.ok(!fresh[0]!.includes(HINT_HEAD), 'after a clear: no hint');
  });

  it('a broken ledger changes nothing the agent sees but the hint; status shows it', async () => {
    const { sandbox, home, requests } = await world('broken');
    writeFileSync(storeFiles(home).ledger, 'not a database'.repeat(500), { mode: 0o600 });
    const got = await runCli(['get', 'use-pnpm', '--home', home, '--json'], { cwd: sandbox.cwd });
    const run = await runClaude(sandbox, { prompt: ROOT_PROMPT, allowedTools: ALLOWED, timeoutMs: 180_000 });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(resultOf(run), 'Root: all done.');
    assert.ok(
      requests.some((r) => JSON.stringify(r.body).includes(BODY_MARK)),
      'memory_get still answers',
    );
    const firsts = [...subagentFirstRequests(requests).values()];
    assert.equal(firsts.length, 1, 'the subagent still ran');
    assert.ok(!firsts[0]!.includes(HINT_HEAD), 'no hint from an unavailable ledger');
    assert.ok(!firsts[0]!.includes('hook error'), 'and no hook error reached the agent');
    const status = await statusJson(home, sandbox.cwd);
    assert.equal(status.ledger.state, 'unavailable');
    const after = await runCli(['get', 'use-pnpm', '--home', home, '--json'], { cwd: sandbox.cwd });
    assert.equal(after.stdout, got.stdout, '`get` is unchanged');
  });
});
