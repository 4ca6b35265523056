// The API's declarations are the only place a method is written down: the HTTP server, the client
// and the read-only connection must all follow them, method by method.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { apiRoutes, type Application, type MethodName } from '../../source/api/application.js';
import { apiClient } from '../../source/client/api-client.js';
import { connect } from '../../source/client/connect.js';
import { CmError } from '../../source/errors.js';
import { Host } from '../../source/host/host.js';
import { ended, heldAt, HELLO, SIMPLE, SIMPLE_LINES, withFakeHost } from '../support/agents-drill-kit.js';
import { checkedApplication, type ParsedMethods } from '../support/checked-application.js';
import * as c from '../support/capture.js';
import { gitRepo, tempHome, waitFor } from '../support/cli.js';
import { holdGate } from '../support/fake-pi.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const FAKE_RUNNER = new URL('../support/fake-command-runner.mjs', import.meta.url).pathname;

/** A request every method accepts in shape: unknown names and IDs, so nothing is really changed. */
const probe: Record<string, unknown> = {
  appendNote: { text: 'probe' },
  journal: { after: 0, limit: 5 },
  timeline: { after: 0, limit: 5 },
  message: { messageId: 'no/such message' },
  operation: { operationId: 'no-such-operation' },
  createAgent: { name: 'probe', operationId: 'op-probe' },
  startAgent: { agent: 'no such agent' },
  stopAgent: { agent: 'no such agent' },
  prompt: { agent: 'no such agent', text: 'hi' },
  abort: { agent: 'no such agent' },
  abandon: { operationId: 'no-such-operation' },
  captureStatus: {},
  sessionDrain: {},
  flush: {},
  captureImportStart: { client: 'codex', root: join(tmpdir(), 'no-such-codex-sessions') },
  captureImportRun: { importId: 'no-such-import' },
  sessionSearch: { query: 'probe' },
  listSessions: {},
  readSession: { sessionKey: 'no-such-session' },
  memoryExtract: { cwd: tmpdir(), since: '2026-01-01', until: '2026-01-02' },
  memoryExtractStart: { cwd: tmpdir(), since: '2026-01-01', until: '2026-01-02' },
  memoryExtractRun: { runId: 'no-such-run' },
  memoryReview: { cwd: tmpdir() },
  memoryRetry: { taskId: 'no-such-task' },
  memoryReverifyRunner: { runner: 'no-such-runner' },
  memoryReverifyStart: { runner: 'no-such-runner' },
  memoryReverifyProbe: { probeId: 'no-such-probe' },
  memoryRecall: { text: 'probe', cwd: tmpdir() },
  memorySync: { cwd: tmpdir() },
  memoryVerify: { cwd: tmpdir() },
  memoryStale: { cwd: tmpdir() },
  memorySearch: { query: 'probe', cwd: tmpdir() },
  memoryGet: { entryId: 'no-such-entry', cwd: tmpdir() },
  memoryConfirm: { candidateId: 'no-such-candidate', statementId: 's1', cwd: tmpdir() },
  memoryDiscard: { candidateId: 'no-such-candidate', cwd: tmpdir() },
  memoryPropose: {
    cwd: tmpdir(),
    title: 'Probe',
    content: 'A probe proposal.',
    type: 'work_fact',
    appliesWhen: null,
    origin: { client: 'probe', clientVersion: null, conversation: null },
  },
  memoryPrepare: { candidateIds: ['no-such-candidate'], cwd: tmpdir() },
  memoryPlan: { planId: 'no-such-plan' },
  memoryPatch: { taskId: 'no-such-patch' },
  memoryApprove: { planId: 'no-such-plan', digest: '0'.repeat(64) },
  memoryPromote: { planId: 'no-such-plan' },
  memoryVoid: { planId: 'no-such-plan' },
  memoryRetire: { entryId: 'no-such-entry', cwd: tmpdir() },
  memoryConsolidate: { cwd: tmpdir() },
  memorySuggestions: { cwd: tmpdir() },
};

async function outcome(app: Application, name: string): Promise<string> {
  const method = app[name as keyof Application] as (request: unknown) => Promise<unknown>;
  try {
    await method.call(app, probe[name]);
    return 'answered';
  } catch (error) {
    assert.ok(error instanceof CmError, `${name}: ${String(error)}`);
    return `${error.code}: ${error.message}`;
  }
}

