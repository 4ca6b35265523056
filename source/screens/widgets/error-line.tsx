// An Application error in one line: its stable code first (what a script or a bug report needs),
// then the message that says what to do. Never more than one line, so the layout holds at 80x24;
// a message that does not fit says so, and e opens it in full.
import { Text } from 'ink';
import { textColumns } from '../../text-columns.js';
import { type ShownError, truncate } from '../format.js';
import { keyLabel } from '../keyboard/key-bindings.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { useShellActions } from '../shell/shell-context.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from './theme.js';

const MORE = ` · ${keyLabel('showError')} in full`;

export function ErrorLine({ error, prefix }: { error: ShownError | null; prefix?: string | undefined }) {
  const theme = useTheme();
  const { columns } = useTerminalSize();
  const { read } = useShellActions();
  const title = `${prefix ? `${prefix}: ` : ''}error ${error?.code ?? ''}`;
  useCommandKeys(['showError'], () => error && read({ title, text: `${error.code}: ${error.full ?? error.message}` }), {
    isActive: error !== null,
  });
  if (!error) return <Text> </Text>;
  const line = `${title}: ${error.message}`;
  const fits = textColumns(line) <= columns && error.full === undefined;
  return (
    <Text color={theme.error} wrap="truncate-end">
      {fits ? line : `${truncate(line, Math.max(1, columns - MORE.length))}${MORE}`}
    </Text>
  );
}
