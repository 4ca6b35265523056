// Bottom line: the current screen's keys, then quit. The screen tabs in the header already name
// their keys (1, 2), which keeps this line within 80 columns.
import { Text } from 'ink';
import { textColumns } from '../../text-columns.js';
import { keyLabel } from '../keyboard/key-bindings.js';
import { useTerminalSize } from '../terminal-size.js';
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

const itemText = (item: HelpItem): string => (item.keys ? `${item.keys} ${item.label}` : item.label);

/**
 * The screen's keys less how every list is worked, which the marked row already shows: an item of
 * arrows alone (↑↓ choose) and Enter beside a letter that does the same (i/Enter install → i).
 */
const withoutListKeys = (items: readonly HelpItem[]): HelpItem[] =>
  items
    .filter((item) => !/^[←↑→↓]+$/.test(item.keys))
    .map((item) => ({ ...item, keys: item.keys.replace(/(?<=.)\/Enter\b|\bEnter\/(?=.)/, '') }));

/**
 * The key line within `columns`: the screen's keys that fit, then how to quit. Where they do not
 * all fit (60 columns) the list's own keys give way first (withoutListKeys), then the last keys to
 * `…`; never the quit key at the end, nor a key that decides (they keep their place among the keys
 * kept).
 */
export function keyLine(allItems: readonly HelpItem[], shared: readonly HelpItem[], columns: number): string {
  const line = (kept: readonly HelpItem[]) => kept.map(itemText).join(' · ');
  const all = line([...allItems, ...shared]);
  if (textColumns(all) <= columns) return all;
  const items = withoutListKeys(allItems);
  const lean = line([...items, ...shared]);
  if (textColumns(lean) <= columns) return lean;
  const end = ['', '…', ...shared.map(itemText)].join(' · ');
  let kept = items.filter((item) => item.decides);
  for (const item of items) {
    if (item.decides) continue;
    const next = items.filter((other) => other === item || kept.includes(other));
    if (textColumns(line(next)) + textColumns(end) > columns) break;
    kept = next;
  }
  return kept.length > 0 ? `${line(kept)}${end}` : end.slice(' · '.length);
}

export function HelpLine() {
  const { help, reading, quitQuestion } = useShellState();
  const theme = useTheme();
  const { columns } = useTerminalSize();
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
  return (
    <Text color={theme.muted} wrap="truncate-end">
      {keyLine(help.items, help.shared ? SHARED : WHILE_TYPING, columns)}
    </Text>
  );
}
