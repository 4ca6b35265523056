// The read ledger across a clear in the real Codex CLI 0.171.0's TUI (interactive, in tmux at
// 80x24; `codex exec` has no clear). The model reads an entry with memory_get, the user types
// /clear, then the model spawns a subagent: what Codex fires on the clear and what the subagent's
// first model request carries are checked here. Found: /clear fires SessionStart "clear" under a
// new session id, so the ledger sees a new root with an empty generation (README "Memory tools
// for agents").
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, it } from 'node:test';
import {
  type RecordedRequest,
  type ResponsesReply,
  startFakeResponsesServer,
} from '../support/fake-responses-server.js';
import { runCli } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import {
  HOOK_RECORD_ENV,
  createCodexSandbox,
  locateClients,
  readHookRecords,
  recordingHookCommand,
} from './harness.js';
import { startTmux } from './tmux.js';

const BODY_MARK = 'quokka-lockfile-body-7781';
const READ_PROMPT = 'Read the pnpm rule please';
const DELEGATE_PROMPT = 'Now delegate the check';
const SUB_PROMPT = 'Subagent: check the exports';
const NOTIFIED = '<subagent_notification>';
const HINT_HEAD = 'common-memory: the agent that started you read these reviewed memory entries';

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function script(prompt: string | null): ResponsesReply {
  const said = [READ_PROMPT, SUB_PROMPT, DELEGATE_PROMPT, NOTIFIED].find((text) => prompt?.includes(text));
  switch (said) {
    case READ_PROMPT:
      return {
        type: 'call',
        name: 'memory_get',
        namespace: 'mcp__common_memory',
        arguments: { id: 'use-pnpm' },
        then: 'Root: read it.',
      };
    case DELEGATE_PROMPT:
      return {
        type: 'call',
        name: 'spawn_agent',
        namespace: 'multi_agent_v1',
        arguments: { message: SUB_PROMPT },
        then: (output) => ({
          type: 'call',
          name: 'wait_agent',
          namespace: 'multi_agent_v1',
          arguments: { targets: [(JSON.parse(output) as { agent_id: string }).agent_id], timeout_ms: 120_000 },
          then: 'Root: delegated.',
        }),
      };
    case SUB_PROMPT:
      return { type: 'text', text: 'Subagent: checked.' };
    default:
      return { type: 'text', text: 'Root: noted.' };
  }
}

function turnMeta(request: RecordedRequest): { thread_id?: string; thread_source?: string } {
  return JSON.parse(String(request.headers['x-codex-turn-metadata'] ?? '{}')) as {
    thread_id?: string;
    thread_source?: string;
  };
}

it('Codex TUI: after /clear the subagent of the new conversation gets no hint', { timeout: 600_000 }, async () => {
  // The TUI also asks the model for a thread title (its own read-only thread, without spawn_agent).
  const server = await startFakeResponsesServer({
    script: ({ prompt, request }) =>
      turnMeta(request).thread_source === 'thread_title' ? { type: 'text', text: 'A title' } : script(prompt),
  });
  cleanups.push(() => server.close());
  const sandbox = await createCodexSandbox({
    baseUrl: server.baseUrl,
    env: (paths) => ({ [HOOK_RECORD_ENV]: join(paths.root, 'hooks.jsonl') }),
  });
  cleanups.push(() => sandbox.cleanup());
  const records = join(sandbox.root, 'hooks.jsonl');
  const home = join(sandbox.root, 'cm-home');
  execFileSync('git', ['init', '-q'], { cwd: sandbox.cwd });
  writeEntry(projectRoot(sandbox.cwd), 'use-pnpm', 'Use pnpm, not npm', `Install with pnpm; ${BODY_MARK}.`);
  const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: sandbox.cwd });
  assert.equal(synced.code, 0, synced.stderr);
  const installed = await runCli(['install', 'codex', '--codex-home', sandbox.codexHome, '--home', home]);
  assert.equal(installed.code, 0, installed.stderr);
  const hooksPath = join(sandbox.codexHome, 'hooks.json');
  const hooks = JSON.parse(readFileSync(hooksPath, 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
  };
  for (const event of ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PostToolUse', 'SubagentStart'])
    (hooks.hooks[event] ??= []).push({
      hooks: [
        {
          type: 'command',
          command: (recordingHookCommand as (e: string) => string)(event),
          timeout: event === 'SessionEnd' ? 3 : 30,
        },
      ],
    });
  writeFileSync(hooksPath, `${JSON.stringify(hooks, null, 2)}\n`);
  // The folder trusted beforehand, so the TUI opens on its composer rather than its trust question.
  appendFileSync(sandbox.configPath, `\n[projects.${JSON.stringify(sandbox.cwd)}]\ntrust_level = "trusted"\n`);

  const term = startTmux({
    dir: sandbox.root,
    cwd: sandbox.cwd,
    env: { ...sandbox.env, TERM: 'xterm-256color' },
    command: [process.execPath, locateClients().codexLauncher, '--dangerously-bypass-hook-trust'],
    columns: 80,
    rows: 24,
  });
  cleanups.push(() => term.close());
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  // Codex takes keys typed in one burst for a paste (Enter then adds a line): a pause before Enter.
  const say = async (text: string) => {
    term.type(text);
    await pause(800);
    term.press('Enter');
  };
  const idle = (s: string) => s.includes('Ask Codex to do anything');
  await term.waitFor('the composer', idle, 60_000);
  await say(READ_PROMPT);
  await term.waitFor('the answer after memory_get', (s) => s.includes('Root: read it.') && idle(s), 90_000);
  await say('/clear');
  await term.waitFor('the cleared screen', (s) => !s.includes('Root: read it.') && idle(s), 30_000);
  await say(DELEGATE_PROMPT);
  await term.waitFor('the subagent done', (s) => s.includes('Finished waiting') && idle(s), 120_000);

  const events = readHookRecords(records).map((r) => r.payload!);
  const starts = events.filter((p) => p['hook_event_name'] === 'SessionStart');
  // Codex 0.171.0's /clear: SessionStart "clear" under a new session id (the old one is not reused).
  assert.deepEqual(
    starts.map((p) => p['source']),
    ['startup', 'clear'],
    JSON.stringify(starts),
  );
  const [before, cleared] = starts.map((p) => p['session_id']);
  assert.notEqual(cleared, before, 'a clear is a new session id');
  const read = events.find(
    (p) => p['hook_event_name'] === 'PostToolUse' && p['tool_name'] === 'mcp__common_memory__memory_get',
  );
  assert.equal(read?.['session_id'], before, 'the read was recorded for the conversation before the clear');
  const spawned = events.filter((p) => p['hook_event_name'] === 'SubagentStart');
  assert.equal(spawned.length, 1);
  assert.equal(spawned[0]!['session_id'], cleared, 'the subagent is a child of the new conversation');

  const agentId = spawned[0]!['agent_id'];
  const first = server.requests.find((r) => r.method === 'POST' && turnMeta(r).thread_id === agentId);
  assert.ok(first, "the fake server recorded the subagent's first request");
  const body = JSON.stringify(first.body);
  assert.ok(body.includes(SUB_PROMPT), 'it is the subagent request');
  // The hint's head, which ledger-codex.test.ts sees in the same setup without a clear ("use-pnpm"
  // itself is also an example in memory_get's description).
  assert.ok(!body.includes(HINT_HEAD), 'after a clear: no hint');
  assert.ok(
    server.requests.some((r) => JSON.stringify(r.body).includes(BODY_MARK)),
    'the root model did get the body before the clear',
  );
});
