// Prompts the client submits that are not the user's: Claude Code 2.1.332 runs a Bash command or
// a subagent (the `Agent` tool) in the background and, when it finishes, submits a
// `<task-notification>` through UserPromptSubmit. Finishing after the turn, it becomes a turn
// of its own whose user line is a notification; finishing while the turn still runs (here: while a
// slow PostToolUse hook holds the turn), it is delivered inside that turn as a queued_command
// attachment whose rendered text wraps it in a reminder. Either way its prompt candidate must get
// an outcome — matched as context and consumed, its body freed — so that nothing waits for it, and
// the user's own prompt stays the one evidence turn (fake Messages server on loopback).
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { CaptureStatus, FlushReport } from '../../source/api/capture.js';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import { byPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import type { FakeAnthropicServer, MessagesReply } from '../support/fake-anthropic-server.js';
import { BIN, runCli, tempHome } from '../support/cli.js';
import { createClaudeSandbox, runClaude, shellQuote } from './harness.js';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function cli<T>(home: string, args: string[]): Promise<{ code: number | null; json: T }> {
  const result = await runCli([...args, '--json', '--home', home], { timeoutMs: 120_000 });
  return { code: result.code, json: JSON.parse(result.stdout || '{}') as T };
}

const PROMPT = 'Run it in the background';

interface Trigger {
  /** The fake model's answer to the user's prompt: the tool call that starts the background work. */
  readonly reply: MessagesReply;
  /** Further rules, e.g. the answers to a subagent's own requests. */
  readonly rules?: ReadonlyArray<{ readonly match: string; readonly reply: MessagesReply }>;
  readonly allowedTools: readonly string[];
  readonly slowPostToolUseSec?: number;
}

async function notified(trigger: Trigger): Promise<{ home: string; server: FakeAnthropicServer }> {
  const home = tempHome('live-task-notification');
  const server = await startFakeAnthropicServer({
    script: byPrompt([
      { match: '<task-notification>', reply: { type: 'text', text: 'The background task finished.' } },
      ...(trigger.rules ?? []),
      { match: PROMPT, reply: trigger.reply },
    ]),
  });
  cleanups.push(() => server.close());
  const slow = trigger.slowPostToolUseSec ?? 0;
  const hook = `${shellQuote(process.execPath)} ${shellQuote(BIN)} hook claude --home ${shellQuote(home)}`;
  const sandbox = await createClaudeSandbox({
    baseUrl: server.baseUrl,
    hookCommand: (event) => (event === 'PostToolUse' && slow > 0 ? `sleep ${slow}; ${hook}` : hook),
  });
  cleanups.push(() => sandbox.cleanup());
  const run = await runClaude(sandbox, { prompt: PROMPT, allowedTools: trigger.allowedTools, timeoutMs: 120_000 });
  assert.equal(run.exitCode, 0, run.stderr);
  const submitted = server.requests.some((request) => JSON.stringify(request.body).includes('<task-notification>'));
  assert.ok(submitted, 'the client delivered the task notification to the model');
  return { home, server };
}

function bashInBackground(command: string, slowPostToolUseSec: number): Trigger {
  return {
    reply: { type: 'bash', command, background: true, then: 'Started in the background.' },
    allowedTools: ['Bash(sleep *)', 'Bash(echo *)'],
    slowPostToolUseSec,
  };
}

async function assertConsumed(home: string, notificationKind: string, turns: number): Promise<void> {
  const flush = await cli<FlushReport>(home, ['flush']);
  assert.equal(flush.code, 0, JSON.stringify(flush.json));
  const { json: status } = await cli<CaptureStatus>(home, ['status']);
  assert.equal(status.recovery.total, 0, 'no recovery item for healthy data');
  assert.deepEqual(
    [status.queue.candidatesPending, status.queue.candidatesUnconfirmed, status.queue.candidatesAsContext],
    [0, 0, 1],
    'no prompt candidate waits: the notification was matched as context and consumed',
  );
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    const candidates = db
      .prepare(
        `SELECT p.state, p.body IS NULL AS freed, m.classification, m.kind FROM prompt_candidates p
         LEFT JOIN capture_messages m ON m.message_id = p.delivered_message_id ORDER BY p.candidate_id`,
      )
      .all();
    assert.deepEqual(candidates, [
      { state: 'delivered', freed: 1, classification: 'evidence', kind: 'prompt' },
      { state: 'delivered', freed: 1, classification: 'context', kind: notificationKind },
    ]);
    const evidence = db
      .prepare(
        `SELECT m.body, t.state FROM capture_messages m JOIN capture_turns t USING (turn_id)
         WHERE m.classification = 'evidence' ORDER BY m.message_id`,
      )
      .all();
    assert.deepEqual(evidence, [{ body: PROMPT, state: 'settled' }], 'the user turn, exactly once');
    assert.equal(db.prepare('SELECT count(*) FROM capture_turns').pluck().get(), turns);
  } finally {
    db.close();
  }
}

