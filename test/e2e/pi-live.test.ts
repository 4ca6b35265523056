// Live: the real pi 0.73.1 (node_modules/.bin/pi) in RPC mode against the fake OpenAI server, with
// a private agent dir per test. Checks that what the real client writes frames, classifies and
// settles as the fixtures say. Each test is bounded and kills only the child it started (by pid).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  failAttemptsThen,
  scripted,
  SDK_REQUESTS_PER_ATTEMPT,
  startFakeOpenAiServer,
  textReply,
  type FakeReply,
  type Responder,
} from '../support/fake-openai-server.js';
import { makePiAgentDir, PI_BIN, type PiAgentDirOptions } from '../support/pi-agent-dir.js';
import { PiChild, within, type ObservedRecord, type PromptRun } from '../support/pi-harness.js';

const TIMEOUT_MS = 40_000;

async function withPi<T>(
  responder: Responder,
  dirOptions: Omit<PiAgentDirOptions, 'baseUrl'>,
  body: (pi: PiChild, server: Awaited<ReturnType<typeof startFakeOpenAiServer>>) => Promise<T>,
): Promise<T> {
  const server = await startFakeOpenAiServer({ responder, lifetimeMs: TIMEOUT_MS + 10_000 });
  const dir = makePiAgentDir({ baseUrl: server.baseUrl, ...dirOptions });
  const pi = new PiChild({ command: PI_BIN, args: dir.args, env: dir.env, cwd: dir.cwd });
  try {
    return await body(pi, server);
  } finally {
    pi.killHard();
    await pi.exited;
    await server.close();
    dir.cleanup();
  }
}

const kinds = (run: PromptRun): string[] =>
  run.records.map(({ record }) =>
    record.route.kind === 'lifecycle'
      ? record.route.evidence
      : record.route.kind === 'canonical'
        ? `canonical:${record.route.role}`
        : record.route.kind,
  );
const count = (run: PromptRun, kind: string): number => kinds(run).filter((k) => k === kind).length;
const isTextDelta = (o: ObservedRecord): boolean =>
  o.record.event?.type === 'message_update' && o.record.raw.includes('"type":"text_delta"');
const noFaults = (pi: PiChild): void =>
  assert.deepEqual(
    pi.records.filter((o) => o.record.route.kind === 'protocol-fault'),
    [],
  );

test('live pi: a simple answer is accepted, echoed, answered once and settled by the barrier', {
  timeout: TIMEOUT_MS,
}, async () => {
  await withPi(scripted([textReply('Hello from the fake model!', 5)]), {}, async (pi, server) => {
    const run = await within(pi.prompt('Say hello'), TIMEOUT_MS, 'prompt');
    assert.deepEqual(run.state.result, {
      status: 'settled',
      outcome: { kind: 'answered', stopReason: 'stop' },
      confirmedBy: 'next-record',
    });
    assert.deepEqual(kinds(run).slice(0, 5), ['accepted', 'agent_start', 'journal-only', 'journal-only', 'user-echo']);
    assert.equal(count(run, 'canonical:assistant'), 1);
    assert.equal(kinds(run).at(-1), 'agent_end');
    const answer = run.records.find((o) => o.record.route.kind === 'canonical')?.record;
    assert.ok(answer?.event?.type === 'message_end' && answer.event.message.role === 'assistant');
    assert.deepEqual(answer.event.message.message['content'], [{ type: 'text', text: 'Hello from the fake model!' }]);
    noFaults(pi);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]?.authorization, 'Bearer dummy-key');
    assert.equal((server.requests[0]!.body as { stream?: unknown }).stream, true);
    assert.equal(server.requests[0]?.lastMessageText, 'Say hello');
    const exit = await within(pi.close(), 10_000, 'exit');
    assert.equal(exit.code, 0);
  });
});

