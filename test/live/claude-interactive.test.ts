// Interactive Claude Code 2.1.332 — the TUI in a real terminal (tmux), default permission mode,
// common-memory's hook on every event — through a plain turn, a tool call the user allows in the
// permission dialog, a turn interrupted with Esc and `/exit`. Then the inbox is drained: every
// user turn must be there exactly once, with its state, and nothing isolated.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import type { CaptureStatus, FlushReport } from '../../source/api/capture.js';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import { byPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { BIN, runCli, tempHome, waitFor } from '../support/cli.js';
import { createClaudeSandbox } from './claude.js';
import { locateClients } from './clients.js';
import { shellQuote } from './sandbox.js';
import { startTmux } from './tmux.js';

const home = tempHome('live-interactive');
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const PROMPTS = {
  plain: 'Say hello',
  tool: 'USE_BASH please run echo hi',
  hang: 'HANG until I press Esc',
} as const;

function evidence(): Array<{ body: string; state: string }> {
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT m.body, t.state FROM capture_messages m JOIN capture_turns t USING (turn_id)
         WHERE m.classification = 'evidence' ORDER BY m.message_id`,
      )
      .all() as Array<{ body: string; state: string }>;
  } finally {
    db.close();
  }
}

function inboxEvents(): string[] {
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    return (db.prepare('SELECT event FROM inbox ORDER BY id').all() as Array<{ event: string }>).map((r) => r.event);
  } catch {
    return [];
  } finally {
    db.close();
  }
}

async function cli<T>(args: string[]): Promise<{ code: number | null; json: T }> {
  const result = await runCli([...args, '--json', '--home', home]);
  return { code: result.code, json: JSON.parse(result.stdout || '{}') as T };
}

it('interactive Claude Code: plain, allowed tool, Esc, /exit — every user turn once, with its state', {
  timeout: 240_000,
}, async () => {
  const { claudeBinary } = locateClients();
  const server = await startFakeAnthropicServer({
    script: byPrompt(
      [
        { match: 'USE_BASH', reply: { type: 'bash', command: 'echo hi', then: 'The command printed: hi' } },
        { match: 'HANG', reply: { type: 'hang', text: 'Thinking this over slowly' } },
        { match: PROMPTS.plain, reply: { type: 'text', text: 'Hello from the fake server.' } },
      ],
      { type: 'text', text: 'A title' },
    ),
  });
  cleanups.push(() => server.close());
  const hook = `${shellQuote(process.execPath)} ${shellQuote(BIN)} hook claude --home ${shellQuote(home)}`;
  const sandbox = await createClaudeSandbox({ baseUrl: server.baseUrl, hookCommand: hook });
  cleanups.push(() => sandbox.cleanup());
  const dir = mkdtempSync(join(tmpdir(), 'cm-tmux-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const term = startTmux({
    dir,
    cwd: sandbox.cwd,
    env: { ...sandbox.env, TERM: 'xterm-256color' },
    command: [claudeBinary],
  });
  cleanups.push(() => term.close());

  // The input box (a `❯` line between rules) with the permission-mode line under it.
  const ready = (screen: string): boolean => /^❯/m.test(screen) && /shift\+tab to cycle/.test(screen);
  await term.waitFor('the prompt box', ready, 60_000);

  term.type(PROMPTS.plain);
  term.press('Enter');
  await term.waitFor('the plain answer', (s) => s.includes('Hello from the fake server.'));

  term.type(PROMPTS.tool);
  term.press('Enter');
  // Auto mode (2.1.332's default) may run it at once; a permission dialog is answered "1. Yes".
  const dialog = /Do you want to proceed/;
  const toolScreen = await term.waitFor(
    'the tool answer or a permission dialog',
    (s) => dialog.test(s) || s.includes('The command printed: hi'),
  );
  if (dialog.test(toolScreen)) term.press('Enter');
  await term.waitFor('the answer to the tool result', (s) => s.includes('The command printed: hi'));

  term.type(PROMPTS.hang);
  term.press('Enter');
  // The reply streams and never ends; Claude shows the text only at its block's end.
  await waitFor('the hanging request at the fake server', () =>
    server.requests.some((r) => JSON.stringify(r.body).includes(PROMPTS.hang)),
  );
  await term.waitFor('the turn in progress', (s) => s.includes('esc to interrupt'));
  term.press('Escape');
  await term.waitFor('the interruption', (s) => /Interrupted/.test(s));

  await term.waitFor('the prompt box after Esc', ready);
  term.type('/exit');
  await term.waitFor('the /exit command in the box', (s) => s.includes('/exit'));
  term.press('Enter');
  await waitFor('claude to exit after /exit', () => !term.alive(), 30_000);
  await waitFor('the SessionEnd hook event in the inbox', () => inboxEvents().includes('SessionEnd'), 30_000);

  const { code, json } = await cli<FlushReport>(['flush']);
  const { json: status } = await cli<CaptureStatus>(['status']);
  assert.equal(json.remaining.isolated, 0, `nothing isolated: ${JSON.stringify(status.recovery)}`);
  assert.equal(code, 0, JSON.stringify(json));
  assert.deepEqual(evidence(), [
    { body: PROMPTS.plain, state: 'settled' },
    { body: PROMPTS.tool, state: 'settled' },
    { body: PROMPTS.hang, state: 'interrupted' },
  ]);
  const session = status.sessions.find((s) => s.client === 'claude');
  assert.ok(session, 'the session is listed');
  assert.equal(session.state, 'complete');
  assert.deepEqual(session.turns, { settled: 2, failed: 0, interrupted: 1, buffered: 0, incomplete: 0 });
});
