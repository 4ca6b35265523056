// A drain step's message columns: bodies written as UTF-8 into one transferable buffer as turns
// close, and the writer's validation of that shape.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex, textDigest } from '../../source/ground/digests.js';
import type { TranscriptMessage, TranscriptTurn } from '../../source/hosts/transcript-model.js';
import { captureCommands, type CaptureStepInput } from '../../source/store/core/capture-sessions.js';
import { StepMessages } from '../../source/workers/step-messages.js';

const message = (key: string, text: string, classification: 'evidence' | 'context' = 'context'): TranscriptMessage => ({
  key,
  role: classification === 'evidence' ? 'user' : 'assistant',
  classification,
  kind: classification === 'evidence' ? 'prompt' : 'answer',
  text,
  line: 1,
  timestamp: null,
});

const turn = (key: string, texts: string[], state: TranscriptTurn['state'] = 'settled'): TranscriptTurn => ({
  key,
  state,
  messages: texts.map((text, i) => message(`${key}-${i}`, text, i === 0 ? 'evidence' : 'context')),
  firstLine: 1,
  lastLine: 1,
});

function bodiesOf(messages: CaptureStepInput['messages']): Buffer[] {
  const bytes = Buffer.from(messages.bodies.buffer, messages.bodies.byteOffset, messages.bodies.byteLength);
  return messages.bodyEnds.map((end, i) => bytes.subarray(i === 0 ? 0 : messages.bodyEnds[i - 1], end));
}

function stepInput(messages: CaptureStepInput['messages'], turns: CaptureStepInput['turns']): CaptureStepInput {
  return {
    activationId: 1,
    envelopeIds: [1],
    recoveryId: null,
    watch: null,
    turns,
    messages,
    incompleteKeys: [],
    bufferedTurns: 0,
  };
}

describe('step messages', () => {
  it('every body is the UTF-8 of its text, across growth of the buffer; the digest of the bytes is the digest of the text', () => {
    const texts = [
      'TOOL: run echo hi',
      '',
      'h\u00e9llo \u{1F600} \u4e2d\u6587',
      'lone surrogate \ud800 kept as U+FFFD, as SQLite and the hook see it',
      '\u00fc'.repeat(70 * 1024), // over the exact-size threshold, 2 bytes per unit
      'x'.repeat(1536 * 1024), // past the initial capacity: the buffer grows
    ];
    const step = new StepMessages();
    step.add(turn('t1', texts.slice(0, 3)));
    step.add(turn('t2', texts.slice(3), 'open'));
    const { turns, messages, transfer } = step.finish();
    assert.deepEqual(turns, [
      { key: 't1', state: 'settled', error: null, messages: 3 },
      { key: 't2', state: 'settled', error: null, messages: 3 },
    ]);
    const bodies = bodiesOf(messages);
    assert.deepEqual(
      bodies.map((b) => b.toString('utf8')),
      texts.map((t) => Buffer.from(t, 'utf8').toString('utf8')),
    );
    for (const [i, text] of texts.entries())
      assert.equal(sha256Hex(bodies[i]!), textDigest(text), `digest of body ${i}`);
    assert.deepEqual(messages.key, ['t1-0', 't1-1', 't1-2', 't2-0', 't2-1', 't2-2']);
    assert.equal(transfer.length, 1);
    assert.equal(transfer[0], messages.bodies.buffer, 'the buffer holding the bodies is the one transferred');
  });

  it('a step without messages has empty columns and transfers nothing', () => {
    const { turns, messages, transfer } = new StepMessages().finish();
    assert.deepEqual(turns, []);
    assert.equal(messages.bodies.byteLength, 0);
    assert.deepEqual(messages.bodyEnds, []);
    assert.deepEqual(transfer, []);
  });

  it('the writer accepts the built columns and refuses bodies that do not add up or are not UTF-8', () => {
    const schema = captureCommands.captureApplyStep.schema;
    const step = new StepMessages();
    step.add(turn('t1', ['a prompt', 'an answer']));
    const { turns, messages } = step.finish();
    assert.equal(schema.safeParse(stepInput(messages, turns)).success, true);
    const short = { ...messages, bodyEnds: [messages.bodyEnds[0]!, messages.bodyEnds[1]! - 1] };
    assert.equal(schema.safeParse(stepInput(short, turns)).success, false, 'ends short of the buffer');
    const backwards = { ...messages, bodyEnds: [messages.bodyEnds[1]!, messages.bodyEnds[0]!] };
    assert.equal(schema.safeParse(stepInput(backwards, turns)).success, false, 'ends that go backwards');
    const invalid = Buffer.from(messages.bodies);
    invalid[0] = 0xff;
    assert.equal(
      schema.safeParse(stepInput({ ...messages, bodies: invalid }, turns)).success,
      false,
      'bytes that are not UTF-8',
    );
    const text = { ...messages, bodies: 'a promptan answer' as unknown as Uint8Array };
    assert.equal(schema.safeParse(stepInput(text, turns)).success, false, 'bodies that are not bytes');
    const [only] = turns;
    for (const [bad, why] of [
      [{ ...only, key: '' }, 'an empty turn key'],
      [{ ...only, state: 'open' }, 'a turn that is not sealed'],
      [{ ...only, error: 7 }, 'an error that is not text'],
      [{ ...only, messages: -1 }, 'a negative message count'],
      [{ ...only, messages: 1.5 }, 'a fractional message count'],
      [null, 'a turn that is not an object'],
    ] as const)
      assert.equal(
        schema.safeParse(stepInput(messages, [bad as unknown as CaptureStepInput['turns'][number]])).success,
        false,
        why,
      );
    const uneven = [{ ...only!, messages: 1 }];
    assert.equal(schema.safeParse(stepInput(messages, uneven)).success, false, 'turn counts that do not add up');
  });
});
