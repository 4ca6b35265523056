// Claude Code 2.1.332 transcript parser: recorded fixtures (copied from shared/fixtures into
// fixtures/claude/transcripts), synthetic scenarios (fixtures/transcripts, see its README) and
// corruptions derived here from the recorded copies.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  ClaudeTranscriptParser,
  claudeTranscriptMode,
  initialClaudeTranscriptState,
  type ClaudeTranscriptMode,
  type ClaudeTranscriptState,
} from '../../source/hosts/claude/transcript-parser.js';
import {
  TranscriptParseError,
  type ParseProgress,
  type TranscriptMessage,
  type TranscriptTurn,
} from '../../source/hosts/transcript-model.js';

const RECORDED: Record<string, string> = {
  plain: '01-plain/e062eced-7d52-4151-9c22-ecd2fb939260.jsonl',
  resume: '02-03-04-08-tool-resume-continue-compact/5d09d7e7-e79b-4377-a984-1912cce194df.jsonl',
  denied: '06-tool-denied/23d03b28-9673-4ad9-8958-0f115cf41e2b.jsonl',
  fail: '07-tool-fail/19d5968f-cef2-4d2a-a105-ac92748c2eec.jsonl',
  context: '20-ret-context/1b930731-5c48-4030-b456-3efc7be4428c.jsonl',
  block: '21-ret-block/44fee5d2-794b-4dff-8c03-0d5a8a66909c.jsonl',
  deny: '22-ret-deny/8f97b7a1-fad4-4fec-ae32-76bbe8113b0e.jsonl',
  interactive: '30-interactive/6b4b9ca0-d8f4-4c99-ba0c-814665c7a1fb.jsonl',
};
const SYNTHETIC = 'claude-notification-interrupt-open.jsonl';
const SUBAGENT = 'claude-subagent/5d09d7e7-e79b-4377-a984-1912cce194df/subagents/agent-a1b2c3d4e5f6.jsonl';

const recorded = (key: string): Buffer =>
  readFileSync(new URL(`../../fixtures/claude/transcripts/${RECORDED[key]}`, import.meta.url));
const derived = (name: string): Buffer => readFileSync(new URL(`../../fixtures/transcripts/${name}`, import.meta.url));

function parseAll(bytes: Uint8Array, mode: ClaudeTranscriptMode = 'main'): ParseProgress<ClaudeTranscriptState> {
  return new ClaudeTranscriptParser(initialClaudeTranscriptState(mode)).feed(bytes);
}

function lines(bytes: Buffer): string[] {
  const text = bytes.toString('utf8');
  assert.ok(text.endsWith('\n'));
  return text.slice(0, -1).split('\n');
}

function join(list: string[]): Buffer {
  return Buffer.from(`${list.join('\n')}\n`);
}

function offsetOf(bytes: Buffer, n: number): number {
  let offset = 0;
  for (let i = 1; i < n; i += 1) offset = bytes.indexOf(0x0a, offset) + 1;
  return offset;
}

const evidence = (turn: TranscriptTurn): TranscriptMessage[] =>
  turn.messages.filter((m) => m.classification === 'evidence');
const texts = (messages: TranscriptMessage[]): string[] => messages.map((m) => m.text);
const nonEnvironment = (turn: TranscriptTurn): string[] =>
  turn.messages.filter((m) => m.kind !== 'environment').map((m) => `${m.classification}:${m.kind}`);
const allMessages = (progress: ParseProgress<ClaudeTranscriptState>): TranscriptMessage[] => [
  ...progress.turns.flatMap((t) => t.messages),
  ...progress.openTurns.flatMap((t) => t.messages),
  ...progress.pendingContext,
];

function parseSplit(bytes: Buffer, at: number, mode: ClaudeTranscriptMode) {
  const first = new ClaudeTranscriptParser(initialClaudeTranscriptState(mode)).feed(bytes.subarray(0, at));
  assert.equal(first.failure, null);
  const saved = JSON.parse(JSON.stringify(first.state)) as ClaudeTranscriptState;
  const second = new ClaudeTranscriptParser(saved).feed(bytes.subarray(first.consumedBytes));
  assert.equal(second.failure, null);
  return {
    turns: [...first.turns, ...second.turns],
    openTurns: second.openTurns,
    pendingContext: second.pendingContext,
    waitingLines: second.waitingLines,
    consumedBytes: second.consumedBytes,
    state: second.state,
  };
}

