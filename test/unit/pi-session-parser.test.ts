// pi's own session files (fixtures/pi/sessions/, written by the real pi 0.73.1): turns read from
// the messages, evidence only for what the user typed, the same turn keys and message kinds as
// live capture of the same conversation, resumable at any line, and strict about what it knows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../source/ground/digests.js';
import { initialPiEventsState, PiEventParser } from '../../source/hosts/pi/event-parser.js';
import { initialPiSessionState, PiSessionParser } from '../../source/hosts/pi/session-parser.js';
import type { TranscriptTurn } from '../../source/hosts/transcript-model.js';
import { FIXTURES } from '../support/capture.js';

const fixture = (name: string) => readFileSync(`${FIXTURES}pi/sessions/${name}.jsonl`);
const records = (name: string) =>
  fixture(name)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

function parse(
  bytes: Buffer,
  cuts: number[] = [],
): {
  turns: TranscriptTurn[];
  open: TranscriptTurn[];
  failure: string | null;
  line: number | null;
  session: string | null;
} {
  const turns: TranscriptTurn[] = [];
  let parser = new PiSessionParser(initialPiSessionState());
  let offset = 0;
  for (const at of cuts) {
    const cut = bytes.indexOf(0x0a, at) + 1;
    const fed = parser.feed(bytes.subarray(offset, cut), (t) => turns.push(t));
    assert.equal(fed.failure, null);
    parser = new PiSessionParser(JSON.parse(JSON.stringify(fed.state)));
    offset = cut;
  }
  const last = parser.feed(bytes.subarray(offset), (t) => turns.push(t));
  return {
    turns,
    open: last.openTurns,
    failure: last.failure?.code ?? null,
    line: last.failure?.line ?? null,
    session: last.sessionKey,
  };
}

const lines = (values: unknown[]) => Buffer.from(values.map((v) => `${JSON.stringify(v)}\n`).join(''));
const summary = (turn: TranscriptTurn) => [
  turn.state,
  turn.messages.map((m) => `${m.classification}:${m.kind}:${m.text}`),
];
const header = { type: 'session', version: 3, id: '01a2-session', timestamp: '2026-12-01T10:00:00.000Z', cwd: '/p' };
let next = 0;
const entry = (type: string, fields: Record<string, unknown>, ms: number) => ({
  type,
  id: `e${(next += 1)}`,
  parentId: null,
  timestamp: new Date(ms).toISOString(),
  ...fields,
});
const userAt = (text: string, ms: number, written = ms + 5) =>
  entry('message', { message: { role: 'user', content: [{ type: 'text', text }], timestamp: ms } }, written);
const answerAt = (text: string, stopReason: string, ms: number) =>
  entry(
    'message',
    { message: { role: 'assistant', content: text ? [{ type: 'text', text }] : [], stopReason, timestamp: ms } },
    ms + 5,
  );

describe('pi session parser: the files the real pi wrote', () => {
  it('two prompts are two settled turns keyed by their stamps; the typed text is the only evidence', () => {
    const { turns, open, failure, session } = parse(fixture('a-two-prompts'));
    assert.equal(failure, null);
    assert.equal(session, records('a-two-prompts')[0]!['id']);
    assert.deepEqual(turns.map(summary), [
      [
        'settled',
        ['evidence:prompt:Always use pnpm in this repository, never npm.', 'context:answer:Noted: pnpm it is.'],
      ],
      ['settled', ['evidence:prompt:what is two plus two?', 'context:answer:Four.']],
    ]);
    const stamps = records('a-two-prompts')
      .filter((r) => (r['message'] as { role?: string } | undefined)?.role === 'user')
      .map((r) => `u${(r['message'] as { timestamp: number }).timestamp}`);
    assert.deepEqual(
      turns.map((t) => t.key),
      stamps,
    );
    assert.deepEqual(open, []);
  });

  it('a tool loop is one turn; a retried error is one settled turn; an unretried error waits open', () => {
    assert.deepEqual(
      parse(fixture('b-tool-call-bash')).turns.map((t) => [t.state, t.messages.map((m) => m.kind)]),
      [['settled', ['prompt', 'tool_call', 'tool_result', 'answer']]],
    );
    assert.deepEqual(parse(fixture('c-retry-then-answer')).turns.map(summary), [
      [
        'settled',
        ['evidence:prompt:We deploy on Fridays only after review.', 'context:answer:Answered after a retry.'],
      ],
    ]);
    const failed = parse(fixture('d-provider-error'));
    assert.deepEqual(failed.turns, []);
    assert.equal(failed.open.length, 1, 'pi may still retry: the turn waits');
  });

  it('a follow-up queued while pi answered is a turn of its own, both prompts evidence', () => {
    const { turns } = parse(fixture('e-follow-up-while-busy'));
    assert.deepEqual(
      turns.map((t) => t.messages.filter((m) => m.classification === 'evidence').map((m) => m.text)),
      [['Please always write tests first.'], ['and keep commits small']],
    );
  });

  it('resuming from a saved state at any line gives exactly the single pass', () => {
    for (const name of ['a-two-prompts', 'b-tool-call-bash', 'c-retry-then-answer', 'e-follow-up-while-busy']) {
      const bytes = fixture(name);
      const whole = parse(bytes);
      for (let at = 0; at < bytes.length - 1; at = bytes.indexOf(0x0a, at) + 1) {
        assert.deepEqual(parse(bytes, [at]).turns, whole.turns, `${name} cut at ${at}`);
      }
    }
  });
});

