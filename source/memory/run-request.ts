// What an extraction run refuses before it reads a turn: its runner, its options, its window, its
// sessions. The runners thread asks before it gives a run an id (ExtractionPipeline.checkRun) and
// again as the run starts; `memory extract` asks before it connects (client/memory-refusals.ts), so
// that bad input gets its error and creates nothing. The reads behind it (which runners there are,
// where the last run ended, which sessions were captured) are each caller's own.
import type { MemoryExtractRequest } from '../api/memory.js';
import { CmError } from '../errors.js';
import { checkWindow, parseUtc, utcText, type Window, WINDOW_MAX_DAYS } from './window.js';
import { checkedLimit } from '../ground/limit-check.js';

/** Extraction tasks one run works on (seed 004 §9); the rest stay pending for the next run. */
export const RUN_TASKS_MAX = 8;

/**
 * What a run refuses before it reads anything — a task limit out of range, a date that is not one, a
 * window given whole that is empty, reversed or too long. Returns the run's task limit.
 */
export function checkRunOptions(request: Pick<MemoryExtractRequest, 'limit' | 'since' | 'until'>): number {
  const limit = checkedLimit(request.limit, RUN_TASKS_MAX, RUN_TASKS_MAX, ' (tasks per run)');
  const sinceMs = request.since === undefined ? undefined : parseUtc(request.since, '--since');
  const untilMs = request.until === undefined ? undefined : parseUtc(request.until, '--until');
  if (sinceMs !== undefined && untilMs !== undefined) checkWindow(sinceMs, untilMs);
  return limit;
}

/**
 * A run's window. One the caller gave is checked as given; the default runs from the last run's
 * end (at most a year back), and right after a run it is the last millisecond: nothing new, never
 * an error. An --until the last run already passed would leave that default one millisecond long:
 * the person asked for an earlier stretch, which only --since can say.
 */
export function runWindow(
  request: Pick<MemoryExtractRequest, 'since' | 'until'>,
  lastUntil: () => number | null,
  /** The last seal instant of any turn (ms), null before any: the default window ends past it. */
  lastSeal: () => number | null = () => null,
  nowMs = Date.now(),
): Window {
  // The default end is now, or just past the last sealed turn when that is later: the turns of one
  // drain step get instants a millisecond apart from the seal on (nextSealInstant), so a session of
  // 250 turns sealed at once holds instants up to 249 ms ahead of the clock, and a run started at
  // once left those out of its window.
  const untilMs =
    request.until !== undefined ? parseUtc(request.until, '--until') : Math.max(nowMs, (lastSeal() ?? -1) + 1);
  if (request.since !== undefined) return checkWindow(parseUtc(request.since, '--since'), untilMs);
  const last = lastUntil();
  if (request.until !== undefined && last !== null && last >= untilMs)
    throw new CmError(
      'usage',
      `--until ${utcText(untilMs)} is not after the last run's end (${utcText(last)}), where the window starts by default: give --since too.`,
    );
  const floor = untilMs - WINDOW_MAX_DAYS * 86_400_000;
  return checkWindow(Math.min(Math.max(last ?? Number.NEGATIVE_INFINITY, floor), untilMs - 1), untilMs);
}

/** The reads a run's refusals need, each the caller's: each throws what it refuses. */
export interface RunRequestReads {
  /** Refuses a runner the data home does not have (none named: builtin). */
  runner(named: string | undefined): unknown;
  /** Where the caller's scope's last finished run ended (ms); null before any. */
  lastUntil(): number | null;
  /** Refuses a session key no captured session has (nor a unique start of one). */
  sessions(keys: readonly string[]): unknown;
}

/** Everything a run refuses before it plans anything, in the order the run meets it. */
export function refuseRunRequest(
  request: Pick<MemoryExtractRequest, 'runner' | 'limit' | 'since' | 'until' | 'sessions'>,
  reads: RunRequestReads,
): void {
  reads.runner(request.runner);
  checkRunOptions(request);
  runWindow(request, reads.lastUntil);
  if (request.sessions) reads.sessions(request.sessions);
}
