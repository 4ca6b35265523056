// The host's handle on the writer thread: typed calls, one promise per request, and every
// pending call rejected if the thread fails.
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { dirname } from 'node:path';
import { CmError } from '../errors.js';
import { storeFiles } from '../home.js';
import { errorFromReply, ReplyChannel } from './reply-channel.js';
import { startWorker } from './start-worker.js';
import type { CommandInput, CommandName, CommandResult, WriterPort } from '../store/writer-commands.js';
import type { WriterReady } from './writer-thread.js';

export class WriterClient implements WriterPort {
  private readonly replies: ReplyChannel;

  private constructor(
    private readonly channel: Worker | MessagePort,
    readonly storeId: string,
    private readonly worker?: Worker,
    /** What closing also ends: the writer this process runs on its own thread (writer-inline.ts). */
    private readonly onClose?: () => void,
  ) {
    this.replies = new ReplyChannel(channel, 'The writer', 'storage_failed');
  }

  static start(corePath: string): Promise<WriterClient> {
    // memory-state.sqlite lives beside core.sqlite in the data home.
    const worker = startWorker(import.meta.url, 'writer-thread', {
      corePath,
      memoryStatePath: storeFiles(dirname(corePath)).memoryState,
    });
    return new Promise((resolve, reject) => {
      const onReady = (message: WriterReady) => {
        worker.off('error', onError);
        if (message.type === 'ready') resolve(new WriterClient(worker, message.storeId, worker));
        else {
          void worker.terminate();
          reject(errorFromReply(message.error));
        }
      };
      const onError = (error: Error) =>
        reject(new CmError('storage_failed', `The writer failed to start: ${error.message}`));
      worker.once('message', onReady);
      worker.once('error', onError);
    });
  }

  /**
   * Runs one named command as one transaction in the writer; resolves once it is committed.
   * `transfer`: buffers inside `input` that are moved to the writer instead of copied (unusable here after).
   */
  call<K extends CommandName>(
    name: K,
    input: CommandInput<K>,
    transfer?: readonly ArrayBuffer[],
  ): Promise<CommandResult<K>> {
    return this.replies.request({ name, input }, transfer);
  }

  /** A port for another thread to reach the same writer; wrap it there with WriterClient.overPort. */
  openPort(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.channel.postMessage({ attach: port2 }, [port2]);
    return port1;
  }

  /** `onClose`: for the port's owner, what else closing the port ends. */
  static overPort(port: MessagePort, storeId: string, onClose?: () => void): WriterClient {
    return new WriterClient(port, storeId, undefined, onClose);
  }

  async close(): Promise<void> {
    if (this.worker) await this.worker.terminate();
    else (this.channel as MessagePort).close();
    this.onClose?.();
  }
}