describe('pi session parser: the same identity and kinds as live capture', () => {
  it('the live event stream of the same conversation gives the same turn keys and message kinds', () => {
    // What the extension records for the follow-up session: one run, two prompts.
    const file = records('e-follow-up-while-busy');
    const messages = file.filter((r) => r['type'] === 'message').map((r) => r['message'] as Record<string, unknown>);
    const typed = messages.filter((m) => m['role'] === 'user');
    const text = (m: Record<string, unknown>) => (m['content'] as Array<{ text: string }>)[0]!.text;
    const stream = [
      { type: 'session_start', reason: 'startup' },
      { type: 'input', digest: sha256Hex(text(typed[0]!)), source: 'rpc', images: 0 },
      { type: 'agent_start' },
      ...messages.slice(0, 2).map((message) => ({ type: 'message_end', message })),
      { type: 'input', digest: sha256Hex(text(typed[1]!)), source: 'rpc', images: 0 },
      ...messages.slice(2).map((message) => ({ type: 'message_end', message })),
      { type: 'agent_end' },
    ];
    const live: TranscriptTurn[] = [];
    const fed = new PiEventParser(initialPiEventsState()).feed(lines(stream), (t) => live.push(t));
    assert.equal(fed.failure, null);
    const imported = parse(fixture('e-follow-up-while-busy')).turns;
    const shape = (turns: TranscriptTurn[]) =>
      turns.map((t) => [t.key, t.state, t.messages.map((m) => `${m.classification}:${m.kind}:${m.timestamp}`)]);
    assert.deepEqual(shape(imported), shape(live));
  });
});

describe('pi session parser: strict', () => {
  it('an older or newer format version fails on the header line', () => {
    for (const version of [2, 4, undefined]) {
      const { failure, line } = parse(lines([{ ...header, version }]));
      assert.equal(failure, 'transcript_unsupported_version', String(version));
      assert.equal(line, 1);
    }
  });

  it('an unknown entry type, message role or content block fails at its line; the turns before it stand', () => {
    const base = [header, userAt('first', 1000), answerAt('one', 'stop', 2000)];
    for (const bad of [
      entry('brand_new_entry', {}, 3000),
      entry('message', { message: { role: 'narrator', content: 'x', timestamp: 3000 } }, 3000),
      entry('message', { message: { role: 'user', content: [{ type: 'audio' }], timestamp: 3000 } }, 3000),
      entry('message', { message: { role: 'assistant', content: [], stopReason: 'pondering', timestamp: 3000 } }, 3000),
    ]) {
      const turns: TranscriptTurn[] = [];
      const parser = new PiSessionParser();
      const first = parser.feed(lines(base), (t) => turns.push(t));
      assert.equal(first.failure, null);
      const failed = parser.feed(lines([bad]));
      assert.equal(failed.failure?.code, 'transcript_unknown_record', JSON.stringify(bad));
      assert.equal(failed.failure?.line, 4);
      assert.equal(turns.length, 1, 'the settled turn before the bad line was handed over');
    }
  });

  it('an entry before the header, a second header, an entry without id or instant are refused', () => {
    assert.equal(parse(lines([userAt('x', 1000)])).failure, 'transcript_order');
    assert.equal(parse(lines([header, header])).failure, 'transcript_order');
    assert.equal(parse(lines([header, { ...userAt('x', 1000), id: undefined }])).failure, 'transcript_invalid_record');
    assert.equal(
      parse(lines([header, { ...userAt('x', 1000), timestamp: 'soon' }])).failure,
      'transcript_invalid_record',
    );
  });

  it('a partial last line waits, and is read once complete', () => {
    const bytes = fixture('a-two-prompts');
    const parser = new PiSessionParser();
    const cut = bytes.length - 20;
    const turns: TranscriptTurn[] = [];
    const first = parser.feed(bytes.subarray(0, cut), (t) => turns.push(t));
    assert.equal(first.failure, null);
    assert.equal(turns.length, 1, 'the second answer is on the unfinished line');
    assert.ok(first.consumedBytes < cut);
    parser.feed(bytes.subarray(first.consumedBytes), (t) => turns.push(t));
    assert.equal(turns.length, 2);
  });

  it('a skill pi expanded is context; a steer queued during a tool loop joins its turn; extension text is context', () => {
    const toolCall = entry(
      'message',
      {
        message: {
          role: 'assistant',
          content: [{ type: 'toolCall', id: 't1', name: 'bash', arguments: { command: 'ls' } }],
          stopReason: 'toolUse',
          timestamp: 2000,
        },
      },
      2000,
    );
    const toolResult = entry(
      'message',
      {
        message: {
          role: 'toolResult',
          toolCallId: 't1',
          toolName: 'bash',
          content: 'a.txt',
          isError: false,
          timestamp: 2100,
        },
      },
      2100,
    );
    const { turns, failure } = parse(
      lines([
        header,
        entry('custom_message', { customType: 'x', content: 'extension context', display: false }, 900),
        userAt('<skill name="tdd" location="/s/tdd.md">\nWrite tests.\n</skill>\n\nfix it', 1000),
        toolCall,
        toolResult,
        userAt('use the other dir', 1500, 2200), // queued at 1500, written after the tool result
        answerAt('done', 'stop', 2300),
        entry('label', { targetId: 'e1', label: 'mark' }, 2400),
      ]),
    );
    assert.equal(failure, null);
    assert.deepEqual(
      turns.map((t) => [t.key, t.messages.map((m) => `${m.classification}:${m.kind}`)]),
      [
        [
          'u1000',
          [
            'context:hook_context',
            'context:command',
            'context:tool_call',
            'context:tool_result',
            'evidence:prompt',
            'context:answer',
          ],
        ],
      ],
    );
  });
});