test('01-plain: one turn settled by stop_hook_summary; the typed prompt is the only evidence', () => {
  const progress = parseAll(recorded('plain'));
  assert.equal(progress.failure, null);
  assert.equal(progress.sessionKey, 'e062eced-7d52-4151-9c22-ecd2fb939260');
  assert.equal(progress.turns.length, 1);
  const turn = progress.turns[0] as TranscriptTurn;
  assert.deepEqual(
    [turn.key, turn.state, turn.firstLine, turn.lastLine],
    ['56c5d293-78d9-41e2-96de-03885cd9daad', 'settled', 3, 24],
  );
  assert.deepEqual(nonEnvironment(turn), ['evidence:prompt', 'context:answer']);
  assert.deepEqual(
    evidence(turn).map((m) => [m.key, m.text, m.line]),
    [['56c5d293-78d9-41e2-96de-03885cd9daad', 'hello', 3]],
  );
  // Model-visible attachments are context; prompt_snapshot (not rendered) is not a message.
  assert.equal(turn.messages.filter((m) => m.kind === 'environment').length, 8);
  assert.deepEqual(progress.openTurns, []);
  assert.deepEqual(progress.pendingContext, []);
});

test('02-03-04-08: tool turn, --resume and --continue give three settled turns; /compact is never evidence', () => {
  const progress = parseAll(recorded('resume'));
  assert.equal(progress.failure, null);
  assert.deepEqual(
    progress.turns.map((t) => [t.state, t.firstLine, t.lastLine]),
    [
      ['settled', 3, 29],
      ['settled', 35, 38],
      ['settled', 44, 47],
    ],
  );
  assert.deepEqual(
    progress.turns.map((t) => texts(evidence(t))),
    [['USE_BASH please run echo hi'], ['second turn after resume'], ['third turn via continue']],
  );
  const tool = progress.turns[0] as TranscriptTurn;
  assert.deepEqual(nonEnvironment(tool), [
    'evidence:prompt',
    'context:answer',
    'context:tool_call',
    'context:tool_result',
    'context:answer',
  ]);
  assert.deepEqual(
    tool.messages.filter((m) => m.kind !== 'environment').map((m) => m.key),
    [
      '46d1839f-ebe0-4439-be51-e0f7cb2eea08',
      'msg_fake000004',
      'toolu_fake000003',
      'e205edb0-e109-4c5a-8efd-d3d6d9eb3f88',
      'msg_fake000005',
    ],
  );
  // The compaction block follows a settled turn: it waits as context for the next turn.
  assert.deepEqual(progress.openTurns, []);
  assert.deepEqual(
    progress.pendingContext.slice(0, 4).map((m) => [m.kind, m.line]),
    [
      ['compaction_summary', 55],
      ['harness', 56],
      ['command', 57],
      ['harness', 58],
    ],
  );
  assert.ok(progress.pendingContext.every((m) => m.classification === 'context'));
  assert.match(progress.pendingContext[0]?.text ?? '', /^This session is being continued/);
});

test('06-tool-denied and 07-tool-fail: error tool results are context of a settled turn', () => {
  for (const [key, prompt, result] of [
    ['denied', 'USE_BASH CMD: touch denied.txt', /needs approval/],
    ['fail', 'USE_BASH_FAIL run a failing command', /^Exit code 3\noops$/],
  ] as const) {
    const progress = parseAll(recorded(key));
    assert.equal(progress.turns.length, 1);
    const turn = progress.turns[0] as TranscriptTurn;
    assert.equal(turn.state, 'settled');
    assert.deepEqual(texts(evidence(turn)), [prompt]);
    assert.deepEqual(nonEnvironment(turn), [
      'evidence:prompt',
      'context:answer',
      'context:tool_call',
      'context:tool_result',
      'context:answer',
    ]);
    const toolResult = turn.messages.find((m) => m.kind === 'tool_result');
    assert.equal(toolResult?.role, 'tool');
    assert.match(toolResult?.text ?? '', result);
  }
});

