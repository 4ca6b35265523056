// Following an extraction run (or a runner's conformance probe) from a client: the host starts it
// and answers with its id at once; the client reads it by short requests (each bounded like any
// request) until it ends, however long its runners take. Stopping the follower never stops the run.
import { CmError } from '../errors.js';
import { EXTRACT_FOLLOW_FIRST_WAIT_MS, EXTRACT_FOLLOW_POLL_MS } from '../limits.js';
import type { Application } from '../api/application.js';
import type {
  MemoryExtractReport,
  MemoryExtractRun,
  MemoryReverifyResult,
  MemoryReverifyRun,
} from '../api/memory-runs.js';
import type { MemoryExtractRequest } from '../api/memory.js';

const ENDED = new Set<MemoryExtractRun['state']>(['done', 'failed', 'stopped']);

export interface FollowOptions {
  /** Each reading of the run (its state and progress), the first and the last included. */
  onRead?: (run: MemoryExtractRun) => void;
  /** Asked before each wait: true stops following (the run goes on); follow answers the run as last read. */
  stopped?: () => boolean;
  /** The longest wait between two reads (the waits start short and double up to it). */
  pollMs?: number;
}

/**
 * The wait before read `reads + 1` of a run (`reads` made so far, the first included): short at
 * first, so a run that ends at once is answered at once, doubling up to `pollMs`, so a long run costs
 * its host no more reads than a flat wait would, less a few.
 */
export function followWaitMs(reads: number, pollMs = EXTRACT_FOLLOW_POLL_MS): number {
  return Math.min(pollMs, EXTRACT_FOLLOW_FIRST_WAIT_MS * 2 ** Math.min(reads - 1, 30));
}

/** Reads the run until it ends (or `stopped`): the last reading. */
export async function followRun(
  app: Pick<Application, 'memoryExtractRun'>,
  first: MemoryExtractRun,
  options: FollowOptions = {},
): Promise<MemoryExtractRun> {
  let run = first;
  let reads = 1;
  options.onRead?.(run);
  while (!ENDED.has(run.state)) {
    if (options.stopped?.()) return run;
    await new Promise((resolve) => setTimeout(resolve, followWaitMs(reads++, options.pollMs)));
    if (options.stopped?.()) return run;
    run = await app.memoryExtractRun({ runId: run.runId });
    options.onRead?.(run);
  }
  return run;
}

/** The report of an ended run, or the error it ended with (the same code as when it ran in one request). */
export function reportOf(run: MemoryExtractRun): MemoryExtractReport {
  if (run.state === 'done' && run.report) return run.report;
  if (run.state === 'failed' && run.error) throw new CmError(run.error.code, run.error.message);
  if (run.state === 'stopped')
    throw new CmError('operation_conflict', `Extraction run ${run.runId} did not finish: ${run.stoppedBecause}.`);
  throw new CmError('internal', `Extraction run ${run.runId} is ${run.state}; it has no report yet.`);
}

/** memoryExtract as a followed run: started, read until it ends, its report. */
export async function extractByFollowing(
  app: Pick<Application, 'memoryExtractStart' | 'memoryExtractRun'>,
  request: MemoryExtractRequest,
): Promise<MemoryExtractReport> {
  return reportOf(await followRun(app, await app.memoryExtractStart(request)));
}

/** memoryReverifyRunner as a followed probe: started, read until it ends, its result or its error. */
export async function reverifyByFollowing(
  app: Pick<Application, 'memoryReverifyStart' | 'memoryReverifyProbe'>,
  request: { runner: string },
  pollMs = EXTRACT_FOLLOW_POLL_MS,
): Promise<MemoryReverifyResult> {
  let probe: MemoryReverifyRun = await app.memoryReverifyStart(request);
  let reads = 1;
  while (probe.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, followWaitMs(reads++, pollMs)));
    probe = await app.memoryReverifyProbe({ probeId: probe.probeId });
  }
  if (probe.state === 'done' && probe.result) return probe.result;
  throw new CmError(
    probe.error?.code ?? 'internal',
    probe.error?.message ?? `Probe ${probe.probeId} ended without a result.`,
  );
}
