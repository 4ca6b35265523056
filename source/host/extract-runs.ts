// Extraction runs a client follows: started in the host, answered at once with their id, then read
// by short requests until they end. A run lasts as long as its runners (a model's command runner
// takes minutes), so no client request waits for one; a client that stops following (Ctrl+C, a
// closed terminal) leaves the run going, and following it again gets its progress or its result.
// Finished runs are kept a while in memory; after that (or after the host restarted) memory-state's
// record of the run answers.
import { randomUUID } from 'node:crypto';
import { asCmError, CmError } from '../errors.js';
import { EXTRACT_RUNS_KEPT, EXTRACT_RUNS_KEPT_MS } from '../limits.js';
import type { MemoryExtractReport, MemoryExtractRun } from '../api/memory-runs.js';
import type { MemoryExtractRequest } from '../api/memory.js';

/** What the runners thread last reported: the run at work and its counts. */
export type ActiveRun = { runId: string; phase: string; done: number; total: number } | null;

interface Entry {
  runId: string;
  startedAtMs: number;
  finishedAtMs: number | null;
  report: MemoryExtractReport | null;
  error: MemoryExtractRun['error'];
}

export class ExtractRuns {
  private readonly runs = new Map<string, Entry>();

  constructor(
    /** The runners thread's report of the run at work (null: none). */
    private readonly active: () => ActiveRun,
    /** memory-state's record of a run this process does not hold. */
    private readonly stored: (runId: string) => MemoryExtractRun | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Starts `run` with a new run id (the runners thread names its run by it) and answers at once.
   * Its end — the report, or the error it failed with — is kept for the followers.
   */
  start(
    request: MemoryExtractRequest,
    run: (request: MemoryExtractRequest & { runId: string }) => Promise<MemoryExtractReport>,
  ): MemoryExtractRun {
    this.prune();
    const entry: Entry = {
      runId: `run-${randomUUID()}`,
      startedAtMs: this.now(),
      finishedAtMs: null,
      report: null,
      error: null,
    };
    this.runs.set(entry.runId, entry);
    run({ ...request, runId: entry.runId }).then(
      (report) => {
        entry.report = report;
        entry.finishedAtMs = this.now();
      },
      (error: unknown) => {
        entry.error = asCmError(error).toJSON();
        entry.finishedAtMs = this.now();
      },
    );
    return this.view(entry.runId);
  }

  /** The run as it is now; not_found when neither this process nor memory-state knows it. */
  view(runId: string): MemoryExtractRun {
    const entry = this.runs.get(runId);
    if (!entry) {
      // The host's own (automatic) run at work: followed like any; memory-state has its end.
      const active = this.active();
      if (active?.runId === runId) {
        const stored = this.stored(runId);
        return {
          runId,
          state: 'running',
          progress: { phase: active.phase, done: active.done, total: active.total },
          startedAt: stored?.startedAt ?? new Date(this.now()).toISOString(),
          finishedAt: null,
          report: null,
          error: null,
          stoppedBecause: null,
        };
      }
      const stored = this.stored(runId);
      if (stored) return stored;
      throw new CmError(
        'not_found',
        `No extraction run ${JSON.stringify(runId.slice(0, 200))} in this data home; memory status shows the last and the running run.`,
      );
    }
    const base = {
      runId,
      startedAt: new Date(entry.startedAtMs).toISOString(),
      finishedAt: entry.finishedAtMs === null ? null : new Date(entry.finishedAtMs).toISOString(),
      report: entry.report,
      error: entry.error,
      stoppedBecause: null,
    };
    if (entry.report) return { ...base, state: 'done', progress: null };
    if (entry.error) return { ...base, state: 'failed', progress: null };
    const active = this.active();
    if (active && active.runId !== runId) return { ...base, state: 'waiting', progress: null };
    return {
      ...base,
      state: 'running',
      progress: active ? { phase: active.phase, done: active.done, total: active.total } : null,
    };
  }

  /** Finished runs past their keeping time, and the oldest beyond the count kept, are let go. */
  private prune(): void {
    const finished = [...this.runs.values()].filter((entry) => entry.finishedAtMs !== null);
    const expired = this.now() - EXTRACT_RUNS_KEPT_MS;
    finished.forEach((entry, index) => {
      if (entry.finishedAtMs! < expired || finished.length - index > EXTRACT_RUNS_KEPT) this.runs.delete(entry.runId);
    });
  }
}