test('20-ret-context: hook context is context; the Stop block keeps the turn open until the final summary', () => {
  const bytes = recorded('context');
  const progress = parseAll(bytes);
  assert.equal(progress.turns.length, 1);
  const turn = progress.turns[0] as TranscriptTurn;
  assert.deepEqual([turn.state, turn.firstLine, turn.lastLine], ['settled', 4, 35]);
  assert.deepEqual(nonEnvironment(turn), [
    'context:hook_context',
    'evidence:prompt',
    'context:hook_context',
    'context:hook_context',
    'context:answer',
    'context:hook_feedback',
    'context:hook_context',
    'context:answer',
  ]);
  assert.deepEqual(texts(evidence(turn)), ['hello with memory']);
  const hookTexts = texts(turn.messages.filter((m) => m.kind === 'hook_context')).join('\n');
  assert.match(hookTexts, /SessionStart hook additional context: MEMORY-FROM-SESSIONSTART-JSON/);
  assert.match(hookTexts, /UserPromptSubmit hook success: MEMORY-FROM-USERPROMPTSUBMIT-PLAIN-STDOUT/);
  assert.match(hookTexts, /UserPromptSubmit hook additional context: MEMORY-FROM-USERPROMPTSUBMIT-JSON/);
  assert.equal(
    turn.messages.find((m) => m.kind === 'hook_feedback')?.text,
    'Stop hook feedback:\nSTOP-HOOK-SAYS-CONTINUE',
  );

  // Incrementally: after the blocked summary (line 30) and after the second answer (34) the turn is open.
  for (const through of [30, 34]) {
    const partial = parseAll(bytes.subarray(0, offsetOf(bytes, through + 1)));
    assert.deepEqual(partial.turns, [], `through line ${through}`);
    assert.deepEqual(
      partial.openTurns.map((t) => t.state),
      ['open'],
    );
  }
  const settled = parseAll(bytes.subarray(0, offsetOf(bytes, 36)));
  assert.deepEqual(
    settled.turns.map((t) => t.lastLine),
    [35],
  );
});

test('21-ret-block: a prompt blocked by UserPromptSubmit leaves no turn and no evidence', () => {
  const progress = parseAll(recorded('block'));
  assert.equal(progress.failure, null);
  assert.deepEqual(progress.turns, []);
  assert.deepEqual(progress.openTurns, []);
  const messages = allMessages(progress);
  assert.ok(messages.every((m) => m.classification === 'context'));
  assert.ok(!messages.some((m) => m.text.includes('BLOCKME')));
  assert.deepEqual(
    progress.pendingContext.map((m) => m.kind),
    ['hook_context'],
  );
});

test('22-ret-deny: hook-denied tool and a Stop block re-run in one settled turn', () => {
  const progress = parseAll(recorded('deny'));
  assert.equal(progress.turns.length, 1);
  const turn = progress.turns[0] as TranscriptTurn;
  assert.deepEqual([turn.state, turn.lastLine], ['settled', 40]);
  assert.deepEqual(texts(evidence(turn)), ['USE_BASH CMD: echo hi']);
  assert.equal(
    turn.messages.find((m) => m.kind === 'tool_result')?.text,
    'PreToolUse:Bash hook error: denied by PreToolUse hook',
  );
  assert.deepEqual(texts(turn.messages.filter((m) => m.kind === 'answer')), [
    'I will run a command.',
    'Tool output was: PreToolUse:Bash hook error: denied by PreToolUse hook',
    'Hello from the fake server.',
  ]);
});

test('synthetic: task notification turn has no evidence; a user-rejected tool then interruption; last turn open', () => {
  const progress = parseAll(derived(SYNTHETIC));
  assert.equal(progress.failure, null);
  assert.deepEqual(
    progress.turns.map((t) => t.state),
    ['settled', 'settled', 'interrupted'],
  );
  const [, notification, interrupted] = progress.turns as [TranscriptTurn, TranscriptTurn, TranscriptTurn];
  assert.deepEqual(nonEnvironment(notification), ['context:task_notification', 'context:answer']);
  assert.deepEqual(nonEnvironment(interrupted), [
    'evidence:prompt',
    'context:answer',
    'context:tool_call',
    'context:tool_result',
    'context:harness',
  ]);
  assert.deepEqual(texts(evidence(interrupted)), ['delete the build dir']);
  assert.deepEqual(
    progress.openTurns.map((t) => [t.state, texts(evidence(t))]),
    [['open', ['never mind, just list it']]],
  );
});

