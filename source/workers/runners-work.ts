// The runners' work: extraction runs (and an external runner's consolidation task). Its own
// read-only connection to core.sqlite (planning reads turns there), the writer reached for every
// commit, the runners by name. Runs go one at a time; in a host it also extracts newly sealed turns
// by itself. A serving host runs it on the runners thread (runners-thread.ts), off its main thread;
// a command working alone on its own thread (runners-client.ts, startHere). Either way it is
// served over a port: requests in, replies and progress out.
import type { MessagePort } from 'node:worker_threads';
import { asCmError } from '../errors.js';
import { AUTO_EXTRACT_GRACE_MS, AUTO_EXTRACT_POLL_MS } from '../limits.js';
import { dirname } from 'node:path';
import { runnerRegistry } from '../effects/runner-registry.js';
import { ExtractionPipeline, type ExtractReport, type ExtractRequest } from '../pipeline/extraction-pipeline.js';
import { consolidateWithRunner, type RunConsolidationRequest } from '../pipeline/consolidation-runner.js';
import { openMemoryStateReadOnly } from '../store/memory/state-database.js';
import { readLastUntil } from '../store/memory/memory-reads.js';
import { hasTurnsBetween, lastSealMs, SELECTION_MAX_TURNS, turnInstantAfter } from '../store/core/turn-source.js';
import { WINDOW_MAX_DAYS } from '../memory/window.js';
import { databaseError, openDatabase } from '../store/database.js';
import type { Reply } from './reply-channel.js';
import type { WriterClient } from './writer-client.js';

export type RunnersRequest =
  | { id: number; type: 'extract'; request: ExtractRequest }
  /** What a run would refuse at once (its runner, options, window), asked before a host gives it an id. */
  | { id: number; type: 'check'; request: ExtractRequest }
  /** An external runner's consolidation task, planned by the memory files thread. */
  | { id: number; type: 'consolidate'; request: RunConsolidationRequest }
  | { id: number; type: 'reverify'; runner: string }
  /** The automatic pass now (flush), over every turn sealed by `sealedByMs`. */
  | { id: number; type: 'auto'; sealedByMs: number };
export type RunnersProgress = { type: 'progress'; runId: string; phase: string; done: number; total: number };

/** What the runners' work needs: the store's paths, whether it extracts by itself, its claims' holder. */
export interface RunnersData {
  corePath: string;
  memoryStatePath: string;
  storeId: string;
  auto: boolean;
  holder: string;
}

/** A port the work is served on: the thread's parentPort, or one end of a MessageChannel. */
type Channel = Pick<MessagePort, 'on' | 'postMessage'>;

/**
 * Serves the runners' work on `port` over `writer`; says `ready` (or `failed`) once its start-up is
 * done. Returns what closes its read-only connection (a thread's goes with the thread).
 */
