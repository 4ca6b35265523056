// The API's declarations are the only place a method is written down: the HTTP server, the client
// and the read-only connection must all follow them, method by method.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { apiRoutes, type Application } from '../../source/api/application.js';
import { apiClient } from '../../source/client/api-client.js';
import { connect } from '../../source/client/connect.js';
import { CmError } from '../../source/errors.js';
import { Host } from '../../source/host/host.js';
import { tempHome } from '../support/cli.js';

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
  memoryApprove: { planId: 'no-such-plan', digest: '0'.repeat(64) },
  memoryPromote: { planId: 'no-such-plan' },
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
      const client = apiClient(host.info.port!, host.info.token!);
      for (const name of Object.keys(apiRoutes)) {
        if (name === 'createAgent' || name === 'appendNote') continue; // writes compared below, once each
        const remote = await outcome(client, name);
        assert.doesNotMatch(remote, /No route/, `${name} has an HTTP route`);
        assert.equal(
          remote,
          await outcome(host.application, name),
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
      for (const [name, route] of Object.entries(apiRoutes)) {
        const result = await outcome(connection.app, name);
        if (route.kind === 'write')
          assert.equal(result, `internal: This connection is read-only; "${name}" needs the host or the lease.`);
        else assert.doesNotMatch(result, /read-only/, `${name} is answered`);
      }
    } finally {
      await connection.close();
    }
  });
});
