// Time windows of memory commands: canonical UTC instants only ("2026-08-01", "2026-08-01T10:00:00Z",
// with optional milliseconds), so a window means the same thing on every machine and in every digest.
import { CmError } from '../errors.js';

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z)?$/;

/** Milliseconds since the epoch of a canonical UTC instant; a usage error that says the format otherwise. */
export function parseUtc(text: string, flag: string): number {
  const match = INSTANT.exec(text);
  const ms = match ? Date.parse(match[4] === undefined ? `${text}T00:00:00Z` : text) : NaN;
  // Date.parse accepts 2026-02-31; the round trip does not.
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text.slice(0, 10)) {
    throw new CmError(
      'usage',
      `${flag} must be a UTC date or instant such as 2026-08-01 or 2026-08-01T09:30:00Z, not ${JSON.stringify(text)}.`,
    );
  }
  return ms;
}

export const utcText = (ms: number): string => new Date(ms).toISOString();

/** The UTC day a runner's send counts against (the per-day budget). */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The longest window one extraction may cover: a year, leap day included (seed 004 §9). */
export const WINDOW_MAX_DAYS = 366;

export interface Window {
  sinceMs: number;
  untilMs: number;
}

/** A non-empty window of at most WINDOW_MAX_DAYS; `until` is exclusive. */
export function checkWindow(sinceMs: number, untilMs: number): Window {
  if (untilMs <= sinceMs)
    throw new CmError(
      'usage',
      `The window is empty or reversed (--since ${utcText(sinceMs)} is not before --until ${utcText(untilMs)}). Give --since before --until.`,
    );
  const days = (untilMs - sinceMs) / 86_400_000;
  if (days > WINDOW_MAX_DAYS)
    throw new CmError(
      'usage',
      `The window covers ${days.toFixed(1)} days, over the ${WINDOW_MAX_DAYS}-day maximum; split it into shorter windows.`,
    );
  return { sinceMs, untilMs };
}
