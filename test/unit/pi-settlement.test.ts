import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyPiRecord } from '../../source/hosts/pi/pi-record.js';
import {
  advanceSettlement,
  settlementWait,
  startSettlement,
  type SettlementResult,
  type SettlementState,
  type SettlementStep,
} from '../../source/hosts/pi/settlement.js';
import { PI_SETTLE_GRACE_MS } from '../../source/limits.js';
import { fixtureNames, replayTranscript } from '../support/pi-transcript.js';

// --- over every recorded scenario -------------------------------------------------------------

const expected: Record<
  string,
  Array<{ id: string; result: SettlementResult; agentRuns: number; retryStarts: number; assistantMessages: number }>
> = {
  'a-simple-prompt': [
    {
      id: 'p1',
      result: { status: 'settled', outcome: { kind: 'answered', stopReason: 'stop' }, confirmedBy: 'next-record' },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 1,
    },
  ],
  'b-two-prompts-sequential': [
    {
      id: 'p1',
      result: { status: 'settled', outcome: { kind: 'answered', stopReason: 'stop' }, confirmedBy: 'next-record' },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 1,
    },
    {
      id: 'p2',
      result: { status: 'settled', outcome: { kind: 'answered', stopReason: 'stop' }, confirmedBy: 'next-record' },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 1,
    },
  ],
  'c-abort-mid-stream': [
    // Confirmed by response(abort), which pi writes after agent_end.
    {
      id: 'p1',
      result: {
        status: 'settled',
        outcome: { kind: 'aborted', errorMessage: 'Request was aborted' },
        confirmedBy: 'next-record',
      },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 1,
    },
    {
      id: 'p2',
      result: { status: 'settled', outcome: { kind: 'answered', stopReason: 'stop' }, confirmedBy: 'next-record' },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 1,
    },
  ],
  // One prompt, four agent runs, four error messages: settled only after the last one.
  'd1-provider-500-default-retry': [
    {
      id: 'p1',
      result: {
        status: 'settled',
        outcome: { kind: 'error', errorMessage: '500 fake upstream exploded' },
        confirmedBy: 'grace-elapsed',
      },
      agentRuns: 4,
      retryStarts: 3,
      assistantMessages: 4,
    },
  ],
  'd2-provider-500-no-auto-retry': [
    {
      id: 'p1',
      result: {
        status: 'settled',
        outcome: { kind: 'error', errorMessage: '500 fake upstream exploded' },
        confirmedBy: 'grace-elapsed',
      },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 1,
    },
  ],
  'd3-provider-malformed-sse': [
    {
      id: 'p1',
      result: {
        status: 'settled',
        outcome: { kind: 'error', errorMessage: "Expected property name or '}' in JSON at position 1" },
        confirmedBy: 'grace-elapsed',
      },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 1,
    },
  ],
  'e-tool-call-bash': [
    {
      id: 'p1',
      result: { status: 'settled', outcome: { kind: 'answered', stopReason: 'stop' }, confirmedBy: 'next-record' },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 2,
    },
  ],
  'f1-prompt-while-busy': [
    {
      id: 'p1',
      result: {
        status: 'faulted',
        phase: 'running',
        detail: 'unexpected-prompt-response: prompt response for id "p2" while the active prompt id is "p1"',
      },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 0,
    },
  ],
  'g-malformed-and-unknown-commands': [
    {
      id: 'x1',
      result: {
        status: 'faulted',
        phase: 'awaiting-response',
        detail:
          "command-unparsed: pi could not handle a command (parse): Failed to parse command: Expected property name or '}' in JSON at position 1",
      },
      agentRuns: 0,
      retryStarts: 0,
      assistantMessages: 0,
    },
  ],
  // stdin EOF / SIGTERM mid-stream: no agent_end ever comes.
  'i-stdin-eof-mid-stream': [
    {
      id: 'p1',
      result: { status: 'interrupted', phase: 'running' },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 0,
    },
  ],
  'j-sigterm-mid-stream': [
    {
      id: 'p1',
      result: { status: 'interrupted', phase: 'running' },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 0,
    },
  ],
  'k-introspection-after-prompt': [
    {
      id: 'p1',
      result: { status: 'settled', outcome: { kind: 'answered', stopReason: 'stop' }, confirmedBy: 'next-record' },
      agentRuns: 1,
      retryStarts: 0,
      assistantMessages: 1,
    },
  ],
};

test('every fixture has a settlement expectation', () => {
  assert.deepEqual(Object.keys(expected).sort(), fixtureNames());
});

