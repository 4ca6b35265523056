import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PI_EVENT_TYPES,
  classifyPiRecord,
  userEchoMatches,
  type PiRecord,
  type PiRoute,
  type RoutingContext,
} from '../../source/hosts/pi/pi-record.js';
import {
  CommandEncodingError,
  encodePiCommand,
  encodePrompt,
  newCommandId,
} from '../../source/hosts/pi/prompt-encoding.js';
import { RECORD_MAX_BYTES } from '../../source/limits.js';
import { frameFixture, fixtureNames, replayTranscript } from '../support/pi-transcript.js';

const ACTIVE: RoutingContext = { activePromptId: 'p1' };
const IDLE: RoutingContext = { activePromptId: null };

function routeKey(route: PiRoute): string {
  switch (route.kind) {
    case 'lifecycle':
      return `lifecycle:${route.evidence}`;
    case 'protocol-fault':
      return `fault:${route.fault}`;
    case 'canonical':
      return `canonical:${route.role}`;
    case 'journal-only':
      return route.unowned ? 'journal-only:unowned' : 'journal-only';
    default:
      return route.kind;
  }
}
const key = (raw: string, context = ACTIVE): string => routeKey(classifyPiRecord(raw, context).route);
const line = (o: unknown): string => JSON.stringify(o);

const assistant = (stopReason: string, extra: object = {}) => ({
  role: 'assistant',
  content: [],
  stopReason,
  timestamp: 1,
  ...extra,
});
const user = { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1 };
const toolResult = {
  role: 'toolResult',
  toolCallId: 'c1',
  toolName: 'bash',
  content: [{ type: 'text', text: 'hi\n' }],
  isError: false,
  timestamp: 1,
};

