// The agent helps from its first request: with `install claude` / `install codex` done, the real
// Claude Code 2.1.332 (`claude -p`) and Codex 0.171.0 (`codex exec`) offer common-memory's MCP
// tools — memory_propose among them — in the FIRST model request of a session, as the fake model
// server records it, and the SessionStart frame in that request names memory_get and invites
// memory_propose when the user states a durable rule or corrects the agent. Codex sends the tools'
// schemas up front (memory_propose's description invites too); Claude Code lists MCP tools by name
// and loads a schema through ToolSearch when the model asks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedRequest } from '../support/fake-responses-server.js';
import { runClaude, runCodex } from './harness.js';
import { claudeLedgerWorld, codexLedgerWorld } from './ledger-world.js';

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

describe('memory tools are offered at the first model request', { timeout: 600_000 }, () => {
  it('claude -p: the first request lists memory_propose and memory_get, and the frame invites proposals', async () => {
    const { sandbox, requests } = await claudeLedgerWorld({ label: 'offered' }, () => ({ type: 'text', text: 'ok' }));
    const run = await runClaude(sandbox, { prompt: PROMPT, timeoutMs: 180_000 });
    assert.equal(run.exitCode, 0, run.stderr);
    assertOffered(
      firstModelRequest(requests, /^\/v1\/messages/),
      {
        propose: 'mcp__common-memory__memory_propose',
        get: 'mcp__common-memory__memory_get',
      },
      false,
    );
  });

  it('codex exec: the first request lists memory_propose and memory_get, and the frame invites proposals', async () => {
    const { sandbox, requests } = await codexLedgerWorld({ label: 'offered' }, () => ({ type: 'text', text: 'ok' }));
    const run = await runCodex(sandbox, { prompt: PROMPT, extraArgs: ['--dangerously-bypass-hook-trust'] });
    assert.equal(run.exitCode, 0, run.stderr);
    assertOffered(firstModelRequest(requests, /./), { propose: 'memory_propose', get: 'memory_get' }, true);
  });
});
