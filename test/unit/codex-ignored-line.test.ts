// Ignored Codex records recognised from their bytes (source/hosts/codex/ignored-line.ts): the
// recorded rollouts parse exactly as with a full parse of every line, the frame check sends
// anything unusual to the full parse, and a record cut short and followed by the next one on the
// same line still fails as invalid JSON.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ignoredRecordOrdinal, NO_ORDINAL, NOT_RECOGNISED } from '../../source/hosts/codex/ignored-line.js';
import { CodexRolloutParser } from '../../source/hosts/codex/rollout-parser.js';
import {
  CODEX_IGNORED_EVENTS,
  CODEX_IGNORED_LINE_TYPES,
  CODEX_IGNORED_TURN_ITEMS,
} from '../../source/hosts/codex/rollout-records.js';
import type { LinePosition } from '../../source/hosts/jsonl-cursor.js';
import { seededRandom } from '../support/seeded-random.js';

const FILES = [
  'rollouts/a-simple-one-turn.jsonl',
  'rollouts/b-tool-call-exec-command.jsonl',
  'rollouts/c-resumed-two-turns.jsonl',
  'rollouts/d-failed-turn-http400.jsonl',
  'rollouts/f-tool-call-with-hook-additional-context.jsonl',
];
const read = (name: string): Buffer => readFileSync(new URL(`../../fixtures/codex/${name}`, import.meta.url));
const linesOf = (bytes: Buffer): string[] => bytes.toString('utf8').replace(/\n$/, '').split('\n');
const join = (list: string[]): Buffer => Buffer.from(`${list.join('\n')}\n`);

/** The parser with every line decoded and built by JSON.parse, as before the byte check. */
class FullParser extends CodexRolloutParser {
  protected override skipIgnoredLine(_buf: Buffer, _start: number, _end: number, _at: LinePosition): boolean {
    return false;
  }
}

const outcome = (parser: CodexRolloutParser, bytes: Buffer) => {
  const progress = parser.feed(bytes);
  return progress.failure === null
    ? { ok: true, turns: progress.turns, state: progress.state }
    : { ok: false, code: progress.failure.code, line: progress.failure.line };
};

const verdict = (line: string): number => {
  const buf = Buffer.from(line);
  return ignoredRecordOrdinal(buf, 0, buf.length);
};

interface Rec {
  type: string;
  payload: { type?: string; turn_id?: string; item?: { type?: string } };
}

function isIgnored(record: Rec): boolean {
  if (record.type === 'event_msg' && record.payload.type === 'item_completed')
    return CODEX_IGNORED_TURN_ITEMS.has(record.payload.item?.type ?? '') && (record.payload.turn_id ?? '') !== '';
  if (record.type === 'event_msg') return CODEX_IGNORED_EVENTS.has(record.payload.type ?? '');
  return CODEX_IGNORED_LINE_TYPES.has(record.type);
}

test('every ignored record of the recorded rollouts is recognised with its ordinal, and nothing else is', () => {
  let recognised = 0;
  let items = 0;
  for (const name of FILES) {
    for (const line of linesOf(read(name))) {
      const record = JSON.parse(line) as Rec & { ordinal?: number };
      const expected = isIgnored(record) ? (record.ordinal ?? NO_ORDINAL) : NOT_RECOGNISED;
      assert.equal(verdict(line), expected, `${name}: ${line.slice(0, 90)}`);
      if (expected !== NOT_RECOGNISED) recognised += 1;
      if (expected !== NOT_RECOGNISED && record.payload.type === 'item_completed') items += 1;
    }
  }
  assert.ok(recognised >= 20, `only ${recognised} ignored records in the recorded rollouts`);
  assert.ok(items >= 3, `only ${items} ignored completed items in the recorded rollouts`);
  // Written without an ordinal (older rollouts), and with CRLF line ends.
  const plain = '{"timestamp":"2026-11-30T20:58:10.114Z","type":"turn_context","payload":{"a":{}}}';
  assert.equal(verdict(plain), NO_ORDINAL);
  assert.equal(verdict(`${plain}\r`), NO_ORDINAL);
});

