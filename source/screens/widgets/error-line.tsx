// An Application error in one line: its stable code first (what a script or a bug report needs),
// then the message that says what to do. Never more than one line, so the layout holds at 80x24.
import { Text } from 'ink';
import type { ShownError } from '../format.js';
import { useTheme } from './theme.js';

export function ErrorLine({ error, prefix }: { error: ShownError | null; prefix?: string }) {
  const theme = useTheme();
  if (!error) return <Text> </Text>;
  return (
    <Text color={theme.error} wrap="truncate-end">
      {prefix ? `${prefix}: ` : ''}error {error.code}: {error.message}
    </Text>
  );
}
