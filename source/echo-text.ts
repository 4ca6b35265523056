// Input quoted back in a message ("No entry has the id …"): JSON-quoted and cut at
// ECHO_INPUT_MAX_CHARS, with the full length said, so that a message never grows with what a
// caller sent. Pure: no I/O.
import { ECHO_INPUT_MAX_CHARS } from './limits.js';

export function echoed(input: string, max = ECHO_INPUT_MAX_CHARS): string {
  return cutEcho(input, JSON.stringify, max);
}

/** The same, unquoted: a word that reads as itself (a flag as typed). */
export const echoedWord = (input: string, max = ECHO_INPUT_MAX_CHARS): string => cutEcho(input, (text) => text, max);

function cutEcho(input: string, quote: (text: string) => string, max: number): string {
  if (input.length <= max) return quote(input);
  return `${quote(input.slice(0, max))}… (${input.length} characters)`;
}
