// The read ledger and the MCP server with the real Codex CLI 0.171.0 (a fake Responses server
// scripts the model): `install codex` registers our hooks and MCP server; the model calls
// memory_get (Codex lists it as `memory_get` in the namespace `mcp__common_memory`); PostToolUse
// records the read (Codex does fire it for MCP tools); the model spawns a subagent
// (`spawn_agent`), whose own first model request carries the hint — id and title, never the body.
// A subagent's own memory_get is not hinted to the root's next subagent; a broken ledger changes
// nothing the agent sees but the hint. What was verified here is in docs/mcp-and-ledger.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedRequest, ResponsesReply } from '../support/fake-responses-server.js';
import { readHookRecords, runCodex } from './harness.js';
import {
  AGAIN_PROMPT,
  BODY_MARK,
  HINT_HEAD,
  NOTIFIED,
  ROOT_PROMPT,
  SUB_AGAIN_PROMPT,
  SUB_PROMPT,
  assertHintedRead,
  assertRootReadOnly,
  breakLedger,
  codexLedgerWorld,
  codexMemoryGet as memoryGet,
  ledgerStatus,
  codexSubagent as subagent,
} from './ledger-world.js';

function script(prompt: string | null): ResponsesReply {
  const said = [ROOT_PROMPT, SUB_PROMPT, AGAIN_PROMPT, NOTIFIED].find((text) => prompt?.includes(text));
  switch (said) {
    case ROOT_PROMPT:
      return memoryGet('use-pnpm', subagent(SUB_PROMPT, 'Root: all done.'));
    case SUB_PROMPT:
      return memoryGet('named-exports', 'Subagent: checked.');
    case AGAIN_PROMPT:
      return subagent(SUB_AGAIN_PROMPT, 'Root: done again.');
    case NOTIFIED:
      return { type: 'text', text: 'Root: all done.' };
    default:
      return { type: 'text', text: 'Subagent: nothing to do.' };
  }
}

const world = (label: string) => codexLedgerWorld({ label }, ({ prompt }) => script(prompt));

/** The hooks are ours, written by install: trusted for the run like the harness's own. */
const TRUST = ['--dangerously-bypass-hook-trust'];

/** Codex names the thread of each model request in x-codex-turn-metadata; a subagent's is its agent id. */
function subagentFirstRequests(requests: readonly RecordedRequest[]): Map<string, string> {
  const first = new Map<string, string>();
  for (const request of requests) {
    if (request.method !== 'POST') continue;
    const meta = JSON.parse(String(request.headers['x-codex-turn-metadata'] ?? '{}')) as {
      thread_id?: string;
      session_id?: string;
    };
    if (meta.thread_id && meta.thread_id !== meta.session_id && !first.has(meta.thread_id))
      first.set(meta.thread_id, JSON.stringify(request.body));
  }
  return first;
}

/** The root's answers (after wait_agent, Codex also hands the root a <subagent_notification> turn). */
const answers = (run: { events: ReadonlyArray<Record<string, unknown>> }) =>
  run.events
    .filter((e) => e['type'] === 'item.completed')
    .map((e) => (e['item'] as { type?: string; text?: string }) ?? {})
    .filter((item) => item.type === 'agent_message')
    .map((item) => item.text);

describe('the read ledger with the real Codex', { timeout: 600_000 }, () => {
  it('a root read reaches its subagent as a hint with id and title, never the body; a subagent read stays its own', async () => {
    const { sandbox, home, requests, records } = await world('ledger');
    const run = await runCodex(sandbox, { prompt: ROOT_PROMPT, extraArgs: TRUST, timeoutMs: 180_000 });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(answers(run).includes('Root: all done.'), JSON.stringify(answers(run)));
    assert.ok(
      requests.some((r) => JSON.stringify(r.body).includes(BODY_MARK)),
      'the root model got the body from memory_get',
    );

    // Codex 0.171.0 fires PostToolUse for MCP tools: the name with '_', the full CallToolResult.
    const gets = readHookRecords(records)
      .map((r) => r.payload!)
      .filter((p) => p['hook_event_name'] === 'PostToolUse' && p['tool_name'] === 'mcp__common_memory__memory_get');
    assert.equal(gets.length, 2);
    const [rootGet, subGet] = gets;
    assert.equal(rootGet!['agent_id'], undefined);
    assert.deepEqual(
      (rootGet!['tool_response'] as { structuredContent: { id: string } }).structuredContent.id,
      'use-pnpm',
    );
    assert.equal(typeof subGet!['agent_id'], 'string', "a subagent's PostToolUse names its agent_id");
    assert.equal(subGet!['session_id'], rootGet!['session_id'], '…under the root session id');

    const firsts = subagentFirstRequests(requests);
    assert.equal(firsts.size, 1, 'one subagent asked the model');
    const [subRequest] = [...firsts.values()];
    assertHintedRead(subRequest!);
    assert.equal([...firsts.keys()][0], subGet!['agent_id']);

    const ledger = await ledgerStatus(home, sandbox.cwd);
    assert.deepEqual([ledger.state, ledger.roots, ledger.entries], ['ready', 1, 1]);

    const before = requests.length;
    const again = await runCodex(sandbox, {
      prompt: AGAIN_PROMPT,
      resumeThreadId: run.threadId!,
      extraArgs: TRUST,
      timeoutMs: 180_000,
    });
    assert.equal(again.exitCode, 0, again.stderr);
    assertRootReadOnly([...subagentFirstRequests(requests.slice(before)).values()]);
  });

  it('a broken ledger changes nothing the agent sees but the hint; status shows it', async () => {
    const broken = await world('broken');
    const { sandbox, home, requests } = broken;
    const getUnchanged = await breakLedger(broken);
    const run = await runCodex(sandbox, { prompt: ROOT_PROMPT, extraArgs: TRUST, timeoutMs: 180_000 });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(answers(run).includes('Root: all done.'), JSON.stringify(answers(run)));
    const firsts = [...subagentFirstRequests(requests).values()];
    assert.equal(firsts.length, 1, 'the subagent still ran');
    assert.ok(!firsts[0]!.includes(HINT_HEAD), 'no hint from an unavailable ledger');
    assert.equal((await ledgerStatus(home, sandbox.cwd)).state, 'unavailable');
    await getUnchanged();
  });
});
