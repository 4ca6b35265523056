// Fault injection with the fake-pi child (seed 003 B3 drills 2, 4, 5 at the building-block level):
// real pipes, real child processes, framer → classifier → settlement as the runtime will wire them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakePiCommand, type FakePiScript } from '../support/fake-pi.js';
import { PiChild, within, type PromptRun } from '../support/pi-harness.js';
import { fixturePath } from '../support/pi-transcript.js';

const TIMEOUT_MS = 20_000;

async function withFake<T>(
  script: FakePiScript,
  body: (pi: PiChild) => Promise<T>,
  maxRecordBytes?: number,
): Promise<T> {
  const { command, args } = fakePiCommand(script);
  const pi = new PiChild({ command, args, ...(maxRecordBytes === undefined ? {} : { maxRecordBytes }) });
  try {
    return await body(pi);
  } finally {
    pi.killHard();
    await pi.exited;
  }
}

const routes = (run: PromptRun): string[] => run.records.map((o) => o.record.route.kind);

test('fake-pi replaying a-simple-prompt: accepted with our id, one echo, one canonical answer, settled by the barrier', {
  timeout: TIMEOUT_MS,
}, async () => {
  await withFake({ onPrompt: { replay: fixturePath('a-simple-prompt', 'stdout') } }, async (pi) => {
    const run = await within(pi.prompt('Say hello'), TIMEOUT_MS, 'prompt');
    assert.deepEqual(run.state.result, {
      status: 'settled',
      outcome: { kind: 'answered', stopReason: 'stop' },
      confirmedBy: 'next-record',
    });
    const first = run.records[0]?.record;
    assert.ok(first?.event?.type === 'response' && first.event.id === run.promptId);
    assert.equal(routes(run).filter((k) => k === 'user-echo').length, 1);
    assert.equal(routes(run).filter((k) => k === 'canonical').length, 1);
    assert.equal(run.barrierIds.length, 1);
    // The barrier's answer is the record after agent_end, and belongs to no prompt.
    const barrierAnswer = pi.records.find(
      (o) => o.record.event?.type === 'response' && o.record.event.id === run.barrierIds[0],
    );
    assert.equal(barrierAnswer?.promptId, null);
    const exit = await pi.close();
    assert.equal(exit.code, 0, 'exits 0 at stdin EOF like pi');
  });
});

test('fake-pi replaying the tool loop: assistant(toolUse), toolResult and the answer are canonical', {
  timeout: TIMEOUT_MS,
}, async () => {
  await withFake({ onPrompt: { replay: fixturePath('e-tool-call-bash', 'stdout') } }, async (pi) => {
    const run = await within(pi.prompt('TOOLCALL run echo hi'), TIMEOUT_MS, 'prompt');
    assert.equal(run.state.result?.status, 'settled');
    const canonical = run.records
      .filter((o) => o.record.route.kind === 'canonical')
      .map((o) => (o.record.route.kind === 'canonical' ? o.record.route.role : ''));
    assert.deepEqual(canonical, ['assistant', 'toolResult', 'assistant']);
  });
});

test('malformed JSON mid-run faults the prompt; the raw line is kept', { timeout: TIMEOUT_MS }, async () => {
  const script: FakePiScript = {
    onPrompt: {
      replay: fixturePath('a-simple-prompt', 'stdout'),
      maxLines: 5,
      rawLines: ['{"type":"message_update", oops'],
    },
  };
  await withFake(script, async (pi) => {
    const run = await within(pi.prompt('Say hello'), TIMEOUT_MS, 'prompt');
    assert.ok(run.state.result?.status === 'faulted');
    assert.match(run.state.result.detail, /^invalid-json/);
    assert.equal(run.state.result.phase, 'running');
    assert.equal(run.records.at(-1)?.record.raw, '{"type":"message_update", oops');
  });
});

