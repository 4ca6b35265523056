// A captured session as the lines the Sessions screen scrolls through: each turn's heading, what
// the user said in full and wrapped, and the folded context (or its text, when shown).
import { foldedText, turnCount, turnHeading } from '../../session-text.js';
import type { SessionSummary, SessionView } from '../../api/capture.js';
import { visibleText } from '../../memory/visible-text.js';
import { wrapText } from '../../text-wrap.js';
import { splitLine } from '../memory/wrap-lines.js';

export interface SessionLine {
  text: string;
  tone: 'heading' | 'user' | 'context' | 'muted';
}

export function sessionLines(view: SessionView, columns: number, context: boolean): SessionLine[] {
  const lines: SessionLine[] = [];
  view.turns.forEach((turn, index) => {
    if (index > 0) lines.push({ text: '', tone: 'muted' });
    lines.push({
      text: turnHeading(turn, index),
      tone: 'heading',
    });
    for (const message of turn.messages) {
      const user = message.classification === 'evidence';
      lines.push({
        text: user ? 'you:' : `${message.role} (${message.kind.replace(/_/g, ' ')}):`,
        tone: user ? 'user' : 'context',
      });
      // Hidden characters as ⟨U+XXXX⟩ (visible-text.ts): a bidi control would reorder the screen, a zero-width one cut a line's end.
      // A word wider than the screen (a URL, a path, a pasted token) is split over lines: the screen
      // cuts a line at its edge, and this is where what was said is read in full.
      for (const wrapped of wrapText(visibleText(message.text ?? '(no text kept)'), columns, '  '))
        for (const text of splitLine(wrapped, columns, '  ')) lines.push({ text, tone: user ? 'user' : 'context' });
    }
    const folded = foldedText(turn.folded);
    if (folded) lines.push({ text: `… ${folded} folded${context ? '' : ' (c shows them)'}`, tone: 'muted' });
  });
  if (view.turns.length === 0)
    lines.push({ text: 'No turn sealed yet: turns appear once they end and the inbox is drained.', tone: 'muted' });
  return lines;
}

/**
 * A session's row in the list: client, state and when it started in fixed columns, then its turns
 * (as long as they need: "12 turns (1 failed, 2 interrupted)") and its directory.
 */
export function sessionRow(session: SessionSummary, selected: boolean): string {
  return `${selected ? '›' : ' '} ${session.client.padEnd(6)} ${session.state.padEnd(10)} ${session.startedAt.replace('T', ' ').slice(0, 16)}  ${turnCount(session).padEnd(8)}  ${session.cwd ?? ''}`;
}
