import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { JsonlFramer, frameStream, type FrameEvent } from '../../source/ground/jsonl-framer.js';
import { RECORD_MAX_BYTES } from '../../source/limits.js';
import { fixtureNames, fixturePath, readTranscript } from '../support/pi-transcript.js';

function frameAll(bytes: Buffer, chunkSize: number, maxRecordBytes?: number): FrameEvent[] {
  const framer = new JsonlFramer(maxRecordBytes === undefined ? {} : { maxRecordBytes });
  const events: FrameEvent[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) {
    events.push(...framer.push(bytes.subarray(i, i + chunkSize)));
    assert.ok(framer.bufferedBytes <= framer.maxRecordBytes, 'never holds more than the limit');
  }
  events.push(...framer.end());
  return events;
}

const texts = (events: FrameEvent[]): string[] =>
  events.map((e) => {
    assert.equal(e.kind, 'record', `unexpected ${e.kind}`);
    return e.kind === 'record' ? e.text : '';
  });

const names = fixtureNames();

test('fixtures/pi holds every recorded scenario', () => {
  assert.equal(names.length, 12);
});

for (const name of names) {
  for (const stream of ['stdout', 'stdin'] as const) {
    test(`${name}.${stream}: framed into its lines with ordinals 1..n, whatever the chunking`, () => {
      const bytes = readFileSync(fixturePath(name, stream));
      const lines = bytes.toString('utf8').split('\n');
      assert.equal(lines.pop(), '', 'the recordings end with LF');
      for (const chunkSize of [1, 7, 4096, bytes.length]) {
        const events = frameAll(bytes, chunkSize);
        assert.deepEqual(texts(events), lines);
        assert.deepEqual(
          events.map((e) => e.ordinal),
          lines.map((_, i) => i + 1),
        );
        for (const e of events) if (e.kind === 'record') assert.equal(e.byteLength, Buffer.byteLength(e.text));
      }
    });
  }
  test(`${name}: stdout lines equal the transcript's stdout lines`, () => {
    const framed = texts(frameAll(readFileSync(fixturePath(name, 'stdout')), 512));
    assert.deepEqual(
      framed,
      readTranscript(name)
        .filter((e) => e.stream === 'stdout')
        .map((e) => e.line),
    );
  });
}

test('stderr of d3 (SDK parse error) frames into its two lines', () => {
  const stderr = readTranscript('d3-provider-malformed-sse').filter((e) => e.stream === 'stderr');
  const bytes = Buffer.from(stderr.map((e) => `${e.line}\n`).join(''));
  assert.deepEqual(texts(frameAll(bytes, 3)), [
    'Could not parse message into JSON: {this is not json',
    "From chunk: [ 'data: {this is not json' ]",
  ]);
});

test('frameStream over a file stream with tiny reads gives the same records', async () => {
  const path = fixturePath('f1-prompt-while-busy', 'stdout');
  const events: FrameEvent[] = [];
  for await (const event of frameStream(createReadStream(path, { highWaterMark: 13 }))) events.push(event);
  assert.deepEqual(texts(events), readFileSync(path, 'utf8').split('\n').slice(0, -1));
});

test('U+2028 and U+2029 inside a record do not split it (unlike readline)', () => {
  const record = JSON.stringify({ type: 'message_update', delta: 'a\u2028b\u2029c' });
  assert.ok(record.includes('\u2028'), 'JSON.stringify leaves U+2028 unescaped');
  const events = frameAll(Buffer.from(`${record}\n${record}\n`), 5);
  assert.deepEqual(texts(events), [record, record]);
});

test('a multi-byte character cut between chunks decodes whole', () => {
  const text = '{"t":"日本語 — ✓ 😀"}';
  for (let size = 1; size < 8; size += 1) assert.deepEqual(texts(frameAll(Buffer.from(`${text}\n`), size)), [text]);
});

test('CR is kept: a CRLF line is delivered with its CR, and still parses', () => {
  const events = frameAll(Buffer.from('{"type":"agent_start"}\r\n'), 4);
  assert.deepEqual(texts(events), ['{"type":"agent_start"}\r']);
  assert.deepEqual(JSON.parse(texts(events)[0] ?? ''), { type: 'agent_start' });
});

test('an empty line is a record of its own (the classifier rejects it)', () => {
  const events = frameAll(Buffer.from('a\n\nb\n'), 2);
  assert.deepEqual(texts(events), ['a', '', 'b']);
  assert.deepEqual(
    events.map((e) => e.ordinal),
    [1, 2, 3],
  );
});

