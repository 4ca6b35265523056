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
