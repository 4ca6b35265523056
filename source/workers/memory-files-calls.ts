// The memory files work: everything that reads or writes memory roots — the approved projection's
// scan (memory sync), a promotion plan's reading of the current files (prepare) and promotion's
// writes. A serving host runs it on the memory files thread (memory-files-thread.ts), off the main
// thread whose event loop serves the API and the TUI; a command working alone on its own thread
// (memory-files-client.ts). One job at a time: a root has one writer.
import type { MessagePort } from 'node:worker_threads';
import { faultPointFromEnv } from '../ground/faults.js';
import { syncApproved } from '../pipeline/approved-access.js';
import { consolidateScope } from '../pipeline/consolidation.js';
import { preparePatchPlan } from '../pipeline/patch-prepare.js';
import { type AnchorRunSummary, verifyWorktreeAnchors } from '../pipeline/anchor-refresh.js';
import {
  type GateDeps,
  gateWriterOver,
  preparePlan,
  prepareRetirement,
  promotePlan,
  resumePromotions,
} from '../pipeline/promotion.js';
import type { MemoryPromoteResult } from '../api/memory-views.js';
import type { MemoryRoutes } from '../api/memory.js';
import type { CallOf } from '../api/route.js';
import type { CallHandlers } from './reply-channel.js';
import type { WriterClient } from './writer-client.js';

export interface MemoryFilesWorkerData {
  home: string;
  memoryStatePath: string;
  writerPort: MessagePort;
  storeId: string;
}

/** What the host may ask of the memory files thread: the work of the memory routes that touch roots, and resume. */
export type MemoryFilesCalls = {
  sync: CallOf<MemoryRoutes['memorySync']>;
  prepare: CallOf<MemoryRoutes['memoryPrepare']>;
  retire: CallOf<MemoryRoutes['memoryRetire']>;
  /** The scope's root synced and its scenes read, then the built-in runner's consolidation task. */
  consolidate: CallOf<MemoryRoutes['memoryConsolidate']>;
  promote: CallOf<MemoryRoutes['memoryPromote']>;
  /** Verifies the anchors of the approved entries of `cwd`'s worktree and stores the verdicts. */
  verify: { input: { cwd: string }; result: AnchorRunSummary };
  /** Finishes the plans a crash left applying. */
  resume: { input: Record<string, never>; result: MemoryPromoteResult[] };
};

/** The handlers of every call, over `writer` (the host's own, or one reached over a port). */
export function memoryFilesHandlers(
  data: { home: string; memoryStatePath: string; storeId: string },
  writer: WriterClient,
): CallHandlers<MemoryFilesCalls> {
  const deps: GateDeps = {
    memoryStatePath: data.memoryStatePath,
    home: data.home,
    fault: faultPointFromEnv(),
    writer: gateWriterOver(writer),
    verify: (worktree) => verifyWorktreeAnchors(data.memoryStatePath, writer, worktree),
  };

  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    // The approved projection synced, then its entries verified against the worktree: a failed
    // verification is reported beside the sync, never fails it.
    sync: ({ cwd }) =>
      serial(async () => {
        const synced = await syncApproved(
          {
            memoryStatePath: data.memoryStatePath,
            home: data.home,
            open: () => writer.call('memoryOpen', {}),
            store: (input) => writer.call('memorySyncApproved', input),
          },
          cwd,
        );
        return { ...synced, anchors: await verifyWorktreeAnchors(data.memoryStatePath, writer, cwd) };
      }),
    verify: ({ cwd }) => serial(() => verifyWorktreeAnchors(data.memoryStatePath, writer, cwd)),
    prepare: (request) => serial(() => (request.patch ? preparePatchPlan(deps, request) : preparePlan(deps, request))),
    retire: (request) => serial(() => prepareRetirement(deps, request)),
    consolidate: (request) =>
      serial(() =>
        consolidateScope(
          {
            memoryStatePath: data.memoryStatePath,
            home: data.home,
            open: () => writer.call('memoryOpen', {}),
            store: (input) => writer.call('memorySyncApproved', input),
            writer,
            holder: `memory-files-${data.storeId}:${process.pid}`,
          },
          request,
        ),
      ),
    promote: ({ planId }) => serial(() => promotePlan(deps, planId)),
    resume: () => serial(() => resumePromotions(deps)),
  };
}
