// Cursor mechanics shared by the transcript parsers: LF framing over bytes that start at the saved
// offset, strict UTF-8 and JSON, all-or-nothing calls and a latched failure.
//
// Why these choices:
// - LF (0x0A) is the only separator (never readline: it also splits on U+2028/U+2029, which
//   JSON.stringify leaves raw inside strings). A trailing CR is JSON whitespace, so CRLF files parse.
// - Only complete lines are consumed: the writer may be mid-line, so the tail waits for the next call.
// - UTF-8 is validated once per call over the complete-line region (simdutf via isUtf8): decoding
//   with replacement characters would silently rewrite what the user wrote.
// - Every line is parsed by JSON.parse except one the parser recognises from its bytes as a record
//   it ignores (skipIgnoredLine): only the Codex parser does, for its largest records.
// - A call either consumes all its complete lines or nothing: on failure the caller gets back the
//   state the call started from, so a half-applied line can never leak into a saved state.

import { isUtf8 } from 'node:buffer';
import { TRANSCRIPT_LINE_MAX_BYTES } from '../limits.js';
import {
  TranscriptParseError,
  type CursorState,
  type ParseProgress,
  type TranscriptMessage,
  type TranscriptTurn,
} from './transcript-model.js';

const LF = 0x0a;

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Where the parser is while handling one line; used to build errors with the right position. */
export interface LinePosition {
  /** 1-based line number. */
  line: number;
  /** Absolute byte offset of the line start. */
  byteOffset: number;
}

export abstract class JsonlTranscriptParser<S extends CursorState> {
  private consumedBytes: number;
  private consumedLines: number;
  private lastGood: S;
  private failure: TranscriptParseError | null = null;
  private closedInCall: TranscriptTurn[] = [];
  private onClosed: ((turn: TranscriptTurn) => void) | null = null;

  protected constructor(state: S) {
    this.consumedBytes = state.consumedBytes;
    this.consumedLines = state.consumedLines;
    this.lastGood = state;
  }

  /** A fresh JSON-serialisable copy of the whole state at the given cursor. */
  protected abstract snapshot(consumedBytes: number, consumedLines: number): S;
  /** Handles one parsed line; throws TranscriptParseError (via this.fail) to stop. */
  protected abstract handleLine(value: unknown, at: LinePosition): void;
  protected abstract sessionKey(): string | null;
  protected abstract openTurnsSnapshot(): TranscriptTurn[];
  protected abstract pendingContextSnapshot(): TranscriptMessage[];
  protected waitingLineCount(): number {
    return 0;
  }
  /**
   * Handles a line the parser ignores straight from its bytes, returning true, or returns false
   * to have it decoded, parsed and handed to handleLine. Must check whatever handleLine would.
   */
  protected skipIgnoredLine(_buf: Buffer, _start: number, _end: number, _at: LinePosition): boolean {
    return false;
  }

  /** Reports a turn that reached its terminal state; it will never be reported again. */
  protected emitClosed(turn: TranscriptTurn): void {
    if (this.onClosed !== null) this.onClosed(turn);
    else this.closedInCall.push(turn);
  }

  protected fail(code: TranscriptParseError['code'], at: LinePosition, detail: string): never {
    throw new TranscriptParseError(code, at.line, at.byteOffset, detail);
  }

  /** The state to resume from (the last successful call's). */
  get state(): S {
    return this.lastGood;
  }

  /**
   * Consumes every complete line of `bytes`, which must be the file's bytes starting at
   * `state.consumedBytes`. Returns the new cursor; an unterminated tail is left unconsumed.
   *
   * With `onClosed`, each turn is handed over the moment it closes and `turns` stays empty: a
   * caller that copies the turn out at once lets its messages die young instead of holding a whole
   * call's turns (measured on a 100 MB drain: 34 MB promoted to the old generation became 14 MB).
   * Turns handed over in a call that then fails belong to no consumed state: the caller must drop
   * them.
   */
  feed(bytes: Uint8Array, onClosed?: (turn: TranscriptTurn) => void): ParseProgress<S> {
    if (this.failure !== null) return this.failedProgress(this.failure);
    this.onClosed = onClosed ?? null;
    try {
      return this.consume(asBuffer(bytes));
    } finally {
      this.onClosed = null;
    }
  }

