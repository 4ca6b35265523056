// The host's handle on the agents worker.
import type { Worker } from 'node:worker_threads';
import type { AbortReceipt, PromptReceipt } from '../protocol.js';
import type { AgentsRequest } from './agents-thread.js';
import { ReplyChannel } from './reply-channel.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

export class AgentsClient {
  private readonly replies: ReplyChannel;

  private constructor(private readonly worker: Worker) {
    this.replies = new ReplyChannel(worker, 'The agents runtime', 'runtime_failed');
  }

  static start(writer: WriterClient, hostId: string, maxRecordBytes?: number): AgentsClient {
    const writerPort = writer.openPort();
    const worker = startWorker(import.meta.url, 'agents-thread', { writerPort, storeId: writer.storeId, hostId, maxRecordBytes }, [writerPort]);
    return new AgentsClient(worker);
  }

  private call(method: AgentsRequest['method'], ...args: string[]): Promise<unknown> {
    return this.replies.request({ method, args } satisfies Omit<AgentsRequest, 'id'>);
  }

  start(agent: string) {
    return this.call('start', agent) as Promise<void>;
  }
  stop(agent: string) {
    return this.call('stop', agent) as Promise<void>;
  }
  prompt(agent: string, text: string, operationId: string) {
    return this.call('prompt', agent, text, operationId) as Promise<PromptReceipt>;
  }
  abort(agent: string, operationId?: string) {
    return (operationId ? this.call('abort', agent, operationId) : this.call('abort', agent)) as Promise<AbortReceipt>;
  }

  async shutdown(): Promise<void> {
    try {
      await this.call('shutdown');
    } finally {
      // Even when an agent could not be retired, the worker goes, so the host can release the store.
      await this.worker.terminate();
    }
  }
}
