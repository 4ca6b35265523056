// Drives a transcript parser over a file from its saved cursor, in bounded chunks, so a large
// rollout never sits in memory whole. Reads only; the parsers themselves stay free of I/O.

import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { TRANSCRIPT_LINE_MAX_BYTES, TRANSCRIPT_READ_CHUNK_BYTES } from '../limits.js';
import type { CursorState, ParseProgress, TranscriptTurn } from './transcript-model.js';

export interface TranscriptFeeder<S extends CursorState> {
  feed(bytes: Uint8Array, onClosed?: (turn: TranscriptTurn) => void): ParseProgress<S>;
  readonly state: S;
}

export interface FileParseOptions<S extends CursorState = CursorState> {
  /** Read size; the buffer grows only for a line longer than this. */
  chunkBytes?: number;
  /**
   * Receives each turn as it closes, in order. When given, turns are handed over instead of
   * collected, so a long file's turns never accumulate in memory. Turns handed over before a
   * failure belong to no consumed state (see JsonlTranscriptParser.feed).
   */
  onClosed?: (turn: TranscriptTurn) => void;
  /**
   * Called after each successful feed, before the next read, with the progress so far: a caller
   * commits the turns handed over until then together with this cursor (an import's step).
   */
  afterFeed?: (progress: ParseProgress<S>) => Promise<void>;
}

export interface FileParseResult<S extends CursorState> extends ParseProgress<S> {
  /** Bytes after the cursor at end of file: an unterminated last line still being written. */
  unconsumedBytes: number;
}

/**
 * Reads `path` from `parser.state.consumedBytes` to its current end and feeds it to `parser`.
 * `turns` collects every turn closed during the whole read (empty when `onClosed` is given).
 * Stops at the first failure.
 */
export async function parseTranscriptFile<S extends CursorState>(
  path: string,
  parser: TranscriptFeeder<S>,
  options: FileParseOptions<S> = {},
): Promise<FileParseResult<S>> {
  const chunkBytes = options.chunkBytes ?? TRANSCRIPT_READ_CHUNK_BYTES;
  const onClosed = options.onClosed;
  // Non-blocking, and only a regular file: a FIFO would block the open (and every read) for good.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${path} is not a regular file`);
    let buf = Buffer.allocUnsafe(chunkBytes);
    let filled = 0;
    let cursor = parser.state.consumedBytes;
    const turns: TranscriptTurn[] = [];
    let last: ParseProgress<S> | null = null;
    for (;;) {
      if (filled === buf.length) {
        // One line longer than the buffer: grow, up to what the parser accepts for one line.
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, TRANSCRIPT_LINE_MAX_BYTES + chunkBytes));
        if (grown.length === buf.length) break;
        buf.copy(grown, 0, 0, filled);
        buf = grown;
      }
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, cursor + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      last = parser.feed(buf.subarray(0, filled), onClosed);
      turns.push(...last.turns);
      if (last.failure !== null) return { ...last, turns, unconsumedBytes: filled };
      const used = last.consumedBytes - cursor;
      buf.copy(buf, 0, used, filled);
      filled -= used;
      cursor = last.consumedBytes;
      if (options.afterFeed) await options.afterFeed(last);
    }
    last ??= parser.feed(new Uint8Array(0));
    return { ...last, turns, unconsumedBytes: filled };
  } finally {
    await handle.close();
  }
}