test('the recorded rollouts parse exactly as with a full parse of every line', () => {
  for (const name of FILES) {
    const bytes = read(name);
    assert.deepEqual(outcome(new CodexRolloutParser(), bytes), outcome(new FullParser(), bytes), name);
    assert.equal(outcome(new CodexRolloutParser(), bytes).ok, true, name);
  }
});

const META = linesOf(read('rollouts/b-tool-call-exec-command.jsonl'))[0] as string;
const frame = (rest: string): string => `{"timestamp":"2026-11-30T20:58:10.114Z",${rest}`;
const item = (rest: string): string =>
  frame(`"ordinal":5,"type":"event_msg","payload":{"type":"item_completed",${rest}}}`);

test('an unusual frame takes the full parse and ends as it did before', () => {
  const variants = [
    frame('"ordinal":05,"type":"world_state","payload":{"a":{}}}'),
    frame('"ordinal":-5,"type":"world_state","payload":{"a":{}}}'),
    frame('"ordinal":5.0,"type":"world_state","payload":{"a":{}}}'),
    frame('"ordinal":5,"type":"world_state","payload":[{}]}'),
    frame('"ordinal":5,"type":"world_state","payload":{"a":1}'),
    frame('"ordinal":5,"type":"world_state","payload":{"a":{}}} }'),
    frame('"ordinal":5,"type":"world_statement","payload":{"a":{}}}'),
    frame('"ordinal":5,"type":"event_msg","payload":{"type":"brand_new_event","a":{}}}'),
    frame('"ordinal":5,"type":"event_msg","payload":{"type":"task_started","a":{}}}'),
    frame('"ordinal":5, "type":"world_state","payload":{"a":{}}}'),
    '{"timestamp":"2026-11-30T20:58:10\\u002e114Z","ordinal":5,"type":"world_state","payload":{"a":{}}}',
    '{"type":"world_state","timestamp":"2026-11-30T20:58:10.114Z","ordinal":5,"payload":{"a":{}}}',
    // A completed item the parser reads, or one whose frame is not exactly Codex's.
    item('"thread_id":"t","turn_id":"u","item":{"type":"UserMessage","id":"m","content":[]}'),
    item('"thread_id":"t","turn_id":"","item":{"type":"AgentMessage","id":"m"}'),
    item('"thread_id":"t","turn_id":"u","item":{"type":"BrandNewItem","id":"m"}'),
    item('"thread_id":"t","turn_id":"u\\u0031","item":{"type":"AgentMessage","id":"m"}'),
    item('"turn_id":"u","item":{"type":"AgentMessage","id":"m"}'),
    item('"thread_id":"t","item":{"type":"AgentMessage","id":"m"},"turn_id":"u"'),
    item('"thread_id":"t","turn_id":"u","item":{"id":"m","type":"AgentMessage"}'),
    item('"thread_id":"t","turn_id":7,"item":{"type":"AgentMessage","id":"m"}'),
  ];
  for (const variant of variants) {
    assert.equal(verdict(variant), NOT_RECOGNISED, variant);
    const bytes = join([META, variant]);
    assert.deepEqual(outcome(new CodexRolloutParser(), bytes), outcome(new FullParser(), bytes), variant);
  }
});

test('every ignored name is recognised from its bytes, and a name one byte off, cut or extended is not', () => {
  const line = (type: string, event?: string) =>
    frame(`"ordinal":7,"type":"${type}","payload":{${event === undefined ? '' : `"type":"${event}",`}"a":{}}}`);
  const near = (name: string) => [
    `${name.slice(0, -1)}${name.endsWith('x') ? 'y' : 'x'}`,
    name.slice(0, -1),
    `${name}s`,
  ];
  for (const type of CODEX_IGNORED_LINE_TYPES) {
    assert.equal(verdict(line(type)), 7, type);
    for (const other of near(type))
      if (!CODEX_IGNORED_LINE_TYPES.has(other)) assert.equal(verdict(line(other)), NOT_RECOGNISED, other);
  }
  for (const event of CODEX_IGNORED_EVENTS) {
    assert.equal(verdict(line('event_msg', event)), 7, event);
    for (const other of near(event))
      if (!CODEX_IGNORED_EVENTS.has(other)) assert.equal(verdict(line('event_msg', other)), NOT_RECOGNISED, other);
    // An ignored event's name as a record type, or under a type one byte off event_msg, is not ignored.
    if (!CODEX_IGNORED_LINE_TYPES.has(event)) assert.equal(verdict(line(event)), NOT_RECOGNISED, event);
    assert.equal(verdict(line('event_msh', event)), NOT_RECOGNISED, event);
  }
});

