// Keys of the status screen. A retry asks first: while the question is open only y, n and Esc
// answer it (above the screen's shortcuts), so a stray key never retries an item.
import type { Dispatch } from 'react';
import { PRIORITY } from '../keyboard/keyboard-router.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import type { StatusAction, StatusState } from './use-status-state.js';

const SCREEN_COMMANDS = [
  'selectUp',
  'selectDown',
  'nextPage',
  'previousPage',
  'firstPage',
  'retryItem',
  'drainNow',
  'flushNow',
  'refresh',
] as const;
const ANSWERS = ['confirm', 'decline'] as const;

export function useStatusInput(state: StatusState, dispatch: Dispatch<StatusAction>): void {
  const asking = state.confirming !== null;
  useCommandKeys(SCREEN_COMMANDS, (command) => dispatch({ type: command }), { isActive: !asking });
  // Other screen keys wait for the answer; global keys (q, 1–5, Tab) still work.
  useCommandKeys(ANSWERS, (answer) => dispatch({ type: answer }), {
    isActive: asking,
    priority: PRIORITY.screen + 1,
    holds: SCREEN_COMMANDS,
  });
}
