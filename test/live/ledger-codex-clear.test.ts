// The read ledger across a clear in the real Codex CLI 0.171.0's TUI (interactive, in tmux at
// 80x24; `codex exec` has no clear). The model reads an entry with memory_get, the user types
// /clear, then the model spawns a subagent: what Codex fires on the clear and what the subagent's
// first model request carries are checked here. Found: /clear fires SessionStart "clear" under a
// new session id, so the ledger sees a new root with an empty generation (docs/mcp-and-ledger.md).
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { it } from 'node:test';
import type { RecordedRequest, ResponsesReply } from '../support/fake-responses-server.js';
import { locateClients, readHookRecords } from './harness.js';
import {
  BODY_MARK,
  HINT_HEAD,
  NOTIFIED,
  SUB_PROMPT,
  closeLater,
  codexLedgerWorld,
  codexMemoryGet,
  codexSubagent,
} from './ledger-world.js';
import { startTmux } from './tmux.js';

const READ_PROMPT = 'Read the pnpm rule please';
const DELEGATE_PROMPT = 'Now delegate the check';

function script(prompt: string | null): ResponsesReply {
  const said = [READ_PROMPT, SUB_PROMPT, DELEGATE_PROMPT, NOTIFIED].find((text) => prompt?.includes(text));
  switch (said) {
    case READ_PROMPT:
      return codexMemoryGet('use-pnpm', 'Root: read it.');
    case DELEGATE_PROMPT:
      return codexSubagent(SUB_PROMPT, 'Root: delegated.');
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
  const { sandbox, requests, records } = await codexLedgerWorld(
    {
      label: 'clear',
      events: ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PostToolUse', 'SubagentStart'],
      userEntry: false,
    },
    ({ prompt, request }) =>
      turnMeta(request).thread_source === 'thread_title' ? { type: 'text', text: 'A title' } : script(prompt),
  );
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
  closeLater(() => term.close());
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
  const first = requests.find((r) => r.method === 'POST' && turnMeta(r).thread_id === agentId);
  assert.ok(first, "the fake server recorded the subagent's first request");
  const body = JSON.stringify(first.body);
  assert.ok(body.includes(SUB_PROMPT), 'it is the subagent request');
  // The hint's head, which ledger-codex.test.ts sees in the same setup without a clear ("use-pnpm"
  // itself is also an example in memory_get's description).
  assert.ok(!body.includes(HINT_HEAD), 'after a clear: no hint');
  assert.ok(
    requests.some((r) => JSON.stringify(r.body).includes(BODY_MARK)),
    'the root model did get the body before the clear',
  );
});
