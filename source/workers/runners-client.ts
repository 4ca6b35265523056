// The host's handle on the runners' work: extraction runs, and the progress of the one running. On
// the runners thread for a serving host, on the command's own thread for a command working alone
// (it only waits on its run: a thread cost it a start and a second load of the pipeline and the
// lint). Either way it is reached by messages, with the same replies, progress and errors.
import type { MessagePort, Worker } from 'node:worker_threads';
import { dirname } from 'node:path';
import { CmError } from '../errors.js';
import { storeFiles } from '../home.js';
import type { MemoryReverifyResult } from '../api/memory-runs.js';
import type { ExtractReport, ExtractRequest } from '../pipeline/extraction-pipeline.js';
import type { RunConsolidationRequest } from '../pipeline/consolidation-runner.js';
import type { MemoryConsolidateResult } from '../api/memory-views.js';
import { errorFromReply, ReplyChannel, servedHere } from './reply-channel.js';
import type { RunnersData, RunnersProgress } from './runners-work.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

const paths = (corePath: string) => ({ corePath, memoryStatePath: storeFiles(dirname(corePath)).memoryState });

export class RunnersClient {
  private readonly replies: ReplyChannel;
  /** The run in progress, as the thread last reported it. */
  active: Omit<RunnersProgress, 'type'> | null = null;

  private constructor(
    channel: Worker | MessagePort,
    private readonly closeChannel: () => Promise<void>,
  ) {
    this.replies = new ReplyChannel(channel, 'The runners thread', 'internal');
    channel.on('message', (message: RunnersProgress | { type?: string }) => {
      if (message.type !== 'progress') return;
      const { runId, phase, done, total } = message as RunnersProgress;
      this.active = phase === 'done' ? null : { runId, phase, done, total };
    });
  }

  /** On a thread of its own (a serving host's). `auto`: extract newly sealed turns by itself; otherwise only when asked. */
  static start(corePath: string, writer: WriterClient, auto: boolean, holder: string): Promise<RunnersClient> {
    const writerPort = writer.openPort();
    const data: RunnersData = { ...paths(corePath), storeId: writer.storeId, auto, holder };
    const worker = startWorker(import.meta.url, 'runners-thread', { ...data, writerPort }, [writerPort]);
    return RunnersClient.whenReady(worker, async () => {
      await worker.terminate();
    });
  }

  /** On this thread, over `writer` itself: a command working alone (it never extracts by itself). */
  static async startHere(corePath: string, writer: WriterClient, holder: string): Promise<RunnersClient> {
    const { serveRunners } = await import('./runners-work.js');
    const here = servedHere((far) =>
      serveRunners(far, { ...paths(corePath), storeId: writer.storeId, auto: false, holder }, writer),
    );
    return RunnersClient.whenReady(here.port, async () => {
      here.close();
      here.served(); // closes the work's read-only connection and stops a run in flight
    });
  }

  /** The client once the work says it is ready; its start-up's failure as the error it gave. */
  private static whenReady(channel: Worker | MessagePort, close: () => Promise<void>): Promise<RunnersClient> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: { type?: string; error?: { code: string; message: string } }) => {
        if (message.type === 'ready') {
          channel.off('message', onMessage);
          resolve(new RunnersClient(channel, close));
        } else if (message.type === 'failed') {
          channel.off('message', onMessage);
          void close();
          reject(errorFromReply(message.error!));
        }
      };
      channel.on('message', onMessage);
      // A thread that fails before its work starts (its bundle does not load).
      if ('terminate' in channel)
        channel.once('error', (error) =>
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
    await this.closeChannel();
  }
}
