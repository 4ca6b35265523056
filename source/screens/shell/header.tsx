// Top line: which store, how we reach it and whether the host answers, and the screen tabs.
import { Box, Text } from 'ink';
import { shortId } from '../format.js';
import { useTheme } from '../widgets/theme.js';
import { useEnvironment, useShellState } from './shell-context.js';
import { SCREENS } from './shell-state.js';
import { keyLabel } from '../keyboard/key-bindings.js';

export function Header() {
  const { connection } = useEnvironment();
  const { host, screen } = useShellState();
  const theme = useTheme();
  const store = host.status ? shortId(host.status.storeId) : '…';
  const state = host.error ? `down (${host.error.code})` : host.status ? 'up' : 'checking…';
  return (
    <Box justifyContent="space-between">
      <Box flexShrink={1}>
        <Text wrap="truncate-end">
          <Text bold>common-memory</Text> · store {store} · {connection} ·{' '}
          <Text color={host.error ? theme.error : theme.ok}>{state}</Text>
        </Text>
      </Box>
      <Box flexShrink={0} marginLeft={1}>
        <Text>
          {SCREENS.map((item) => {
            const tab = `${keyLabel(item.command)} ${item.title}`;
            return item.name === screen ? (
              <Text key={item.name} bold color={theme.accent}>{`[${tab}]`}</Text>
            ) : (
              <Text key={item.name}>{` ${tab} `}</Text>
            );
          })}
        </Text>
      </Box>
    </Box>
  );
}
