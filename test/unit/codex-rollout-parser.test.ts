// Codex CLI 0.171.0 rollout parser: recorded fixtures (copied from shared/fixtures into
// fixtures/codex/rollouts), synthetic scenarios (fixtures/transcripts, see its README) and
// corruptions derived here from the recorded copies.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  CodexRolloutParser,
  initialCodexRolloutState,
  type CodexRolloutState,
} from '../../source/hosts/codex/rollout-parser.js';
import { parseTranscriptFile } from '../../source/hosts/transcript-file.js';
import {
  TranscriptParseError,
  type ParseProgress,
  type TranscriptMessage,
  type TranscriptTurn,
} from '../../source/hosts/transcript-model.js';

const rollout = (name: string): Buffer =>
  readFileSync(new URL(`../../fixtures/codex/rollouts/${name}`, import.meta.url));
const derived = (name: string): Buffer => readFileSync(new URL(`../../fixtures/transcripts/${name}`, import.meta.url));
const RECORDED = [
  'a-simple-one-turn.jsonl',
  'b-tool-call-exec-command.jsonl',
  'c-resumed-two-turns.jsonl',
  'd-failed-turn-http400.jsonl',
  'f-tool-call-with-hook-additional-context.jsonl',
];
const SYNTHETIC = ['codex-interrupted-then-resumed.jsonl', 'codex-auto-compaction.jsonl'];

function parseAll(bytes: Uint8Array): ParseProgress<CodexRolloutState> {
  return new CodexRolloutParser().feed(bytes);
}

function lines(bytes: Buffer): string[] {
  const text = bytes.toString('utf8');
  assert.ok(text.endsWith('\n'));
  return text.slice(0, -1).split('\n');
}

function join(list: string[]): Buffer {
  return Buffer.from(`${list.join('\n')}\n`);
}

/** Byte offset of the start of 1-based line `n`. */
function offsetOf(bytes: Buffer, n: number): number {
  let offset = 0;
  for (let i = 1; i < n; i += 1) offset = bytes.indexOf(0x0a, offset) + 1;
  return offset;
}

const evidence = (turn: TranscriptTurn): TranscriptMessage[] =>
  turn.messages.filter((m) => m.classification === 'evidence');
const texts = (messages: TranscriptMessage[]): string[] => messages.map((m) => m.text);
const kinds = (turn: TranscriptTurn): string[] => turn.messages.map((m) => `${m.classification}:${m.kind}`);

/** Parses `bytes` in two calls split at `at`, resuming the second from the JSON-round-tripped state. */
function parseSplit(bytes: Buffer, at: number) {
  const first = new CodexRolloutParser().feed(bytes.subarray(0, at));
  assert.equal(first.failure, null);
  const saved = JSON.parse(JSON.stringify(first.state)) as CodexRolloutState;
  const second = new CodexRolloutParser(saved).feed(bytes.subarray(first.consumedBytes));
  assert.equal(second.failure, null);
  return {
    turns: [...first.turns, ...second.turns],
    openTurns: second.openTurns,
    pendingContext: second.pendingContext,
    consumedBytes: second.consumedBytes,
    state: second.state,
  };
}

test('a-simple-one-turn: one settled turn, the prompt once as evidence under its response_item id', () => {
  const progress = parseAll(rollout('a-simple-one-turn.jsonl'));
  assert.equal(progress.failure, null);
  assert.equal(progress.sessionKey, '01a22e3f-1934-7510-87bb-4f1f152e907b');
  assert.equal(progress.turns.length, 1);
  assert.deepEqual(progress.openTurns, []);
  const turn = progress.turns[0] as TranscriptTurn;
  assert.equal(turn.key, '01a22e3f-1950-7471-b9f4-eccae12ace98');
  assert.equal(turn.state, 'settled');
  assert.equal(turn.firstLine, 2);
  assert.equal(turn.lastLine, 14);
  assert.deepEqual(kinds(turn), ['context:instructions', 'context:environment', 'evidence:prompt', 'context:answer']);
  const [prompt] = evidence(turn);
  // The response_item id, not the item_completed UserMessage UI copy (01a22e3f-19b1-7173-9f04-727f6cd57893).
  assert.deepEqual(prompt, {
    key: 'msg_01a22e3f-19b1-7173-9f04-7289613a0c09',
    role: 'user',
    classification: 'evidence',
    kind: 'prompt',
    text: 'Say hello',
    line: 8,
    timestamp: '2026-11-30T20:56:57.011Z',
  });
  assert.equal(turn.messages.at(-1)?.key, 'msg_1');
  assert.equal(turn.messages.at(-1)?.text, 'Hello from the fake model.');
  assert.equal(progress.consumedLines, 14);
  assert.equal(progress.consumedBytes, rollout('a-simple-one-turn.jsonl').length);
});