test('subagent transcript: all context, keyed by session and agent; refused as a main transcript', () => {
  const bytes = derived(SUBAGENT);
  const path = new URL(`../../fixtures/transcripts/${SUBAGENT}`, import.meta.url).pathname;
  assert.equal(claudeTranscriptMode(path), 'subagent');
  assert.equal(
    claudeTranscriptMode(new URL(`../../fixtures/claude/transcripts/${RECORDED['plain']}`, import.meta.url).pathname),
    'main',
  );
  const progress = parseAll(bytes, 'subagent');
  assert.equal(progress.failure, null);
  assert.equal(progress.sessionKey, '5d09d7e7-e79b-4377-a984-1912cce194df:agent-a1b2c3d4e5f6');
  assert.deepEqual(progress.turns, []);
  const [turn] = progress.openTurns;
  assert.ok(turn);
  assert.deepEqual(
    turn.messages.map((m) => `${m.classification}:${m.kind}`),
    ['context:subagent_prompt', 'context:answer', 'context:tool_call', 'context:tool_result', 'context:answer'],
  );
  const main = parseAll(bytes);
  assert.deepEqual([main.failure?.code, main.failure?.line], ['transcript_invalid_record', 1]);
});

test('assistant lines sharing message.id form one answer message', () => {
  const list = lines(recorded('plain'));
  const block = JSON.parse(list[19] as string);
  const second = {
    ...block,
    uuid: 'aaaaaaaa-0000-4000-8000-000000000001',
    parentUuid: block.uuid,
    message: { ...block.message, content: [{ type: 'text', text: 'second block' }] },
  };
  const summary = JSON.parse(list[23] as string);
  summary.parentUuid = second.uuid;
  list[23] = JSON.stringify(summary);
  list.splice(20, 0, JSON.stringify(second));
  const [turn] = parseAll(join(list)).turns;
  assert.ok(turn);
  const answers = turn.messages.filter((m) => m.kind === 'answer');
  assert.deepEqual(
    answers.map((m) => [m.key, m.text, m.line]),
    [['msg_fake000002', 'Hello from the fake server.\nsecond block', 20]],
  );
});

test('order comes from parentUuid chains: a child written before its parent waits for it', () => {
  const original = recorded('resume');
  const list = lines(original);
  // Swap line 19 (text block) and line 20 (its child, the tool_use block).
  const swapped = [...list];
  swapped[18] = list[19] as string;
  swapped[19] = list[18] as string;
  const bytes = join(swapped);
  const reordered = parseAll(bytes);
  const expected = parseAll(original);
  const strip = (turns: TranscriptTurn[]) =>
    turns.map((t) => ({ ...t, messages: t.messages.map((m) => ({ ...m, line: 0 })), lastLine: 0 }));
  assert.deepEqual(strip(reordered.turns), strip(expected.turns));
  assert.deepEqual(
    texts(reordered.turns[0]?.messages.filter((m) => m.kind === 'answer' || m.kind === 'tool_call') ?? []).slice(0, 2),
    ['I will run a command.', 'Bash {"command":"echo hi","description":"Print hi"}'],
  );
  const partial = parseAll(bytes.subarray(0, offsetOf(bytes, 20)));
  assert.equal(partial.waitingLines, 1);
  const resumed = new ClaudeTranscriptParser(JSON.parse(JSON.stringify(partial.state)) as ClaudeTranscriptState).feed(
    bytes.subarray(partial.consumedBytes),
  );
  assert.equal(resumed.waitingLines, 0);
  assert.deepEqual([...partial.turns, ...resumed.turns], reordered.turns);
});

test('resumption at every line boundary and at strided byte offsets equals one pass', () => {
  const files: Array<[Buffer, ClaudeTranscriptMode]> = [
    ...Object.keys(RECORDED).map((key) => [recorded(key), 'main'] as [Buffer, ClaudeTranscriptMode]),
    [derived(SYNTHETIC), 'main'],
    [derived(SUBAGENT), 'subagent'],
  ];
  for (const [bytes, mode] of files) {
    const whole = parseAll(bytes, mode);
    assert.equal(whole.failure, null);
    const expected = {
      turns: whole.turns,
      openTurns: whole.openTurns,
      pendingContext: whole.pendingContext,
      waitingLines: whole.waitingLines,
      consumedBytes: whole.consumedBytes,
      state: whole.state,
    };
    const cuts = new Set<number>();
    for (let at = 0; at <= bytes.length; at = bytes.indexOf(0x0a, at) + 1) {
      cuts.add(at);
      if (at === bytes.length) break;
    }
    for (let at = 1; at < bytes.length; at += 1499) cuts.add(at);
    for (const at of cuts) assert.deepEqual(parseSplit(bytes, at, mode), expected, `split at ${at}`);
  }
});

