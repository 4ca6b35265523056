// The text of `note -`, `prompt <agent> -` and `memory lint -`: stdin read to its end as a stream. A synchronous read
// of fd 0 fails with EAGAIN on a pipe whose writer has not written yet; a stream waits for it.
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
  return Buffer.concat(chunks).toString('utf8');
}

/** Text that is only whitespace says nothing: refused like no text at all. */
export const isBlank = (text: string): boolean => text.trim().length === 0;
