// The drain thread: its own read-only connection, the writer reached over a port, and the parsers.
// Requests run one at a time; in a host it also drains by itself whenever the inbox has work.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { asCmError } from '../errors.js';
import { lockWaiters } from '../ground/lock-waiters.js';
import { DRAIN_POLL_MS, LOCK_WAITER_STALE_MS } from '../limits.js';
import { databaseError, openDatabase } from '../store/database.js';
import { nextActivation } from '../store/core/capture-reads.js';
import type { CaptureRoutes } from '../api/capture.js';
import type { ResponseOf } from '../api/route.js';
import { DrainEngine } from './drain-engine.js';
import { WriterClient } from './writer-client.js';
import { serveCalls } from './reply-channel.js';

/** What the host may ask of the drain thread: the work of the capture area's sessionDrain route. */
export type DrainCalls = {
  drain: { input: Record<string, never>; result: ResponseOf<CaptureRoutes['sessionDrain']> };
  /** Retries exactly one recovery item ("rec-<n>"). */
  recover: { input: { recoveryId: string }; result: ResponseOf<CaptureRoutes['sessionDrain']> };
};

export interface DrainWorkerData {
  corePath: string;
  storeId: string;
  writerPort: MessagePort;
  /** The data home's lock-waiters directory (ground/lock-waiters.ts). */
  lockWaitersDir: string;
  /** Drain whenever the inbox has work (a host), or only when asked (a command holding the lease). */
  auto: boolean;
}

/** The thread's first message, once its connection is open. */
export type DrainReady = { type: 'ready' };

const port = parentPort!;
const { corePath, storeId, writerPort, lockWaitersDir, auto } = workerData as DrainWorkerData;

function errorOf(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' && code.startsWith('SQLITE') ? databaseError(corePath, error) : asCmError(error)
  ).toJSON();
}

const reader = openDatabase(corePath, { readonly: true });
const writer = WriterClient.overPort(writerPort, storeId);
const engine = new DrainEngine(reader, writer, () => lockWaiters(lockWaitersDir, LOCK_WAITER_STALE_MS));
let queue: Promise<unknown> = Promise.resolve();

/** Serialises every run: two steps of one activation must never be planned from the same cursor. */
function serial<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

serveCalls<DrainCalls>(
  port,
  {
    drain: () => serial(() => engine.drainAll()),
    recover: ({ recoveryId }) => serial(() => engine.recover(recoveryId)),
  },
  errorOf,
);

if (auto) {
  // A host drains by itself; a failing pass (disk full, capacity) is retried at the next tick and
  // stays visible in status as inbox envelopes that do not go away.
  const tick = () => {
    serial(async () => {
      if (nextActivation(reader) !== undefined) await engine.drainAll();
    })
      .catch(() => undefined)
      .finally(() => setTimeout(tick, DRAIN_POLL_MS).unref());
  };
  setTimeout(tick, 0).unref();
}
port.postMessage({ type: 'ready' } satisfies DrainReady);
