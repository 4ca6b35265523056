// The host's handle on the writer thread: typed calls, one promise per request, and every
// pending call rejected if the thread fails.
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { CmError, isErrorCode } from '../errors.js';
import { startWorker } from './start-worker.js';
import type { CommandInput, CommandName, CommandResult } from './writer-commands.js';
import type { WriterReady, WriterReply } from './writer-thread.js';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

const toError = (error: { code: string; message: string }) => new CmError(isErrorCode(error.code) ? error.code : 'internal', error.message);

export class WriterClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private failure: Error | undefined;

  private constructor(
    private readonly channel: Worker | MessagePort,
    readonly storeId: string,
    private readonly worker?: Worker,
  ) {
    channel.on('message', (reply: WriterReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(toError(reply.error));
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    if (worker) {
      worker.on('error', (error) => fail(new CmError('storage_failed', `The writer stopped: ${error.message}`)));
      worker.on('exit', (code) => fail(new CmError('storage_failed', `The writer exited (code ${code}).`)));
    } else {
      channel.on('close', () => fail(new CmError('storage_failed', 'The channel to the writer closed.')));
    }
  }

  static start(corePath: string): Promise<WriterClient> {
    const worker = startWorker(import.meta.url, 'writer-thread', { corePath });
    return new Promise((resolve, reject) => {
      const onReady = (message: WriterReady) => {
        worker.off('error', onError);
        if (message.type === 'ready') resolve(new WriterClient(worker, message.storeId, worker));
        else {
          void worker.terminate();
          reject(toError(message.error));
        }
      };
      const onError = (error: Error) => reject(new CmError('storage_failed', `The writer failed to start: ${error.message}`));
      worker.once('message', onReady);
      worker.once('error', onError);
    });
  }

  /** Runs one named command as one transaction in the writer; resolves once it is committed. */
  call<K extends CommandName>(name: K, input: CommandInput<K>): Promise<CommandResult<K>> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.channel.postMessage({ id, name, input });
    });
  }

  /** A port for another thread to reach the same writer; wrap it there with WriterClient.overPort. */
  openPort(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.channel.postMessage({ attach: port2 }, [port2]);
    return port1;
  }

  static overPort(port: MessagePort, storeId: string): WriterClient {
    return new WriterClient(port, storeId);
  }

  async close(): Promise<void> {
    if (this.worker) await this.worker.terminate();
    else (this.channel as MessagePort).close();
  }
}