it('a notification after the turn is a turn of its own: its candidate consumed as context, body freed', {
  timeout: 300_000,
}, async () => {
  // Long enough that the turn (a tool call and an answer) has ended on a loaded machine.
  const { home } = await notified(bashInBackground('sleep 3; echo bg-done', 0));
  await assertConsumed(home, 'task_notification', 2);
});

it('a notification while the turn runs is delivered inside it: its candidate consumed as context, body freed', {
  timeout: 300_000,
}, async () => {
  // The command ends at once; the PostToolUse hook holds the turn, so the client queues it mid-turn.
  const { home } = await notified(bashInBackground('echo bg-done', 3));
  await assertConsumed(home, 'queued_prompt', 1);
});

const SUBAGENT_TASK = 'Check the sandbox as a subagent';

it('a finished background subagent notifies: its candidate consumed as context, body freed', {
  timeout: 300_000,
}, async () => {
  // The subagent tool of 2.1.332 is `Agent` (AgentInput in the bundle's sdk-tools.d.ts). Its own
  // model request answers late, so the subagent finishes after the parent turn has ended.
  const { home, server } = await notified({
    reply: {
      type: 'tool',
      name: 'Agent',
      input: {
        description: 'Check the sandbox',
        prompt: SUBAGENT_TASK,
        subagent_type: 'general-purpose',
        run_in_background: true,
      },
      then: 'The subagent runs in the background.',
    },
    rules: [{ match: SUBAGENT_TASK, reply: { type: 'text', text: 'Subagent: all checked.', delayMs: 3_000 } }],
    allowedTools: ['Agent'],
  });
  const fromSubagent = server.requests.filter((request) => request.headers['x-claude-code-agent-id'] !== undefined);
  assert.ok(fromSubagent.length > 0, 'the subagent asked the model itself (x-claude-code-agent-id)');
  assert.ok(
    fromSubagent.every((request) => !JSON.stringify(request.body).includes('<task-notification>')),
    'the notification went to the parent session, not to the subagent',
  );
  // Three turns: the user's, the notification's, and the subagent's own transcript, captured at
  // its SubagentStop as a session of its own, all context.
  await assertConsumed(home, 'task_notification', 3);
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    const turns = db
      .prepare(
        `SELECT a.host_session_id LIKE '%:agent-%' AS subagent,
                (SELECT kind FROM capture_messages WHERE turn_id = t.turn_id ORDER BY message_id LIMIT 1) AS opens,
                (SELECT count(*) FROM capture_messages WHERE turn_id = t.turn_id AND classification = 'evidence')
                  AS evidence
         FROM capture_turns t JOIN capture_activations a USING (activation_id) ORDER BY t.turn_id`,
      )
      .all();
    assert.deepEqual(turns, [
      { subagent: 0, opens: 'prompt', evidence: 1 },
      { subagent: 0, opens: 'task_notification', evidence: 0 },
      { subagent: 1, opens: 'subagent_prompt', evidence: 0 },
    ]);
  } finally {
    db.close();
  }
});
