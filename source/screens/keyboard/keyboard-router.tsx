// The one keyboard router. Ink calls a single useInput here; handlers registered with a priority
// are asked in turn (highest first) and the first that returns true consumes the key. An open
// text input registers above screen shortcuts, so "q" typed into a note is text, not "quit".
// A paste (text the terminal marked as pasted: bracketed-paste.ts) is never a key: it goes only to
// handlers that take pastes, in the same order, so a paste holding "a" never approves.
import { useInput, useStdin, type Key } from 'ink';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { shapeTypedInput } from './bracketed-paste.js';
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
/** Takes pasted text (true: consumed, the handlers below never see it). */
export type PasteHandler = (text: string) => boolean;

interface Entry {
  priority: number;
  order: number;
  handle: KeyHandler;
  paste: PasteHandler;
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
  // Before the first key: a sequence Ink cannot name would otherwise throw inside useInput; then
  // pastes told from typing (wrapped last, so it sees each input first).
  const { internal_eventEmitter: inputEvents } = useStdin();
  // The barrier between keys typed ahead (bracketed-paste.ts): an update of this provider, queued
  // after the key's own updates, is rendered in the same pass, and its layout effect runs once
  // that pass has committed, after the layout effects below it that register a new screen's keys.
  // Rendering it costs nothing below: the children are the same elements.
  const [, setCommits] = useState(0);
  const afterCommit = useRef<Array<() => void>>([]);
  useState(() => {
    dropUnnamedCtrlSequences(inputEvents);
    shapeTypedInput(inputEvents, (then) => {
      afterCommit.current.push(then);
      setCommits((count) => count + 1);
    });
  });
  // After every commit of this provider (no dependencies: the count is only what makes it render).
  useLayoutEffect(() => {
    const waiting = afterCommit.current;
    afterCommit.current = [];
    // On a turn of its own: a key delivered inside the commit would update state in the middle of it.
    for (const then of waiting) setImmediate(then);
  });
  useInput(route);
  useEffect(() => {
    // A paste no handler takes (no text field open) is dropped: the screen does not change.
    const routePaste = (text: string) => {
      for (const entry of entries.current) if (entry.paste(text)) return;
    };
    inputEvents.on('paste', routePaste);
    return () => {
      inputEvents.off('paste', routePaste);
    };
  }, [inputEvents]);
  return <KeyboardContext.Provider value={registry.current}>{children}</KeyboardContext.Provider>;
}

/**
 * Registers `handler` while mounted. The latest handler and `isActive` are read from refs at key
 * time, so keys that arrive between renders see the newest state, never a stale closure. Pastes
 * reach `onPaste` only; without it the handler never sees them.
 */
export function useKeyHandler(priority: number, handler: KeyHandler, isActive = true, onPaste?: PasteHandler): void {
  const registry = useContext(KeyboardContext);
  if (!registry) throw new Error('useKeyHandler needs a KeyboardProvider above it.');
  const latest = useRef({ handler, isActive, onPaste });
  latest.current = { handler, isActive, onPaste };
  // A layout effect: registered when the screen is committed, before the next key typed ahead is
  // replayed (bracketed-paste.ts). A passive effect ran later, and "5jj⏎" sent the j's to the
  // screen that 5 left.
  useLayoutEffect(
    () =>
      registry.add({
        priority,
        handle: (input, key) => latest.current.isActive && latest.current.handler(input, key),
        paste: (text) => latest.current.isActive && latest.current.onPaste?.(text) === true,
      }),
    [registry, priority],
  );
}
