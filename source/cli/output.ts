// How the CLI speaks: results to stdout (JSON with --json), errors to stderr as one line that says
// what to do, and the documented exit code.
import { asCmError } from '../errors.js';

export interface Output {
  json: boolean;
  /** A result: JSON document with --json, otherwise the human text. */
  result(value: unknown, text: () => string): void;
  line(text: string): void;
  error(error: unknown): number;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, text) {
      process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`);
    },
    line(text) {
      process.stdout.write(`${text}\n`);
    },
    error(error) {
      const cm = asCmError(error);
      process.stderr.write(json ? `${JSON.stringify({ error: cm.toJSON() })}\n` : `common-memory: ${cm.message}\n`);
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
