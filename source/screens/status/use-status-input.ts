// Keys of the status screen. A retry asks first: while the question is open only y, n and Esc
// answer it (above the screen's shortcuts), so a stray key never retries an item.
import type { Dispatch } from 'react';
import { PRIORITY } from '../keyboard/keyboard-router.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { useHeldListKeys } from '../widgets/held-list-keys.js';
import { pageItems, type StatusAction, type StatusState } from './use-status-state.js';

/**
 * The recovery list's moves: typed ahead while its page is read (the screen opened, PgDn to a page
 * not read ahead), they wait for its rows (widgets/held-list-keys.ts); a page key held so reads
 * that page before the moves after it.
 */
const MOVES = ['selectUp', 'selectDown', 'nextPage', 'previousPage', 'firstPage'] as const;
const SCREEN_COMMANDS = [...MOVES, 'retryItem', 'drainNow', 'flushNow', 'refresh'] as const;
const ANSWERS = ['confirm', 'decline'] as const;

/** Returns the note of moves typed ahead onto a page that loaded empty, or null. */
export function useStatusInput(state: StatusState, dispatch: Dispatch<StatusAction>): string | null {
  const asking = state.confirming !== null;
  const heldNote = useHeldListKeys(
    MOVES,
    (command) => dispatch({ type: command }),
    // The page on screen is another than the one asked for until its read answers (a quiet refresh
    // of the page shown keeps its rows: keys act on them at once).
    { loading: state.read !== null && state.statusCursor !== state.cursor, length: pageItems(state).length },
    { isActive: !asking },
  );
  useCommandKeys(
    SCREEN_COMMANDS.filter((command) => !(MOVES as readonly string[]).includes(command)),
    (command) => dispatch({ type: command }),
    { isActive: !asking },
  );
  // Other screen keys wait for the answer; global keys (q, 1–5, Tab) still work.
  useCommandKeys(ANSWERS, (answer) => dispatch({ type: answer }), {
    isActive: asking,
    priority: PRIORITY.screen + 1,
    holds: SCREEN_COMMANDS,
  });
  return heldNote;
}
