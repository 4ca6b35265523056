// Encodes the RPC commands the runtime sends to pi 0.73.1 as single JSONL records.
//
// Always JSON.stringify of a typed object plus one "\n": user text is never spliced into a JSON
// string, and the only LF in the output is the terminator, because JSON.stringify escapes LF/CR in
// strings (and lone surrogates, so the bytes are well-formed UTF-8). U+2028/U+2029 stay unescaped,
// which is fine: pi frames its stdin on LF only (seed 003 §05a; HOSTS.md 3.3).
//
// Only the commands the runtime needs exist here. Settings-changing commands (set_auto_retry, …)
// are deliberately missing: they persist into the agent dir (HOSTS.md 3.6); configure by file.

import { randomUUID } from 'node:crypto';
import { OPERATION_ID_MAX_CHARS, RECORD_MAX_BYTES } from '../../limits.js';

export type PiCommand =
  | { readonly type: 'prompt'; readonly id: string; readonly message: string }
  | { readonly type: 'abort'; readonly id: string }
  | { readonly type: 'get_state'; readonly id: string }
  | { readonly type: 'get_messages'; readonly id: string }
  /** Answers a dialog extension_ui_request we cannot show: pi resolves it with the default value. */
  | { readonly type: 'extension_ui_response'; readonly id: string; readonly cancelled: true };

export type PiCommandType = PiCommand['type'];

/** Ids are ours: "<command>-<uuid>", so a response names what it answers even in a raw journal row. */
const ID_MAX_CHARS = OPERATION_ID_MAX_CHARS;
const ID_PATTERN = /^[A-Za-z0-9._:-]+$/;

export function newCommandId(type: PiCommandType): string {
  return `${type}-${randomUUID()}`;
}

export class CommandEncodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandEncodingError';
  }
}

function checkId(id: string): void {
  if (id.length === 0 || id.length > ID_MAX_CHARS || !ID_PATTERN.test(id)) {
    throw new CommandEncodingError(
      `invalid RPC id ${JSON.stringify(id.slice(0, 40))}: 1..${ID_MAX_CHARS} chars of [A-Za-z0-9._:-]`,
    );
  }
}

/**
 * One command → one JSONL record (with its LF). Throws CommandEncodingError for an invalid id or a
 * record over RECORD_MAX_BYTES: the command journal row must fit, and refusing beats truncating.
 */
export function encodePiCommand(command: PiCommand): string {
  checkId(command.id);
  // Rebuild from known fields so no stray property (or prototype trickery) reaches the wire.
  let wire: Record<string, unknown>;
  switch (command.type) {
    case 'prompt':
      if (typeof command.message !== 'string') throw new CommandEncodingError('prompt message must be a string');
      wire = { id: command.id, type: 'prompt', message: command.message };
      break;
    case 'extension_ui_response':
      wire = { type: 'extension_ui_response', id: command.id, cancelled: true };
      break;
    default:
      wire = { id: command.id, type: command.type };
  }
  const line = `${JSON.stringify(wire)}\n`;
  const bytes = Buffer.byteLength(line, 'utf8') - 1;
  if (bytes > RECORD_MAX_BYTES)
    throw new CommandEncodingError(`${command.type} command is ${bytes} bytes; the limit is ${RECORD_MAX_BYTES}`);
  return line;
}

/** Convenience for the common case; returns the id so the caller can register it before writing. */
export function encodePrompt(
  message: string,
  id: string = newCommandId('prompt'),
): { readonly id: string; readonly line: string } {
  return { id, line: encodePiCommand({ type: 'prompt', id, message }) };
}