for (const name of fixtureNames()) {
  test(`${name}: prompts settle as recorded`, () => {
    const replay = replayTranscript(name);
    assert.deepEqual(
      replay.prompts.map((p) => ({
        id: p.promptId,
        result: p.result,
        agentRuns: p.agentRuns,
        retryStarts: p.retryStarts,
        assistantMessages: p.assistantMessages,
      })),
      expected[name],
    );
  });
}

test('d1: without the grace timer the retries still never settle early; the next record confirms', () => {
  // An infinite grace: only records (here: the get_messages answer) can confirm.
  const replay = replayTranscript('d1-provider-500-default-retry', Number.POSITIVE_INFINITY);
  const [p1] = replay.prompts;
  assert.equal(p1?.result?.status === 'settled' && p1.result.confirmedBy, 'next-record');
  assert.equal(p1?.agentRuns, 4);
  // The record that confirmed (response get_messages) belongs to no prompt.
  assert.equal(replay.records.at(-1)?.promptId, null);
  assert.equal(replay.records.at(-2)?.record.event?.type, 'auto_retry_end');
  assert.equal(replay.records.at(-2)?.promptId, 'p1');
});

test('d1: auto_retry_start came 0-1 ms after agent_end, so a timer alone is fragile and the barrier is needed', () => {
  // Recorded gaps: 1 ms after the first agent_end, 0 ms after the others.
  const tight = replayTranscript('d1-provider-500-default-retry', 2).prompts[0];
  assert.equal(tight?.agentRuns, 4);
  assert.equal(tight?.retryStarts, 3);
  // A 1 ms timer would have settled the prompt at the first error, wrongly.
  const early = replayTranscript('d1-provider-500-default-retry', 1).prompts[0];
  assert.equal(early?.agentRuns, 1);
  assert.ok(early?.result?.status === 'settled' && early.result.confirmedBy === 'grace-elapsed');
});

// --- synthetic sequences (behaviour the recordings do not show) -------------------------------

const ID = 'prompt-1';
const r = (o: unknown, activePromptId: string | null = ID) => ({
  kind: 'record' as const,
  record: classifyPiRecord(JSON.stringify(o), { activePromptId }),
});
const ev = {
  accepted: r({ id: ID, type: 'response', command: 'prompt', success: true }),
  rejected: r({ id: ID, type: 'response', command: 'prompt', success: false, error: 'Agent is already processing.' }),
  agentStart: r({ type: 'agent_start' }),
  turnStart: r({ type: 'turn_start' }),
  turnEnd: r({ type: 'turn_end', message: {}, toolResults: [] }),
  agentEnd: r({ type: 'agent_end', messages: [] }),
  echo: r({ type: 'message_end', message: { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1 } }),
  answer: r({
    type: 'message_end',
    message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }], stopReason: 'stop', timestamp: 2 },
  }),
  truncated: r({
    type: 'message_end',
    message: { role: 'assistant', content: [], stopReason: 'length', timestamp: 2 },
  }),
  toolUse: r({ type: 'message_end', message: { role: 'assistant', content: [], stopReason: 'toolUse', timestamp: 2 } }),
  error: r({
    type: 'message_end',
    message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: '500 boom', timestamp: 2 },
  }),
  retryStart: r({ type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: '500 boom' }),
  retryOk: r({ type: 'auto_retry_end', success: true, attempt: 1 }),
  retryCancelled: r({ type: 'auto_retry_end', success: false, attempt: 1, finalError: 'Retry cancelled' }),
  compactStart: r({ type: 'compaction_start', reason: 'threshold' }),
  compactEnd: r({ type: 'compaction_end', reason: 'threshold', aborted: false, willRetry: false }),
  overflowStart: r({ type: 'compaction_start', reason: 'overflow' }),
  overflowEnd: r({ type: 'compaction_end', reason: 'overflow', aborted: false, willRetry: true }),
  barrier: r({ id: 'get_state-1', type: 'response', command: 'get_state', success: true, data: {} }),
  abortResponse: r({ id: 'abort-1', type: 'response', command: 'abort', success: true }),
  garbage: { kind: 'record' as const, record: classifyPiRecord('{not json', { activePromptId: ID }) },
};

function run(inputs: Parameters<typeof advanceSettlement>[1][]): { state: SettlementState; steps: SettlementStep[] } {
  let state = startSettlement(ID);
  const steps: SettlementStep[] = [];
  for (const input of inputs) {
    const step = advanceSettlement(state, input);
    steps.push(step);
    state = step.state;
  }
  return { state, steps };
}
const answeredRun = [ev.accepted, ev.agentStart, ev.turnStart, ev.echo, ev.answer, ev.turnEnd, ev.agentEnd];

