// Any text in full, over the current screen: a long error, a message or row opened from a list,
// the raw JSON behind it. Wrapped at word boundaries to the terminal, scrolled by keys; Esc returns
// to the screen underneath, which stays mounted (and keeps polling) while it is hidden.
import { Box, Text } from 'ink';
import { useState } from 'react';
import { wrapText } from '../../text-wrap.js';
import { commandFor } from '../keyboard/key-bindings.js';
import { PRIORITY, useKeyHandler } from '../keyboard/keyboard-router.js';
import { HEADER_LINES } from '../shell/header.js';
import { useShellActions } from '../shell/shell-context.js';
import type { ReaderContent } from '../shell/shell-state.js';
import { useTerminalSize } from '../terminal-size.js';
import { useTheme } from './theme.js';

/** Header, title, help line and the one spare row. */
const CHROME = HEADER_LINES + 3;

const READER_COMMANDS = [
  'back',
  'toggleRaw',
  'nextPage',
  'previousPage',
  'selectUp',
  'selectDown',
  'firstPage',
] as const;

export function Reader({ content }: { content: ReaderContent }) {
  const { columns, rows } = useTerminalSize();
  const { closeReader } = useShellActions();
  const theme = useTheme();
  const [raw, setRaw] = useState(false);
  const room = Math.max(1, rows - CHROME);
  const lines = wrapText(raw && content.raw !== undefined ? content.raw : content.text, columns);
  const last = Math.max(0, lines.length - room);
  const [top, setTop] = useState<number | null>(null);
  const shownTop = Math.min(last, top ?? (content.atEnd ? last : 0));
  // Above every screen and text input: while reading, no key reaches what is underneath but quit.
  useKeyHandler(PRIORITY.overlay, (input, key) => {
    const command = commandFor(READER_COMMANDS, input, key);
    if (command === undefined) return commandFor(['quit'], input, key) === undefined;
    if (command === 'back') closeReader();
    else if (command === 'toggleRaw') {
      if (content.raw !== undefined) {
        setRaw((current) => !current);
        setTop(0);
      }
    } else {
      const step = { nextPage: room, previousPage: -room, selectDown: 1, selectUp: -1, firstPage: -lines.length }[
        command
      ];
      setTop(Math.min(last, Math.max(0, shownTop + step)));
    }
    return true;
  });
  const position =
    lines.length > room ? ` · lines ${shownTop + 1}–${Math.min(lines.length, shownTop + room)} of ${lines.length}` : '';
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text bold color={theme.accent} wrap="truncate-end">
        {`${content.title}${raw ? ' · raw' : ''}${position}`}
      </Text>
      {lines.slice(shownTop, shownTop + room).map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: wrapped lines have no identity but their place
        <Text key={shownTop + index} wrap="truncate-end">
          {line || ' '}
        </Text>
      ))}
    </Box>
  );
}

/** What the help line says while a reader is open. */
export const readerHelp = (content: ReaderContent): string[] => [
  'PgDn/PgUp/↑↓ scroll',
  ...(content.raw !== undefined ? ['v raw/text'] : []),
  'Esc back',
];
