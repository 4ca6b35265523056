// The memory files thread: everything that reads or writes memory roots — the approved projection's
// scan (memory sync), a promotion plan's reading of the current files (prepare) and promotion's
// writes — off the host's main thread, whose event loop serves the API and the TUI. It reaches the
// writer over its own port for every commit. One job at a time: a root has one writer.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { faultPointFromEnv } from '../ground/faults.js';
import { syncApproved } from '../pipeline/approved-access.js';
import { type GateDeps, preparePlan, promotePlan, resumePromotions } from '../pipeline/promotion.js';
import type { MemoryPlanView, MemoryPrepareRequest, MemoryPromoteResult, MemorySyncResult } from '../protocol.js';
import { serveCalls } from './reply-channel.js';
import { WriterClient } from './writer-client.js';

export interface MemoryFilesWorkerData {
  home: string;
  memoryStatePath: string;
  writerPort: MessagePort;
  storeId: string;
}

/** What the host may ask of the memory files thread. */
export type MemoryFilesCalls = {
  sync: { input: { cwd: string }; result: MemorySyncResult };
  prepare: { input: MemoryPrepareRequest; result: MemoryPlanView };
  promote: { input: { planId: string }; result: MemoryPromoteResult };
  /** Finishes the plans a crash left applying. */
  resume: { input: Record<string, never>; result: MemoryPromoteResult[] };
};

const data = workerData as MemoryFilesWorkerData;
const writer = WriterClient.overPort(data.writerPort, data.storeId);
const deps: GateDeps = {
  memoryStatePath: data.memoryStatePath,
  home: data.home,
  fault: faultPointFromEnv(),
  writer: {
    storePlan: (input) => writer.call('memoryStorePlan', input),
    beginPromotion: (input) => writer.call('memoryBeginPromotion', input),
    voidPlan: (input) => writer.call('memoryVoidPlan', input),
    finishPromotion: (input) => writer.call('memoryFinishPromotion', input),
    storeScan: (input) => writer.call('memorySyncApproved', input),
  },
};

let queue: Promise<unknown> = Promise.resolve();
function serial<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

serveCalls<MemoryFilesCalls>(parentPort!, {
  sync: ({ cwd }) =>
    serial(() =>
      syncApproved(
        {
          memoryStatePath: data.memoryStatePath,
          home: data.home,
          open: () => writer.call('memoryOpen', {}),
          store: (input) => writer.call('memorySyncApproved', input),
        },
        cwd,
      ),
    ),
  prepare: (request) => serial(() => preparePlan(deps, request)),
  promote: ({ planId }) => serial(() => promotePlan(deps, planId)),
  resume: () => serial(() => resumePromotions(deps)),
});
