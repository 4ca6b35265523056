// Copies the transcript bytes a hook event must keep: from the watch's capture cursor to the last
// complete line (the host may be mid-line). Bounded: a larger tail is an explicit over-limit
// envelope, never a truncated one. Runs inside the hook's transaction so two hooks of one session
// can never copy the same bytes twice.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { HOOK_TAIL_MAX_BYTES } from '../limits.js';
import type { Tail } from '../store/inbox-writes.js';

export function readTail(path: string, from: number, maxBytes = HOOK_TAIL_MAX_BYTES): Tail {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { state: code === 'ENOENT' ? 'missing' : 'unreadable', from, to: from, bytes: null };
  }
  try {
    const size = fstatSync(fd).size;
    // Transcripts only grow; a shorter file was replaced or truncated under us.
    if (size < from) return { state: 'cursor_mismatch', from, to: from, bytes: null };
    if (size - from > maxBytes) return { state: 'over_limit', from, to: from, bytes: null };
    const buffer = Buffer.allocUnsafe(size - from);
    let filled = 0;
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, from + filled);
      if (read === 0) break;
      filled += read;
    }
    const complete = buffer.subarray(0, filled).lastIndexOf(0x0a) + 1;
    return { state: 'captured', from, to: from + complete, bytes: Buffer.from(buffer.subarray(0, complete)) };
  } catch {
    return { state: 'unreadable', from, to: from, bytes: null };
  } finally {
    closeSync(fd);
  }
}
