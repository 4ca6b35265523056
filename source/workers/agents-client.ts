// The host's handle on the agents worker.
import type { Worker } from 'node:worker_threads';
import type { AbortReceipt, PromptReceipt } from '../api/agents.js';
import type { AgentsCalls, AgentsWorkerData } from './agents-thread.js';
import { callsOver, ReplyChannel } from './reply-channel.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

export class AgentsClient {
  private readonly call;

  private constructor(private readonly worker: Worker) {
    this.call = callsOver<AgentsCalls>(new ReplyChannel(worker, 'The agents runtime', 'runtime_failed'));
  }

  static start(writer: WriterClient, hostId: string, maxRecordBytes?: number, memoryStatePath?: string): AgentsClient {
    const writerPort = writer.openPort();
    const worker = startWorker(
      import.meta.url,
      'agents-thread',
      { writerPort, storeId: writer.storeId, hostId, maxRecordBytes, memoryStatePath } satisfies AgentsWorkerData,
      [writerPort],
    );
    return new AgentsClient(worker);
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
    try {
      await this.call('shutdown', {});
    } finally {
      // Even when an agent could not be retired, the worker goes, so the host can release the store.
      await this.worker.terminate();
    }
  }
}