// One row per cell of the routing table in pi-record.ts: [record, with active operation, without].
const table: Array<[string, unknown, string, string]> = [
  [
    'prompt accepted',
    { id: 'p1', type: 'response', command: 'prompt', success: true },
    'lifecycle:accepted',
    'fault:unexpected-prompt-response',
  ],
  [
    'prompt rejected',
    { id: 'p1', type: 'response', command: 'prompt', success: false, error: 'Agent is already processing.' },
    'lifecycle:rejected',
    'fault:unexpected-prompt-response',
  ],
  [
    'other prompt id',
    { id: 'p9', type: 'response', command: 'prompt', success: true },
    'fault:unexpected-prompt-response',
    'fault:unexpected-prompt-response',
  ],
  [
    'parse error',
    { type: 'response', command: 'parse', success: false, error: 'Failed to parse command' },
    'fault:command-unparsed',
    'fault:command-unparsed',
  ],
  [
    'unknown command',
    { type: 'response', command: 'nope', success: false, error: 'Unknown command: nope' },
    'fault:command-unparsed',
    'fault:command-unparsed',
  ],
  [
    'get_state response',
    { id: 'g1', type: 'response', command: 'get_state', success: true, data: {} },
    'journal-only',
    'journal-only',
  ],
  [
    'abort failed',
    { id: 'a1', type: 'response', command: 'abort', success: false, error: 'x' },
    'journal-only',
    'journal-only',
  ],
  ['agent_start', { type: 'agent_start' }, 'lifecycle:agent_start', 'journal-only:unowned'],
  ['agent_end', { type: 'agent_end', messages: [] }, 'lifecycle:agent_end', 'journal-only:unowned'],
  [
    'auto_retry_start',
    { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: '500 x' },
    'lifecycle:auto_retry_start',
    'journal-only:unowned',
  ],
  [
    'auto_retry_end',
    { type: 'auto_retry_end', success: true, attempt: 1 },
    'lifecycle:auto_retry_end',
    'journal-only:unowned',
  ],
  [
    'compaction_start',
    { type: 'compaction_start', reason: 'threshold' },
    'lifecycle:compaction_start',
    'journal-only:unowned',
  ],
  [
    'compaction_end',
    { type: 'compaction_end', reason: 'threshold', result: undefined, aborted: false, willRetry: false },
    'lifecycle:compaction_end',
    'journal-only:unowned',
  ],
  ['turn_start', { type: 'turn_start' }, 'journal-only', 'journal-only'],
  ['turn_end', { type: 'turn_end', message: assistant('stop'), toolResults: [] }, 'journal-only', 'journal-only'],
  ['message_start', { type: 'message_start', message: assistant('stop') }, 'journal-only', 'journal-only'],
  [
    'message_update',
    { type: 'message_update', message: assistant('stop'), assistantMessageEvent: { type: 'text_delta' } },
    'journal-only',
    'journal-only',
  ],
  ['user message_end', { type: 'message_end', message: user }, 'user-echo', 'fault:unowned-message'],
  [
    'assistant message_end',
    { type: 'message_end', message: assistant('stop') },
    'canonical:assistant',
    'fault:unowned-message',
  ],
  [
    'toolResult message_end',
    { type: 'message_end', message: toolResult },
    'canonical:toolResult',
    'fault:unowned-message',
  ],
  [
    'assistant without stopReason',
    { type: 'message_end', message: { role: 'assistant', content: [] } },
    'fault:invalid-message',
    'fault:invalid-message',
  ],
  [
    'assistant with unknown stopReason',
    { type: 'message_end', message: assistant('paused') },
    'fault:invalid-message',
    'fault:invalid-message',
  ],
  [
    'toolResult without toolCallId',
    { type: 'message_end', message: { ...toolResult, toolCallId: 1 } },
    'fault:invalid-message',
    'fault:invalid-message',
  ],
  ['message_end without message', { type: 'message_end' }, 'fault:invalid-message', 'fault:invalid-message'],
  [
    'custom role',
    { type: 'message_end', message: { role: 'custom', content: 'x' } },
    'fault:unsupported-role',
    'fault:unsupported-role',
  ],
  [
    'bashExecution role',
    { type: 'message_end', message: { role: 'bashExecution', command: 'ls' } },
    'fault:unsupported-role',
    'fault:unsupported-role',
  ],
  [
    'tool_execution_start',
    { type: 'tool_execution_start', toolCallId: 'c1', toolName: 'bash', args: {} },
    'journal-only',
    'journal-only',
  ],
  [
    'tool_execution_update',
    { type: 'tool_execution_update', toolCallId: 'c1', toolName: 'bash', args: {}, partialResult: {} },
    'journal-only',
    'journal-only',
  ],
  [
    'tool_execution_end',
    { type: 'tool_execution_end', toolCallId: 'c1', toolName: 'bash', result: {}, isError: false },
    'journal-only',
    'journal-only',
  ],
  ['queue_update', { type: 'queue_update', steering: [], followUp: ['x'] }, 'journal-only', 'journal-only'],
  ['session_info_changed', { type: 'session_info_changed', name: 'n' }, 'journal-only', 'journal-only'],
  ['thinking_level_changed', { type: 'thinking_level_changed', level: 'off' }, 'journal-only', 'journal-only'],
  [
    'extension_error',
    { type: 'extension_error', extensionPath: '/x', event: 'e', error: 'boom' },
    'journal-only',
    'journal-only',
  ],
  [
    'extension_ui_request',
    { type: 'extension_ui_request', id: 'u1', method: 'confirm', title: 't', message: 'm' },
    'journal-only',
    'journal-only',
  ],
  ['unknown type', { type: 'agent_settled' }, 'fault:unknown-type', 'fault:unknown-type'],
  ['no type', { id: 'x' }, 'fault:invalid-record', 'fault:invalid-record'],
  [
    'auto_retry_start without attempt',
    { type: 'auto_retry_start', maxAttempts: 3, delayMs: 1, errorMessage: 'x' },
    'fault:invalid-record',
    'fault:invalid-record',
  ],
  [
    'auto_retry_end with string success',
    { type: 'auto_retry_end', success: 'yes', attempt: 1 },
    'fault:invalid-record',
    'fault:invalid-record',
  ],
  [
    'compaction_end without willRetry',
    { type: 'compaction_end', reason: 'overflow', aborted: false },
    'fault:invalid-record',
    'fault:invalid-record',
  ],
  [
    'response without success',
    { id: 'p1', type: 'response', command: 'prompt' },
    'fault:invalid-record',
    'fault:invalid-record',
  ],
];