test('live pi: abort mid-stream settles as aborted, after which pi answers the abort', {
  timeout: TIMEOUT_MS,
}, async () => {
  // The stream holds after its first words and never goes on: the abort is what ends it.
  const held: FakeReply = {
    kind: 'text',
    chunks: Array.from({ length: 60 }, (_, i) => `word${i} `),
    hold: new Promise(() => undefined),
  };
  await withPi(scripted([held]), {}, async (pi, server) => {
    let aborted = false;
    const run = await within(
      pi.prompt('SLOW please stream a long answer', (o) => {
        if (!aborted && isTextDelta(o)) {
          aborted = true;
          pi.send({ type: 'abort', id: 'abort-1' });
        }
      }),
      TIMEOUT_MS,
      'prompt',
    );
    assert.deepEqual(run.state.result, {
      status: 'settled',
      outcome: { kind: 'aborted', errorMessage: 'Request was aborted' },
      confirmedBy: 'next-record',
    });
    assert.equal(count(run, 'canonical:assistant'), 1, 'the partial aborted message is canonical');
    // HOSTS.md 3.4: response(abort) comes only after agent_end, so it confirms settlement.
    const abortAnswer = pi.records.find((o) => o.record.event?.type === 'response' && o.record.event.id === 'abort-1');
    assert.ok(abortAnswer !== undefined);
    assert.equal(abortAnswer.promptId, null);
    assert.ok(abortAnswer.ordinal > (run.records.at(-1)?.ordinal ?? Infinity));
    noFaults(pi);
    // pi settles before the server sees the connection close: wait for that event, not for luck.
    await server.waitForClientGone(0, 10_000);
    assert.equal(server.requests[0]?.clientGone, true, 'pi dropped the HTTP stream');
  });
});

test('live pi: a provider 500 then success is one prompt over two runs, both assistant messages canonical', {
  timeout: TIMEOUT_MS,
}, async () => {
  const responder = failAttemptsThen(1, [textReply('Recovered answer', 3)]);
  await withPi(responder, { retry: { enabled: true, maxRetries: 3, baseDelayMs: 300 } }, async (pi, server) => {
    const run = await within(pi.prompt('ERR500 then fine'), TIMEOUT_MS, 'prompt');
    assert.deepEqual(run.state.result, {
      status: 'settled',
      outcome: { kind: 'answered', stopReason: 'stop' },
      confirmedBy: 'next-record',
    });
    assert.equal(run.state.agentRuns, 2);
    assert.equal(run.state.retryStarts, 1);
    assert.equal(count(run, 'canonical:assistant'), 2);
    assert.equal(count(run, 'user-echo'), 1, 'the retry starts a run without a user message');
    const retryStart = run.records.find((o) => o.record.event?.type === 'auto_retry_start')?.record.event;
    assert.ok(retryStart?.type === 'auto_retry_start');
    assert.equal(retryStart.delayMs, 300);
    assert.match(retryStart.errorMessage, /500/);
    const retryEnd = run.records.find((o) => o.record.event?.type === 'auto_retry_end')?.record.event;
    assert.ok(retryEnd?.type === 'auto_retry_end' && retryEnd.success);
    // The barrier written after the first agent_end was answered after auto_retry_start, mid-prompt.
    assert.equal(run.barrierIds.length, 2);
    const firstBarrier = pi.records.find(
      (o) => o.record.event?.type === 'response' && o.record.event.id === run.barrierIds[0],
    );
    const retryStartRecord = run.records.find((o) => o.record.event?.type === 'auto_retry_start');
    assert.ok(firstBarrier !== undefined && retryStartRecord !== undefined);
    assert.ok(firstBarrier.ordinal > retryStartRecord.ordinal);
    assert.equal(firstBarrier.promptId, run.promptId);
    noFaults(pi);
    assert.equal(server.requests.length, SDK_REQUESTS_PER_ATTEMPT + 1, 'the SDK retried the 500 twice on its own');
  });
});

test('live pi: SIGKILL mid-stream ends the stream with no message_end and the prompt interrupted', {
  timeout: TIMEOUT_MS,
}, async () => {
  const held: FakeReply = {
    kind: 'text',
    chunks: Array.from({ length: 60 }, (_, i) => `w${i} `),
    hold: new Promise(() => undefined),
  };
  await withPi(scripted([held]), {}, async (pi) => {
    const run = await within(
      pi.prompt('SLOW answer then SIGKILL', (o) => {
        if (isTextDelta(o)) pi.killHard();
      }),
      TIMEOUT_MS,
      'prompt',
    );
    assert.deepEqual(run.state.result, { status: 'interrupted', phase: 'running' });
    assert.equal((await pi.exited).signal, 'SIGKILL');
    assert.equal(count(run, 'canonical:assistant'), 0, 'no answer is invented');
    assert.equal(
      run.records.some((o) => o.record.event?.type === 'agent_end'),
      false,
    );
    noFaults(pi);
  });
});
