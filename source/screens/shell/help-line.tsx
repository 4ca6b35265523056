// Bottom line: the current screen's keys, then quit. The screen tabs in the header already name
// their keys (1, 2), which keeps this line within 80 columns.
import { Text } from 'ink';
import { keyLabel } from '../keyboard/key-bindings.js';
import { useTheme } from '../widgets/theme.js';
import { readerHelp } from '../widgets/reader.js';
import { useShellState } from './shell-context.js';
import type { HelpItem } from './shell-state.js';

const SHARED: HelpItem[] = [{ keys: keyLabel('quit'), label: 'quit' }];
const WHILE_TYPING: HelpItem[] = [{ keys: keyLabel('interrupt'), label: 'quit' }];

/**
 * What q asks when this TUI's host runs agents, on the one line the help has: the keys first, so
 * that a long list of agents is what a narrow terminal cuts (after their count), never how to answer.
 */
export function quitQuestionText(running: readonly string[]): string {
  const agents = running.length === 1 ? `agent ${running[0]}` : `${running.length} agents: ${running.join(', ')}`;
  return `Quit? ${keyLabel('confirm')} quit · ${keyLabel('decline')} stay — stops this TUI's host and ${agents}`;
}

export function HelpLine() {
  const { help, reading, quitQuestion } = useShellState();
  const theme = useTheme();
  if (quitQuestion)
    return (
      <Text color={theme.error} wrap="truncate-end">
        {quitQuestionText(quitQuestion)}
      </Text>
    );
  if (reading)
    return (
      <Text color={theme.muted} wrap="truncate-end">
        {[...readerHelp(reading), 'q quit'].join(' · ')}
      </Text>
    );
  const items = [...help.items, ...(help.shared ? SHARED : WHILE_TYPING)];
  return (
    <Text color={theme.muted} wrap="truncate-end">
      {items.map((item) => (item.keys ? `${item.keys} ${item.label}` : item.label)).join(' · ')}
    </Text>
  );
}