for (const [name, record, withOperation, withoutOperation] of table) {
  test(`routing table: ${name}`, () => {
    assert.equal(key(line(record), ACTIVE), withOperation, 'with an active operation');
    assert.equal(key(line(record), IDLE), withoutOperation, 'without an active operation');
  });
}

test('routing table covers every pi 0.73.1 event type', () => {
  const covered = new Set(table.map(([, record]) => (record as { type?: string }).type));
  for (const type of PI_EVENT_TYPES) assert.ok(covered.has(type), type);
});

test('invalid JSON, JSON that is not an object, and an empty line are protocol faults', () => {
  assert.equal(key('{not json'), 'fault:invalid-json');
  assert.equal(key(''), 'fault:invalid-json');
  assert.equal(key('[1,2]'), 'fault:invalid-record');
  assert.equal(key('"agent_start"'), 'fault:invalid-record');
  assert.equal(key('null'), 'fault:invalid-record');
});

test('the raw text is kept verbatim next to the parsed fields', () => {
  const raw =
    '{"type":"message_end", "message":{"role":"assistant","content":[{"type":"text","text":"a\u2028b"}],"stopReason":"error","errorMessage":"500 x","extra":1}}';
  const record: PiRecord = classifyPiRecord(raw, ACTIVE);
  assert.equal(record.raw, raw);
  assert.ok(record.event?.type === 'message_end' && record.event.message.role === 'assistant');
  assert.equal(record.event.message.stopReason, 'error');
  assert.equal(record.event.message.errorMessage, '500 x');
  assert.equal(record.event.message.message['extra'], 1, 'unknown fields are carried for canonical encoding');
  const faulted = classifyPiRecord('{oops', ACTIVE);
  assert.equal(faulted.raw, '{oops');
  assert.equal(faulted.event, null);
});

test('a CR-terminated record (kept by the framer) still classifies', () => {
  assert.equal(key('{"type":"agent_start"}\r'), 'lifecycle:agent_start');
});

test('extension_ui_request exposes the id the runtime must answer', () => {
  const record = classifyPiRecord(
    line({ type: 'extension_ui_request', id: 'u-1', method: 'select', title: 't', options: [] }),
    ACTIVE,
  );
  assert.deepEqual(record.event, { type: 'extension_ui_request', id: 'u-1', method: 'select' });
});

