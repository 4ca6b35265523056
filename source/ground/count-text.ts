// A count and its noun, "1 entry" and "2 entries": one helper for every screen and command line.

/** `count` with `one` or `many` (by default `one` with an s). */
export const counted = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
