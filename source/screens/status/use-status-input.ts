// Keys of the status screen. A retry asks first: while the question is open only y, n and Esc
// answer it (above the screen's shortcuts), so a stray key never retries an item.
import type { Dispatch } from 'react';
import { commandFor } from '../keyboard/key-bindings.js';
import { PRIORITY, useKeyHandler } from '../keyboard/keyboard-router.js';
import type { StatusAction, StatusState } from './use-status-state.js';

const SCREEN_COMMANDS = ['selectUp', 'selectDown', 'nextPage', 'previousPage', 'firstPage', 'retryItem', 'drainNow', 'flushNow', 'refresh'] as const;
const ANSWERS = ['confirm', 'decline'] as const;

export function useStatusInput(state: StatusState, dispatch: Dispatch<StatusAction>): void {
  const asking = state.confirming !== null;
  useKeyHandler(
    PRIORITY.screen,
    (input, key) => {
      const command = commandFor(SCREEN_COMMANDS, input, key);
      if (command === undefined) return false;
      dispatch({ type: command });
      return true;
    },
    !asking,
  );
  useKeyHandler(
    PRIORITY.screen + 1,
    (input, key) => {
      const answer = commandFor(ANSWERS, input, key);
      if (answer !== undefined) dispatch({ type: answer });
      // Other screen keys wait for the answer; global keys (q, 1–5, Tab) still work.
      return answer !== undefined || commandFor(SCREEN_COMMANDS, input, key) !== undefined;
    },
    asking,
  );
}