test('b-tool-call-exec-command: tool call and output are context, prompt evidence once', () => {
  const [turn] = parseAll(rollout('b-tool-call-exec-command.jsonl')).turns;
  assert.ok(turn);
  assert.equal(turn.state, 'settled');
  assert.deepEqual(kinds(turn), [
    'context:instructions',
    'context:environment',
    'evidence:prompt',
    'context:tool_call',
    'context:tool_result',
    'context:answer',
  ]);
  assert.deepEqual(texts(evidence(turn)), ['TOOL: run echo hi']);
  const call = turn.messages[3] as TranscriptMessage;
  assert.equal(call.key, 'fc_11');
  assert.equal(call.text, 'exec_command {"cmd": "echo hi"}');
  const output = turn.messages[4] as TranscriptMessage;
  assert.equal(output.key, 'fco_01a22e40-3aec-7983-bb2a-76d0d3b35cd9');
  assert.equal(output.role, 'tool');
  assert.match(output.text, /Output:\nhi\n$/);
});

test('c-resumed-two-turns: the resumed run appends a second settled turn to the same session', () => {
  const progress = parseAll(rollout('c-resumed-two-turns.jsonl'));
  assert.equal(progress.sessionKey, '01a22e40-3288-79c3-9f4a-36473bad55c5');
  assert.deepEqual(
    progress.turns.map((t) => [t.key, t.state, t.firstLine, t.lastLine]),
    [
      ['01a22e40-32a3-7692-837e-af50a91e7061', 'settled', 2, 14],
      ['01a22e40-402d-7072-a67d-ab072c0a5481', 'settled', 16, 24],
    ],
  );
  assert.deepEqual(
    progress.turns.map((t) => texts(evidence(t))),
    [['Say hello'], ['Say hello again']],
  );
  // Resume writes no new developer/environment messages: turn 2 is prompt + answer only.
  assert.deepEqual(kinds(progress.turns[1] as TranscriptTurn), ['evidence:prompt', 'context:answer']);
});

test('d-failed-turn-http400: task_complete with error makes a failed turn that still holds its prompt', () => {
  const [turn] = parseAll(rollout('d-failed-turn-http400.jsonl')).turns;
  assert.ok(turn);
  assert.equal(turn.state, 'failed');
  assert.match(turn.error ?? '', /fake server: forced failure/);
  assert.deepEqual(texts(evidence(turn)), ['FAIL please']);
  assert.ok(!turn.messages.some((m) => m.kind === 'answer'));
  assert.equal(turn.lastLine, 10);
});

test('f-tool-call-with-hook-additional-context: hook context is context, in recorded order', () => {
  const [turn] = parseAll(rollout('f-tool-call-with-hook-additional-context.jsonl')).turns;
  assert.ok(turn);
  assert.deepEqual(kinds(turn), [
    'context:instructions',
    'context:environment',
    'context:hook_context',
    'evidence:prompt',
    'context:hook_context',
    'context:tool_call',
    'context:hook_context',
    'context:tool_result',
    'context:answer',
  ]);
  assert.deepEqual(texts(turn.messages.filter((m) => m.kind === 'hook_context')), [
    '[recorder] context injected by SessionStart hook',
    '[recorder] context injected by UserPromptSubmit hook',
    '[recorder] context injected by PostToolUse hook',
  ]);
  assert.ok(turn.messages.filter((m) => m.kind === 'hook_context').every((m) => m.role === 'developer'));
  assert.deepEqual(texts(evidence(turn)), ['TOOL: run echo hi (with hook context)']);
});

test('synthetic interruption: turn_aborted closes the turn as interrupted; the resumed turn settles', () => {
  const progress = parseAll(derived('codex-interrupted-then-resumed.jsonl'));
  assert.equal(progress.failure, null);
  assert.deepEqual(
    progress.turns.map((t) => t.state),
    ['interrupted', 'settled'],
  );
  const [interrupted, resumed] = progress.turns as [TranscriptTurn, TranscriptTurn];
  assert.deepEqual(texts(evidence(interrupted)), ['Say hello']);
  // The <turn_aborted> marker is a harness user message, not a prompt.
  assert.deepEqual(kinds(interrupted).slice(-1), ['context:harness']);
  assert.deepEqual(texts(evidence(resumed)), ['Continue please']);
});

