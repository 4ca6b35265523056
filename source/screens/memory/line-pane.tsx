// A slice of prepared screen lines, toned by what they are (color is decoration: the words say it
// too, so NO_COLOR loses nothing). Only the lines on screen are rendered, however long the text.
import { Box, Text } from 'ink';
import { useTheme, type Theme } from '../widgets/theme.js';
import type { ScreenLine, Tone } from './wrap-lines.js';

function colorOf(tone: Tone, theme: Theme): string | undefined {
  switch (tone) {
    case 'muted':
      return theme.muted;
    case 'ok':
    case 'added':
      return theme.ok;
    case 'error':
    case 'removed':
      return theme.error;
    case 'heading':
    case 'selected':
      return theme.accent;
    case 'text':
      return undefined;
  }
}

export function LinePane({ lines, top, room }: { lines: ScreenLine[]; top: number; room: number }) {
  const theme = useTheme();
  const shown = lines.slice(top, top + Math.max(0, room));
  return (
    <Box flexDirection="column">
      {shown.map((line, index) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: prepared lines have no identity but their place
          key={top + index}
          wrap="truncate-end"
          bold={line.tone === 'heading' || line.tone === 'selected'}
          color={colorOf(line.tone, theme)}
        >
          {line.text || ' '}
        </Text>
      ))}
    </Box>
  );
}

/** " · lines 3–20 of 41" when the text is longer than the room, else nothing. */
export function position(top: number, room: number, total: number): string {
  if (total <= room) return '';
  return ` · lines ${top + 1}–${Math.min(total, top + room)} of ${total}`;
}
