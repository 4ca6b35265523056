// A one-line editor as a pure function: the state lives in a screen's reducer, so keys that
// arrive together each apply to the newest line, never to a stale copy.
export interface LineState {
  text: string;
  /** Cursor position in code points (so an emoji is one step). */
  cursor: number;
}

export type LineEdit =
  | { type: 'insert'; text: string }
  | { type: 'deleteBackward' }
  | { type: 'cursorLeft' }
  | { type: 'cursorRight' }
  | { type: 'cursorStart' }
  | { type: 'cursorEnd' }
  | { type: 'clear' };

export const emptyLine: LineState = { text: '', cursor: 0 };

export function editLine(line: LineState, edit: LineEdit): LineState {
  const chars = Array.from(line.text);
  const cursor = Math.min(line.cursor, chars.length);
  switch (edit.type) {
    case 'insert': {
      // A one-line input: pasted newlines and control characters become spaces.
      const added = Array.from(edit.text.replace(/[\u0000-\u001f\u007f]/g, ' '));
      if (added.length === 0) return line;
      chars.splice(cursor, 0, ...added);
      return { text: chars.join(''), cursor: cursor + added.length };
    }
    case 'deleteBackward':
      if (cursor === 0) return line;
      chars.splice(cursor - 1, 1);
      return { text: chars.join(''), cursor: cursor - 1 };
    case 'cursorLeft':
      return { ...line, cursor: Math.max(0, cursor - 1) };
    case 'cursorRight':
      return { ...line, cursor: Math.min(chars.length, cursor + 1) };
    case 'cursorStart':
      return { ...line, cursor: 0 };
    case 'cursorEnd':
      return { ...line, cursor: chars.length };
    case 'clear':
      return emptyLine;
  }
}

/** Maps a key to an edit; printable text is inserted, other keys are no edit. */
export function lineEditFor(
  command: 'deleteBackward' | 'cursorLeft' | 'cursorRight' | 'cursorStart' | 'cursorEnd' | 'clearLine' | undefined,
  input: string,
  ctrl: boolean,
  meta: boolean,
): LineEdit | undefined {
  if (command === 'clearLine') return { type: 'clear' };
  if (command) return { type: command };
  if (input.length > 0 && !ctrl && !meta) return { type: 'insert', text: input };
  return undefined;
}
