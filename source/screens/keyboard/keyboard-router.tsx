// The one keyboard router. Ink calls a single useInput here; handlers registered with a priority
// are asked in turn (highest first) and the first that returns true consumes the key. An open
// text input registers above screen shortcuts, so "q" typed into a note is text, not "quit".
import { useInput, useStdin, type Key } from 'ink';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { dropUnnamedCtrlSequences } from './unnamed-keys.js';

export const PRIORITY = {
  /** Ctrl+C: always reaches the shell, whatever has the keyboard. */
  system: 100,
  /** A question of the shell's (quit while agents run): above everything but Ctrl+C. */
  question: 80,
  /** A reader open over the screen (widgets/reader.tsx): above any text input underneath it. */
  overlay: 70,
  textInput: 50,
  screen: 20,
  global: 0,
} as const;

export type KeyHandler = (input: string, key: Key) => boolean;

interface Entry {
  priority: number;
  order: number;
  handle: KeyHandler;
}

interface Registry {
  add(entry: Omit<Entry, 'order'>): () => void;
}

const KeyboardContext = createContext<Registry | null>(null);

export function KeyboardProvider({ children }: { children: ReactNode }) {
  const entries = useRef<Entry[]>([]);
  const counter = useRef(0);
  const registry = useRef<Registry>({
    add(entry) {
      // Later registrations win ties: a screen mounted inside the shell outranks a shell handler of equal priority.
      const added = { ...entry, order: counter.current++ };
      entries.current = [...entries.current, added].sort((a, b) => b.priority - a.priority || b.order - a.order);
      return () => {
        entries.current = entries.current.filter((other) => other !== added);
      };
    },
  });
  // A stable callback: useInput re-subscribes whenever its handler changes identity.
  const route = useCallback((input: string, key: Key) => {
    for (const entry of entries.current) if (entry.handle(input, key)) return;
  }, []);
  // Before the first key: a sequence Ink cannot name would otherwise throw inside useInput.
  const { internal_eventEmitter: inputEvents } = useStdin();
  useState(() => dropUnnamedCtrlSequences(inputEvents));
  useInput(route);
  return <KeyboardContext.Provider value={registry.current}>{children}</KeyboardContext.Provider>;
}

/**
 * Registers `handler` while mounted. The latest handler and `isActive` are read from refs at key
 * time, so keys that arrive between renders see the newest state, never a stale closure.
 */
export function useKeyHandler(priority: number, handler: KeyHandler, isActive = true): void {
  const registry = useContext(KeyboardContext);
  if (!registry) throw new Error('useKeyHandler needs a KeyboardProvider above it.');
  const latest = useRef({ handler, isActive });
  latest.current = { handler, isActive };
  useEffect(
    () =>
      registry.add({ priority, handle: (input, key) => latest.current.isActive && latest.current.handler(input, key) }),
    [registry, priority],
  );
}
