// Hand validation of a host hook payload (Codex 0.171.0, Claude Code 2.1.332; HOSTS.md 1.4, 2.4).
// No zod on the fast path: only the fields capture relies on are checked, unknown fields are kept
// as they are in the envelope.
import { CmError } from '../errors.js';
import type { CaptureClient } from '../protocol.js';
import type { InboxEvent } from '../store/core/inbox-writes.js';
import { identityOf } from './raw-text.js';

export type HookClient = CaptureClient;

/** Host session ids are UUIDs today; the bound keeps a hostile payload from becoming an identity of any size. */
const ID_MAX_CHARS = 256;

/** A payload that passed validation: what the inbox keeps of an event. */
export type HookPayload = InboxEvent;

const invalid = (detail: string) => new CmError('invalid_input', `hook payload: ${detail}`);

function optionalString(value: Record<string, unknown>, key: string): string | null {
  const field = value[key];
  if (field === undefined || field === null) return null;
  if (typeof field !== 'string') throw invalid(`${key} is not a string`);
  return field;
}

function identifier(value: Record<string, unknown>, key: string, required: boolean): string | null {
  const field = optionalString(value, key);
  if (field === null || field.length === 0) {
    if (required) throw invalid(`${key} is missing`);
    return null;
  }
  if (field.length > ID_MAX_CHARS) throw invalid(`${key} is longer than ${ID_MAX_CHARS} characters`);
  // Bytes that are not UTF-8 (kept as lone surrogates by raw-text.ts) get an identity of their own.
  return identityOf(field);
}

export function parsePayload(text: string): HookPayload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('not a JSON object');
  const value = parsed as Record<string, unknown>;
  const event = identifier(value, 'hook_event_name', true)!;
  const sessionId = identifier(value, 'session_id', true)!;
  const transcriptPath = optionalString(value, 'transcript_path');
  if (transcriptPath !== null && !transcriptPath.startsWith('/')) throw invalid('transcript_path is not absolute');
  const prompt = optionalString(value, 'prompt');
  if (event === 'UserPromptSubmit' && prompt === null) throw invalid('UserPromptSubmit without prompt');
  return {
    event,
    sessionId,
    transcriptPath: transcriptPath && transcriptPath.length > 0 ? transcriptPath : null,
    cwd: optionalString(value, 'cwd'),
    source: optionalString(value, 'source'),
    prompt,
    turnRef: identifier(value, 'turn_id', false) ?? identifier(value, 'prompt_id', false) ?? '',
    value,
  };
}