test('a record cut short and followed by the next one on its line fails as invalid JSON', () => {
  const list = linesOf(read('rollouts/b-tool-call-exec-command.jsonl'));
  const cut = list.findIndex((line) => line.includes('"type":"world_state"'));
  assert.ok(cut > 0 && (list[cut + 1] as string).endsWith('}}'));
  const merged = [...list.slice(0, cut), (list[cut] as string).slice(0, 200) + list[cut + 1], ...list.slice(cut + 2)];
  const result = outcome(new CodexRolloutParser(), join(merged));
  assert.deepEqual(result, { ok: false, code: 'transcript_invalid_json', line: cut + 1 });
});

test('order rules hold on recognised records: before session_meta, and ordinals that go back', () => {
  const list = linesOf(read('rollouts/b-tool-call-exec-command.jsonl'));
  const ignored = list.findIndex((line) => verdict(line) !== NOT_RECOGNISED);
  assert.ok(ignored > 1);
  // First line: an ignored record before session_meta.
  let result = outcome(new CodexRolloutParser(), join([list[ignored] as string, ...list]));
  assert.deepEqual(result, { ok: false, code: 'transcript_order', line: 1 });
  // An ignored record moved before the line it followed: its ordinal does not increase.
  const swapped = [...list];
  [swapped[ignored - 1], swapped[ignored]] = [swapped[ignored] as string, swapped[ignored - 1] as string];
  result = outcome(new CodexRolloutParser(), join(swapped));
  assert.deepEqual(result, { ok: false, code: 'transcript_order', line: ignored + 1 });
});

// Damage after the frame (inside the payload, or to its closing braces) is the documented gap: the
// record is still ignored. Damage to the frame itself must never be.
test('property: one damaged byte in the frame of an ignored record ends as a full parse does', () => {
  const list = linesOf(read('rollouts/b-tool-call-exec-command.jsonl'));
  const targets = list.map((line, i) => [line, i] as const).filter(([line]) => verdict(line) !== NOT_RECOGNISED);
  const random = seededRandom(0x1d1e);
  const alphabet = '{}[]",:0123456789 \\abtxyz_';
  let checked = 0;
  for (let round = 0; round < 600; round++) {
    const [line, index] = targets[Math.floor(random() * targets.length)] as readonly [string, number];
    const payloadStart = line.indexOf('"payload":{') + '"payload":{'.length;
    // The frame: the record's keys, its timestamp, ordinal and type, an event's own type, and for a
    // completed item its thread, turn and the item's type.
    const itemType = line.indexOf('"item":{"type":"');
    const frameEnd = line.includes('"type":"item_completed"')
      ? line.indexOf('"', itemType + '"item":{"type":"'.length) + 1
      : line.includes('"type":"event_msg"')
        ? line.indexOf('"', payloadStart + 8) + 1
        : payloadStart;
    const at = Math.floor(random() * frameEnd);
    const byte = alphabet[Math.floor(random() * alphabet.length)] as string;
    const mode = Math.floor(random() * 3);
    const damaged =
      mode === 0
        ? line.slice(0, at) + line.slice(at + 1)
        : mode === 1
          ? line.slice(0, at) + byte + line.slice(at)
          : line.slice(0, at) + byte + line.slice(at + 1);
    const bytes = join(list.map((l, i) => (i === index ? damaged : l)));
    assert.deepEqual(outcome(new CodexRolloutParser(), bytes), outcome(new FullParser(), bytes), damaged);
    checked += 1;
  }
  assert.equal(checked, 600);
});
