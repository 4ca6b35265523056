// What one pi message is, as transcript messages: the same reading for the live event stream
// (event-parser.ts, message_end records) and for pi's own session files (session-parser.ts,
// message entries), so a message counts as the same kind of context whichever way it arrived.
// User messages are not read here: whether one is what the user typed is each parser's decision.
import { isObject, type Json, type LinePosition } from '../jsonl-cursor.js';
import type { MessageKind, Role } from '../transcript-model.js';

export type PiRejectCode = 'transcript_invalid_record' | 'transcript_unknown_record';

/** Fails the parser at `at` (never returns). */
export type PiReject = (code: PiRejectCode, at: LinePosition, detail: string) => never;

/** One transcript message of a pi message: its role, kind, text and content-block index. */
export interface PiPart {
  role: Role;
  kind: MessageKind;
  text: string;
  index: number;
}

/** The instant (ms) pi stamped on a message when it made it, or null when it has none. */
export function piMessageMs(message: Json): number | null {
  const ms = message['timestamp'];
  return typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0 ? ms : null;
}

/**
 * The parts of a pi message other than a user one (assistant, toolResult, custom, bashExecution,
 * compactionSummary, branchSummary); an unknown role or content block fails closed. An assistant
 * message also gives its stopReason and error text.
 */
export function piOtherParts(
  message: Json,
  at: LinePosition,
  reject: PiReject,
): { parts: PiPart[]; stop: string | null; error: string | null } {
  const role = message['role'];
  const one = (partRole: Role, kind: MessageKind, text: string) => ({
    parts: [{ role: partRole, kind, text, index: 0 }],
    stop: null,
    error: null,
  });
  switch (role) {
    case 'assistant': {
      const content = message['content'];
      if (!Array.isArray(content)) reject('transcript_invalid_record', at, 'assistant content is not a list');
      const parts: PiPart[] = [];
      content.forEach((block: unknown, index: number) => {
        if (!isObject(block)) reject('transcript_invalid_record', at, 'assistant content block is not an object');
        if (block['type'] === 'text')
          parts.push({ role: 'assistant', kind: 'answer', text: stringField(block, 'text', at, reject), index });
        else if (block['type'] === 'toolCall')
          parts.push({
            role: 'assistant',
            kind: 'tool_call',
            text: JSON.stringify({ id: block['id'], name: block['name'], arguments: block['arguments'] }),
            index,
          });
        else if (block['type'] !== 'thinking')
          reject(
            'transcript_unknown_record',
            at,
            `unknown assistant content block ${JSON.stringify(block['type']).slice(0, 80)}`,
          );
      });
      const stop = message['stopReason'];
      if (typeof stop !== 'string') reject('transcript_invalid_record', at, 'assistant message without stopReason');
      const error = typeof message['errorMessage'] === 'string' ? message['errorMessage'].slice(0, 1000) : null;
      return { parts, stop, error };
    }
    case 'toolResult':
      return one('tool', 'tool_result', piBlockText(message['content'], at, reject));
    case 'custom':
      return one('system', 'hook_context', piBlockText(message['content'], at, reject));
    case 'bashExecution':
      return one('user', 'harness', `$ ${String(message['command'] ?? '')}\n${String(message['output'] ?? '')}`);
    case 'compactionSummary':
      return one('system', 'compaction_summary', stringField(message, 'summary', at, reject));
    case 'branchSummary':
      return one('system', 'harness', stringField(message, 'summary', at, reject));
    default:
      return reject('transcript_unknown_record', at, `unknown pi message role ${JSON.stringify(role).slice(0, 80)}`);
  }
}

export function stringField(value: Json, key: string, at: LinePosition, reject: PiReject): string {
  const field = value[key];
  if (typeof field !== 'string') reject('transcript_invalid_record', at, `${key} is not a string`);
  return field;
}

/** The text of a string or of text/image content blocks (pi user, toolResult and custom messages). */
export function piBlockText(content: unknown, at: LinePosition, reject: PiReject): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) reject('transcript_invalid_record', at, 'content is neither text nor a list');
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (!isObject(block)) reject('transcript_invalid_record', at, 'content block is not an object');
    if (block['type'] === 'text') parts.push(stringField(block, 'text', at, reject));
    else if (block['type'] !== 'image')
      reject('transcript_unknown_record', at, `unknown content block ${JSON.stringify(block['type']).slice(0, 80)}`);
  }
  return parts.join('');
}

/**
 * The key both parsers give a turn that a user message started: `u` and the instant pi stamped
 * on that message — the same number in the live event and in the session file, never the text —
 * so a turn captured live and the same turn read from pi's file have one identity. Null when the
 * message has no stamp or one not after the last keyed turn's (keys stay unique in a stream).
 */
export function piTurnKey(message: Json, lastKeyMs: number | null): { key: string; ms: number } | null {
  const ms = piMessageMs(message);
  if (ms === null || (lastKeyMs !== null && ms <= lastKeyMs)) return null;
  return { key: `u${ms}`, ms };
}
