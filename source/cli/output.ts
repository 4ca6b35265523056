// How the CLI speaks: results to stdout (JSON with --json), errors to stderr as one line that says
// what to do, and the documented exit code.
import { asCmError } from '../errors.js';
import { wrapHanging } from '../text-wrap.js';

/** Where the CLI writes: the process's streams, or (tests, in-process) any pair of writers. */
export interface CliStreams {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
}

export const processStreams = (): CliStreams => ({ stdout: process.stdout, stderr: process.stderr });

export interface Output {
  json: boolean;
  /** The streams this output writes to (a command's progress lines go to `streams.stderr`). */
  streams: CliStreams;
  /** A result: JSON document with --json, otherwise the human text. */
  result(value: unknown, text: () => string): void;
  line(text: string): void;
  error(error: unknown): number;
}

export function createOutput(json: boolean, streams: CliStreams = processStreams()): Output {
  return {
    json,
    streams,
    result(value, text) {
      streams.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`);
    },
    line(text) {
      streams.stdout.write(`${text}\n`);
    },
    error(error) {
      const cm = asCmError(error);
      streams.stderr.write(json ? `${JSON.stringify({ error: cm.toJSON() })}\n` : `common-memory: ${cm.message}\n`);
      return cm.exitCode;
    },
  };
}

/** One line for display: control characters escaped, long text cut with an ellipsis (display only). */
export function preview(value: unknown, width = 80): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/**
 * The width human output is laid out for: a normal terminal's. Lines are wrapped to it whatever
 * the terminal (or a pipe) is, so that what a person reads, pastes or greps is the same text.
 */
export const TEXT_COLUMNS = 80;

/**
 * One line of human output wrapped between words to TEXT_COLUMNS, its continuation lines indented
 * by `more` beyond the line's own indent. A word longer than a line (a path, an id) stays whole on
 * a line of its own: cut, it could not be copied. `keep`: phrases (commands) never broken inside.
 */
export function fitLine(line: string, more = '  ', keep: readonly string[] = []): string[] {
  return wrapHanging(line, TEXT_COLUMNS, more, keep);
}

/** The lint command a blocked file's message names (source/memory/file-lint.ts): to be copied whole. */
const LINT_COMMAND = /common-memory memory lint [^\s)]+/g;

/** Each line of `text` as fitLine lays it out; the lint commands it names are kept whole too. */
export const fitLines = (text: string, more = '  ', keep: readonly string[] = []): string => {
  const commands = [...keep, ...[...text.matchAll(LINT_COMMAND)].map((found) => found[0])];
  return text
    .split('\n')
    .flatMap((line) => fitLine(line, more, commands))
    .join('\n');
};
