// Request/reply over a worker thread or a message port: one id per request, replies matched by
// id, errors rebuilt as CmError, and — once the other side is gone — every pending and later
// request rejected at once instead of waiting for a reply that never comes.
import type { MessagePort, Worker } from 'node:worker_threads';
import { CmError, isErrorCode, type ErrorCode } from '../errors.js';

export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: { code: string; message: string } };

export const errorFromReply = (error: { code: string; message: string }) => new CmError(isErrorCode(error.code) ? error.code : 'internal', error.message);

const isReply = (message: unknown): message is Reply => typeof message === 'object' && message !== null && typeof (message as { id?: unknown }).id === 'number' && 'ok' in message;

export class ReplyChannel {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private failure: Error | undefined;

  /** `what` names the other side in errors ("the writer"); `code` is the error code of its loss. */
  constructor(
    private readonly target: Worker | MessagePort,
    what: string,
    code: ErrorCode,
  ) {
    target.on('message', (message: unknown) => {
      if (!isReply(message)) return; // e.g. a thread's own "ready" notice
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(errorFromReply(message.error));
    });
    target.on('error', (error: Error) => this.fail(new CmError(code, `${what} stopped: ${error.message}`)));
    target.on('exit', (exitCode: number) => this.fail(new CmError(code, `${what} exited (code ${exitCode}).`)));
    target.on('close', () => this.fail(new CmError(code, `The channel to ${what} closed.`)));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
  }

  request<T>(message: object, transfer?: readonly ArrayBuffer[]): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.target.postMessage({ ...message, id }, transfer);
    });
  }
}
