// Labelled sets of the memory rules are JSON Lines under fixtures/memory/.
import { readFileSync } from 'node:fs';

/** The rows of `fixtures/memory/<name>`, one JSON value a line; blank lines are skipped. */
export function readMemoryFixture<T>(name: string): T[] {
  return readFileSync(new URL(`../../fixtures/memory/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
