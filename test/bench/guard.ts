// The ratio guard (`npm run bench -- --record | --check`). Every guarded figure is a ratio to a
// floor measured in the same run, so two runs on one machine compare even when its load differs.
// --record appends one line per run to the history (the commit, the load average, each figure's
// ratio); --check compares a fresh run with the last recorded ratio of each figure and fails when
// one is more than CHECK_TOLERANCE worse, or when a figure misses its target.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Figure } from './measure.js';

/** Where the history lives (one JSON object per line); CM_BENCH_HISTORY points elsewhere (the guard's own test). */
export const historyPath = (): string =>
  process.env['CM_BENCH_HISTORY'] ?? new URL('./history.jsonl', import.meta.url).pathname;

/** How much worse than its last recorded ratio a figure may be: machine noise under load is about this large. */
export const CHECK_TOLERANCE = 0.25;

export interface HistoryLine {
  commit: string;
  at: string;
  /** The 1-minute load average at the end of the run: the figures of a loaded machine are noisier. */
  load: number;
  ratios: Record<string, number>;
}

export interface GuardVerdict {
  id: string;
  ok: boolean;
  /** Why it failed, naming the figure; or how it compares. */
  message: string;
}

/** The guarded figures of a run: an id, and a ratio or a target (or both). */
export const guarded = (figures: Figure[]): Array<Figure & { id: string }> =>
  figures.filter((figure): figure is Figure & { id: string } => figure.id !== undefined);

export function readHistory(path = historyPath()): HistoryLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HistoryLine);
}

/** Each figure's last recorded ratio (a later line replaces an earlier one; a run may record some figures only). */
export function lastRatios(history: HistoryLine[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const line of history) for (const [id, ratio] of Object.entries(line.ratios)) last.set(id, ratio);
  return last;
}

export function verdicts(figures: Figure[], last: Map<string, number>, tolerance = CHECK_TOLERANCE): GuardVerdict[] {
  return guarded(figures).map((figure) => {
    const failures: string[] = [];
    if (figure.met === false) failures.push(`misses its target (${figure.target}): ${figure.value}`);
    const before = last.get(figure.id);
    let comparison = 'no recorded ratio yet';
    if (figure.ratio !== undefined && before !== undefined) {
      // Worse by more than the tolerance: a rate that fell under (1 - t) of the record, a time over (1 + t) of it.
      const change = figure.better === 'higher' ? before / figure.ratio - 1 : figure.ratio / before - 1;
      comparison = `ratio ${figure.ratio.toFixed(2)} against ${before.toFixed(2)} recorded (${change > 0 ? `${(100 * change).toFixed(0)}% worse` : 'not worse'})`;
      if (change > tolerance)
        failures.push(
          `ratio ${figure.ratio.toFixed(2)} is worse than the last recorded ${before.toFixed(2)} by more than ${100 * tolerance}%`,
        );
    }
    return failures.length > 0
      ? { id: figure.id, ok: false, message: `FAIL  ${figure.id}: ${failures.join('; ')}` }
      : { id: figure.id, ok: true, message: `ok    ${figure.id}: ${comparison}` };
  });
}

function currentCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return dirty === '' ? commit : `${commit}+changes`;
  } catch {
    return 'unknown';
  }
}

export function recordRun(figures: Figure[], path = historyPath()): HistoryLine {
  const ratios: Record<string, number> = {};
  for (const figure of guarded(figures))
    if (figure.ratio !== undefined) ratios[figure.id] = Number(figure.ratio.toFixed(3));
  const line: HistoryLine = {
    commit: currentCommit(),
    at: new Date().toISOString(),
    load: Number(loadavg()[0]!.toFixed(2)),
    ratios,
  };
  appendFileSync(path, `${JSON.stringify(line)}\n`);
  return line;
}
