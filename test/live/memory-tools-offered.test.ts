// The agent helps from its first request: with `install claude` / `install codex` done, the real
// Claude Code 2.1.332 (`claude -p`) and Codex 0.171.0 (`codex exec`) offer common-memory's MCP
// tools — memory_propose among them — in the FIRST model request of a session, as the fake model
// server records it, and the SessionStart frame in that request names memory_get and invites
// memory_propose when the user states a durable rule or corrects the agent. Codex sends the tools'
// schemas up front (memory_propose's description invites too); Claude Code lists MCP tools by name
// and loads a schema through ToolSearch when the model asks.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RecordedRequest } from '../support/fake-responses-server.js';
import { locateClients } from './clients.js';
import { runClaude, runCodex } from './harness.js';
import { claudeLedgerWorld, closeLater, codexLedgerWorld } from './ledger-world.js';
import { startTmux } from './tmux.js';

const PROMPT = 'Hello; nothing to do yet.';

/** The first model request of the session, as the fake server recorded it. */
function firstModelRequest(requests: readonly RecordedRequest[], path: RegExp): string {
  const posted = requests.filter((r) => r.method === 'POST' && r.body !== null && path.test(r.path));
  assert.ok(posted.length > 0, 'the client asked the model');
  return JSON.stringify(posted[0]!.body);
}

/**
 * What every first request must carry: the tools by name, the frame's invitation and, where the
 * client sends tool schemas up front (Codex), memory_propose's own invitation. Claude Code 2.1.332
 * defers MCP tools: the first request lists them by name for its ToolSearch tool, which loads a
 * schema (and so our description) when the model asks — there the frame is what invites.
 */
function assertOffered(first: string, names: { propose: string; get: string }, schemasUpFront: boolean) {
  assert.ok(first.includes(names.propose), `memory_propose is offered as ${names.propose}`);
  assert.ok(first.includes(names.get), `memory_get is offered as ${names.get}`);
  assert.equal(
    first.includes('Call this when the user states a durable rule'),
    schemasUpFront,
    "memory_propose's description (its invitation) is sent up front only by a client that sends tool schemas",
  );
  assert.ok(first.includes('common-memory-notes'), 'the SessionStart frame is in the first request');
  assert.ok(first.includes('propose it with `memory_propose`'), 'the frame invites a proposal');
  assert.ok(first.includes('the `memory_get` tool'), 'the frame names the MCP tool before the CLI');
}

/**
 * Under load a client may send its first request before the MCP server answered `initialize`
 * (neither client waits for a server it does not require: Claude Code lists it as still connecting,
 * Codex omits a pending optional server). Then the SessionStart frame is what the first request
 * has, and it must carry the way to read a note without the tools: the shell command.
 */
function assertFrameStandsAlone(first: string, t: { diagnostic(message: string): void }, names: { propose: string }) {
  assert.ok(first.includes('common-memory-notes'), 'the SessionStart frame is in the first request');
  assert.match(first, /in a shell: `[^`]*common-memory\.cjs[^`]* get <id>`/, 'the frame names the shell command');
  t.diagnostic(`tools in the first request: ${first.includes(names.propose) ? 'yes' : 'no'}`);
}

/** Runs `body` while two processes keep both cores busy (killed by their pids after it). */
async function underLoad<T>(body: () => Promise<T>): Promise<T> {
  const busy: ChildProcess[] = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  try {
    return await body();
  } finally {
    for (const child of busy) child.kill('SIGKILL');
  }
}

const CLAUDE_NAMES = { propose: 'mcp__common-memory__memory_propose', get: 'mcp__common-memory__memory_get' };
const CODEX_NAMES = { propose: 'memory_propose', get: 'memory_get' };