test('after agent_end the prompt is settle-pending and the runtime is told to confirm', () => {
  const { state } = run(answeredRun);
  assert.equal(state.phase, 'settle-pending');
  assert.equal(state.result, null);
  assert.deepEqual(settlementWait(state), { kind: 'confirm', graceMs: PI_SETTLE_GRACE_MS });
  assert.deepEqual(settlementWait(startSettlement(ID)), { kind: 'records' });
});

test('the barrier response confirms settlement and is not consumed by the prompt', () => {
  const { state, steps } = run([...answeredRun, ev.barrier]);
  assert.deepEqual(state.result, {
    status: 'settled',
    outcome: { kind: 'answered', stopReason: 'stop' },
    confirmedBy: 'next-record',
  });
  assert.equal(steps.at(-1)?.consumed, false);
  assert.deepEqual(settlementWait(state), { kind: 'done', result: state.result });
});

test('grace-elapsed and stream-ended confirm a pending settlement; a late grace timer in another phase is ignored', () => {
  assert.equal(run([...answeredRun, { kind: 'grace-elapsed' }]).state.result?.status, 'settled');
  const ended = run([...answeredRun, { kind: 'stream-ended' }]).state.result;
  assert.ok(ended?.status === 'settled' && ended.confirmedBy === 'stream-ended');
  const { state } = run([ev.accepted, ev.agentStart, { kind: 'grace-elapsed' }]);
  assert.equal(state.phase, 'running');
  assert.equal(state.result, null);
});

test('a retry that succeeds: error, auto_retry_start, a new run, auto_retry_end{success}, answered', () => {
  const { state, steps } = run([
    ev.accepted,
    ev.agentStart,
    ev.turnStart,
    ev.echo,
    ev.error,
    ev.turnEnd,
    ev.agentEnd,
    ev.retryStart,
    { kind: 'grace-elapsed' }, // a timer that fired while pi slept: harmless
    ev.barrier, // the barrier sent at the first agent_end is answered during the backoff
    ev.agentStart,
    ev.turnStart,
    ev.answer,
    ev.retryOk,
    ev.turnEnd,
    ev.agentEnd,
    ev.barrier,
  ]);
  assert.deepEqual(state.result, {
    status: 'settled',
    outcome: { kind: 'answered', stopReason: 'stop' },
    confirmedBy: 'next-record',
  });
  assert.equal(state.agentRuns, 2);
  assert.equal(state.retryStarts, 1);
  assert.equal(state.assistantMessages, 2);
  assert.equal(
    steps[9]?.consumed,
    true,
    'a barrier answered mid-retry is journal evidence of the prompt, not a confirmation',
  );
});

test('while pi sleeps before a retry the runtime learns the backoff', () => {
  const { state } = run([ev.accepted, ev.agentStart, ev.error, ev.agentEnd, ev.retryStart]);
  assert.equal(state.phase, 'retry-wait');
  assert.deepEqual(settlementWait(state), { kind: 'retry-backoff', delayMs: 2000 });
});

test('a retry cancelled during the backoff (abort) settles with the error', () => {
  const { state } = run([
    ev.accepted,
    ev.agentStart,
    ev.error,
    ev.agentEnd,
    ev.retryStart,
    ev.retryCancelled,
    ev.abortResponse,
  ]);
  assert.deepEqual(state.result, {
    status: 'settled',
    outcome: { kind: 'error', errorMessage: '500 boom' },
    confirmedBy: 'next-record',
  });
});

test('retries exhausted: auto_retry_end after the last agent_end keeps it pending, the next record confirms', () => {
  const exhausted = r({ type: 'auto_retry_end', success: false, attempt: 3, finalError: '500 boom' });
  const { state, steps } = run([ev.accepted, ev.agentStart, ev.error, ev.agentEnd, exhausted]);
  assert.equal(state.phase, 'settle-pending');
  assert.equal(steps.at(-1)?.consumed, true);
  assert.equal(advanceSettlement(state, ev.barrier).state.result?.status, 'settled');
});

test('threshold compaction after agent_end delays settlement until compaction_end and the next record', () => {
  const { state } = run([...answeredRun, ev.compactStart]);
  assert.equal(state.phase, 'compacting');
  const after = run([...answeredRun, ev.compactStart, ev.compactEnd]).state;
  assert.equal(after.phase, 'settle-pending');
  assert.equal(advanceSettlement(after, ev.barrier).state.result?.status, 'settled');
});

test('overflow compaction with willRetry waits for the continued run', () => {
  const { state } = run([
    ev.accepted,
    ev.agentStart,
    ev.error,
    ev.agentEnd,
    ev.overflowStart,
    ev.overflowEnd,
    ev.barrier,
    ev.agentStart,
    ev.answer,
    ev.agentEnd,
    ev.barrier,
  ]);
  assert.deepEqual(state.result, {
    status: 'settled',
    outcome: { kind: 'answered', stopReason: 'stop' },
    confirmedBy: 'next-record',
  });
  assert.equal(state.agentRuns, 2);
});

