// Input quoted back in a message ("No entry has the id …"): JSON-quoted and cut at
// ECHO_INPUT_MAX_CHARS, with the full length said, so that a message never grows with what a
// caller sent. Pure: no I/O.
import { ECHO_INPUT_MAX_CHARS } from './limits.js';

export function echoed(input: string, max = ECHO_INPUT_MAX_CHARS): string {
  if (input.length <= max) return JSON.stringify(input);
  return `${JSON.stringify(input.slice(0, max))}… (${input.length} characters)`;
}
