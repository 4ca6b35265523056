// The host's handle on the memory files thread (sync scans, prepare, retire, consolidate, promote).
import type { Worker } from 'node:worker_threads';
import type { MemoryConsolidateRequest, MemoryPrepareRequest, MemoryRetireRequest } from '../api/memory.js';
import type { MemoryFilesCalls, MemoryFilesWorkerData } from './memory-files-thread.js';
import { callsOver, ReplyChannel } from './reply-channel.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

export class MemoryFilesClient {
  private readonly call;

  private constructor(private readonly worker: Worker) {
    this.call = callsOver<MemoryFilesCalls>(new ReplyChannel(worker, 'The memory files thread', 'internal'));
  }

  static start(home: string, memoryStatePath: string, writer: WriterClient): MemoryFilesClient {
    const writerPort = writer.openPort();
    const worker = startWorker(
      import.meta.url,
      'memory-files-thread',
      { home, memoryStatePath, writerPort, storeId: writer.storeId } satisfies MemoryFilesWorkerData,
      [writerPort],
    );
    return new MemoryFilesClient(worker);
  }

  sync(cwd: string) {
    return this.call('sync', { cwd });
  }
  verify(cwd: string) {
    return this.call('verify', { cwd });
  }
  prepare(request: MemoryPrepareRequest) {
    return this.call('prepare', request);
  }
  retire(request: MemoryRetireRequest) {
    return this.call('retire', request);
  }
  consolidate(request: MemoryConsolidateRequest) {
    return this.call('consolidate', request);
  }
  promote(planId: string) {
    return this.call('promote', { planId });
  }
  resume() {
    return this.call('resume', {});
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