// Over every recorded scenario: replayed as a runtime would have seen it. The counts of the
// scenarios without a fault (drainedAt null) were derived from the raw lines by record type alone —
// accepted = prompt responses with success, user-echo / canonical:<role> = message_end by role,
// lifecycle:<type> = agent_start, agent_end, auto_retry_*, journal-only = every other line — and the
// test below derives them again that way; the fault scenarios' counts are explained beside them.
const expected: Record<string, { routes: Record<string, number>; drainedAt: number | null }> = {
  'a-simple-prompt': {
    routes: {
      'lifecycle:accepted': 1,
      'user-echo': 1,
      'canonical:assistant': 1,
      'lifecycle:agent_start': 1,
      'lifecycle:agent_end': 1,
      'journal-only': 13,
    },
    drainedAt: null,
  },
  'b-two-prompts-sequential': {
    routes: {
      'lifecycle:accepted': 2,
      'user-echo': 2,
      'canonical:assistant': 2,
      'lifecycle:agent_start': 2,
      'lifecycle:agent_end': 2,
      'journal-only': 24,
    },
    drainedAt: null,
  },
  'c-abort-mid-stream': {
    routes: {
      'lifecycle:accepted': 2,
      'user-echo': 2,
      'canonical:assistant': 2,
      'lifecycle:agent_start': 2,
      'lifecycle:agent_end': 2,
      'journal-only': 24,
    },
    drainedAt: null,
  },
  'd1-provider-500-default-retry': {
    routes: {
      'lifecycle:accepted': 1,
      'user-echo': 1,
      'canonical:assistant': 4,
      'lifecycle:agent_start': 4,
      'lifecycle:agent_end': 4,
      'lifecycle:auto_retry_start': 3,
      'lifecycle:auto_retry_end': 1,
      'journal-only': 14,
    },
    drainedAt: null,
  },
  'd2-provider-500-no-auto-retry': {
    routes: {
      'lifecycle:accepted': 1,
      'user-echo': 1,
      'canonical:assistant': 1,
      'lifecycle:agent_start': 1,
      'lifecycle:agent_end': 1,
      'journal-only': 6,
    },
    drainedAt: null,
  },
  'd3-provider-malformed-sse': {
    routes: {
      'lifecycle:accepted': 1,
      'user-echo': 1,
      'canonical:assistant': 1,
      'lifecycle:agent_start': 1,
      'lifecycle:agent_end': 1,
      'journal-only': 5,
    },
    drainedAt: null,
  },
  'e-tool-call-bash': {
    routes: {
      'lifecycle:accepted': 1,
      'user-echo': 1,
      'canonical:assistant': 2,
      'canonical:toolResult': 1,
      'lifecycle:agent_start': 1,
      'lifecycle:agent_end': 1,
      'journal-only': 22,
    },
    drainedAt: null,
  },
  // p2 was written while p1 ran (a runtime never does): its rejection is not ours → fault at #10, then drain.
  'f1-prompt-while-busy': {
    routes: {
      'lifecycle:accepted': 1,
      'user-echo': 1,
      'lifecycle:agent_start': 1,
      'fault:unexpected-prompt-response': 2,
      'fault:unowned-message': 3,
      'journal-only': 60,
      'journal-only:unowned': 1,
    },
    drainedAt: 10,
  },
  // Only malformed commands: the first answer is already a fault.
  'g-malformed-and-unknown-commands': {
    routes: { 'fault:command-unparsed': 3, 'fault:unexpected-prompt-response': 1, 'journal-only': 1 },
    drainedAt: 1,
  },
  'i-stdin-eof-mid-stream': {
    routes: { 'lifecycle:accepted': 1, 'user-echo': 1, 'lifecycle:agent_start': 1, 'journal-only': 7 },
    drainedAt: null,
  },
  'j-sigterm-mid-stream': {
    routes: { 'lifecycle:accepted': 1, 'user-echo': 1, 'lifecycle:agent_start': 1, 'journal-only': 7 },
    drainedAt: null,
  },
  'k-introspection-after-prompt': {
    routes: {
      'lifecycle:accepted': 1,
      'user-echo': 1,
      'canonical:assistant': 1,
      'lifecycle:agent_start': 1,
      'lifecycle:agent_end': 1,
      'journal-only': 16,
    },
    drainedAt: null,
  },
};

/** The route counts of a fault-free recording, from its raw lines by record type alone (no router). */
function countsByType(name: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (key: string) => (counts[key] = (counts[key] ?? 0) + 1);
  for (const { text } of frameFixture(name)) {
    const record = JSON.parse(text) as {
      type?: string;
      command?: string;
      success?: boolean;
      message?: { role?: string };
    };
    if (record.type === 'response' && record.command === 'prompt' && record.success) add('lifecycle:accepted');
    else if (record.type === 'message_end' && record.message?.role === 'user') add('user-echo');
    else if (record.type === 'message_end') add(`canonical:${record.message?.role}`);
    else if (['agent_start', 'agent_end', 'auto_retry_start', 'auto_retry_end'].includes(record.type ?? ''))
      add(`lifecycle:${record.type}`);
    else add('journal-only');
  }
  return counts;
}

test('the expected counts of every fault-free recording are its record types, counted independently of the router', () => {
  const faultFree = Object.entries(expected).filter(([, value]) => value.drainedAt === null);
  assert.ok(faultFree.length >= 8, 'most recordings are fault-free');
  for (const [name, value] of faultFree) assert.deepEqual(value.routes, countsByType(name), name);
});

test('every fixture has an expectation', () => {
  assert.deepEqual(Object.keys(expected).sort(), fixtureNames());
});

for (const name of fixtureNames()) {
  test(`${name}: every stdout record routes as expected`, () => {
    const replay = replayTranscript(name);
    const counts: Record<string, number> = {};
    for (const { record } of replay.records) counts[routeKey(record.route)] = (counts[routeKey(record.route)] ?? 0) + 1;
    assert.deepEqual(counts, expected[name]?.routes);
    assert.equal(replay.drainedAt, expected[name]?.drainedAt);
    assert.equal(replay.records.length, frameFixture(name).length, 'every record is classified');
    for (const { record } of replay.records) {
      if (record.route.kind === 'user-echo' || record.route.kind === 'canonical') {
        assert.equal(record.event?.type, 'message_end', 'only message_end reaches the timeline');
      }
    }
  });
}

