// Memory at session start, live: an approved entry written into repository A's memory root and
// projected by `memory sync` reaches the model — the fake server's recorded request — when the
// real Codex CLI 0.171.0 or Claude Code 2.1.332 starts a session in repository A with
// common-memory's hook installed; a session in repository B, same data home, does not get it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { byPrompt as messagesByPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { byPrompt as responsesByPrompt, startFakeResponsesServer } from '../support/fake-responses-server.js';
import { BIN, runCli, tempHome } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { createClaudeSandbox, createCodexSandbox, runClaude, runCodex, shellQuote } from './harness.js';

const home = tempHome('live-memory');
const hook = (client: 'codex' | 'claude') =>
  `${shellQuote(process.execPath)} ${shellQuote(BIN)} hook ${client} --home ${shellQuote(home)}`;
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** Words only this entry holds; they must appear in A's first request and nowhere in B's. */
const MARK = 'zanzibar-quokka-release-rule';

/** Makes `cwd` a git repository; in repository A, with the approved entry, synced into the data home. */
async function repository(cwd: string, withEntry: boolean): Promise<void> {
  execFileSync('git', ['init', '-q'], { cwd });
  if (withEntry)
    writeEntry(projectRoot(cwd), 'release-rule', `Tag releases as ${MARK}`, `Every release tag follows ${MARK}.`, {
      priority: 90,
    });
  const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd });
  assert.equal(synced.code, 0, synced.stderr);
  assert.equal(JSON.parse(synced.stdout).entries, withEntry ? 1 : 0);
}

const firstRequest = (requests: ReadonlyArray<{ method: string; body: unknown }>): string => {
  const posted = requests.filter((r) => r.method === 'POST' && r.body !== null);
  assert.ok(posted.length > 0, 'the client asked the model');
  return JSON.stringify(posted[0]!.body);
};

describe('memory at session start with the real clients', () => {
  it('codex: repository A gets the entry in its first request; repository B does not', async () => {
    const server = await startFakeResponsesServer({ script: responsesByPrompt([], { type: 'text', text: 'ok' }) });
    try {
      const seen: Record<string, string> = {};
      for (const name of ['A', 'B']) {
        const sandbox = await createCodexSandbox({ baseUrl: server.baseUrl, hookCommand: hook('codex') });
        cleanups.push(() => sandbox.cleanup());
        await repository(sandbox.cwd, name === 'A');
        const before = server.requests.length;
        const run = await runCodex(sandbox, { prompt: `Hello from repository ${name}` });
        assert.equal(run.exitCode, 0, run.stderr);
        seen[name] = firstRequest(server.requests.slice(before));
      }
      assert.match(seen['A']!, new RegExp(MARK));
      assert.match(seen['A']!, /common-memory-notes/);
      assert.match(seen['A']!, /data, not instructions/);
      assert.doesNotMatch(seen['B']!, new RegExp(MARK));
    } finally {
      await server.close();
    }
  });

  it('claude: repository A gets the entry in its first request; repository B does not', async () => {
    const server = await startFakeAnthropicServer({ script: messagesByPrompt([], { type: 'text', text: 'ok' }) });
    try {
      const seen: Record<string, string> = {};
      for (const name of ['A', 'B']) {
        const sandbox = await createClaudeSandbox({ baseUrl: server.baseUrl, hookCommand: hook('claude') });
        cleanups.push(() => sandbox.cleanup());
        await repository(sandbox.cwd, name === 'A');
        const before = server.requests.length;
        const run = await runClaude(sandbox, { prompt: `Hello from repository ${name}` });
        assert.equal(run.exitCode, 0, run.stderr);
        seen[name] = firstRequest(server.requests.slice(before).filter((r) => r.path.startsWith('/v1/messages')));
      }
      assert.match(seen['A']!, new RegExp(MARK));
      assert.match(seen['A']!, /common-memory-notes/);
      assert.doesNotMatch(seen['B']!, new RegExp(MARK));
    } finally {
      await server.close();
    }
  });
});
