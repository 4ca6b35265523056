// Long work is visible: a spinner with elapsed seconds. It appears only after SPINNER_DELAY_MS so
// fast requests (most pages, every follow poll) do not make the screen flicker.
import { Text } from 'ink';
import { useEffect, useState } from 'react';
import { SPINNER_DELAY_MS, SPINNER_FRAME_MS } from '../timing.js';
import { useTheme } from './theme.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function Spinner({ label = 'loading…' }: { label?: string }) {
  const theme = useTheme();
  const [ticks, setTicks] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTicks((value) => value + 1), SPINNER_FRAME_MS);
    return () => clearInterval(timer);
  }, []);
  const elapsedMs = ticks * SPINNER_FRAME_MS;
  if (elapsedMs < SPINNER_DELAY_MS) return null;
  const seconds = elapsedMs >= 1000 ? ` ${Math.floor(elapsedMs / 1000)}s` : '';
  return (
    <Text color={theme.accent}>
      {FRAMES[ticks % FRAMES.length]} {label}
      {seconds}
    </Text>
  );
}