export function serveRunners(port: Channel, data: RunnersData, writer: WriterClient): () => void {
  const { corePath, memoryStatePath, auto, holder } = data;
  const errorOf = (error: unknown) => {
    const code = (error as { code?: unknown }).code;
    return (
      typeof code === 'string' && code.startsWith('SQLITE') ? databaseError(corePath, error) : asCmError(error)
    ).toJSON();
  };

  const core = openDatabase(corePath, { readonly: true });
  // The data home's runner profiles are read at each run: an edit of runners.json takes effect at the next one.
  const home = dirname(memoryStatePath);
  // Aborted by the returned close: a run in flight on a command's own thread stops its runner (a
  // thread's goes with the thread, and with it what it was waiting on).
  const stopping = new AbortController();
  const pipeline = new ExtractionPipeline(
    writer,
    core,
    (wanted) => runnerRegistry(home, wanted),
    holder,
    stopping.signal,
  );
  const progress = (event: { phase: string; done: number; total: number; runId: string }) =>
    port.postMessage({ type: 'progress', ...event } satisfies RunnersProgress);
  let queue: Promise<unknown> = Promise.resolve();

  function serial<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Where the last finished run of the caller's kind ended: a manual run continues after the last
   * manual run of its scope, the automatic one after the last automatic one.
   */
  function lastUntil(
    automatic: boolean,
    owner: { repositoryKey: string; worktreeKey: string } | null = null,
  ): number | null {
    const state = openMemoryStateReadOnly(memoryStatePath);
    if (!state) return null;
    try {
      return readLastUntil(state.db, automatic, owner);
    } finally {
      state.db.close();
    }
  }

  /** A check is read-only and quick: answered at once, not queued behind a run in progress; the rest run one at a time. */
  function handle(message: RunnersRequest): Promise<unknown> {
    if (message.type === 'check')
      return Promise.resolve().then(() => pipeline.checkRun(message.request, (owner) => lastUntil(false, owner)));
    return serial<unknown>(() =>
      message.type === 'reverify'
        ? pipeline.reverify(message.runner)
        : message.type === 'consolidate'
          ? consolidateWithRunner(pipeline, writer, memoryStatePath, holder, message.request)
          : message.type === 'auto'
            ? autoPassNow(message.sealedByMs)
            : pipeline.extract(message.request, (owner) => lastUntil(false, owner), progress),
    );
  }

  port.on('message', (message: RunnersRequest) => {
    handle(message).then(
      (result) => port.postMessage({ id: message.id, ok: true, result } satisfies Reply),
      (error: unknown) => port.postMessage({ id: message.id, ok: false, error: errorOf(error) } satisfies Reply),
    );
  });

  async function startUp(): Promise<void> {
    // Claims left by an earlier holder of the data home's lease are released: that holder is gone.
    await writer.call('memoryReleaseClaims', {});
  }

  /** Runs over one automatic window at most: 200 turns are at most 200 chunks, 8 tasks a run. */
  const AUTO_EXTRACT_PASSES_MAX = 25;

  /**
   * The next automatic window: from the last automatic run to `endMs` (now less a grace for seals
   * still committing; for flush, past the last seal), at most SELECTION_MAX_TURNS turns.
   */
  function autoWindow(endMs: number): { sinceMs: number; untilMs: number } | null {
    // Before the first automatic run, the backlog: turns sealed in the last year (the longest
    // window), also those sealed before memory-state existed, SELECTION_MAX_TURNS per pass.
    const sinceMs = lastUntil(true) ?? Date.now() - (WINDOW_MAX_DAYS - 1) * 86_400_000;
    let untilMs = endMs;
    if (untilMs <= sinceMs) return null;
    // The window ends at the first turn past SELECTION_MAX_TURNS, counting both kinds of turns a
    // selection reads. Sealed turns have distinct instants (nextSealInstant in capture-sessions),
    // so that end is always after sinceMs and every pass makes progress through any backlog.
    const sealed = turnInstantAfter(core, sinceMs, untilMs, SELECTION_MAX_TURNS);
    if (sealed !== undefined) untilMs = sealed;
    return untilMs <= sinceMs || !hasTurnsBetween(core, sinceMs, untilMs) ? null : { sinceMs, untilMs };
  }

  /** One automatic pass over the window ending at `endMs`: every report of its runs (none when nothing is new). */
  async function autoPass(endMs: number): Promise<ExtractReport[]> {
    const reports: ExtractReport[] = [];
    // A backlog longer than SELECTION_MAX_TURNS takes several windows, each from the last one's end.
    for (let window = autoWindow(endMs); window; window = autoWindow(endMs)) {
      const request = {
        cwd: null,
        since: new Date(window.sinceMs).toISOString(),
        until: new Date(window.untilMs).toISOString(),
      };
      // A run works on RUN_TASKS_MAX tasks; the same window again plans nothing new and goes on
      // with the tasks left, until none is left or a pass gets none done.
      let report: ExtractReport | undefined;
      for (let pass = 0; pass < AUTO_EXTRACT_PASSES_MAX; pass++) {
        report = await pipeline.extract(request, () => null, progress);
        reports.push(report);
        if (report.tasks.pending === 0 || report.tasks.submitted + report.tasks.failed === 0) break;
      }
      // Tasks left (or runs that did not finish the window): the next window waits for the next pass.
      if (!report || report.tasks.pending > 0 || lastUntil(true) !== window.untilMs) break;
    }
    return reports;
  }

  /**
   * The automatic pass on request (flush): every turn sealed by `sealedByMs` is in its window. With
   * no host beside it (a command holding the lease) nothing else seals, so the window ends now, past
   * the last seal instant; in a host the drain may be sealing meanwhile, so it waits out the grace.
   */
  async function autoPassNow(sealedByMs: number): Promise<ExtractReport[]> {
    if (auto) {
      const wait = sealedByMs + AUTO_EXTRACT_GRACE_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return autoPass(Date.now() - AUTO_EXTRACT_GRACE_MS);
    }
    const lastSeal = lastSealMs(core);
    return autoPass(Math.max(Date.now(), (lastSeal ?? 0) + 1));
  }

  startUp().then(
    () => {
      if (auto) {
        const tick = () => {
          serial(() => autoPass(Date.now() - AUTO_EXTRACT_GRACE_MS))
            .catch(() => undefined) // a failing pass is retried at the next tick; status shows the last run
            .finally(() => setTimeout(tick, AUTO_EXTRACT_POLL_MS).unref());
        };
        setTimeout(tick, 0).unref();
      }
      port.postMessage({ type: 'ready' });
    },
    (error: unknown) => port.postMessage({ type: 'failed', error: errorOf(error) }),
  );
  return () => {
    stopping.abort();
    core.close();
  };
}
