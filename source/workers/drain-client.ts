// The host's handle on the drain thread: typed calls, every pending call rejected if it fails.
import type { Worker } from 'node:worker_threads';
import { CmError } from '../errors.js';
import { storeFiles } from '../home.js';
import { DRAIN_YOUNG_GENERATION_MB } from '../limits.js';
import type { DrainReport } from '../api/capture.js';
import type { DrainCalls, DrainReady, DrainWorkerData } from './drain-thread.js';
import { callsOver, ReplyChannel } from './reply-channel.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

export class DrainClient {
  private readonly call;

  private constructor(private readonly worker: Worker) {
    this.call = callsOver<DrainCalls>(new ReplyChannel(worker, 'The drain', 'internal'));
  }

  /** `auto`: drain whenever the inbox has work (a host); otherwise only when asked (a CLI holding the lease). */
  static start(home: string, writer: WriterClient, auto: boolean): Promise<DrainClient> {
    const writerPort = writer.openPort();
    const { core: corePath, lockWaiters: lockWaitersDir } = storeFiles(home);
    const data: DrainWorkerData = { corePath, storeId: writer.storeId, writerPort, lockWaitersDir, auto };
    const worker = startWorker(import.meta.url, 'drain-thread', data, [writerPort], {
      maxYoungGenerationSizeMb: DRAIN_YOUNG_GENERATION_MB,
    });
    return new Promise((resolve, reject) => {
      worker.once('message', (_ready: DrainReady) => {
        worker.off('error', reject);
        resolve(new DrainClient(worker));
      });
      worker.once('error', (error) => reject(new CmError('internal', `The drain failed to start: ${error.message}`)));
    });
  }

  drain(): Promise<DrainReport> {
    return this.call('drain', {});
  }

  recover(recoveryId: string): Promise<DrainReport> {
    return this.call('recover', { recoveryId });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
