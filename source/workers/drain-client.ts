// The host's handle on the drain thread: typed calls, every pending call rejected if it fails.
import type { Worker } from 'node:worker_threads';
import { CmError, isErrorCode } from '../errors.js';
import { DRAIN_YOUNG_GENERATION_MB } from '../limits.js';
import type { DrainReport } from '../protocol.js';
import type { DrainReply } from './drain-thread.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export class DrainClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: DrainReply | { type: 'ready' }) => {
      if ('type' in reply) return;
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new CmError(isErrorCode(reply.error.code) ? reply.error.code : 'internal', reply.error.message));
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => fail(new CmError('internal', `The drain stopped: ${error.message}`)));
    worker.on('exit', (code) => fail(new CmError('internal', `The drain exited (code ${code}).`)));
  }

  /** `auto`: drain whenever the inbox has work (a host); otherwise only when asked (a CLI holding the lease). */
  static start(corePath: string, writer: WriterClient, auto: boolean): Promise<DrainClient> {
    const writerPort = writer.openPort();
    const worker = startWorker(import.meta.url, 'drain-thread', { corePath, storeId: writer.storeId, writerPort, auto }, [writerPort], { maxYoungGenerationSizeMb: DRAIN_YOUNG_GENERATION_MB });
    return new Promise((resolve, reject) => {
      worker.once('message', () => {
        worker.off('error', reject);
        resolve(new DrainClient(worker));
      });
      worker.once('error', (error) => reject(new CmError('internal', `The drain failed to start: ${error.message}`)));
    });
  }

  private request<T>(message: { type: 'drain' } | { type: 'recover'; recoveryId: string }): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  drain(): Promise<DrainReport> {
    return this.request({ type: 'drain' });
  }

  recover(recoveryId: string): Promise<DrainReport> {
    return this.request({ type: 'recover', recoveryId });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
