// Live: a pi agent driven by the host (the real pi 0.73.1 against the fake model server) starts
// with the session-start memory snapshot — the fake server's first request carries it in the
// system prompt — and what the user told it reaches session search and extraction as a pi source.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Host } from '../../source/host/host.js';
import { runCli, waitFor } from '../support/cli.js';
import { syncedRepo } from '../support/approved-repo.js';
import { scripted, startFakeOpenAiServer, textReply } from '../support/fake-openai-server.js';
import { makePiAgentDir } from '../support/pi-agent-dir.js';

const day = 86_400_000;
const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

test('a driven pi agent starts with the memory snapshot; its user rows reach session search and extraction', {
  timeout: 120_000,
}, async () => {
  const server = await startFakeOpenAiServer({ responder: scripted([textReply('Noted, composition it is.', 2)]) });
  const config = makePiAgentDir({ baseUrl: server.baseUrl });
  // Synced with one user entry ("Prefer named exports"), which the snapshot carries wherever pi runs.
  const { home } = await syncedRepo('agents-memory');
  const outside = mkdtempSync(join(tmpdir(), 'cm-outside-git-'));
  const host = await Host.start({ home, serve: true });
  try {
    const app = host.application;
    await app.createAgent({ name: 'alpha', model: 'fake/fake-model', piConfigDir: config.dir });
    await app.startAgent({ agent: 'alpha' });
    await app.prompt({
      agent: 'alpha',
      text: 'We prefer composition over inheritance in the service layer.',
      operationId: 'op-pref',
    });
    await waitFor(
      'the prompt to settle',
      async () => ((await app.operation({ operationId: 'op-pref' })).state === 'settled' ? true : undefined),
      60_000,
    );
    const first = server.requests.find((r) => r.method === 'POST');
    assert.ok(first, 'pi asked the model');
    const system = JSON.stringify(
      (first.body as { messages: Array<{ role: string; content: unknown }> }).messages.find((m) => m.role === 'system'),
    );
    assert.match(system, /Prefer named exports/, 'the snapshot is in the first request');
    assert.match(system, /common-memory-notes/);

    const found = await app.sessionSearch({ query: 'composition inheritance' });
    assert.equal(found.results.length, 1, JSON.stringify(found));
    assert.equal(found.results[0]!.client, 'pi');
    assert.match(found.results[0]!.snippet, /composition/);

    const report = await app.memoryExtract({
      cwd: outside,
      client: 'pi',
      since: instant(Date.now() - day),
      until: instant(Date.now() + day),
    });
    assert.equal(report.turns, 1, JSON.stringify(report));
    // The host's own automatic pass may have drafted it first (it runs every few seconds on sealed
    // turns); then this run finds its one task already done. Either way one draft holds the rule.
    assert.equal(report.tasks.planned, 1, JSON.stringify(report));
    const review = await runCli(['memory', 'review', '--home', home, '--json'], { cwd: outside });
    assert.equal(review.code, 0, review.stderr);
    const drafts = (
      JSON.parse(review.stdout) as {
        candidates: Array<{ content: string; statements: Array<{ evidence: Array<{ client: string }> }> }>;
      }
    ).candidates.filter((c) => /composition over inheritance/.test(c.content));
    assert.equal(drafts.length, 1, review.stdout);
    assert.deepEqual(
      drafts[0]!.statements.flatMap((s) => s.evidence.map((e) => e.client)),
      ['pi'],
      'the draft cites the pi turn',
    );
  } finally {
    await host.stop();
    await server.close();
    config.cleanup();
    rmSync(join(home, '..'), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});
