// How a captured session and its folded lines are named in text: shared by `sessions` and the
// TUI's Sessions screen, so both say the same.
import type { SessionSummary, SessionTurnView } from './api/capture.js';

/** "12 turns (1 failed, 2 open)". */
export function turnCount(session: SessionSummary): string {
  const t = session.turns;
  const total = t.settled + t.failed + t.interrupted + t.incomplete;
  const unusual = [
    t.failed ? `${t.failed} failed` : '',
    t.interrupted ? `${t.interrupted} interrupted` : '',
    t.incomplete ? `${t.incomplete} incomplete` : '',
    t.buffered ? `${t.buffered} open` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${total} turn${total === 1 ? '' : 's'}${unusual ? ` (${unusual})` : ''}`;
}

const FOLDED_NAMES: Record<string, string> = { answer: 'answer', tool_call: 'tool call', tool_result: 'tool result' };

/** "assistant answer, 2 tool calls, 3 other" for what --context would show. */
export function foldedText(folded: SessionTurnView['folded']): string {
  const other = Object.entries(folded)
    .filter(([kind]) => !(kind in FOLDED_NAMES))
    .reduce((sum, [, count]) => sum + count, 0);
  const parts = Object.entries(FOLDED_NAMES)
    .filter(([kind]) => folded[kind])
    .map(([kind, name]) => `${folded[kind]} ${name}${folded[kind]! > 1 ? 's' : ''}`);
  if (other > 0) parts.push(`${other} harness line${other > 1 ? 's' : ''}`);
  return parts.join(', ');
}

/**
 * "Turn 2 · settled · 2026-11-30 20:57:55 UTC": when the turn was typed (the client's own time),
 * else — a client record without one — when it was sealed, marked as such.
 */
export function turnHeading(turn: SessionTurnView, index: number): string {
  const when = turn.typedAt ?? turn.recordedAt;
  const sealed = turn.typedAt === null ? ' (sealed)' : '';
  return `Turn ${index + 1} · ${turn.state} · ${when.replace('T', ' ').slice(0, 19)} UTC${sealed}${turn.error ? ` · ${turn.error}` : ''}`;
}
