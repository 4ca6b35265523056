// The read ledger and the MCP server with the real Claude Code 2.1.332 (a fake Messages server
// scripts the model): `install claude` registers our hooks and MCP server; the model loads
// memory_get through ToolSearch and reads an entry; PostToolUse records the read; the model spawns
// a subagent, whose own first model request carries the hint (the entry's id and title, never its
// body). A subagent's own memory_get is not hinted to the next subagent of the root; a proposal is
// sourced from the conversation; a broken ledger changes nothing the agent sees but the hint.
// What was verified here about the client is written down in docs/mcp-and-ledger.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../source/ground/digests.js';
import type { MessagesReply, RecordedRequest } from '../support/fake-anthropic-server.js';
import { runCli } from '../support/cli.js';
import { readHookRecords, runClaude } from './harness.js';
import {
  AGAIN_PROMPT,
  BODY_MARK,
  HINT_HEAD,
  ROOT_PROMPT,
  SUB_AGAIN_PROMPT,
  SUB_PROMPT,
  assertHintedRead,
  assertRootReadOnly,
  breakLedger,
  claudeLedgerWorld,
  ledgerStatus,
} from './ledger-world.js';

const MEMORY_GET = 'mcp__common-memory__memory_get';

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

/** A sandboxed Claude Code with `install claude` done, a repository with two approved entries, a recording hook. */
const world = (label: string) => claudeLedgerWorld({ label }, ({ prompt }) => script(prompt));

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
    assertHintedRead(subRequest!);
    assert.equal([...firsts.keys()][0], subGet!['agent_id'], "the header is the hook payload's agent_id");

    const ledger = await ledgerStatus(home, sandbox.cwd);
    assert.deepEqual([ledger.state, ledger.roots, ledger.entries], ['ready', 1, 1]);

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
    assertRootReadOnly([...subagentFirstRequests(requests.slice(before)).values()]);

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
    const broken = await world('broken');
    const { sandbox, home, requests } = broken;
    const getUnchanged = await breakLedger(broken);
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
    assert.equal((await ledgerStatus(home, sandbox.cwd)).state, 'unavailable');
    await getUnchanged();
  });
});
