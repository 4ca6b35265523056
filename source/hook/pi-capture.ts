// The pi extension's one transaction per event (pi has no transcript of its own that we read: the
// events are the record). Each event becomes one inbox envelope whose tail is the event as one
// JSON line, appended to a per-activation event stream (a watch of its own, `pi-events:<key>`;
// its rows are written by store/core/pi-inbox.ts), so the drain reads pi exactly as it reads a
// transcript: bytes after a cursor, parsed by a strict parser (source/hosts/pi/event-parser.ts).
// The user's input is kept once, as a prompt candidate of its own (the same text typed twice is
// two candidates); its line carries only the digest. A quit (SessionEnd) ends the activation;
// reload/new/resume/fork do not.
//
// A message over HOOK_TAIL_MAX_BYTES (a tool that printed a whole file) is kept without its
// content: the line says how many bytes the content was and its sha256, the drain turns it into a
// marker in place of the body, and the caller records the omission for `status`. The interaction
// stays whole and settles; a session never stops being captured because one tool output was huge.
import type { Db } from '../store/database.js';
import type { FaultPoint } from '../ground/faults.js';
import { HOOK_TAIL_MAX_BYTES } from '../limits.js';
import { CmError } from '../errors.js';
import { sha256Hex, textDigest } from '../ground/digests.js';
import { appendPiEvent, type PiEvent } from '../store/core/pi-inbox.js';
import type { HookPayload } from './payload.js';

/** How long pi may be held by one event: the extension's child channel is stopped after it. */
export const PI_EVENT_DEADLINE_MS = 5000;
/** The write lock wait of the in-process channel (a host's writer holds it only briefly). */
export const PI_EVENT_LOCK_WAIT_MS = 2000;

export interface PiCaptureResult {
  inboxId: number;
  activationId: number;
  /** A message kept without its content (over the bound): what it was, for the caller to report. */
  omitted: OmittedContent | null;
}

/** What a line says of a message content it does not keep. */
export interface OmittedContent {
  role: string;
  contentBytes: number;
  contentSha256: string;
}

/** The line the drain reads: the extension's record, with the input's text replaced by its digest. */
function eventLine(payload: HookPayload): {
  line: Buffer;
  prompt: PiEvent['prompt'];
  omitted: OmittedContent | null;
} {
  const record = payload.value['record'];
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    throw new CmError('invalid_input', 'pi event: record is not an object');
  const value = record as Record<string, unknown>;
  if (value['type'] !== payload.event)
    throw new CmError('invalid_input', 'pi event: record type differs from the event name');
  let prompt: PiEvent['prompt'] = null;
  let kept: Record<string, unknown> = value;
  if (payload.event === 'input') {
    if (typeof value['text'] !== 'string') throw new CmError('invalid_input', 'pi input event without text');
    prompt = { text: value['text'], digest: textDigest(value['text']) };
    const { text: _text, ...rest } = value;
    kept = { ...rest, digest: prompt.digest };
  }
  const line = Buffer.from(`${JSON.stringify(kept)}\n`, 'utf8');
  if (line.length <= HOOK_TAIL_MAX_BYTES || payload.event !== 'message_end') return { line, prompt, omitted: null };
  return { ...withoutContent(kept), prompt };
}

/** A message_end line over the bound, kept without the message's content (see the header). */
function withoutContent(record: Record<string, unknown>): { line: Buffer; omitted: OmittedContent } {
  const message = record['message'];
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    throw new CmError('limit_exceeded', `pi event message_end is over ${HOOK_TAIL_MAX_BYTES} bytes`);
  const { content, ...rest } = message as Record<string, unknown>;
  const text = JSON.stringify(content ?? null);
  const omitted: OmittedContent = {
    role: typeof rest['role'] === 'string' ? rest['role'] : 'unknown',
    contentBytes: Buffer.byteLength(text, 'utf8'),
    contentSha256: sha256Hex(text),
  };
  const line = Buffer.from(`${JSON.stringify({ ...record, message: { ...rest, omittedContent: omitted } })}\n`, 'utf8');
  // Only the content can be huge; a line still over the bound is over_limit in its envelope (pi-inbox.ts), never cut.
  return { line, omitted };
}

export function capturePiEnvelope(db: Db, instance: string, payload: HookPayload, fault?: FaultPoint): PiCaptureResult {
  const { line, prompt, omitted } = eventLine(payload);
  const event = { instance, sessionId: payload.sessionId, cwd: payload.cwd, event: payload.event, line, prompt };
  return { ...appendPiEvent(db, event, fault), omitted };
}