  private consume(buf: Buffer): ParseProgress<S> {
    const region = buf.lastIndexOf(LF) + 1;
    this.closedInCall = [];
    let pos = 0;
    let line = this.consumedLines + 1;
    try {
      if (buf.length - region > TRANSCRIPT_LINE_MAX_BYTES) {
        this.fail(
          'transcript_line_too_long',
          { line: this.consumedLines + countLf(buf, region) + 1, byteOffset: this.consumedBytes + region },
          // Not "unterminated": the newline may come later in the file (import and the drain read
          // it in chunks); what is known is that none came within the limit.
          `line over the ${TRANSCRIPT_LINE_MAX_BYTES}-byte limit (no newline in its first ${TRANSCRIPT_LINE_MAX_BYTES} bytes)`,
        );
      }
      if (region > 0 && !isUtf8(buf.subarray(0, region))) this.failUtf8(buf, region);
      while (pos < region) {
        const end = buf.indexOf(LF, pos);
        const at = { line, byteOffset: this.consumedBytes + pos };
        if (end - pos > TRANSCRIPT_LINE_MAX_BYTES)
          this.fail('transcript_line_too_long', at, `line over the ${TRANSCRIPT_LINE_MAX_BYTES}-byte limit`);
        if (this.skipIgnoredLine(buf, pos, end, at)) {
          pos = end + 1;
          line += 1;
          continue;
        }
        let value: unknown;
        try {
          value = JSON.parse(buf.toString('utf8', pos, end));
        } catch {
          this.fail('transcript_invalid_json', at, 'line is not JSON');
        }
        this.handleLine(value, at);
        pos = end + 1;
        line += 1;
      }
    } catch (error) {
      if (!(error instanceof TranscriptParseError)) throw error;
      this.failure = error;
      return this.failedProgress(error);
    }
    this.consumedBytes += region;
    this.consumedLines = line - 1;
    this.lastGood = this.snapshot(this.consumedBytes, this.consumedLines);
    return {
      sessionKey: this.sessionKey(),
      turns: this.closedInCall,
      openTurns: this.openTurnsSnapshot(),
      pendingContext: this.pendingContextSnapshot(),
      waitingLines: this.waitingLineCount(),
      consumedBytes: this.consumedBytes,
      consumedLines: this.consumedLines,
      state: this.lastGood,
      failure: null,
    };
  }

  private failUtf8(buf: Buffer, region: number): never {
    let pos = 0;
    let line = this.consumedLines + 1;
    while (pos < region) {
      const end = buf.indexOf(LF, pos);
      if (!isUtf8(buf.subarray(pos, end))) break;
      pos = end + 1;
      line += 1;
    }
    this.fail('transcript_invalid_utf8', { line, byteOffset: this.consumedBytes + pos }, 'line is not valid UTF-8');
  }

  // On failure nothing of the call is kept: the cursor and state are the ones the call started from.
  private failedProgress(failure: TranscriptParseError): ParseProgress<S> {
    const state = this.lastGood;
    return {
      sessionKey: null,
      turns: [],
      openTurns: [],
      pendingContext: [],
      waitingLines: 0,
      consumedBytes: state.consumedBytes,
      consumedLines: state.consumedLines,
      state,
      failure,
    };
  }
}

function countLf(buf: Buffer, end: number): number {
  let count = 0;
  let pos = buf.indexOf(LF);
  while (pos !== -1 && pos < end) {
    count += 1;
    pos = buf.indexOf(LF, pos + 1);
  }
  return count;
}

// ---- small hand-written validators (no zod: this is the hot path) ----

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Deep copy of a turn for snapshots: open turns keep mutating inside the parser. */
export function copyTurn(turn: TranscriptTurn): TranscriptTurn {
  return { ...turn, messages: turn.messages.map((m) => ({ ...m })) };
}

/** Throws transcript_invalid_state unless `state` looks like one this parser wrote. */
export function checkState(state: unknown, format: string): asserts state is CursorState {
  const ok =
    isObject(state) &&
    state['format'] === format &&
    Number.isSafeInteger(state['consumedBytes']) &&
    Number.isSafeInteger(state['consumedLines']) &&
    (state['consumedBytes'] as number) >= 0 &&
    (state['consumedLines'] as number) >= 0;
  if (!ok) throw new TranscriptParseError('transcript_invalid_state', 0, 0, `not a ${format} state`);
}
