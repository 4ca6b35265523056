// A one-line text input: a view of a LineState owned by the screen's reducer, plus its keyboard
// handler at text-input priority. While active it consumes every key but Ctrl+C, and takes pastes
// as text (a pasted Enter is a space: a paste never submits).
import { Text } from 'ink';
import { commandFor } from '../keyboard/key-bindings.js';
import { PRIORITY, useKeyHandler } from '../keyboard/keyboard-router.js';
import { lineEditFor, type LineEdit, type LineState } from '../keyboard/line-edit.js';
import { codePointColumns, textColumns } from '../../text-columns.js';

export interface LineInputHandlers {
  onEdit(edit: LineEdit): void;
  onSubmit(): void;
  onCancel(): void;
}

const EDIT_COMMANDS = [
  'submit',
  'cancel',
  'deleteBackward',
  'cursorLeft',
  'cursorRight',
  'cursorStart',
  'cursorEnd',
  'clearLine',
] as const;

export function useLineInput(isActive: boolean, handlers: LineInputHandlers): void {
  useKeyHandler(
    PRIORITY.textInput,
    (input, key) => {
      const command = commandFor(EDIT_COMMANDS, input, key);
      // Fast typing (or a terminal sending keys in one write) can deliver "text⏎" as one chunk:
      // the text goes in, then the Enter submits — it must not become a trailing space.
      const typedThenEnter = !command && !key.ctrl && !key.meta && input.length > 1 && /^[^\r\n]+\r$/.test(input);
      // Backspaces that arrive in one chunk (a key held over ssh or tmux): one deletion each.
      const erased = !command && !key.ctrl && !key.meta && input.length > 1 && /^[\u0008\u007f]+$/.test(input);
      if (erased) for (const _ of input) handlers.onEdit({ type: 'deleteBackward' });
      else if (typedThenEnter) {
        handlers.onEdit({ type: 'insert', text: input.slice(0, -1) });
        handlers.onSubmit();
      } else if (command === 'submit') handlers.onSubmit();
      else if (command === 'cancel') handlers.onCancel();
      else {
        const edit = lineEditFor(command, input, key.ctrl, key.meta);
        if (edit) handlers.onEdit(edit);
      }
      return true;
    },
    isActive,
    (text) => {
      handlers.onEdit({ type: 'insert', text });
      return true;
    },
  );
}

/** Shows the part of the line around the cursor that fits in `width` terminal columns (CJK and emoji take two). */
export function LineInputView({
  prompt,
  line,
  width,
  disabled,
}: {
  prompt: string;
  line: LineState;
  width: number;
  disabled?: boolean;
}) {
  const { before, atCursor, after } = visibleAroundCursor(
    Array.from(line.text),
    line.cursor,
    Math.max(1, width - textColumns(prompt) - 1),
  );
  return (
    <Text wrap="truncate-end">
      {prompt}
      {before}
      <Text inverse={!disabled}>{atCursor}</Text>
      {after}
    </Text>
  );
}

/** The characters left and right of the cursor that fit in `room` columns, the cursor always among them. */
export function visibleAroundCursor(
  chars: string[],
  cursor: number,
  room: number,
): { before: string; atCursor: string; after: string } {
  const atCursor = chars[cursor] ?? ' ';
  let used = codePointColumns(atCursor);
  let start = cursor;
  while (start > 0 && used + codePointColumns(chars[start - 1]!) <= room) used += codePointColumns(chars[--start]!);
  let end = cursor + 1;
  while (end < chars.length && used + codePointColumns(chars[end]!) <= room) used += codePointColumns(chars[end++]!);
  return { before: chars.slice(start, cursor).join(''), atCursor, after: chars.slice(cursor + 1, end).join('') };
}