test('identity: replaying a file yields the same keys; keys are unique within a session', () => {
  for (const key of Object.keys(RECORDED)) {
    const keysOf = () => allMessages(parseAll(recorded(key))).map((m) => m.key);
    const first = keysOf();
    assert.deepEqual(keysOf(), first);
    assert.equal(new Set(first).size, first.length, key);
  }
});

test('a truncated last line stays unconsumed', () => {
  const bytes = recorded('plain');
  const cut = bytes.subarray(0, bytes.length - 30);
  const partial = parseAll(cut);
  assert.equal(partial.failure, null);
  assert.equal(partial.consumedBytes, offsetOf(bytes, 26));
  assert.equal(partial.consumedLines, 25);
  // Cut inside the stop_hook_summary line: the turn has not settled yet.
  const beforeSummary = parseAll(bytes.subarray(0, offsetOf(bytes, 24) + 50));
  assert.equal(beforeSummary.consumedBytes, offsetOf(bytes, 24));
  assert.deepEqual([beforeSummary.turns.length, beforeSummary.openTurns.length], [0, 1]);
});

function failureOf(bytes: Buffer, mode: ClaudeTranscriptMode = 'main'): TranscriptParseError {
  const progress = parseAll(bytes, mode);
  assert.ok(progress.failure instanceof TranscriptParseError, 'expected a failure');
  return progress.failure;
}

test('corrupted lines and unknown discriminators fail with fixed codes at the right line', () => {
  const base = lines(recorded('resume'));
  const edit = (line: number, change: (record: Record<string, any>) => void): Buffer => {
    const list = [...base];
    const record = JSON.parse(list[line - 1] as string);
    change(record);
    list[line - 1] = JSON.stringify(record);
    return join(list);
  };
  const cases: Array<[Buffer, string, number, RegExp]> = [
    [join(base.map((l, i) => (i === 22 ? l.slice(0, 30) : l))), 'transcript_invalid_json', 23, /not JSON/],
    [
      edit(18, (r) => {
        r['type'] = 'brand-new-bookkeeping';
      }),
      'transcript_unknown_record',
      18,
      /unknown line type/,
    ],
    [
      edit(19, (r) => {
        r['message']['content'][0]['type'] = 'server_tool_use';
      }),
      'transcript_unknown_record',
      19,
      /unknown assistant block/,
    ],
    [
      edit(35, (r) => {
        r['promptSource'] = 'clipboard';
      }),
      'transcript_unknown_record',
      35,
      /unknown promptSource/,
    ],
    [
      edit(35, (r) => {
        delete r['promptSource'];
      }),
      'transcript_invalid_record',
      35,
      /neither a prompt/,
    ],
    [
      edit(35, (r) => {
        delete r['uuid'];
      }),
      'transcript_invalid_record',
      35,
      /without uuid/,
    ],
    [
      edit(35, (r) => {
        r['sessionId'] = 'another-session';
      }),
      'transcript_invalid_record',
      35,
      /another session/,
    ],
    [
      edit(37, (r) => {
        r['uuid'] = base[34] && JSON.parse(base[34]).uuid;
      }),
      'transcript_invalid_record',
      37,
      /duplicate uuid/,
    ],
  ];
  for (const [bytes, code, line, detail] of cases) {
    const failure = failureOf(bytes);
    assert.deepEqual(
      [failure.code, failure.line, failure.byteOffset],
      [code, line, offsetOf(bytes, line)],
      String(detail),
    );
    assert.match(failure.detail, detail);
  }
});

