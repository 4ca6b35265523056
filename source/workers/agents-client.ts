// The host's handle on the agents worker.
import type { Worker } from 'node:worker_threads';
import { CmError, isErrorCode } from '../errors.js';
import type { AbortReceipt, PromptReceipt } from '../protocol.js';
import type { AgentsReply, AgentsRequest } from './agents-thread.js';
import { startWorker } from './start-worker.js';
import type { WriterClient } from './writer-client.js';

export class AgentsClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** Set once the worker is gone: later calls fail at once instead of waiting for a reply that never comes. */
  private gone: CmError | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: AgentsReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new CmError(isErrorCode(reply.error.code) ? reply.error.code : 'internal', reply.error.message));
    });
    const fail = (error: Error) => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => {
      this.gone ??= new CmError('runtime_failed', `The agents runtime failed: ${error.message}`);
      fail(this.gone);
    });
    worker.on('exit', () => {
      this.gone ??= new CmError('runtime_failed', 'The agents runtime stopped.');
      fail(this.gone);
    });
  }

  static start(writer: WriterClient, hostId: string, maxRecordBytes?: number): AgentsClient {
    const writerPort = writer.openPort();
    const worker = startWorker(import.meta.url, 'agents-thread', { writerPort, storeId: writer.storeId, hostId, maxRecordBytes }, [writerPort]);
    return new AgentsClient(worker);
  }

  private call(method: AgentsRequest['method'], ...args: string[]): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, args } satisfies AgentsRequest);
    });
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
