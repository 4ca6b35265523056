// The read ledger and the MCP server with the real Codex CLI 0.171.0 (a fake Responses server
// scripts the model): `install codex` registers our hooks and MCP server; the model calls
// memory_get (Codex lists it as `memory_get` in the namespace `mcp__common_memory`); PostToolUse
// records the read (Codex does fire it for MCP tools); the model spawns a subagent
// (`spawn_agent`), whose own first model request carries the hint — id and title, never the body.
// A subagent's own memory_get is not hinted to the root's next subagent; a broken ledger changes
// nothing the agent sees but the hint. What was verified here is in README "Memory tools for agents".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import {
  type RecordedRequest,
  type ResponsesReply,
  startFakeResponsesServer,
} from '../support/fake-responses-server.js';
import { runCli } from '../support/cli.js';
import { projectRoot, userRoot, writeEntry } from '../support/memory-files.js';
import {
  type CodexSandbox,
  HOOK_RECORD_ENV,
  createCodexSandbox,
  readHookRecords,
  recordingHookCommand,
  runCodex,
} from './harness.js';

const BODY_MARK = 'quokka-lockfile-body-7781';
const SUB_BODY_MARK = 'wallaby-exports-body-3319';
const ROOT_PROMPT = 'Read the pnpm rule, then delegate the check';
const SUB_PROMPT = 'Subagent: check the exports as well';
const AGAIN_PROMPT = 'Delegate one more check';
const SUB_AGAIN_PROMPT = 'Second subagent: look around';
/** How Codex tells the root that its subagent finished: a user message of its own. */
const NOTIFIED = '<subagent_notification>';
const HINT_HEAD = 'common-memory: the agent that started you read these reviewed memory entries';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const memoryGet = (id: string, then: ResponsesReply | string): ResponsesReply => ({
  type: 'call',
  name: 'memory_get',
  namespace: 'mcp__common_memory',
  arguments: { id },
  then,
});

/** spawn_agent answers at once with the child's id; the root then waits for it, so the run ends after it. */
const subagent = (message: string, then: string): ResponsesReply => ({
  type: 'call',
  name: 'spawn_agent',
  namespace: 'multi_agent_v1',
  arguments: { message },
  then: (output) => ({
    type: 'call',
    name: 'wait_agent',
    namespace: 'multi_agent_v1',
    arguments: { targets: [(JSON.parse(output) as { agent_id: string }).agent_id], timeout_ms: 120_000 },
    then,
  }),
});

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

interface World {
  sandbox: CodexSandbox;
  home: string;
  requests: readonly RecordedRequest[];
  records: string;
}

async function world(label: string): Promise<World> {
  const server = await startFakeResponsesServer({ script: ({ prompt }) => script(prompt) });
  cleanups.push(() => server.close());
  const sandbox = await createCodexSandbox({
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
  const installed = await runCli(['install', 'codex', '--codex-home', sandbox.codexHome, '--home', home]);
  assert.equal(installed.code, 0, installed.stderr);
  // Beside ours, a hook that records what the client passes (the payload shapes checked below).
  const hooksPath = join(sandbox.codexHome, 'hooks.json');
  const hooks = JSON.parse(readFileSync(hooksPath, 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
  };
  for (const event of ['PostToolUse', 'SubagentStart'])
    (hooks.hooks[event] ??= []).push({
      hooks: [{ type: 'command', command: (recordingHookCommand as (e: string) => string)(event), timeout: 30 }],
    });
  writeFileSync(hooksPath, `${JSON.stringify(hooks, null, 2)}\n`);
  return { sandbox, home, requests: server.requests, records: join(sandbox.root, 'hooks.jsonl') };
}

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

async function ledgerStatus(home: string, cwd: string) {
  const status = await runCli(['status', '--home', home, '--json'], { cwd });
  assert.equal(status.code, 0, status.stderr);
  return (JSON.parse(status.stdout) as { ledger: { state: string; roots: number; entries: number } }).ledger;
}

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
    assert.ok(subRequest!.includes(HINT_HEAD), 'the subagent got the hint');
    assert.ok(subRequest!.includes('use-pnpm') && subRequest!.includes('Use pnpm, not npm'), 'with id and title');
    assert.ok(!subRequest!.includes(BODY_MARK), 'never the body');
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
    const next = [...subagentFirstRequests(requests.slice(before)).values()];
    assert.equal(next.length, 1);
    assert.ok(next[0]!.includes(HINT_HEAD) && next[0]!.includes('use-pnpm'), 'the resumed root still hints its read');
    assert.ok(!next[0]!.includes('named-exports'), "the first subagent's own read is not the root's");
  });

  it('a broken ledger changes nothing the agent sees but the hint; status shows it', async () => {
    const { sandbox, home, requests } = await world('broken');
    writeFileSync(storeFiles(home).ledger, 'not a database'.repeat(500), { mode: 0o600 });
    const got = await runCli(['get', 'use-pnpm', '--home', home, '--json'], { cwd: sandbox.cwd });
    const run = await runCodex(sandbox, { prompt: ROOT_PROMPT, extraArgs: TRUST, timeoutMs: 180_000 });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(answers(run).includes('Root: all done.'), JSON.stringify(answers(run)));
    const firsts = [...subagentFirstRequests(requests).values()];
    assert.equal(firsts.length, 1, 'the subagent still ran');
    assert.ok(!firsts[0]!.includes(HINT_HEAD), 'no hint from an unavailable ledger');
    assert.equal((await ledgerStatus(home, sandbox.cwd)).state, 'unavailable');
    const after = await runCli(['get', 'use-pnpm', '--home', home, '--json'], { cwd: sandbox.cwd });
    assert.equal(after.stdout, got.stdout, '`get` is unchanged');
  });
});