test('invalid UTF-8 is reported as invalid-utf8 with its bytes, not repaired; ordinals continue', () => {
  const bad = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
  const bytes = Buffer.concat([Buffer.from('{"a":1}\n'), bad, Buffer.from('\n{"b":2}\n')]);
  const events = frameAll(bytes, 3);
  assert.deepEqual(
    events.map((e) => [e.kind, e.ordinal]),
    [
      ['record', 1],
      ['invalid-utf8', 2],
      ['record', 3],
    ],
  );
  const invalid = events[1];
  assert.ok(invalid?.kind === 'invalid-utf8');
  assert.deepEqual(invalid.bytes, bad);
  assert.equal(invalid.byteLength, 4);
});

test('a line over the limit is one oversized event with its full size; its neighbours are intact', () => {
  const limit = 16;
  const long = 'x'.repeat(100);
  const events = frameAll(Buffer.from(`short\n${long}\n${'y'.repeat(limit)}\nend\n`), 7, limit);
  assert.deepEqual(
    events.map((e) => e.kind),
    ['record', 'oversized', 'record', 'record'],
  );
  assert.deepEqual(events[1], { kind: 'oversized', ordinal: 2, byteLength: 100, limit, terminated: true });
  assert.equal(events[2]?.kind === 'record' && events[2].text, 'y'.repeat(limit));
});

test('exactly RECORD_MAX_BYTES is a record; one byte more is oversized (default limit)', () => {
  const framer = new JsonlFramer();
  assert.equal(framer.maxRecordBytes, RECORD_MAX_BYTES);
  const exact = Buffer.alloc(RECORD_MAX_BYTES, 0x61);
  const events = [
    ...framer.push(exact),
    ...framer.push(Buffer.from('\n')),
    ...framer.push(Buffer.alloc(RECORD_MAX_BYTES + 1, 0x62)),
    ...framer.push(Buffer.from('\n')),
  ];
  assert.deepEqual(
    events.map((e) => [e.kind, e.ordinal, e.byteLength]),
    [
      ['record', 1, RECORD_MAX_BYTES],
      ['oversized', 2, RECORD_MAX_BYTES + 1],
    ],
  );
});

test('a 20 MiB line in 64 KiB chunks never buffers more than the limit', () => {
  const limit = 1024 * 1024;
  const framer = new JsonlFramer({ maxRecordBytes: limit });
  const chunk = Buffer.alloc(64 * 1024, 0x7a);
  let events: FrameEvent[] = [];
  for (let i = 0; i < 320; i += 1) {
    events = events.concat(framer.push(chunk));
    assert.ok(framer.bufferedBytes <= limit);
  }
  events = events.concat(framer.push(Buffer.from('\n{"ok":1}\n')));
  assert.deepEqual(
    events.map((e) => [e.kind, e.byteLength]),
    [
      ['oversized', 320 * 64 * 1024],
      ['record', 8],
    ],
  );
});

test('at EOF a partial last line is truncated with its bytes; an oversized one is unterminated', () => {
  const events = frameAll(Buffer.from('{"type":"agent_start"}\n{"type":"mess'), 5);
  assert.equal(events.length, 2);
  const last = events[1];
  assert.ok(last?.kind === 'truncated');
  assert.equal(last.ordinal, 2);
  assert.equal(last.text, '{"type":"mess');
  assert.deepEqual(last.bytes, Buffer.from('{"type":"mess'));

  const over = frameAll(Buffer.from(`ok\n${'z'.repeat(40)}`), 6, 10);
  assert.deepEqual(over[1], { kind: 'oversized', ordinal: 2, byteLength: 40, limit: 10, terminated: false });

  const cutChar = frameAll(Buffer.from([0x61, 0xe6, 0x97]), 1);
  assert.ok(cutChar[0]?.kind === 'truncated' && cutChar[0].text === null, 'a tail cut inside a character has no text');
});

test('end() without a partial line reports nothing; push after end and string chunks are refused', () => {
  const framer = new JsonlFramer();
  assert.deepEqual(framer.push(Buffer.from('a\n')), [{ kind: 'record', ordinal: 1, text: 'a', byteLength: 1 }]);
  assert.deepEqual(framer.end(), []);
  assert.throws(() => framer.push(Buffer.from('b')), /after end/);
  assert.throws(() => new JsonlFramer().push('text' as unknown as Uint8Array), /bytes/);
  assert.throws(() => new JsonlFramer({ maxRecordBytes: 0 }), RangeError);
});

test('the framer copies: reusing the chunk buffer after push does not change a held line', () => {
  const framer = new JsonlFramer();
  const chunk = Buffer.from('abc');
  framer.push(chunk);
  chunk.fill(0x21);
  assert.deepEqual(framer.push(Buffer.from('\n')), [{ kind: 'record', ordinal: 1, text: 'abc', byteLength: 3 }]);
});