describe('memory tools are offered at the first model request', { timeout: 600_000 }, () => {
  it('claude -p: the first request lists memory_propose and memory_get, and the frame invites proposals', async () => {
    const { sandbox, requests } = await claudeLedgerWorld({ label: 'offered' }, () => ({ type: 'text', text: 'ok' }));
    const run = await runClaude(sandbox, { prompt: PROMPT, timeoutMs: 180_000 });
    assert.equal(run.exitCode, 0, run.stderr);
    assertOffered(firstModelRequest(requests, /^\/v1\/messages/), CLAUDE_NAMES, false);
  });

  /**
   * Interactive Claude Code shows its prompt box before the MCP server is connected (measured with
   * 2.1.332: a prompt sent at once goes without the tools, one sent 2 s later has them), so a
   * prompt typed the moment the box appears is answered from the frame, which carries the shell
   * command; a person who takes a moment to type gets the tools.
   */
  const interactiveFirstRequest = async (label: string, pauseMs: number): Promise<string> => {
    const { sandbox, requests } = await claudeLedgerWorld({ label }, () => ({
      type: 'text',
      text: 'Answered by the fake server.',
    }));
    const term = startTmux({
      dir: mkdtempSync(join(tmpdir(), 'cm-tmux-')),
      cwd: sandbox.cwd,
      env: { ...sandbox.env, TERM: 'xterm-256color' },
      command: [locateClients().claudeBinary],
    });
    closeLater(() => term.close());
    await term.waitFor('the prompt box', (screen) => /^❯/m.test(screen), 60_000);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    term.type(PROMPT);
    term.press('Enter');
    await term.waitFor('the answer', (screen) => screen.includes('Answered by the fake server.'), 120_000);
    // Side requests (a session title) carry no tools: the conversation's first is the first with the prompt.
    const conversation = requests.filter((r) => JSON.stringify(r.body ?? '').includes(PROMPT));
    return firstModelRequest(conversation, /^\/v1\/messages/);
  };

  it('interactive Claude Code, typed 2 s after the prompt box appears: the first request lists them', async () => {
    assertOffered(await interactiveFirstRequest('offered-tty', 2_000), CLAUDE_NAMES, false);
  });

  it('interactive Claude Code, typed the moment the box appears: the frame carries the shell command', async (t) => {
    assertFrameStandsAlone(await interactiveFirstRequest('offered-tty-at-once', 0), t, CLAUDE_NAMES);
  });

  it('claude -p with both cores kept busy beside it: the frame carries the shell command, tools or not', async (t) => {
    const { sandbox, requests } = await claudeLedgerWorld({ label: 'offered-load' }, () => ({
      type: 'text',
      text: 'ok',
    }));
    const run = await underLoad(() => runClaude(sandbox, { prompt: PROMPT, timeoutMs: 300_000 }));
    assert.equal(run.exitCode, 0, run.stderr);
    assertFrameStandsAlone(firstModelRequest(requests, /^\/v1\/messages/), t, CLAUDE_NAMES);
  });

  it('codex exec with both cores kept busy beside it: the frame carries the shell command, tools or not', async (t) => {
    const { sandbox, requests } = await codexLedgerWorld({ label: 'offered-load' }, () => ({
      type: 'text',
      text: 'ok',
    }));
    const run = await underLoad(() =>
      runCodex(sandbox, { prompt: PROMPT, extraArgs: ['--dangerously-bypass-hook-trust'] }),
    );
    assert.equal(run.exitCode, 0, run.stderr);
    assertFrameStandsAlone(firstModelRequest(requests, /./), t, CODEX_NAMES);
  });

  it('codex exec: the first request lists memory_propose and memory_get, and the frame invites proposals', async () => {
    const { sandbox, requests } = await codexLedgerWorld({ label: 'offered' }, () => ({ type: 'text', text: 'ok' }));
    const run = await runCodex(sandbox, { prompt: PROMPT, extraArgs: ['--dangerously-bypass-hook-trust'] });
    assert.equal(run.exitCode, 0, run.stderr);
    assertOffered(firstModelRequest(requests, /./), CODEX_NAMES, true);
  });
});