test('pre-prompt compaction before the prompt response is consumed without a phase change', () => {
  const { state } = run([ev.compactStart, ev.compactEnd, ...answeredRun, ev.barrier]);
  assert.equal(state.result?.status, 'settled');
});

test('outcome is read from the LAST assistant message: error then answer is answered; answer then length is answered(length)', () => {
  assert.deepEqual(run([ev.accepted, ev.agentStart, ev.toolUse, ev.answer, ev.agentEnd, ev.barrier]).state.result, {
    status: 'settled',
    outcome: { kind: 'answered', stopReason: 'stop' },
    confirmedBy: 'next-record',
  });
  const truncated = run([ev.accepted, ev.agentStart, ev.truncated, ev.agentEnd, ev.barrier]).state.result;
  assert.ok(truncated?.status === 'settled');
  assert.deepEqual(truncated.outcome, { kind: 'answered', stopReason: 'length' });
});

test('a settled run without a final assistant answer is no-answer, never a made-up one', () => {
  const none = run([ev.accepted, ev.agentStart, ev.echo, ev.agentEnd, ev.barrier]).state.result;
  assert.ok(none?.status === 'settled');
  assert.deepEqual(none.outcome, { kind: 'no-answer', lastStopReason: null });
  const tool = run([ev.accepted, ev.agentStart, ev.toolUse, ev.agentEnd, ev.barrier]).state.result;
  assert.ok(tool?.status === 'settled');
  assert.deepEqual(tool.outcome, { kind: 'no-answer', lastStopReason: 'toolUse' });
});

test('a rejected prompt is terminal at once', () => {
  const { state } = run([ev.rejected]);
  assert.deepEqual(state.result, { status: 'rejected', error: 'Agent is already processing.' });
  assert.equal(state.accepted, false);
});

test('the stream ending before agent_end interrupts, in whatever phase', () => {
  assert.deepEqual(run([{ kind: 'stream-ended' }]).state.result, { status: 'interrupted', phase: 'awaiting-response' });
  assert.deepEqual(run([ev.accepted, ev.agentStart, ev.answer, { kind: 'stream-ended' }]).state.result, {
    status: 'interrupted',
    phase: 'running',
  });
  assert.deepEqual(
    run([ev.accepted, ev.agentStart, ev.error, ev.agentEnd, ev.retryStart, { kind: 'stream-ended' }]).state.result,
    {
      status: 'interrupted',
      phase: 'retry-wait',
    },
  );
});

test('impossible orders and protocol faults fault the prompt', () => {
  const cases: Array<[string, Parameters<typeof advanceSettlement>[1][], string]> = [
    ['agent_start before the response', [ev.agentStart], 'agent_start in phase awaiting-response'],
    ['agent_end without agent_start', [ev.accepted, ev.agentEnd], 'agent_end in phase accepted'],
    ['message_end outside a run', [ev.accepted, ev.answer], 'message_end (assistant) in phase accepted'],
    ['a second prompt response', [ev.accepted, ev.accepted], 'second prompt response (accepted)'],
    [
      'auto_retry_start while running',
      [ev.accepted, ev.agentStart, ev.retryStart],
      'auto_retry_start in phase running',
    ],
    ['invalid JSON while running', [ev.accepted, ev.agentStart, ev.garbage], 'invalid-json'],
    ['an oversized line', [ev.accepted, { kind: 'frame-fault', detail: 'oversized line #3' }], 'oversized line #3'],
  ];
  for (const [name, inputs, detail] of cases) {
    const result = run(inputs).state.result;
    assert.ok(result?.status === 'faulted', name);
    assert.ok(result.detail.includes(detail), `${name}: ${result.detail}`);
  }
});

test('a record after settlement belongs to nobody: re-routed without an operation, a message_end faults', () => {
  const { state, steps } = run([...answeredRun, r({ type: 'agent_start' })]);
  assert.equal(state.result?.status, 'settled');
  assert.equal(steps.at(-1)?.consumed, false);
  const late = classifyPiRecord(
    JSON.stringify({ type: 'message_end', message: { role: 'assistant', content: [], stopReason: 'stop' } }),
    { activePromptId: null },
  );
  assert.equal(late.route.kind, 'protocol-fault');
});

test('a terminal settlement refuses further input', () => {
  const { state } = run([ev.rejected]);
  assert.throws(() => advanceSettlement(state, ev.agentStart), /already rejected/);
});
