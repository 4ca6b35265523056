// The person's own editor over the TUI (the Entries view's `e`): Ink's input is suspended (raw
// mode off) and the TUI leaves the alternate screen and bracketed paste, the editor runs
// synchronously with the terminal inherited, then raw mode comes back and Ink draws its last frame
// again on a cleared alternate screen. While the editor is open this process's event loop waits: the screen does not
// redraw, and an in-process host answers its API again when the editor exits.
import { useStdin, useStdout } from 'ink';
import { useCallback } from 'react';
import { type EditOutcome, editorCommand, editText } from '../../ground/text-editor.js';
import { ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN } from '../alternate-screen.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from '../keyboard/bracketed-paste.js';
import { useEnvironment } from '../shell/shell-context.js';

/** Edits `text` in the person's editor (a file named `name`); `no-editor` when none is set. */
export type EditInEditor = (text: string, name: string) => EditOutcome;

export function useEntryEditor(): EditInEditor {
  const { editor } = useEnvironment();
  const { stdin, isRawModeSupported } = useStdin();
  const { stdout, write } = useStdout();
  return useCallback(
    (text, name) => {
      const env = editor?.env ?? process.env;
      const spawn = editor?.spawn;
      if (editorCommand(env) === null) return { kind: 'no-editor' };
      // Ink keeps raw mode on while any key handler is active; the editor needs the terminal as a shell leaves it.
      const raw = isRawModeSupported && (stdin as { isRaw?: boolean }).isRaw !== false;
      const terminal = stdout.isTTY === true;
      if (raw) stdin.setRawMode?.(false);
      // Bracketed paste off too: an editor that does not ask for it would get the markers as text.
      if (terminal) stdout.write(BRACKETED_PASTE_OFF + LEAVE_ALTERNATE_SCREEN);
      try {
        return editText(text, { env, name, spawn });
      } finally {
        if (raw) stdin.setRawMode?.(true);
        // Ink clears what it drew, writes this, then draws its last frame again: the screen is whole.
        if (terminal) write(ENTER_ALTERNATE_SCREEN + BRACKETED_PASTE_ON);
      }
    },
    [editor, stdin, isRawModeSupported, stdout, write],
  );
}
