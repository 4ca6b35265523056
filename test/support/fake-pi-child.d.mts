/** Splits a stdout fixture into prompt segments (see fake-pi-child.mjs). */
export function promptSegments(fixtureText: string): string[][];
