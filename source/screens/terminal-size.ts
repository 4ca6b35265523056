// The terminal's size, following resizes. Ink's test stdout has no rows, so defaults apply.
//
// Every component that asks shares one 'resize' listener on the terminal: a screen holds a dozen
// such components, and one listener each passed Node's limit of ten an event, which made Node print
// its MaxListenersExceededWarning to stderr, over the full-screen TUI.
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

const read = (stdout: NodeJS.WriteStream): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });

/** Each terminal's components that follow its size, and the one listener that tells them. */
const followers = new WeakMap<NodeJS.WriteStream, { notify: () => void; each: Set<() => void> }>();

function follow(stdout: NodeJS.WriteStream, onResize: () => void): () => void {
  let entry = followers.get(stdout);
  if (!entry) {
    const each = new Set<() => void>();
    const notify = () => {
      for (const tell of each) tell();
    };
    entry = { each, notify };
    followers.set(stdout, entry);
    stdout.on('resize', entry.notify);
  }
  entry.each.add(onResize);
  const { each, notify } = entry;
  return () => {
    each.delete(onResize);
    if (each.size > 0) return;
    stdout.off('resize', notify);
    followers.delete(stdout);
  };
}

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => follow(stdout, () => setSize(read(stdout))), [stdout]);
  return size;
}