test('synthetic auto-compaction: replayed history is never counted; summaries are context', () => {
  const progress = parseAll(derived('codex-auto-compaction.jsonl'));
  assert.equal(progress.failure, null);
  assert.equal(progress.turns.length, 2);
  const all = progress.turns.flatMap((t) => t.messages);
  // "Say hello" sits in replacement_history with turn 1's id: still exactly one evidence copy.
  assert.deepEqual(texts(all.filter((m) => m.classification === 'evidence')), ['Say hello', 'Say hello again']);
  const turn2 = progress.turns[1] as TranscriptTurn;
  assert.deepEqual(kinds(turn2), [
    'context:compaction_summary',
    'context:compaction_summary',
    'evidence:prompt',
    'context:answer',
  ]);
  assert.equal(turn2.messages[1]?.key, 'compacted#18');
});

test('identity: replaying the same file yields the same keys; keys are unique within a session', () => {
  for (const name of RECORDED) {
    const keysOf = () => parseAll(rollout(name)).turns.flatMap((t) => t.messages.map((m) => m.key));
    const first = keysOf();
    assert.deepEqual(keysOf(), first);
    assert.equal(new Set(first).size, first.length, name);
  }
});

test('resumption at every line boundary and at strided byte offsets equals one pass', () => {
  for (const name of [...RECORDED, ...SYNTHETIC]) {
    const bytes = RECORDED.includes(name) ? rollout(name) : derived(name);
    const whole = parseAll(bytes);
    const expected = {
      turns: whole.turns,
      openTurns: whole.openTurns,
      pendingContext: whole.pendingContext,
      consumedBytes: whole.consumedBytes,
      state: whole.state,
    };
    const cuts = new Set<number>();
    for (let at = 0; at <= bytes.length; at = bytes.indexOf(0x0a, at) + 1) {
      cuts.add(at);
      if (at === bytes.length) break;
    }
    for (let at = 1; at < bytes.length; at += 997) cuts.add(at);
    for (const at of cuts) assert.deepEqual(parseSplit(bytes, at), expected, `${name} split at ${at}`);
  }
});

test('tailing in small chunks (a writer appending) gives the single-pass result', () => {
  const bytes = rollout('f-tool-call-with-hook-additional-context.jsonl');
  const whole = parseAll(bytes);
  const parser = new CodexRolloutParser();
  const turns: TranscriptTurn[] = [];
  let cursor = 0;
  let last: ParseProgress<CodexRolloutState> | null = null;
  for (let end = 0; end < bytes.length; ) {
    end = Math.min(bytes.length, end + 211);
    last = parser.feed(bytes.subarray(cursor, end));
    assert.equal(last.failure, null);
    turns.push(...last.turns);
    cursor = last.consumedBytes;
  }
  assert.deepEqual(turns, whole.turns);
  assert.deepEqual(last?.state, whole.state);
});

test('a truncated last line stays unconsumed; the turn stays open until the line completes', () => {
  const bytes = rollout('c-resumed-two-turns.jsonl');
  const lastLineStart = offsetOf(bytes, 24);
  const cut = bytes.subarray(0, bytes.length - 20);
  const partial = new CodexRolloutParser().feed(cut);
  assert.equal(partial.failure, null);
  assert.equal(partial.consumedBytes, lastLineStart);
  assert.equal(partial.consumedLines, 23);
  assert.equal(partial.turns.length, 1);
  assert.deepEqual(
    partial.openTurns.map((t) => [t.key, t.state]),
    [['01a22e40-402d-7072-a67d-ab072c0a5481', 'open']],
  );
  const rest = new CodexRolloutParser(partial.state).feed(bytes.subarray(partial.consumedBytes));
  assert.deepEqual(
    rest.turns.map((t) => t.state),
    ['settled'],
  );
  assert.deepEqual(rest.openTurns, []);
});

test('parseTranscriptFile streams a file with a small buffer and reports the unterminated tail', async () => {
  const url = new URL('../../fixtures/codex/rollouts/c-resumed-two-turns.jsonl', import.meta.url);
  const result = await parseTranscriptFile(url.pathname, new CodexRolloutParser(), { chunkBytes: 4096 });
  assert.equal(result.failure, null);
  assert.deepEqual(result.turns, parseAll(rollout('c-resumed-two-turns.jsonl')).turns);
  assert.equal(result.unconsumedBytes, 0);
});

