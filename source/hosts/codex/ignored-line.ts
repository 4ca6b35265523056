// Recognises, from its bytes alone, a rollout line the parser ignores (world_state, token_count, …)
// so that it need not be decoded and built by JSON.parse: about half of a real rollout's bytes are
// such records, and their parse was a third of the drain thread's work.
//
// Only the exact frame Codex writes is recognised; anything else returns NOT_RECOGNISED and takes
// the full parse, so a surprise costs time, never strictness:
//   {"timestamp":"<no escapes>",["ordinal":<digits>,]"type":"<ignored type>","payload":{…}}
// and, for event_msg, a payload that starts with "type":"<ignored event>", or with
// "type":"item_completed","thread_id":"…","turn_id":"<non-empty>","item":{"type":"<ignored item>"
// (the parser reads nothing else of those: a third of the bytes it parsed). The line must end in
// `}}` (the payload, then the record) and hold no second record start (`{"timestamp":"`): a
// record cut short by a crash and followed by the next one on the same line is parsed, and fails
// as invalid JSON as before. What is given up: damage inside an ignored payload that keeps this
// frame is not seen. Such a payload carries nothing the store keeps.

import { CODEX_IGNORED_EVENTS, CODEX_IGNORED_LINE_TYPES, CODEX_IGNORED_TURN_ITEMS } from './rollout-records.js';

