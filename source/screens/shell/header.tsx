// Top two lines: which store, how we reach it and whether the host answers; then the screen
// tabs. The tabs and the store line do not fit one 80-column line, and a truncated host state
// ("up"/"down") is the one thing the header must never lose.
import { Box, Text } from 'ink';
import { shortId } from '../format.js';
import { useTheme } from '../widgets/theme.js';
import { useEnvironment, useShellState } from './shell-context.js';
import { SCREENS } from './shell-state.js';
import { keyLabel } from '../keyboard/key-bindings.js';
import { useTerminalSize } from '../terminal-size.js';

/** Rows the header takes; screens that size themselves to the terminal subtract it. */
export const HEADER_LINES = 2;

export function Header() {
  const { connection } = useEnvironment();
  const { host, screen } = useShellState();
  const theme = useTheme();
  const store = host.status ? shortId(host.status.storeId) : '…';
  const state = host.error ? `down (${host.error.code})` : host.status ? 'up' : 'checking…';
  const { columns } = useTerminalSize();
  // Every tab with its title when they fit; otherwise the others by their key alone, so the
  // current one is never cut off a narrow terminal.
  const full = SCREENS.map((item) => `${keyLabel(item.command)} ${item.title}`).join(' ');
  const compact = full.length + 2 > columns;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>common-memory</Text> · store {store} · {connection} ·{' '}
        <Text color={host.error ? theme.error : theme.ok}>{state}</Text>
      </Text>
      <Text wrap="truncate-end">
        {SCREENS.map((item, index) => {
          const tab = `${keyLabel(item.command)} ${item.title}`;
          // One space between tabs and brackets around the current one: seven tabs fit 80 columns.
          const gap = index === 0 ? '' : ' ';
          return item.name === screen ? (
            <Text key={item.name}>
              {gap}
              <Text bold color={theme.accent}>{`[${tab}]`}</Text>
            </Text>
          ) : (
            <Text key={item.name}>{`${gap}${compact ? keyLabel(item.command) : tab}`}</Text>
          );
        })}
      </Text>
    </Box>
  );
}