function failureOf(bytes: Buffer): TranscriptParseError {
  const progress = parseAll(bytes);
  assert.ok(progress.failure instanceof TranscriptParseError, 'expected a failure');
  return progress.failure;
}

test('a corrupted line fails with transcript_invalid_json at its line and byte offset; nothing is consumed', () => {
  const original = rollout('b-tool-call-exec-command.jsonl');
  const list = lines(original);
  list[9] = (list[9] as string).slice(0, 40);
  const bytes = join(list);
  const failure = failureOf(bytes);
  assert.equal(failure.code, 'transcript_invalid_json');
  assert.equal(failure.line, 10);
  assert.equal(failure.byteOffset, offsetOf(bytes, 10));

  // Split: the first call succeeds, the failing call consumes nothing and the parser stays failed.
  const parser = new CodexRolloutParser();
  const first = parser.feed(bytes.subarray(0, offsetOf(bytes, 6)));
  assert.equal(first.failure, null);
  const second = parser.feed(bytes.subarray(first.consumedBytes));
  assert.equal(second.failure?.code, 'transcript_invalid_json');
  assert.equal(second.consumedBytes, first.consumedBytes);
  assert.deepEqual(second.state, first.state);
  assert.deepEqual(second.turns, []);
  const again = parser.feed(bytes.subarray(first.consumedBytes));
  assert.equal(again.failure, second.failure);
});

test('unknown discriminators fail with transcript_unknown_record at the right line', () => {
  const base = lines(rollout('b-tool-call-exec-command.jsonl'));
  const cases: Array<[number, (record: Record<string, any>) => void, RegExp]> = [
    [
      13,
      (r) => {
        r['type'] = 'brand_new_line_type';
      },
      /unknown line type/,
    ],
    [
      14,
      (r) => {
        r['payload']['type'] = 'brand_new_event';
      },
      /unknown event_msg type/,
    ],
    [
      10,
      (r) => {
        r['payload']['type'] = 'brand_new_item';
      },
      /unknown response_item type/,
    ],
    [
      12,
      (r) => {
        r['payload']['item']['type'] = 'BrandNewItem';
      },
      /unknown item type/,
    ],
    [
      8,
      (r) => {
        r['payload']['role'] = 'system';
      },
      /unknown message role/,
    ],
    [
      8,
      (r) => {
        r['payload']['content'][0]['type'] = 'input_video';
      },
      /unknown content type/,
    ],
    [
      9,
      (r) => {
        r['payload']['item']['content'][0]['type'] = 'hologram';
      },
      /unknown user input type/,
    ],
  ];
  for (const [line, edit, detail] of cases) {
    const list = [...base];
    const record = JSON.parse(list[line - 1] as string);
    edit(record);
    list[line - 1] = JSON.stringify(record);
    const failure = failureOf(join(list));
    assert.equal(failure.code, 'transcript_unknown_record', String(detail));
    assert.equal(failure.line, line);
    assert.match(failure.detail, detail);
  }
});

test('unknown extra fields are ignored', () => {
  const original = rollout('f-tool-call-with-hook-additional-context.jsonl');
  const list = lines(original).map((line) => {
    const record = JSON.parse(line);
    record['zz_future_field'] = { nested: [1, 2] };
    record['payload']['zz_future_payload_field'] = true;
    return JSON.stringify(record);
  });
  assert.deepEqual(parseAll(join(list)).turns, parseAll(original).turns);
});