/** The line is not one this module recognises: parse it. */
export const NOT_RECOGNISED = -1;
/** An ignored record written without an `ordinal`. */
export const NO_ORDINAL = -2;

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');
const RECORD_START = bytes('{"timestamp":"');
const ORDINAL_KEY = bytes(',"ordinal":');
const TYPE_KEY = bytes(',"type":"');
const PAYLOAD_KEY = bytes(',"payload":{');
const EVENT_TYPE_KEY = bytes('"type":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE = 0x7d;
const CR = 0x0d;

/**
 * A set of names as their bytes, grouped by length: a line's type is looked up where it lies,
 * without a string made for it (two per line were a fifth of this check's cost).
 */
function byteNames(names: Iterable<string>): Map<number, Buffer[]> {
  const table = new Map<number, Buffer[]>();
  for (const name of names) {
    const key = bytes(name);
    table.set(key.length, [...(table.get(key.length) ?? []), key]);
  }
  return table;
}

function isNameIn(table: Map<number, Buffer[]>, buf: Buffer, at: number, end: number): boolean {
  const candidates = table.get(end - at);
  if (candidates === undefined) return false;
  for (const name of candidates) if (matchAt(buf, name, at, end)) return true;
  return false;
}

const IGNORED_LINE_TYPES = byteNames(CODEX_IGNORED_LINE_TYPES);
const IGNORED_EVENTS = byteNames(CODEX_IGNORED_EVENTS);
const EVENT_MSG = byteNames(['event_msg']);
const ITEM_COMPLETED = byteNames(['item_completed']);
const IGNORED_TURN_ITEMS = byteNames(CODEX_IGNORED_TURN_ITEMS);
const THREAD_ID_KEY = bytes(',"thread_id":"');
const TURN_ID_KEY = bytes(',"turn_id":"');
const ITEM_TYPE_KEY = bytes(',"item":{"type":"');

/** Longer timestamps or type names than any Codex writes are left to the parser. */
const MAX_FIELD = 64;

function matchAt(buf: Buffer, pattern: Buffer, at: number, end: number): boolean {
  if (at + pattern.length > end) return false;
  for (let i = 0; i < pattern.length; i++) if (buf[at + i] !== pattern[i]) return false;
  return true;
}

/** End of a plain string starting at `at` (the index of its closing quote), or -1. */
function plainStringEnd(buf: Buffer, at: number, end: number): number {
  const limit = Math.min(end, at + MAX_FIELD);
  for (let i = at; i < limit; i++) {
    const byte = buf[i]!;
    if (byte === QUOTE) return i;
    if (byte === BACKSLASH || byte < 0x20) return -1;
  }
  return -1;
}

/**
 * For the line `buf[start, end)` (no LF): the record's ordinal (or NO_ORDINAL) when it is an
 * ignored record in Codex's own frame, else NOT_RECOGNISED.
 */
export function ignoredRecordOrdinal(buf: Buffer, start: number, end: number): number {
  let last = end;
  if (last > start && buf[last - 1] === CR) last -= 1;
  if (last - start < 4 || buf[last - 1] !== CLOSE || buf[last - 2] !== CLOSE) return NOT_RECOGNISED;
  if (!matchAt(buf, RECORD_START, start, last)) return NOT_RECOGNISED;
  let at = plainStringEnd(buf, start + RECORD_START.length, last);
  if (at === -1) return NOT_RECOGNISED;
  at += 1;
  let ordinal = NO_ORDINAL;
  if (matchAt(buf, ORDINAL_KEY, at, last)) {
    at += ORDINAL_KEY.length;
    const first = at;
    let value = 0;
    while (at < last && at - first < 15 && buf[at]! >= 0x30 && buf[at]! <= 0x39) {
      value = value * 10 + (buf[at]! - 0x30);
      at += 1;
    }
    // JSON has no leading zeros; a longer or odd number is the parser's to judge.
    if (at === first || (buf[first] === 0x30 && at - first > 1)) return NOT_RECOGNISED;
    ordinal = value;
  }
  if (!matchAt(buf, TYPE_KEY, at, last)) return NOT_RECOGNISED;
  at += TYPE_KEY.length;
  const typeEnd = plainStringEnd(buf, at, last);
  if (typeEnd === -1) return NOT_RECOGNISED;
  const typeStart = at;
  at = typeEnd + 1;
  if (!matchAt(buf, PAYLOAD_KEY, at, last)) return NOT_RECOGNISED;
  at += PAYLOAD_KEY.length;
  if (isNameIn(EVENT_MSG, buf, typeStart, typeEnd)) {
    if (!matchAt(buf, EVENT_TYPE_KEY, at, last)) return NOT_RECOGNISED;
    at += EVENT_TYPE_KEY.length;
    const eventEnd = plainStringEnd(buf, at, last);
    if (eventEnd === -1) return NOT_RECOGNISED;
    if (isNameIn(ITEM_COMPLETED, buf, at, eventEnd)) {
      if (!ignoredItemFrame(buf, eventEnd + 1, last)) return NOT_RECOGNISED;
    } else if (!isNameIn(IGNORED_EVENTS, buf, at, eventEnd)) {
      return NOT_RECOGNISED;
    }
  } else if (!isNameIn(IGNORED_LINE_TYPES, buf, typeStart, typeEnd)) {
    return NOT_RECOGNISED;
  }
  if (buf.subarray(start + 1, end).indexOf(RECORD_START) !== -1) return NOT_RECOGNISED;
  return ordinal;
}

/**
 * After `"type":"item_completed"`: the thread, a non-empty turn and an item of a type the parser
 * ignores, as Codex writes them (`,"thread_id":"…","turn_id":"…","item":{"type":"…"`). The parser
 * reads nothing else of such an event; a UserMessage, or any other order, takes the full parse.
 */
function ignoredItemFrame(buf: Buffer, at: number, last: number): boolean {
  if (!matchAt(buf, THREAD_ID_KEY, at, last)) return false;
  const threadEnd = plainStringEnd(buf, at + THREAD_ID_KEY.length, last);
  if (threadEnd === -1 || !matchAt(buf, TURN_ID_KEY, threadEnd + 1, last)) return false;
  const turnStart = threadEnd + 1 + TURN_ID_KEY.length;
  const turnEnd = plainStringEnd(buf, turnStart, last);
  if (turnEnd <= turnStart || !matchAt(buf, ITEM_TYPE_KEY, turnEnd + 1, last)) return false;
  const itemStart = turnEnd + 1 + ITEM_TYPE_KEY.length;
  const itemEnd = plainStringEnd(buf, itemStart, last);
  return itemEnd !== -1 && isNameIn(IGNORED_TURN_ITEMS, buf, itemStart, itemEnd);
}
