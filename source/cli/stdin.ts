// The text of `note -`, `prompt <agent> -` and `memory lint -`: stdin read to its end as a stream. A synchronous read
// of fd 0 fails with EAGAIN on a pipe whose writer has not written yet; a stream waits for it.
import { fstatSync } from 'node:fs';
import { CmError } from '../errors.js';
import { RECORD_MAX_BYTES } from '../limits.js';

/**
 * Reads stdin to the end; more than `maxBytes` (a record, by default) is refused as soon as it is
 * seen, never cut. `overLimit` says so for a command whose limit is not a record's.
 */
export async function readStdinText(
  what: string,
  maxBytes = RECORD_MAX_BYTES,
  overLimit = `The ${what} on stdin is over the ${maxBytes}-byte record limit; nothing was written. Split it into smaller pieces.`,
): Promise<string> {
  return (await readStdinBytes(what, maxBytes, overLimit)).toString('utf8');
}

/** Stdin's bytes as read, to its end: readStdinText before they are decoded. */
export async function readStdinBytes(what: string, maxBytes: number, overLimit: string): Promise<Buffer> {
  // Node reads a directory given as stdin (`< some/dir`) as empty: the text would be refused as
  // blank, which says nothing of the real mistake.
  if (stdinIsDirectory())
    throw new CmError(
      'invalid_input',
      `The ${what} is read from stdin, and stdin is a directory; give a file (< file) or a pipe. Nothing was written.`,
    );
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      process.stdin.destroy();
      throw new CmError('limit_exceeded', overLimit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Text that is only whitespace says nothing: refused like no text at all. */
export const isBlank = (text: string): boolean => text.trim().length === 0;

function stdinIsDirectory(): boolean {
  try {
    return fstatSync(0).isDirectory();
  } catch {
    return false; // a closed stdin (`<&-`): the stream's own error says so
  }
}