test('every recorded user echo matches the prompt text that was sent; a different text does not', () => {
  let echoes = 0;
  for (const name of fixtureNames()) {
    const replay = replayTranscript(name);
    for (const { record, promptId } of replay.records) {
      if (record.route.kind !== 'user-echo' || record.event?.type !== 'message_end') continue;
      echoes += 1;
      const sent = replay.promptText.get(promptId ?? '');
      assert.ok(sent !== undefined);
      assert.ok(userEchoMatches(sent, record.event.message), `${name}: echo of ${promptId}`);
      assert.ok(!userEchoMatches(`${sent} `, record.event.message));
    }
  }
  assert.equal(echoes, 13);
});

test('f1: the rejection of a prompt written while busy is lifecycle evidence for that prompt', () => {
  const records = frameFixture('f1-prompt-while-busy');
  const rejection = records[9];
  assert.ok(rejection !== undefined);
  assert.equal(key(rejection.text, { activePromptId: 'p2' }), 'lifecycle:rejected');
  assert.equal(key(rejection.text, { activePromptId: 'p1' }), 'fault:unexpected-prompt-response');
  const queued = records[10];
  assert.equal(queued && key(queued.text), 'journal-only');
});

test('g: x1 (a prompt without message) is rejected when it is the active prompt', () => {
  const records = frameFixture('g-malformed-and-unknown-commands');
  assert.equal(records[3] && key(records[3].text, { activePromptId: 'x1' }), 'lifecycle:rejected');
});

test('encodePiCommand: one JSON record with one LF, user text never spliced', () => {
  const nasty = 'line1\nline2\r\n"quoted" \\ \u2028 \u2029 \ud800 end';
  const { id, line: encoded } = encodePrompt(nasty);
  assert.match(id, /^prompt-[0-9a-f-]{36}$/);
  assert.ok(encoded.endsWith('\n'));
  assert.equal(encoded.indexOf('\n'), encoded.length - 1, 'the only LF is the terminator');
  assert.ok(!encoded.includes('\r'));
  assert.deepEqual(JSON.parse(encoded), { id, type: 'prompt', message: nasty }, 'round-trips exactly');
  assert.ok(encoded.includes('\\ud800'), 'a lone surrogate is escaped, so the bytes are valid UTF-8');
  assert.ok(encoded.includes('\u2028'), 'U+2028 is left as is: pi frames on LF only');
  assert.equal(encodePiCommand({ type: 'abort', id: 'abort-1' }), '{"id":"abort-1","type":"abort"}\n');
  assert.equal(
    encodePiCommand({ type: 'extension_ui_response', id: 'u-1', cancelled: true }),
    '{"type":"extension_ui_response","id":"u-1","cancelled":true}\n',
  );
  const withExtra = { type: 'get_state', id: 'g-1', evil: 'x' } as unknown as Parameters<typeof encodePiCommand>[0];
  assert.equal(encodePiCommand(withExtra), '{"id":"g-1","type":"get_state"}\n', 'only known fields reach the wire');
  assert.notEqual(newCommandId('abort'), newCommandId('abort'));
});

test('encodePiCommand refuses bad ids and records over RECORD_MAX_BYTES', () => {
  assert.throws(() => encodePiCommand({ type: 'abort', id: '' }), CommandEncodingError);
  assert.throws(() => encodePiCommand({ type: 'abort', id: 'a b' }), CommandEncodingError);
  assert.throws(() => encodePiCommand({ type: 'abort', id: 'x'.repeat(500) }), CommandEncodingError);
  assert.throws(() => encodePrompt('x'.repeat(RECORD_MAX_BYTES)), CommandEncodingError);
  const overhead = encodePrompt('', 'p').line.length - 1;
  assert.doesNotThrow(() => encodePrompt('x'.repeat(RECORD_MAX_BYTES - overhead), 'p'));
});
