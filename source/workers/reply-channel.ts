// Request/reply over a worker thread or a message port: one id per request, replies matched by
// id, errors rebuilt as CmError, and — once the other side is gone — every pending and later
// request rejected at once instead of waiting for a reply that never comes.
//
// A thread's calls are declared once as a map, call name → input and result; the messages are a
// discriminated union on `type`, the client's `call` and the thread's handlers are typed from it.
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { asCmError, CmError, isErrorCode, type ErrorCode } from '../errors.js';

export type CallMap = Record<string, { input: unknown; result: unknown }>;

/** The message for one call of `M`: `{ id, type, input }`, discriminated on `type`. */
export type CallRequest<M extends CallMap> = {
  [K in keyof M & string]: { id: number; type: K; input: M[K]['input'] };
}[keyof M & string];

export type CallHandlers<M extends CallMap> = { [K in keyof M]: (input: M[K]['input']) => Promise<M[K]['result']> };

export type Reply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: string; message: string } };

export const errorFromReply = (error: { code: string; message: string }) =>
  new CmError(isErrorCode(error.code) ? error.code : 'internal', error.message);

const isReply = (message: unknown): message is Reply =>
  typeof message === 'object' &&
  message !== null &&
  typeof (message as { id?: unknown }).id === 'number' &&
  'ok' in message;

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

/** The client side of a thread's calls: one typed function for every call of `M`. */
export function callsOver<M extends CallMap>(
  replies: ReplyChannel,
): <K extends keyof M & string>(type: K, input: M[K]['input']) => Promise<M[K]['result']> {
  return (type, input) => replies.request({ type, input });
}

/**
 * The thread side: each request runs its handler; the answer, or the error as `errorOf` words it,
 * goes back with the request's id. Nothing is thrown across the boundary.
 */
export function serveCalls<M extends CallMap>(
  port: MessagePort,
  handlers: CallHandlers<M>,
  errorOf: (error: unknown) => { code: string; message: string } = (error) => asCmError(error).toJSON(),
): void {
  port.on('message', (request: CallRequest<M>) => {
    const handler = handlers[request.type] as (input: unknown) => Promise<unknown>;
    Promise.resolve()
      .then(() => handler(request.input))
      .then(
        (result) => port.postMessage({ id: request.id, ok: true, result } satisfies Reply),
        (error: unknown) => port.postMessage({ id: request.id, ok: false, error: errorOf(error) } satisfies Reply),
      );
  });
}

/**
 * A channel whose far end this thread serves (a command working alone runs a thread's work here):
 * `serve` is given that end, and what it returns is `served`; `port` is the near end, for the
 * client; `close` ends both.
 */
export function servedHere<T>(serve: (far: MessagePort) => T): { port: MessagePort; served: T; close: () => void } {
  const { port1, port2 } = new MessageChannel();
  return {
    port: port1,
    served: serve(port2),
    close: () => {
      port1.close();
      port2.close();
    },
  };
}
