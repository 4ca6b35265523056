// The host's handle on the memory files work (sync scans, prepare, retire, consolidate, promote): on
// the memory files thread for a serving host, on the command's own thread for a command working
// alone (it only waits on the work: a thread cost it a start and a second load of the pipeline and
// the lint). Either way it is reached by messages, with the same replies and errors.
import type { MessagePort, Worker } from 'node:worker_threads';
import type { MemoryConsolidateRequest, MemoryPrepareRequest, MemoryRetireRequest } from '../api/memory.js';
import type { MemoryFilesCalls, MemoryFilesWorkerData } from './memory-files-calls.js';
import { callsOver, ReplyChannel, servedHere, serveCalls } from './reply-channel.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

type Calls = ReturnType<typeof callsOver<MemoryFilesCalls>>;

export class MemoryFilesClient {
  private constructor(private readonly started: Promise<{ call: Calls; close: () => Promise<void> }>) {}

  private static over(channel: Worker | MessagePort, close: () => Promise<void>) {
    return {
      call: callsOver<MemoryFilesCalls>(new ReplyChannel(channel, 'The memory files thread', 'internal')),
      close,
    };
  }

  /** On a thread of its own, reaching `writer` over a port: a serving host's. */
  static start(home: string, memoryStatePath: string, writer: WriterClient): MemoryFilesClient {
    const writerPort = writer.openPort();
    const worker = startWorker(
      import.meta.url,
      'memory-files-thread',
      { home, memoryStatePath, writerPort, storeId: writer.storeId } satisfies MemoryFilesWorkerData,
      [writerPort],
    );
    return new MemoryFilesClient(
      Promise.resolve(
        MemoryFilesClient.over(worker, async () => {
          await worker.terminate();
        }),
      ),
    );
  }

  /** On this thread, over `writer` itself: a command working alone. Its modules load on first use. */
  static startHere(home: string, memoryStatePath: string, writer: WriterClient): MemoryFilesClient {
    const started = import('./memory-files-calls.js').then(({ memoryFilesHandlers }) => {
      const here = servedHere((far) =>
        serveCalls<MemoryFilesCalls>(
          far,
          memoryFilesHandlers({ home, memoryStatePath, storeId: writer.storeId }, writer),
        ),
      );
      return MemoryFilesClient.over(here.port, async () => here.close());
    });
    return new MemoryFilesClient(started);
  }

  private async call<K extends keyof MemoryFilesCalls & string>(type: K, input: MemoryFilesCalls[K]['input']) {
    return (await this.started).call(type, input);
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
    await (await this.started).close();
  }
}
