// Frames one OS pipe of a pi child (stdout or stderr) into records.
//
// Decisions (seed 003 B1.5, HOSTS.md 3.3):
// - LF (0x0A) is the only separator. Never Node readline: it also splits on U+2028/U+2029, which
//   JSON.stringify leaves unescaped inside strings, so readline would cut a valid pi record in two.
// - No CR stripping. pi 0.73.1 writes `JSON.stringify(value) + "\n"` (dist/modes/rpc/jsonl.js), and
//   JSON.stringify escapes CR inside strings, so a raw CR never occurs in a pi record; none of the
//   recorded fixtures holds a CR byte. If one ever arrives it stays in the text: JSON.parse treats a
//   trailing CR as whitespace, and the raw evidence stays byte-exact.
// - Invalid UTF-8 is not repaired. A line that is not well-formed UTF-8 is reported as its own
//   'invalid-utf8' event with its bytes (bounded by the limit), never as a record with U+FFFD in it:
//   replacing bytes would silently rewrite evidence. Splitting on the 0x0A byte never cuts a UTF-8
//   sequence (continuation and lead bytes are all >= 0x80), so each line decodes on its own.
// - Bounded. A line longer than `maxRecordBytes` is reported once, at its LF (or at EOF), as
//   'oversized' with its full size; its bytes are dropped as they arrive, so at most
//   `maxRecordBytes` bytes of one line are ever held.
// - Every line gets the next 1-based wire ordinal of its stream, whatever its event kind, so the
//   ordinals of a stream have no holes and an oversized or broken line keeps its place.
// - At EOF an unterminated last line is 'truncated' (its bytes are kept, they may be a cut record).

import { RECORD_MAX_BYTES, SEQUENCE_MAX } from '../limits.js';

/** A complete, well-formed UTF-8 line, without its LF. */
export interface FramedRecord {
  readonly kind: 'record';
  readonly ordinal: number;
  readonly text: string;
  readonly byteLength: number;
}

/** A line over the limit. `terminated` is false when EOF came before its LF. Its bytes are gone. */
export interface OversizedLine {
  readonly kind: 'oversized';
  readonly ordinal: number;
  readonly byteLength: number;
  readonly limit: number;
  readonly terminated: boolean;
}

/** A complete line within the limit whose bytes are not well-formed UTF-8. */
export interface InvalidUtf8Line {
  readonly kind: 'invalid-utf8';
  readonly ordinal: number;
  readonly byteLength: number;
  readonly bytes: Buffer;
}

/** The last line of a stream that ended without LF (within the limit). */
export interface TruncatedLine {
  readonly kind: 'truncated';
  readonly ordinal: number;
  readonly byteLength: number;
  readonly bytes: Buffer;
  /** The bytes decoded, when they are well-formed UTF-8; null otherwise. */
  readonly text: string | null;
}

export type FrameEvent = FramedRecord | OversizedLine | InvalidUtf8Line | TruncatedLine;

export interface FramerOptions {
  /** Largest line, in bytes without its LF. Defaults to RECORD_MAX_BYTES; tests and drills lower it. */
  readonly maxRecordBytes?: number;
}

const LF = 0x0a;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeStrict(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Push-style framer: feed chunks in order, then call end() once. Pure and synchronous, so the
 * reader loop owns all I/O and the same code frames a live pipe and a fixture file.
 */
export class JsonlFramer {
  readonly maxRecordBytes: number;
  #parts: Buffer[] = [];
  #partBytes = 0;
  /** Bytes of the current line seen so far once it went over the limit; -1 while within it. */
  #oversizedBytes = -1;
  #lastOrdinal = 0;
  #ended = false;

  constructor(options: FramerOptions = {}) {
    const max = options.maxRecordBytes ?? RECORD_MAX_BYTES;
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError(`maxRecordBytes must be a positive integer, got ${max}`);
    this.maxRecordBytes = max;
  }

  /** Bytes of the current, unfinished line held in memory; never above maxRecordBytes. */
  get bufferedBytes(): number {
    return this.#partBytes;
  }

  /** The ordinal of the last line reported (0 before the first). */
  get lastOrdinal(): number {
    return this.#lastOrdinal;
  }

  /** Frames one chunk. A string chunk is refused: decoding before framing could hide invalid bytes. */
  push(chunk: Uint8Array): FrameEvent[] {
    if (this.#ended) throw new Error('JsonlFramer: push() after end()');
    if (!(chunk instanceof Uint8Array))
      throw new TypeError('JsonlFramer: chunks must be bytes (do not setEncoding on the pipe)');
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const events: FrameEvent[] = [];
    let start = 0;
    while (start < buffer.length) {
      const lf = buffer.indexOf(LF, start);
      const stop = lf === -1 ? buffer.length : lf;
      this.#append(buffer.subarray(start, stop));
      if (lf === -1) break;
      events.push(this.#finishLine(true));
      start = lf + 1;
    }
    return events;
  }

  /** Ends the stream: reports an unterminated last line, if any. */
  end(): FrameEvent[] {
    if (this.#ended) return [];
    this.#ended = true;
    if (this.#oversizedBytes === -1 && this.#partBytes === 0) return [];
    return [this.#finishLine(false)];
  }

  #append(segment: Buffer): void {
    if (segment.length === 0) return;
    if (this.#oversizedBytes !== -1) {
      this.#oversizedBytes += segment.length;
      return;
    }
    if (this.#partBytes + segment.length > this.maxRecordBytes) {
      // Over the limit: drop what is held and only count from here on.
      this.#oversizedBytes = this.#partBytes + segment.length;
      this.#parts = [];
      this.#partBytes = 0;
      return;
    }
    // Copy: the caller may reuse its chunk buffer after push() returns.
    this.#parts.push(Buffer.from(segment));
    this.#partBytes += segment.length;
  }

  #nextOrdinal(): number {
    if (this.#lastOrdinal >= SEQUENCE_MAX) throw new RangeError('JsonlFramer: wire ordinal exhausted');
    this.#lastOrdinal += 1;
    return this.#lastOrdinal;
  }

  #finishLine(terminated: boolean): FrameEvent {
    const ordinal = this.#nextOrdinal();
    if (this.#oversizedBytes !== -1) {
      const byteLength = this.#oversizedBytes;
      this.#oversizedBytes = -1;
      return { kind: 'oversized', ordinal, byteLength, limit: this.maxRecordBytes, terminated };
    }
    const bytes = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts, this.#partBytes);
    this.#parts = [];
    this.#partBytes = 0;
    const text = decodeStrict(bytes);
    if (!terminated) return { kind: 'truncated', ordinal, byteLength: bytes.length, bytes, text };
    if (text === null) return { kind: 'invalid-utf8', ordinal, byteLength: bytes.length, bytes };
    return { kind: 'record', ordinal, text, byteLength: bytes.length };
  }
}

/**
 * Frames a whole byte stream (a child's stdout, a file stream). Yields events in wire order and
 * finishes with end(). The single consumer of the pipe must keep iterating: a paused consumer
 * back-pressures the child (seed 003 E1.2).
 */
export async function* frameStream(
  source: AsyncIterable<Uint8Array | string>,
  options: FramerOptions = {},
): AsyncGenerator<FrameEvent> {
  const framer = new JsonlFramer(options);
  for await (const chunk of source) {
    if (typeof chunk === 'string')
      throw new TypeError('frameStream: chunks must be bytes (do not setEncoding on the pipe)');
    yield* framer.push(chunk);
  }
  yield* framer.end();
}