test('interactive 2.1.332 (TUI, auto mode): auto_mode attachment, queued prompts and an Esc give three turns', () => {
  const progress = parseAll(recorded('interactive'));
  assert.equal(progress.failure, null);
  const turns = progress.turns;
  assert.deepEqual(
    turns.map((t) => [t.state, texts(evidence(t))]),
    [
      ['settled', ['Say hello']],
      ['settled', ['USE_BASH please run echo hi']],
      ['interrupted', ['HANG until I press Esc']],
    ],
  );
  const autoMode = turns[0]!.messages.find((m) => m.text.includes('While auto mode is active'));
  assert.equal(autoMode?.kind, 'environment', 'the auto_mode notice the model saw is context');
});

test('a newer client: unknown attachment types and system subtypes are context-only, never isolating', () => {
  const base = lines(recorded('resume'));
  const list = [...base];
  const attachment = JSON.parse(list[4] as string);
  attachment['attachment']['type'] = 'brand_new_attachment';
  attachment['rendered'] = [{ content: 'what the model saw' }];
  list[4] = JSON.stringify(attachment);
  const system = JSON.parse(list[28] as string);
  assert.equal(system['type'], 'system');
  system['subtype'] = 'brand_new_subtype';
  list[28] = JSON.stringify(system);
  const before = parseAll(join(base));
  const after = parseAll(join(list));
  assert.equal(after.failure, null);
  assert.deepEqual(
    after.turns.map((t) => [t.state, texts(evidence(t))]),
    before.turns.map((t) => [t.state, texts(evidence(t))]),
  );
  const unknown = allMessages(after).filter((m) => m.kind === 'unknown_attachment');
  assert.deepEqual(
    unknown.map((m) => [m.classification, m.text]),
    [['context', 'what the model saw']],
  );
});

test('assistant output after the turn settled is an order failure', () => {
  const list = lines(recorded('block'));
  const informational = JSON.parse(list[4] as string);
  const stray = {
    parentUuid: informational.uuid,
    isSidechain: false,
    message: { id: 'msg_stray', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    type: 'assistant',
    uuid: 'bbbbbbbb-0000-4000-8000-000000000001',
    timestamp: '2026-11-30T20:58:28.000Z',
    sessionId: informational.sessionId,
  };
  const failure = failureOf(join([...list, JSON.stringify(stray)]));
  assert.deepEqual([failure.code, failure.line], ['transcript_order', 8]);
});

test('unknown extra fields are ignored; bad resume state is refused', () => {
  const original = recorded('context');
  const list = lines(original).map((line) => JSON.stringify({ ...JSON.parse(line), zz_future_field: [1, { a: 2 }] }));
  const progress = parseAll(join(list));
  assert.deepEqual(progress.turns, parseAll(original).turns);
  assert.throws(
    () =>
      new ClaudeTranscriptParser({
        format: 'codex-rollout/1',
        consumedBytes: 0,
        consumedLines: 0,
      } as unknown as ClaudeTranscriptState),
    (error: unknown) => error instanceof TranscriptParseError && error.code === 'transcript_invalid_state',
  );
});

test('a queued_command attachment is its submitted prompt, not the reminder that wraps it: its candidate matches', () => {
  const list = lines(recorded('plain'));
  const records = list.map((line) => JSON.parse(line) as Record<string, unknown>);
  const answer = records.findIndex((r) => r['type'] === 'assistant');
  const child = records.findIndex((r) => r['parentUuid'] === records[answer]!['uuid']);
  assert.ok(answer >= 0 && child > answer, 'the fixture has an answer with a line after it');
  const prompt = '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>';
  const queued = {
    parentUuid: records[answer]!['uuid'],
    isSidechain: false,
    attachment: { type: 'queued_command', prompt, commandMode: 'task-notification' },
    type: 'attachment',
    uuid: 'a60702ce-63b7-4792-a81b-b8666c9e4fcf',
    timestamp: records[answer]!['timestamp'],
    sessionId: records[answer]!['sessionId'],
    rendered: [
      { content: `<system-reminder>\n[SYSTEM NOTIFICATION - NOT USER INPUT]\n\n${prompt}\n</system-reminder>` },
    ],
  };
  records[child]!['parentUuid'] = queued.uuid;
  const edited = [...records.slice(0, child), queued, ...records.slice(child)].map((r) => JSON.stringify(r));
  const progress = parseAll(join(edited));
  assert.equal(progress.failure, null);
  const messages = allMessages(progress).filter((m) => m.kind === 'queued_prompt');
  assert.deepEqual(
    messages.map((m) => [m.classification, m.text]),
    [['context', prompt]],
  );
});