describe('the API declarations', () => {
  it('route every declared method over HTTP to the same answer the host gives in process', async () => {
    const home = tempHome('api');
    const host = await Host.start({ home, serve: true });
    try {
      const client = checkedApplication(apiClient(host.info.port!, host.info.token!));
      for (const name of Object.keys(apiRoutes)) {
        if (name === 'createAgent' || name === 'appendNote') continue; // writes compared below, once each
        const remote = await outcome(client, name);
        assert.doesNotMatch(remote, /No route/, `${name} has an HTTP route`);
        assert.equal(
          remote,
          await outcome(checkedApplication(host.application), name),
          `${name}: the same answer over HTTP and in process`,
        );
      }
      const note = await client.appendNote({ text: 'over http', operationId: 'op-note' });
      assert.equal(
        (await client.appendNote({ text: 'over http', operationId: 'op-note' })).sequence,
        note.sequence,
        'a replay',
      );
      const agent = await client.createAgent({ name: 'probe', operationId: 'op-agent' });
      assert.deepEqual(await client.listAgents(), [agent]);
      const refused = await client.message({ messageId: 'a/b c?d' }).catch((error: CmError) => error.message);
      assert.match(String(refused), /"a\/b c\?d" is not a message ID/, 'a path field arrives whole, URI-encoded');
    } finally {
      await host.stop();
    }
  });

  it('make a read-only connection answer every read and refuse every write it declares', async () => {
    const home = tempHome('api-ro');
    await (await Host.start({ home, serve: false })).stop();
    const connection = await connect(home, 'read');
    try {
      assert.equal(connection.mode, 'read-only');
      const app = checkedApplication(connection.app);
      for (const [name, route] of Object.entries(apiRoutes)) {
        const result = await outcome(app, name);
        if (route.kind === 'write')
          assert.equal(result, `internal: This connection is read-only; "${name}" needs the host or the lease.`);
        else assert.doesNotMatch(result, /read-only/, `${name} is answered`);
      }
      // It names no route table (source/api/read-only.ts): what is no method stays absent.
      assert.equal(await Promise.resolve(connection.app), connection.app, 'not a thenable');
      assert.equal(JSON.stringify({ app: connection.app }).startsWith('{"app":{'), true);
      assert.equal((connection.app as unknown as Record<string, unknown>)['hasOwnProperty'], undefined);
    } finally {
      await connection.close();
    }
  });

  it('answer each method over HTTP as its response schema declares, from a host with real data', async () => {
    // A captured session in a repository, an external runner that answers well, and a driven agent
    // whose pi is the fake: enough for every method to give a real answer, not an error.
    const home = tempHome('api-answers');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, ['From now on, use pnpm instead of npm in this repo.']);
    await c.flush(home);
    const runner = {
      name: 'ext',
      kind: 'command',
      argv: [process.execPath, FAKE_RUNNER, 'good', join(home, 'runner-record')],
      provider: 'test-provider',
      model: 'fake-model',
      endpoint: 'http://127.0.0.1:9/v1',
    };
    writeFileSync(join(home, 'runners.json'), JSON.stringify({ profiles: [runner] }));
    const gate = holdGate();
    const script = {
      onPrompt: { replay: SIMPLE, hold: { afterLines: SIMPLE_LINES.throughUserEcho, releaseFile: gate.releaseFile } },
    };
    const parsed: ParsedMethods = new Set();
    await withFakeHost(
      script,
      async ({ host }) => {
        const app = checkedApplication(apiClient(host.info.port!, host.info.token!), parsed);
        await app.status();
        await app.appendNote({ text: 'a note', operationId: 'op-note' });
        await app.captureStatus({});
        await app.sessionDrain({});
        await app.flush({});
        const sessions = await app.listSessions({});
        assert.ok(sessions.sessions[0], 'the queued session is listed');
        await app.readSession({ sessionKey: sessions.sessions[0].sessionKey });
        await app.sessionSearch({ query: 'pnpm' });
        // An import of one recorded rollout, started and followed as the import command does.
        const sessionsDir = join(home, '..', 'codex-sessions');
        mkdirSync(sessionsDir, { recursive: true });
        copyFileSync(c.rolloutFixture('a-simple-one-turn.jsonl'), join(sessionsDir, 'rollout-a.jsonl'));
        const { importId } = await app.captureImportStart({ client: 'codex', root: sessionsDir, extract: false });
        const imported = await waitFor('the import to end', async () => {
          const run = await app.captureImportRun({ importId });
          return run.state === 'running' || run.state === 'extracting' ? undefined : run;
        });
        assert.equal(imported.report?.turns, 1, JSON.stringify(imported));

        const agent = await app.createAgent({ name: 'a', operationId: 'op-create' });
        await app.startAgent({ agent: 'a' });
        await app.prompt({ agent: 'a', text: HELLO, operationId: 'op-prompt' });
        await heldAt(app, agent.agentId, SIMPLE_LINES.throughUserEcho);
        await app.abort({ agent: 'a' });
        gate.release();
        await ended(app, 'op-prompt');
        await app.listAgents();
        const rows = (await app.timeline({ after: 0, limit: 50, agentId: agent.agentId })).rows;
        await app.journal({ after: 0, limit: 50 });
        assert.ok(rows[0], 'the prompt is on the timeline');
        await app.message({ messageId: rows[0].messageId });
        await app.stopAgent({ agent: 'a' });

        // The external runner first asks for an approval (a pending plan); its task can be retried.
        const request = { cwd: repo, runner: 'ext', since: '2026-01-01' };
        const pending = (await app.memoryExtract(request)).pendingPlan;
        assert.ok(pending?.plans[0], 'the runner waits for an approval');
        await app.memoryRetry({ taskId: pending.plans[0].taskId });
        const report = await app.memoryExtract({ ...request, approveManifest: pending.manifest.manifestDigest });
        assert.ok(report.candidates.created > 0, JSON.stringify(report));
        await app.memoryReverifyRunner({ runner: 'ext' });
        // The client composes those two of start-and-follow calls inside itself; each is also called here.
        const { runId } = await app.memoryExtractStart(request);
        await waitFor('the run to end', async () => {
          const run = await app.memoryExtractRun({ runId });
          return run.state === 'running' || run.state === 'waiting' ? undefined : run;
        });
        const { probeId } = await app.memoryReverifyStart({ runner: 'ext' });
        await waitFor('the probe to end', async () => {
          const probe = await app.memoryReverifyProbe({ probeId });
          return probe.state === 'running' ? undefined : probe;
        });
        await app.memoryStatus();

        const review = await app.memoryReview({ cwd: repo });
        const drafted = review.candidates.find((candidate) => candidate.origin.kind === 'extraction');
        assert.ok(drafted?.statements[0], 'a drafted candidate with a statement');
        await app.memoryConfirm({
          candidateId: drafted.candidateId,
          statementId: drafted.statements[0].statementId,
          cwd: repo,
        });
        const proposed = await app.memoryPropose({
          cwd: repo,
          title: 'Probe',
          content: 'A proposal that is discarded.',
          type: 'work_fact',
          appliesWhen: null,
          origin: { client: 'probe', clientVersion: null, conversation: null },
        });
        await app.memoryDiscard({ candidateId: proposed.candidateId, cwd: repo });
        const plan = await app.memoryPrepare({ candidateIds: [drafted.candidateId], cwd: repo });
        await app.memoryPlan({ planId: plan.planId });
        await app.memoryApprove({ planId: plan.planId, digest: plan.planDigest });
        await app.memoryPromote({ planId: plan.planId });
        await app.memorySync({ cwd: repo });
        assert.equal((await app.memoryVerify({ cwd: repo })).state, 'verified');
        assert.equal((await app.memoryStale({ cwd: repo })).state, 'verified');
        const found = await app.memorySearch({ query: 'pnpm', cwd: repo });
        assert.ok(found.results[0], 'the promoted entry is found');
        await app.memoryGet({ entryId: found.results[0].entryId, cwd: repo });
        await app.memoryRecall({ text: 'which package manager', cwd: repo });
        assert.ok(Array.isArray((await app.memorySuggestions({ cwd: repo })).suggestions));
        const consolidation = await app.memoryConsolidate({ cwd: repo });
        assert.equal(consolidation.outcome, 'accepted', JSON.stringify(consolidation));
        assert.equal(consolidation.entries, 1);
        assert.deepEqual(consolidation.patch?.operations, [], 'one entry: nothing to propose');
        assert.deepEqual((await app.memoryReview({ cwd: repo })).patches, [], 'so nothing waits in review');
        const retirement = await app.memoryRetire({ entryId: found.results[0].entryId, cwd: repo });
        assert.match(retirement.diff, /^\+\+\+ \/dev\/null$/m, 'a plan that removes the file');
        assert.equal((await app.memoryVoid({ planId: retirement.planId })).status, 'voided', 'withdrawn');
      },
      { home, env: { COMMON_MEMORY_AUTO_EXTRACT: 'off' } },
    );
    /** Methods this host gives no real answer of, each with where one is checked. */
    const elsewhere: Partial<Record<MethodName, string>> = {
      abandon: 'test/e2e/agents-drills.test.ts (an interrupted prompt, through the checked drill host)',
      memoryPatch: 'test/cli/memory-patch.test.ts (a patch with operations, read through a running host)',
    };
    const missing = (Object.keys(apiRoutes) as MethodName[]).filter((name) => !parsed.has(name) && !elsewhere[name]);
    assert.deepEqual(missing, [], 'every method has a real answer checked here or named in `elsewhere`');
  });
});
