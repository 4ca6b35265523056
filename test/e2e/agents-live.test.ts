// Driven agents with the REAL pi 0.73.1 against a fake OpenAI-compatible server on loopback,
// through a real host (writer thread, agents thread, pi children), asserting on the committed
// journal and timeline.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Host } from '../../source/host/host.js';
import type { Application } from '../../source/api/application.js';
import type { OperationView, TimelineRow } from '../../source/api/history.js';
import { openDatabase } from '../../source/store/database.js';
import { runDoctor } from '../../source/store/doctor.js';
import { storeFiles } from '../../source/home.js';
import { tempHome, waitFor } from '../support/cli.js';
import {
  failAttemptsThen,
  scripted,
  startFakeOpenAiServer,
  textReply,
  type Responder,
} from '../support/fake-openai-server.js';
import { makePiAgentDir } from '../support/pi-agent-dir.js';
import { journal, timeline } from '../support/agents-drill-kit.js';

async function settled(app: Application, operationId: string, timeoutMs = 30_000): Promise<OperationView> {
  return waitFor(
    `operation ${operationId} to end`,
    async () => {
      const op = await app.operation({ operationId });
      return ['settled', 'interrupted', 'rejected'].includes(op.state) ? op : undefined;
    },
    timeoutMs,
  );
}

function doctor(home: string): void {
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    assert.deepEqual(runDoctor(db), []);
  } finally {
    db.close();
  }
}

async function withHost(
  responder: Responder,
  run: (ctx: { app: Application; home: string; host: Host; piConfig: string }) => Promise<void>,
  retry?: { enabled?: boolean; maxRetries?: number; baseDelayMs?: number },
) {
  const server = await startFakeOpenAiServer({ responder });
  const config = makePiAgentDir({ baseUrl: server.baseUrl, ...(retry ? { retry } : {}) });
  const home = tempHome('agents');
  const host = await Host.start({ home, serve: true });
  try {
    await run({ app: host.application, home, host, piConfig: config.dir });
  } finally {
    await host.stop();
    await server.close();
    config.cleanup();
  }
  doctor(home);
}

const textOf = (row: TimelineRow) => JSON.stringify(row.payload);

