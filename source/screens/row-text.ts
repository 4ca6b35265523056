// A journal or timeline row in full, for the reader: a heading (position, kind or role, when, the
// message or operation it belongs to) and its text — a message as readable text, anything else as
// indented JSON. The raw form is the row exactly as the API returned it.
import { messageText } from '../message-text.js';
import type { JournalRow, TimelineRow } from '../api/history.js';
import { wrapped } from './format.js';

export type AnyRow = JournalRow | TimelineRow;

export function rowHeading(row: AnyRow): string {
  const what = 'role' in row ? row.role : row.kind;
  const about = 'messageId' in row ? `message ${row.messageId}` : row.operationId ? `operation ${row.operationId}` : '';
  return [`#${row.sequence} ${what}`, row.recordedAt, about].filter(Boolean).join(' · ');
}

export function rowBody(row: AnyRow): string {
  if (typeof row.payload === 'object' && row.payload !== null && 'text' in row.payload) {
    const { text } = row.payload as { text: unknown };
    if (typeof text === 'string') return text;
  }
  const message = messageText(row.payload) ?? messageText(wrapped(row.payload));
  return message ?? JSON.stringify(row.payload, null, 2) ?? String(row.payload);
}

/** The rows one after another, each under its heading. */
export const rowsText = (rows: readonly AnyRow[]): string =>
  rows.map((row) => `${rowHeading(row)}\n${rowBody(row)}`).join('\n\n');

export const rawRows = (rows: readonly AnyRow[]): string =>
  rows.length === 1 ? JSON.stringify(rows[0], null, 2) : JSON.stringify(rows, null, 2);

/** An assistant row with nothing in it (no text, no tool call, no error): pi's empty turn, not content. */
export const isEmptyMessage = (row: AnyRow): boolean => 'role' in row && messageText(row.payload) === '[empty]';