test('an oversized stdout line is one bounded oversized event and faults the prompt', {
  timeout: TIMEOUT_MS,
}, async () => {
  const limit = 64 * 1024;
  const script: FakePiScript = {
    onPrompt: { replay: fixturePath('a-simple-prompt', 'stdout'), maxLines: 3, oversizedBytes: 300_000 },
  };
  await withFake(
    script,
    async (pi) => {
      const run = await within(pi.prompt('Say hello'), TIMEOUT_MS, 'prompt');
      assert.ok(run.state.result?.status === 'faulted');
      assert.match(run.state.result.detail, /oversized line #4 \(300000 bytes\)/);
      const oversized = pi.stdoutFrames.filter((f) => f.kind === 'oversized');
      assert.deepEqual(oversized, [{ kind: 'oversized', ordinal: 4, byteLength: 300_000, limit, terminated: true }]);
    },
    limit,
  );
});

test('stderr noise is framed on its own stream and does not disturb stdout', { timeout: TIMEOUT_MS }, async () => {
  const noise = ['Could not parse message into JSON: {x', 'warning: \u2028 odd separator inside'];
  const script: FakePiScript = {
    startupStderr: noise,
    onPrompt: { replay: fixturePath('a-simple-prompt', 'stdout'), stderr: ['during prompt'] },
  };
  await withFake(script, async (pi) => {
    const run = await within(pi.prompt('Say hello'), TIMEOUT_MS, 'prompt');
    assert.equal(run.state.result?.status, 'settled');
    await pi.close();
    await pi.stdoutDone;
    assert.deepEqual(
      pi.stderrFrames.map((f) => (f.kind === 'record' ? f.text : f.kind)),
      [...noise, 'during prompt'],
    );
    assert.deepEqual(
      pi.stderrFrames.map((f) => f.ordinal),
      [1, 2, 3],
    );
  });
});

test('a child that exits at once interrupts the prompt before any response', { timeout: TIMEOUT_MS }, async () => {
  await withFake({ exitAtOnce: 3, startupStderr: ['fatal: cannot start'] }, async (pi) => {
    const run = await within(pi.prompt('Say hello'), TIMEOUT_MS, 'prompt');
    assert.deepEqual(run.state.result, { status: 'interrupted', phase: 'awaiting-response' });
    assert.equal((await pi.exited).code, 3);
  });
});

test('a child that never answers leaves the prompt awaiting its response until the stream ends', {
  timeout: TIMEOUT_MS,
}, async () => {
  await withFake({ answerCommands: false }, async (pi) => {
    const pending = pi.prompt('Say hello');
    await assert.rejects(within(pending, 1500, 'prompt'), /no result within 1500 ms/);
    assert.equal(pi.activePromptId !== null, true);
    assert.equal(pi.records.length, 0);
    await pi.close();
    const run = await within(pending, TIMEOUT_MS, 'prompt after close');
    assert.deepEqual(run.state.result, { status: 'interrupted', phase: 'awaiting-response' });
  });
});

test('a child that answers then dies mid-record: truncated tail, prompt interrupted while running', {
  timeout: TIMEOUT_MS,
}, async () => {
  const script: FakePiScript = {
    onPrompt: {
      replay: fixturePath('a-simple-prompt', 'stdout'),
      maxLines: 9,
      partialTail: '{"type":"message_update","assistantMes',
      then: 'sigkill',
    },
  };
  await withFake(script, async (pi) => {
    const run = await within(pi.prompt('Say hello'), TIMEOUT_MS, 'prompt');
    assert.deepEqual(run.state.result, { status: 'interrupted', phase: 'running' });
    assert.equal((await pi.exited).signal, 'SIGKILL');
    const last = pi.stdoutFrames.at(-1);
    assert.ok(last?.kind === 'truncated');
    assert.equal(last.text, '{"type":"message_update","assistantMes');
    assert.equal(last.ordinal, 10);
    assert.equal(run.records.filter((o) => o.record.route.kind === 'canonical').length, 0, 'no answer is invented');
  });
});
