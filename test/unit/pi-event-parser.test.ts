// The pi event stream parser: interactions → turns, settlement derived from the stream, evidence
// only for what the user typed, unknown shapes failing closed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../source/ground/digests.js';
import { initialPiEventsState, PiEventParser } from '../../source/hosts/pi/event-parser.js';
import type { TranscriptTurn } from '../../source/hosts/transcript-model.js';

const input = (text: string, source = 'interactive') => ({ type: 'input', digest: sha256Hex(text), source, images: 0 });
const user = (text: string) => ({
  type: 'message_end',
  message: { role: 'user', content: [{ type: 'text', text }], timestamp: 1 },
});
const assistant = (text: string, stopReason = 'stop', extra: Record<string, unknown> = {}) => ({
  type: 'message_end',
  message: {
    role: 'assistant',
    content: text
      ? [
          { type: 'thinking', thinking: 'hm' },
          { type: 'text', text },
        ]
      : [],
    stopReason,
    timestamp: 2,
    ...extra,
  },
});
const toolCall = {
  type: 'message_end',
  message: {
    role: 'assistant',
    content: [{ type: 'toolCall', id: 't1', name: 'bash', arguments: { command: 'ls' } }],
    stopReason: 'toolUse',
  },
};
const toolResult = {
  type: 'message_end',
  message: {
    role: 'toolResult',
    toolCallId: 't1',
    toolName: 'bash',
    content: [{ type: 'text', text: 'a.txt' }],
    isError: false,
  },
};
const start = { type: 'agent_start' };
const end = { type: 'agent_end' };

function parse(
  records: unknown[],
  splitAt?: number,
): { turns: TranscriptTurn[]; open: TranscriptTurn[]; failure: string | null } {
  const bytes = Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const turns: TranscriptTurn[] = [];
  let parser = new PiEventParser(initialPiEventsState());
  let offset = 0;
  if (splitAt !== undefined) {
    const cut = bytes.indexOf(0x0a, splitAt) + 1;
    const first = parser.feed(bytes.subarray(0, cut), (t) => turns.push(t));
    parser = new PiEventParser(JSON.parse(JSON.stringify(first.state)));
    offset = cut;
  }
  const last = parser.feed(bytes.subarray(offset), (t) => turns.push(t));
  return { turns, open: last.openTurns, failure: last.failure?.code ?? null };
}

const summary = (turn: TranscriptTurn) => [
  turn.state,
  turn.messages.map((m) => `${m.classification}:${m.kind}:${m.text}`),
];

