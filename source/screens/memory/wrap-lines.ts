// Text as screen lines that are never cut: words wrap, and a word wider than the screen (a path, a
// digest, a diff line of one long token) is split across lines rather than lost past the edge.
import { codePointColumns, textColumns } from '../../text-columns.js';
import { wrapText } from '../../text-wrap.js';

export type Tone = 'heading' | 'text' | 'muted' | 'ok' | 'error' | 'added' | 'removed' | 'selected';

export interface ScreenLine {
  text: string;
  tone: Tone;
}

/** Splits one line into pieces of at most `width` columns, continuing under `indent`. */
export function splitLine(line: string, width: number, indent = ''): string[] {
  if (textColumns(line) <= width) return [line];
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const char of line) {
    const columns = codePointColumns(char);
    if (used + columns > width && piece !== '') {
      pieces.push(piece);
      piece = indent;
      used = textColumns(indent);
    }
    piece += char;
    used += columns;
  }
  pieces.push(piece);
  return pieces;
}

/**
 * Word-wrapped lines of `text` within `width`, each under `indent`, no line wider than `width`.
 * `hanging`: the first line starts at the margin (a list marker), the rest under `indent`.
 */
export function wrapLines(text: string, width: number, tone: Tone, indent = '', hanging = false): ScreenLine[] {
  // Control characters (escapes, tabs) from captured text would move the cursor or break the layout.
  const clean = text.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ');
  const lines = wrapText(clean, width, indent).flatMap((line) => splitLine(line, width, indent));
  if (hanging && lines[0] !== undefined) lines[0] = lines[0].slice(indent.length);
  return lines.map((line) => ({ text: line, tone }));
}

/** Memory ids carry a kind prefix ("cand-", "plan-"): the prefix and eight hex digits tell them apart on screen. */
export const idLabel = (id: string | null | undefined): string => (id ? id.slice(0, id.indexOf('-') + 9) : '');
