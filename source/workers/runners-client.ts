// The host's handle on the runners thread: extraction runs, and the progress of the one running.
import type { Worker } from 'node:worker_threads';
import { dirname } from 'node:path';
import { CmError } from '../errors.js';
import { storeFiles } from '../home.js';
import type { MemoryReverifyResult } from '../api/memory-runs.js';
import type { ExtractReport, ExtractRequest } from '../pipeline/extraction-pipeline.js';
import type { RunConsolidationRequest } from '../pipeline/consolidation-runner.js';
import type { MemoryConsolidateResult } from '../api/memory-views.js';
import { errorFromReply, ReplyChannel } from './reply-channel.js';
import type { RunnersProgress } from './runners-thread.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

export class RunnersClient {
  private readonly replies: ReplyChannel;
  /** The run in progress, as the thread last reported it. */
  active: Omit<RunnersProgress, 'type'> | null = null;

  private constructor(private readonly worker: Worker) {
    this.replies = new ReplyChannel(worker, 'The runners thread', 'internal');
    worker.on('message', (message: RunnersProgress | { type?: string }) => {
      if (message.type !== 'progress') return;
      const { runId, phase, done, total } = message as RunnersProgress;
      this.active = phase === 'done' ? null : { runId, phase, done, total };
    });
  }

  /** `auto`: extract newly sealed turns by itself (a host); otherwise only when asked. */
  static start(corePath: string, writer: WriterClient, auto: boolean, holder: string): Promise<RunnersClient> {
    const writerPort = writer.openPort();
    const memoryStatePath = storeFiles(dirname(corePath)).memoryState;
    const worker = startWorker(
      import.meta.url,
      'runners-thread',
      { corePath, memoryStatePath, storeId: writer.storeId, writerPort, auto, holder },
      [writerPort],
    );
    return new Promise((resolve, reject) => {
      const onMessage = (message: { type?: string; error?: { code: string; message: string } }) => {
        if (message.type === 'ready') {
          worker.off('message', onMessage);
          resolve(new RunnersClient(worker));
        } else if (message.type === 'failed') {
          worker.off('message', onMessage);
          void worker.terminate();
          reject(errorFromReply(message.error!));
        }
      };
      worker.on('message', onMessage);
      worker.once('error', (error) =>
        reject(new CmError('internal', `The runners thread failed to start: ${error.message}`)),
      );
    });
  }

  extract(request: ExtractRequest): Promise<ExtractReport> {
    return this.replies.request({ type: 'extract', request });
  }

  /** Refuses what the run would refuse at once (its runner, options, window); answered without waiting for a run in progress. */
  check(request: ExtractRequest): Promise<void> {
    return this.replies.request({ type: 'check', request });
  }

  /** The automatic pass now, over every turn sealed by `sealedByMs` (flush): each run's report. */
  autoExtract(sealedByMs: number): Promise<ExtractReport[]> {
    return this.replies.request({ type: 'auto', sealedByMs });
  }

  /** An external runner's consolidation task (planned by the memory files thread): plan, send, submit. */
  consolidate(request: RunConsolidationRequest): Promise<MemoryConsolidateResult> {
    return this.replies.request({ type: 'consolidate', request });
  }

  reverify(runner: string): Promise<MemoryReverifyResult> {
    return this.replies.request({ type: 'reverify', runner });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
