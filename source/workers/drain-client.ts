// The host's handle on the drain thread: typed calls, every pending call rejected if it fails.
import type { Worker } from 'node:worker_threads';
import { CmError } from '../errors.js';
import { DRAIN_YOUNG_GENERATION_MB } from '../limits.js';
import type { DrainReport } from '../protocol.js';
import { ReplyChannel } from './reply-channel.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

export class DrainClient {
  private readonly replies: ReplyChannel;

  private constructor(private readonly worker: Worker) {
    this.replies = new ReplyChannel(worker, 'The drain', 'internal');
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
    return this.replies.request(message);
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
