// Display-only formatting: shortening IDs and one-line previews. Nothing here changes data;
// the full payload stays available to the API, a preview is cut for the screen only.
import { isMessagePayload, messageText } from '../message-text.js';
import { asCmError } from '../errors.js';

export const shortId = (id: string | null | undefined): string => (id ? id.slice(0, 8) : '');

/** Cuts to `width` code points, marking the cut with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = Array.from(text);
  if (chars.length <= width) return text;
  return width === 1 ? '…' : `${chars.slice(0, width - 1).join('')}…`;
}

/** Enough of a payload to fill any terminal line; bounds the work for a 1 MiB record. */
const PREVIEW_SOURCE_CHARS = 512;

/** One line for a payload: a note's text as is, a message as its readable text, anything else as compact JSON. */
export function previewPayload(payload: unknown): string {
  let text: string;
  if (typeof payload === 'string') text = payload.slice(0, PREVIEW_SOURCE_CHARS);
  else if (isTextPayload(payload)) text = payload.text.slice(0, PREVIEW_SOURCE_CHARS);
  else if (isMessagePayload(payload)) text = messageText(payload)!.slice(0, PREVIEW_SOURCE_CHARS);
  else if (isMessagePayload(wrapped(payload))) text = messageText(wrapped(payload))!.slice(0, PREVIEW_SOURCE_CHARS);
  else text = (JSON.stringify(payload) ?? String(payload)).slice(0, PREVIEW_SOURCE_CHARS);
  // Control characters (newlines, escapes) would break the one-row-per-line layout or the terminal.
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/** pi's message_end record as journalled: the message inside it. */
export const wrapped = (payload: unknown): unknown =>
  typeof payload === 'object' && payload !== null ? (payload as { message?: unknown }).message : undefined;

function isTextPayload(payload: unknown): payload is { text: string } {
  return typeof payload === 'object' && payload !== null && typeof (payload as { text?: unknown }).text === 'string';
}

export interface ShownError {
  code: string;
  /** On one line, for the error line. */
  message: string;
  /** The message as it was written (its line breaks), when that differs: what e shows in full. */
  full?: string;
}

/** Whatever an Application call rejected with, as a code and a message fit for one line. */
export function toShownError(error: unknown): ShownError {
  const known = asCmError(error);
  const message = known.message.replace(/\s+/g, ' ').trim();
  return message === known.message ? { code: known.code, message } : { code: known.code, message, full: known.message };
}

export const clockTime = (at: Date): string => at.toTimeString().slice(0, 8);
