// The memory_refresh MCP tool through the real shipped bin: an agent asks, from inside its
// session, for the notes approved since the session started. The server finds the session as
// `memory refresh` run from the session's shell does — the client that started the server is
// among its ancestors (here the hook instance a test gives both) — and the next tool use of that
// session carries the new selection once. Bad calls are structured errors that change nothing.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { McpTestClient } from '../support/mcp-client.js';

after(() => c.closeStores());

const [START, PROMPT, , TOOL] = c.hookFiles('codex', 'b');
const event = (file: string, cwd: string, session: string) => c.payloadFor(file, null, { cwd, session_id: session });

async function context(home: string, payload: string, instance: string): Promise<string | null> {
  const run = await c.hookBin(home, 'codex', payload, instance);
  assert.equal(run.code, 0, run.stderr);
  if (run.stdout === '') return null;
  return (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

async function sync(home: string, cwd: string): Promise<void> {
  const result = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
}

describe('the memory_refresh MCP tool', () => {
  it("replaces the calling session's snapshot; its next tool use gets the new one once", async () => {
    const home = tempHome('mcp-refresh');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'build', 'Build with make', 'Run make.');
    await sync(home, repo);
    assert.match((await context(home, event(START!, repo, 's1'), 'agent-1'))!, /Build with make/);
    // Another session of the same data home, in another process: never the one refreshed.
    await context(home, event(START!, repo, 's2'), 'agent-2');

    writeEntry(projectRoot(repo), 'build', 'Build with ninja', 'Run ninja.');
    await sync(home, repo);
    const client = await McpTestClient.start(home, repo, { env: { COMMON_MEMORY_HOOK_INSTANCE: 'agent-1' } });
    try {
      const listed = await client.request('tools/list');
      const tool = (listed.result!.tools as Array<{ name: string; description: string }>).find(
        (t) => t.name === 'memory_refresh',
      );
      assert.match(tool!.description, /arrive once/);

      const refreshed = await client.call('memory_refresh', {});
      assert.equal(refreshed.isError, undefined, JSON.stringify(refreshed));
      assert.equal(refreshed.structuredContent.client, 'codex');
      assert.equal(refreshed.structuredContent.entries, 1);
      assert.equal(refreshed.structuredContent.delivery, 'next UserPromptSubmit or PostToolUse');

      // The tool call's own PostToolUse delivers it; later events and the other session get nothing.
      const delivered = await context(home, event(TOOL!, repo, 's1'), 'agent-1');
      assert.match(delivered!, /Build with ninja/);
      assert.doesNotMatch(delivered!, /Build with make/);
      assert.equal(await context(home, event(PROMPT!, repo, 's1'), 'agent-1'), null, 'given once');
      assert.equal(await context(home, event(TOOL!, repo, 's2'), 'agent-2'), null, 'the other session: nothing');

      // Named by key, as the tool offers when the server cannot tell.
      const byKey = await client.call('memory_refresh', { session: refreshed.structuredContent.sessionKey });
      assert.equal(byKey.isError, undefined, JSON.stringify(byKey));

      // Bad calls: an unknown key, an unknown argument.
      const unknown = await client.call('memory_refresh', { session: 'no-such-key' });
      assert.equal(unknown.isError, true);
      assert.equal(unknown.structuredContent.error.code, 'not_found');
      assert.match(unknown.structuredContent.error.message, /common-memory sessions lists them/);
      const extra = await client.call('memory_refresh', { everything: true });
      assert.equal(extra.structuredContent.error.code, 'invalid_input');
    } finally {
      assert.equal(await client.close(), 0);
    }
  });

  it('a server no session started says how to name one and changes nothing', async () => {
    const home = tempHome('mcp-refresh-none');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'note', 'A note', 'Body.');
    await sync(home, repo);
    await context(home, event(START!, repo, 's1'), 'agent-1');
    const client = await McpTestClient.start(home, repo);
    try {
      const none = await client.call('memory_refresh', {});
      assert.equal(none.isError, true);
      assert.equal(none.structuredContent.error.code, 'not_found');
      // In the tool's terms: the agent passes `session`; it has no shell of the session to run a command from.
      assert.match(none.structuredContent.error.message, /memory_refresh again with "session"/);
      assert.doesNotMatch(none.structuredContent.error.message, /--session|session's shell/);
      assert.equal(await context(home, event(TOOL!, repo, 's1'), 'agent-1'), null, 'nothing pending');
    } finally {
      assert.equal(await client.close(), 0);
    }
  });
});
