// The screens' lists (agents, recovery items, review queues, and the choosers' options): the
// selection lives in the screen's reducer and moves by commands from the keyboard router; this
// module only says which slice is on screen and where a move lands. The choosers draw their few
// options with ink-select-input (widgets/chooser.tsx) but never let it read keys: its own selection
// state and its own useInput sit outside the router, so keys that arrive together (a held ↓, a
// paste) would act on stale state, and a higher-priority handler (a question, a text input) could
// not take the keys from it — keyboard state belongs in reducers, behind one router. Moves typed
// ahead onto a list still being read wait for its rows in held-list-keys.ts.
//
// Which slice of a list is on screen: the selected row stays visible and the window moves only
// when the selection leaves it, so a long list never renders more rows than fit.
export function listWindow(length: number, selected: number, size: number): { start: number; end: number } {
  if (size <= 0 || length === 0) return { start: 0, end: 0 };
  if (length <= size) return { start: 0, end: length };
  const start = Math.min(Math.max(0, selected - Math.floor(size / 2)), length - size);
  return { start, end: start + size };
}

/** Moves a selection by `delta`, staying inside 0..length-1. */
export const moveSelection = (selected: number, delta: number, length: number): number =>
  length === 0 ? 0 : Math.min(length - 1, Math.max(0, selected + delta));
