// The host's handle on the agents worker.
import type { Worker } from 'node:worker_threads';
import type { AbortReceipt, PromptReceipt } from '../api/agents.js';
import type { AgentsCalls, AgentsWorkerData } from './agents-thread.js';
import { callsOver, ReplyChannel } from './reply-channel.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

/**
 * The host's handle on the agents worker, which it starts on the first call that needs it (an
 * agent started, stopped, prompted or aborted): most hosts run no agent, and each worker thread is
 * a Node start of its own, paid at every start of the TUI, the service and `common-memory host`.
 * Nothing else needs the thread: agents are created and listed by the writer, and work an earlier
 * host left unfinished is interrupted by the writer when the host starts (reconcileOnStartup).
 */
export class AgentsClient {
  private running: { worker: Worker; call: ReturnType<typeof callsOver<AgentsCalls>> } | undefined;

  private constructor(private readonly open: () => Worker) {}

  static start(writer: WriterClient, hostId: string, maxRecordBytes?: number, memoryStatePath?: string): AgentsClient {
    // The environment as the host started, as every other thread of the host sees it: the pi
    // command and its settings are the host's, whenever the first agent starts.
    const env = { ...process.env };
    return new AgentsClient(() => {
      const writerPort = writer.openPort();
      return startWorker(
        import.meta.url,
        'agents-thread',
        { writerPort, storeId: writer.storeId, hostId, maxRecordBytes, memoryStatePath } satisfies AgentsWorkerData,
        [writerPort],
        undefined,
        env,
      );
    });
  }

  private call<K extends keyof AgentsCalls & string>(type: K, input: AgentsCalls[K]['input']) {
    if (!this.running) {
      const worker = this.open();
      this.running = {
        worker,
        call: callsOver<AgentsCalls>(new ReplyChannel(worker, 'The agents runtime', 'runtime_failed')),
      };
    }
    return this.running.call(type, input);
  }

  start(agent: string): Promise<void> {
    return this.call('start', { agent });
  }
  stop(agent: string): Promise<void> {
    return this.call('stop', { agent });
  }
  prompt(agent: string, text: string, operationId: string): Promise<PromptReceipt> {
    return this.call('prompt', { agent, text, operationId });
  }
  abort(agent: string, operationId?: string): Promise<AbortReceipt> {
    return this.call('abort', { agent, operationId: operationId || undefined }); // an empty ID is no ID
  }

  async shutdown(): Promise<void> {
    if (!this.running) return; // no agent ever ran here: there is no thread to stop
    try {
      await this.running.call('shutdown', {});
    } finally {
      // Even when an agent could not be retired, the worker goes, so the host can release the store.
      await this.running.worker.terminate();
    }
  }
}
