// Bottom line: the current screen's keys, then the keys every screen shares.
import { Text } from 'ink';
import { keyLabel } from '../keyboard/key-bindings.js';
import { useTheme } from '../widgets/theme.js';
import { useShellState } from './shell-context.js';
import type { HelpItem } from './shell-state.js';

const SHARED: HelpItem[] = [
  { keys: keyLabel('nextScreen'), label: 'screen' },
  { keys: keyLabel('quit'), label: 'quit' },
];

export function HelpLine() {
  const { help } = useShellState();
  const theme = useTheme();
  const items = [...help, ...SHARED];
  return (
    <Text color={theme.muted} wrap="truncate-end">
      {items.map((item) => (item.keys ? `${item.keys} ${item.label}` : item.label)).join(' · ')}
    </Text>
  );
}