test('order, version, UTF-8 and state violations have fixed codes', () => {
  const base = lines(rollout('a-simple-one-turn.jsonl'));
  // A prompt before any task_started.
  let failure = failureOf(join([base[0] as string, base[7] as string]));
  assert.deepEqual([failure.code, failure.line], ['transcript_order', 2]);
  // The file does not start with session_meta.
  failure = failureOf(join(base.slice(1)));
  assert.deepEqual([failure.code, failure.line], ['transcript_order', 1]);
  // Ordinals going backwards: lines spliced or reordered.
  failure = failureOf(join([base[0], base[1], base[3], base[2]] as string[]));
  assert.deepEqual([failure.code, failure.line], ['transcript_order', 4]);
  // A completion for a turn that is not open.
  const stray = JSON.parse(base[13] as string);
  stray.payload.turn_id = 'not-a-started-turn';
  failure = failureOf(join([...base.slice(0, 13), JSON.stringify(stray)]));
  assert.deepEqual([failure.code, failure.line], ['transcript_order', 14]);
  // Versions.
  for (const version of ['0.170.9', '0.171.0-beta.1', 'dev']) {
    const meta = JSON.parse(base[0] as string);
    meta.payload.cli_version = version;
    failure = failureOf(join([JSON.stringify(meta), ...base.slice(1)]));
    assert.deepEqual([failure.code, failure.line], ['transcript_unsupported_version', 1], version);
  }
  const newer = JSON.parse(base[0] as string);
  newer.payload.cli_version = '0.180.2';
  assert.equal(parseAll(join([JSON.stringify(newer), ...base.slice(1)])).failure, null);
  // Invalid UTF-8 inside line 8.
  const bytes = join(base);
  const broken = Buffer.concat([
    bytes.subarray(0, offsetOf(bytes, 8) + 5),
    Buffer.from([0xff]),
    bytes.subarray(offsetOf(bytes, 8) + 5),
  ]);
  failure = failureOf(broken);
  assert.deepEqual(
    [failure.code, failure.line, failure.byteOffset],
    ['transcript_invalid_utf8', 8, offsetOf(bytes, 8)],
  );
  // A state from elsewhere.
  assert.throws(
    () => new CodexRolloutParser({ format: 'claude-transcript/1' } as unknown as CodexRolloutState),
    (error: unknown) => error instanceof TranscriptParseError && error.code === 'transcript_invalid_state',
  );
});

test('prompt copies that disagree fail instead of counting twice', () => {
  const list = lines(rollout('a-simple-one-turn.jsonl'));
  const copy = JSON.parse(list[8] as string);
  copy.payload.item.content[0].text = 'Say hello!';
  list[8] = JSON.stringify(copy);
  const failure = failureOf(join(list));
  assert.deepEqual([failure.code, failure.line], ['transcript_invalid_record', 14]);
});

test('legacy event_msg user_message counts once and can be the only copy', () => {
  const list = lines(rollout('a-simple-one-turn.jsonl'));
  const meta = JSON.parse(list[0] as string);
  meta.payload.history_mode = 'legacy';
  list[0] = JSON.stringify(meta);
  const legacy = JSON.parse(list[8] as string);
  legacy.payload = { type: 'user_message', message: 'Say hello', images: [] };
  list[8] = JSON.stringify(legacy);
  const [withBoth] = parseAll(join(list)).turns;
  assert.ok(withBoth);
  assert.deepEqual(
    evidence(withBoth).map((m) => [m.key, m.text]),
    [['msg_01a22e3f-19b1-7173-9f04-7289613a0c09', 'Say hello']],
  );
  // Without the response_item prompt the legacy event is the evidence, keyed by turn id + ordinal.
  const onlyLegacy = list.filter((_, index) => index !== 7);
  const [turn] = parseAll(join(onlyLegacy)).turns;
  assert.ok(turn);
  assert.deepEqual(
    evidence(turn).map((m) => [m.key, m.text]),
    [['01a22e3f-1950-7471-b9f4-eccae12ace98#8', 'Say hello']],
  );
  // The turn_started / turn_complete aliases work like task_started / task_complete.
  const aliased = lines(rollout('a-simple-one-turn.jsonl')).map((line) =>
    line
      .replace('"type":"task_started"', '"type":"turn_started"')
      .replace('"type":"task_complete"', '"type":"turn_complete"'),
  );
  assert.deepEqual(parseAll(join(aliased)).turns, parseAll(rollout('a-simple-one-turn.jsonl')).turns);
});

test('a turn that never ends stays open while later turns are parsed', () => {
  const c = lines(rollout('c-resumed-two-turns.jsonl'));
  // Turn 1 loses its task_complete (process killed); the resumed turn still settles.
  const progress = parseAll(join(c.filter((_, index) => index !== 13)));
  assert.equal(progress.failure, null);
  assert.deepEqual(
    progress.turns.map((t) => t.key),
    ['01a22e40-402d-7072-a67d-ab072c0a5481'],
  );
  assert.deepEqual(
    progress.openTurns.map((t) => [t.key, t.state, texts(evidence(t))]),
    [['01a22e40-32a3-7692-837e-af50a91e7061', 'open', ['Say hello']]],
  );
  assert.deepEqual(initialCodexRolloutState().openTurns, []);
});
