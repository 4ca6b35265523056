// An Application error in one line: its stable code first (what a script or a bug report needs),
// then the message that says what to do. Never more than one line, so the layout holds at 80x24;
// a message that does not fit says so, and e opens it in full. While a text input has the keyboard
// (a form, a note) e is a letter typed into it, and the error goes when the input closes: there
// the message is wrapped whole instead (the rows above it give up their lines).
import { Text } from 'ink';
import { textColumns } from '../../text-columns.js';
import { type ShownError, truncate } from '../format.js';
import { keyLabel } from '../keyboard/key-bindings.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { useShellActions } from '../shell/shell-context.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from './theme.js';
import { WrappedText } from './wrapped-text.js';

const MORE = ` · ${keyLabel('showError')} in full`;

export function ErrorLine({
  error,
  prefix,
  typing = false,
}: {
  error: ShownError | null;
  prefix?: string | undefined;
  /** A text input has the keyboard: no key can open the error, so it is shown whole. */
  typing?: boolean;
}) {
  const theme = useTheme();
  const { columns } = useTerminalSize();
  const { read } = useShellActions();
  const title = `${prefix ? `${prefix}: ` : ''}error ${error?.code ?? ''}`;
  useCommandKeys(['showError'], () => error && read({ title, text: `${error.code}: ${error.full ?? error.message}` }), {
    isActive: error !== null && !typing,
  });
  if (!error) return <Text> </Text>;
  const line = `${title}: ${error.message}`;
  if (typing) return <WrappedText color={theme.error}>{line}</WrappedText>;
  const fits = textColumns(line) <= columns && error.full === undefined;
  return (
    <Text color={theme.error} wrap="truncate-end">
      {fits ? line : `${truncate(line, Math.max(1, columns - MORE.length))}${MORE}`}
    </Text>
  );
}