describe('pi event parser', () => {
  it('two prompts are two settled turns; the typed text is evidence, answers context, thinking ignored', () => {
    const { turns, open, failure } = parse([
      { type: 'session_start', reason: 'startup' },
      input('a'),
      start,
      user('a'),
      assistant('A'),
      end,
      input('b'),
      start,
      user('b'),
      assistant('B'),
      end,
      { type: 'SessionEnd', reason: 'quit' },
    ]);
    assert.equal(failure, null);
    assert.deepEqual(turns.map(summary), [
      ['settled', ['evidence:prompt:a', 'context:answer:A']],
      ['settled', ['evidence:prompt:b', 'context:answer:B']],
    ]);
    assert.deepEqual(open, []);
  });

  it('a tool loop stays one turn', () => {
    const { turns } = parse([input('list'), start, user('list'), toolCall, toolResult, assistant('one file'), end]);
    assert.equal(turns.length, 1);
    assert.deepEqual(
      turns[0]!.messages.map((m) => m.kind),
      ['prompt', 'tool_call', 'tool_result', 'answer'],
    );
    assert.equal(turns[0]!.state, 'settled');
  });

  it('a provider error then an automatic retry that succeeds is one settled turn, across a resumed state', () => {
    const records = [
      input('q'),
      start,
      user('q'),
      assistant('', 'error', { errorMessage: '500 boom' }),
      end,
      start,
      assistant('fine'),
      end,
    ];
    for (const splitAt of [undefined, 60, 200]) {
      const { turns, failure } = parse(records, splitAt);
      assert.equal(failure, null);
      assert.deepEqual(
        turns.map(summary),
        [['settled', ['evidence:prompt:q', 'context:answer:fine']]],
        `split at ${splitAt}`,
      );
    }
  });

  it('an error that is not retried waits, then fails when the next prompt comes or the session ends', () => {
    const waiting = parse([input('q'), start, user('q'), assistant('', 'error', { errorMessage: '500 boom' }), end]);
    assert.deepEqual(waiting.turns, []);
    assert.equal(waiting.open.length, 1);
    const next = parse([
      input('q'),
      start,
      user('q'),
      assistant('', 'error', { errorMessage: '500 boom' }),
      end,
      input('r'),
    ]);
    assert.deepEqual(
      next.turns.map((t) => [t.state, t.error]),
      [['failed', '500 boom']],
    );
    const ended = parse([
      input('q'),
      start,
      user('q'),
      assistant('', 'error'),
      end,
      { type: 'SessionEnd', reason: 'quit' },
    ]);
    assert.deepEqual(
      ended.turns.map((t) => t.state),
      ['failed'],
    );
  });

  it('aborted, or no answer at all, is interrupted', () => {
    assert.deepEqual(
      parse([input('q'), start, user('q'), assistant('part', 'aborted'), end]).turns.map((t) => t.state),
      ['interrupted'],
    );
    assert.deepEqual(
      parse([input('q'), start, user('q'), toolCall, end]).turns.map((t) => t.state),
      ['interrupted'],
    );
  });

  it('an expanded template and an extension-sent message are context, never evidence', () => {
    const { turns } = parse([
      input('/review'),
      start,
      user('Review the diff carefully'),
      assistant('ok'),
      end,
      input('hi', 'extension'),
      start,
      user('hi'),
      assistant('yo'),
      end,
    ]);
    assert.deepEqual(turns.map(summary), [
      ['settled', ['context:command:Review the diff carefully', 'context:answer:ok']],
      ['settled', ['context:harness:hi', 'context:answer:yo']],
    ]);
  });

  it('a pi run killed mid-answer stays open (buffered), nothing made up', () => {
    const { turns, open } = parse([input('q'), start, user('q')]);
    assert.deepEqual(turns, []);
    assert.deepEqual(open.map(summary), [['open', ['evidence:prompt:q']]]);
  });

  it('unknown event types, roles and content blocks fail closed', () => {
    assert.equal(parse([{ type: 'agent_settled' }]).failure, 'transcript_unknown_record');
    assert.equal(
      parse([input('q'), start, { type: 'message_end', message: { role: 'robot', content: [] } }]).failure,
      'transcript_unknown_record',
    );
    assert.equal(
      parse([
        input('q'),
        start,
        { type: 'message_end', message: { role: 'assistant', content: [{ type: 'hologram' }], stopReason: 'stop' } },
      ]).failure,
      'transcript_unknown_record',
    );
    assert.equal(parse([end]).failure, 'transcript_order');
    assert.equal(parse([{ type: 'input' }]).failure, 'transcript_invalid_record');
  });

  it('a content the capture did not keep is a marker; a malformed or contradicting mark fails closed', () => {
    const omittedContent = { role: 'toolResult', contentBytes: 9_000_000, contentSha256: 'a'.repeat(64) };
    const kept = parse([
      input('q'),
      start,
      user('q'),
      { type: 'message_end', message: { role: 'toolResult', toolCallId: 't1', omittedContent } },
      assistant('done'),
      end,
    ]);
    assert.equal(kept.failure, null);
    const result = kept.turns[0]!.messages.find((m) => m.kind === 'tool_result');
    assert.equal(result?.text, `[9000000 bytes of content over the capture bound, not kept; sha256 ${'a'.repeat(64)}]`);
    for (const message of [
      { role: 'toolResult', omittedContent: { contentBytes: '9' } },
      { role: 'toolResult', omittedContent, content: [{ type: 'text', text: 'both' }] },
    ])
      assert.equal(
        parse([input('q'), start, user('q'), { type: 'message_end', message }]).failure,
        'transcript_invalid_record',
      );
  });
});
