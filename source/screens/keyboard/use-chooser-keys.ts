// The keys of a chooser (a short list where a person picks one option: the runner, the scope, the
// client), through the one keyboard router. The highlighted option lives in the screen's reducer:
// each key is an action on the newest state, so keys that arrive together (a held ↓, several in
// one stdin chunk) each move one step and an Enter behind them chooses where they landed. Until the
// terminal has shown it marks pastes (bracketed-paste.ts), a run of the move letters (j, k) reaches
// Ink as one string, typed or pasted: it moves once per letter. A paste never chooses: only Enter
// pressed on its own does (a marked paste presses no key at all).
import type { Key } from 'ink';
import { type Command, commandFor, NO_KEY } from './key-bindings.js';
import { PRIORITY, useKeyHandler } from './keyboard-router.js';

export interface ChooserHandlers {
  /** Moves the highlight by `delta` options (the reducer keeps it inside the list). */
  onMove(delta: number): void;
  /** Chooses the highlighted option. */
  onChoose(): void;
  /** Esc: closes the chooser keeping what was chosen before (absent: Esc is not the chooser's). */
  onClose?(): void;
}

export interface ChooserKeyOptions {
  isActive?: boolean;
  priority?: number;
  /** Commands consumed but ignored while the chooser has the keys: the screen's other keys wait, global keys still work. */
  holds?: readonly Command[];
}

const MOVES = ['selectUp', 'selectDown'] as const;

/** The net move of a paste made only of move letters ("jjjk": +2); null for anything else. */
export function pastedMoves(input: string, key: Key): number | null {
  const letters = [...input];
  if (letters.length < 2 || key.ctrl || key.meta) return null;
  let delta = 0;
  for (const letter of letters) {
    const move = commandFor(MOVES, letter, NO_KEY);
    if (move === undefined) return null;
    delta += move === 'selectDown' ? 1 : -1;
  }
  return delta;
}

/** While active, ↑↓ (k/j, and pastes of them) move the highlight, Enter chooses, Esc closes. */
export function useChooserKeys(handlers: ChooserHandlers, options: ChooserKeyOptions = {}): void {
  const { isActive = true, priority = PRIORITY.screen, holds = [] } = options;
  useKeyHandler(
    priority,
    (input, key) => {
      const command = commandFor([...MOVES, 'openItem', 'back'], input, key);
      if (command === 'selectUp' || command === 'selectDown') {
        handlers.onMove(command === 'selectDown' ? 1 : -1);
        return true;
      }
      if (command === 'openItem') {
        handlers.onChoose();
        return true;
      }
      if (command === 'back' && handlers.onClose) {
        handlers.onClose();
        return true;
      }
      const pasted = pastedMoves(input, key);
      if (pasted !== null) {
        if (pasted !== 0) handlers.onMove(pasted);
        return true;
      }
      return commandFor(holds, input, key) !== undefined;
    },
    isActive,
  );
}
