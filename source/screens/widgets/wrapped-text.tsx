// A paragraph wrapped between words at the terminal's width (text-wrap.ts). Ink's own wrap keeps
// the space it breaks at: a line could start with a space (" scope. Candidates come…" at 60
// columns). Lines are joined with newlines here, so Ink has nothing left to wrap but a word longer
// than the terminal, which it breaks.
import { Text } from 'ink';
import { wrapText } from '../../text-wrap.js';
import { useTerminalSize } from '../terminal-size.js';

export function WrappedText({ children, color }: { children: string; color?: string | undefined }) {
  const { columns } = useTerminalSize();
  return <Text color={color}>{wrapText(children, columns).join('\n')}</Text>;
}
