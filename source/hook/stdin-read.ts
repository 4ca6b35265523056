// The hook's stdin, read in chunks and never past its bound + 1 byte: whatever a host (or anyone)
// pipes in, the hook's time and memory stay bounded. `readFileSync(0)` read everything first — a
// 1 GB payload took 70 s and 2 GB of memory before the bound was even checked.
import { fstatSync, readSync } from 'node:fs';
import { sleepSync } from '../ground/sleep-sync.js';

/** What was read: the whole payload, or, over the bound, its first bound + 1 bytes and its size when known. */
export interface StdinRead {
  bytes: Buffer;
  /** True when more than `bound` bytes arrived: `bytes` is only their beginning and reading stopped. */
  over: boolean;
  /** The payload's full size when the OS knows it (stdin is a regular file); else null. */
  knownBytes: number | null;
}

/** The first buffer: a host payload is a few KiB, so the usual event never allocates more. */
const FIRST_BYTES = 64 * 1024;

export function readStdinBounded(bound: number, fd = 0): StdinRead {
  let buffer = Buffer.allocUnsafe(Math.min(FIRST_BYTES, bound + 1));
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (filled > bound) break;
      // A large payload: one buffer of the bound + 1 byte, allocated once (the OS maps its pages
      // as they are filled), so memory never grows past it however much more arrives.
      const whole = Buffer.allocUnsafe(bound + 1);
      buffer.copy(whole, 0, 0, filled);
      buffer = whole;
    }
    let read: number;
    try {
      // A pipe gives what it holds at each read (at most its 64 KiB buffer): the chunks are the OS's.
      read = readSync(fd, buffer, filled, buffer.length - filled, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A non-blocking pipe with nothing yet; the host writes the event at once.
      if (code === 'EAGAIN') {
        sleepSync(1);
        continue;
      }
      // stdin closed or absent: an empty payload, refused by validation.
      if (code === 'EOF' || code === 'EBADF') break;
      throw error;
    }
    if (read === 0) break;
    filled += read;
  }
  const over = filled > bound;
  let knownBytes: number | null = null;
  if (over) {
    try {
      const stats = fstatSync(fd);
      if (stats.isFile()) knownBytes = stats.size;
    } catch {
      // unknown size: the record says "at least"
    }
  }
  return { bytes: buffer.subarray(0, filled), over, knownBytes };
}