describe('driven agents with the real pi', { timeout: 180_000 }, () => {
  it('a simple answer: intent, user row, echo linked, assistant row with provenance both ways', async () => {
    await withHost(scripted([textReply('Hello from the fake model')]), async ({ app, home, piConfig }) => {
      const agent = await app.createAgent({ name: 'alpha', model: 'fake/fake-model', piConfigDir: piConfig });
      await app.startAgent({ agent: 'alpha' });
      const receipt = await app.prompt({ agent: 'alpha', text: 'Say hello', operationId: 'op-hello' });
      assert.deepEqual(
        Object.keys(receipt).sort(),
        ['messageId', 'operationId', 'replayed', 'sequence', 'storeId'],
        "the host's pi request and generation never reach a caller",
      );
      const op = await settled(app, 'op-hello');
      assert.equal(op.state, 'settled');
      assert.equal(op.outcome, 'answered');
      const rows = await timeline(app, agent.agentId);
      assert.deepEqual(
        rows.map((row) => row.role),
        ['user', 'assistant'],
      );
      assert.equal(rows[0]!.messageId, receipt.messageId);
      assert.equal(rows[0]!.sourceJournalSequence, receipt.sequence, 'the user row comes from the admitted intent');
      assert.match(textOf(rows[1]!), /Hello from the fake model/);
      const view = await app.message({ messageId: rows[1]!.messageId });
      assert.equal(view.source.kind, 'pi.message_end');
      assert.equal(view.source.canonicalMessageId, rows[1]!.messageId);
      const user = await app.message({ messageId: receipt.messageId });
      assert.deepEqual(
        user.observations.map((row) => row.kind),
        ['prompt.requested', 'pi.message_end'],
        'the echo links to the user row and adds none',
      );
      const replay = await app.prompt({ agent: 'alpha', text: 'Say hello', operationId: 'op-hello' });
      assert.deepEqual(replay, { ...receipt, replayed: true });
      assert.equal((await timeline(app)).length, 2, 'a replay creates nothing');
      const kinds = (await journal(app, agent.agentId)).map((row) => row.kind);
      for (const kind of [
        'prompt.requested',
        'prompt.attempted',
        'pi.response',
        'pi.agent_start',
        'pi.message_end',
        'pi.agent_end',
        'prompt.settled',
      ])
        assert.ok(kinds.includes(kind), kind);
      void home;
    });
  });

  it('two agents prompted at once: interleaved timelines with correct provenance; a busy agent refuses a second prompt', async () => {
    const responder: Responder = (request) => textReply(`answer to ${request.lastMessageText}`, 6, 40);
    await withHost(responder, async ({ app, piConfig }) => {
      const a = await app.createAgent({ name: 'a', model: 'fake/fake-model', piConfigDir: piConfig });
      const b = await app.createAgent({ name: 'b', model: 'fake/fake-model', piConfigDir: piConfig });
      await Promise.all([app.startAgent({ agent: 'a' }), app.startAgent({ agent: 'b' })]);
      await Promise.all([
        app.prompt({ agent: 'a', text: 'question A', operationId: 'op-a' }),
        app.prompt({ agent: 'b', text: 'question B', operationId: 'op-b' }),
      ]);
      await assert.rejects(
        app.prompt({ agent: 'a', text: 'too soon' }),
        (error: { code?: string }) => error.code === 'agent_busy',
      );
      await Promise.all([settled(app, 'op-a'), settled(app, 'op-b')]);
      for (const [agent, letter] of [
        [a, 'A'],
        [b, 'B'],
      ] as const) {
        const rows = await timeline(app, agent.agentId);
        assert.deepEqual(
          rows.map((row) => row.role),
          ['user', 'assistant'],
        );
        assert.match(textOf(rows[1]!), new RegExp(`answer to question ${letter}`));
        assert.ok(rows.every((row) => row.operationId === `op-${letter.toLowerCase()}`));
      }
      assert.equal((await app.operation({ operationId: 'op-a' })).outcome, 'answered');
    });
  });

  it('abort mid-stream: only the pinned prompt is aborted; the partial answer is kept as aborted', async () => {
    await withHost(
      scripted([textReply('a long and slow answer that will be cut', 40, 100), textReply('second answer')]),
      async ({ app, piConfig }) => {
        await app.createAgent({ name: 'slow', model: 'fake/fake-model', piConfigDir: piConfig });
        await app.startAgent({ agent: 'slow' });
        await app.prompt({ agent: 'slow', text: 'talk slowly', operationId: 'op-slow' });
        await waitFor('streaming', async () =>
          (await journal(app)).some((row) => row.kind === 'pi.message_update') ? true : undefined,
        );
        const abort = await app.abort({ agent: 'slow', operationId: 'op-abort' });
        assert.equal(abort.targetOperationId, 'op-slow');
        assert.deepEqual(Object.keys(abort).sort(), [
          'operationId',
          'replayed',
          'sequence',
          'storeId',
          'targetOperationId',
        ]);
        const replayedAbort = await app.abort({ agent: 'slow', operationId: 'op-abort' });
        assert.deepEqual(replayedAbort, { ...abort, replayed: true }, 'a replayed abort is the original receipt');
        const op = await settled(app, 'op-slow');
        assert.equal(op.state, 'settled');
        assert.equal(op.outcome, 'aborted');
        const rows = await timeline(app);
        assert.equal(rows.at(-1)!.role, 'assistant');
        assert.match(textOf(rows.at(-1)!), /"stopReason":"aborted"/);
        // The next prompt is unaffected by the earlier abort.
        await app.prompt({ agent: 'slow', text: 'again', operationId: 'op-next' });
        assert.equal((await settled(app, 'op-next')).outcome, 'answered');
      },
    );
  });

  it('a provider error with pi auto-retry that then succeeds: both observations kept, one prompt settled answered', async () => {
    await withHost(
      failAttemptsThen(1, [textReply('recovered')]),
      async ({ app, piConfig }) => {
        await app.createAgent({ name: 'retry', model: 'fake/fake-model', piConfigDir: piConfig });
        await app.startAgent({ agent: 'retry' });
        await app.prompt({ agent: 'retry', text: 'try hard', operationId: 'op-retry' });
        const op = await settled(app, 'op-retry');
        assert.equal(op.outcome, 'answered');
        const rows = await timeline(app);
        assert.deepEqual(
          rows.map((row) => row.role),
          ['user', 'assistant', 'assistant'],
        );
        assert.match(textOf(rows[1]!), /"stopReason":"error"/);
        assert.match(textOf(rows[2]!), /recovered/);
        assert.ok((await journal(app)).some((row) => row.kind === 'pi.auto_retry_start'));
      },
      { enabled: true, maxRetries: 2, baseDelayMs: 200 },
    );
  });

  it('pi killed with SIGKILL mid-answer: the operation is interrupted, no answer is invented; a host restart reads back the same rows', async () => {
    const home = tempHome('kill-pi');
    const server = await startFakeOpenAiServer({
      responder: scripted([textReply('this answer never finishes', 50, 200)]),
    });
    const config = makePiAgentDir({ baseUrl: server.baseUrl });
    let host = await Host.start({ home, serve: true });
    try {
      const app = host.application;
      await app.createAgent({ name: 'victim', model: 'fake/fake-model', piConfigDir: config.dir });
      const started = await app.startAgent({ agent: 'victim' });
      await app.prompt({ agent: 'victim', text: 'start talking', operationId: 'op-victim' });
      await waitFor('streaming', async () =>
        (await journal(app)).some((row) => row.kind === 'pi.message_update') ? true : undefined,
      );
      process.kill(started.generation!.pid!, 'SIGKILL');
      const op = await settled(app, 'op-victim');
      assert.equal(op.state, 'interrupted');
      const before = await timeline(app);
      assert.deepEqual(
        before.map((row) => row.role),
        ['user'],
        'no assistant row is invented',
      );
      const agents = await app.listAgents();
      assert.equal(agents[0]!.generation!.state, 'interrupted');
      await host.stop();
      host = await Host.start({ home, serve: true });
      assert.deepEqual(await timeline(host.application), before);
      const abandoned = await host.application.abandon({ operationId: 'op-victim' });
      assert.equal(abandoned.state, 'abandoned');
    } finally {
      await host.stop();
      await server.close();
      config.cleanup();
    }
    doctor(home);
  });
});
