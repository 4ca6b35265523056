// A fake OpenAI-compatible chat-completions server for running the real pi offline (HOSTS.md 3.2).
//
// Loopback only, random port. Each POST /v1/chat/completions gets the reply the test's responder
// picks for it: a streamed text answer (optionally slow, for aborts), a tool call, an HTTP error,
// malformed SSE, or a stream that never ends. Every request is recorded. Bounded: a request budget,
// a body limit, and a lifetime after which the server closes itself, so a forgotten server never
// keeps a test process alive.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type LoopbackServer, listenLoopback } from './loopback-http.js';

/** The OpenAI SDK pi uses retries an HTTP 5xx twice on its own: one pi attempt = 3 requests. */
export const SDK_REQUESTS_PER_ATTEMPT = 3;

export type FakeReply =
  /**
   * A streamed answer. With `hold`, the stream stops after the first chunk of text until the promise
   * resolves (see replyGate) or the client goes away: the test decides when the answer goes on.
   */
  | {
      readonly kind: 'text';
      readonly chunks: readonly string[];
      readonly delayMs?: number;
      readonly hold?: Promise<void>;
    }
  | { readonly kind: 'tool-call'; readonly callId: string; readonly name: string; readonly arguments: string }
  | { readonly kind: 'http-error'; readonly status: number; readonly message: string }
  | { readonly kind: 'malformed-sse' }
  /** Sends the first chunk and then nothing, until the client goes away or the server closes. */
  | { readonly kind: 'hang' };

export interface RecordedRequest {
  /** 0-based arrival order. */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly authorization: string | null;
  /** Parsed JSON body, or null when it was not JSON. */
  readonly body: unknown;
  /** The text of the last user or tool message in body.messages, for responders and assertions. */
  readonly lastMessageText: string | null;
  readonly lastMessageRole: string | null;
  /** Whether the client went away before the reply finished (pi aborted or died). */
  clientGone: boolean;
  /** Whether the whole reply was written. */
  completed: boolean;
}

export type Responder = (request: RecordedRequest) => FakeReply;

export interface FakeOpenAiServerOptions {
  readonly responder: Responder;
  /** Requests beyond this get HTTP 429 and are still recorded. */
  readonly maxRequests?: number;
  /** The server closes itself after this long. */
  readonly lifetimeMs?: number;
  readonly maxBodyBytes?: number;
  readonly model?: string;
}

export interface FakeOpenAiServer {
  readonly port: number;
  /** http://127.0.0.1:<port>/v1, the baseUrl for models.json. */
  readonly baseUrl: string;
  readonly requests: readonly RecordedRequest[];
  /** Resolves when at least n requests arrived; rejects after timeoutMs. */
  waitForRequests(n: number, timeoutMs: number): Promise<void>;
  /** Resolves when the client of request `index` went away before its reply finished; rejects after timeoutMs. */
  waitForClientGone(index: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Replies in the given order; a request past the end gets an HTTP 500 saying it was unscripted. */
export function scripted(replies: readonly FakeReply[]): Responder {
  return (request) =>
    replies[request.index] ?? { kind: 'http-error', status: 500, message: `unscripted request #${request.index}` };
}

/** n pi attempts that each fail with HTTP 500 (3 requests each), then the given replies. */
export function failAttemptsThen(
  attempts: number,
  then: readonly FakeReply[],
  message = 'fake upstream exploded',
): Responder {
  const failures: FakeReply[] = Array.from({ length: attempts * SDK_REQUESTS_PER_ATTEMPT }, () => ({
    kind: 'http-error',
    status: 500,
    message,
  }));
  return scripted([...failures, ...then]);
}

/** A promise for FakeReply.hold and the function that resolves it. */
export function replyGate(): { readonly hold: Promise<void>; release(): void } {
  let release = (): void => undefined;
  const hold = new Promise<void>((resolve) => (release = resolve));
  return { hold, release };
}

export function textReply(text: string, pieces = 5, delayMs = 0): FakeReply {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return { kind: 'text', chunks, delayMs };
}

function messageText(message: unknown): { role: string | null; text: string | null } {
  if (typeof message !== 'object' || message === null) return { role: null, text: null };
  const m = message as { role?: unknown; content?: unknown };
  const role = typeof m.role === 'string' ? m.role : null;
  if (typeof m.content === 'string') return { role, text: m.content };
  if (Array.isArray(m.content)) {
    const text = m.content
      .map((part: unknown) =>
        typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .join('');
    return { role, text };
  }
  return { role, text: null };
}

function lastMessage(body: unknown): { role: string | null; text: string | null } {
  if (typeof body !== 'object' || body === null) return { role: null, text: null };
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages) || messages.length === 0) return { role: null, text: null };
  return messageText(messages[messages.length - 1]);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeOpenAiServer(options: FakeOpenAiServerOptions): Promise<FakeOpenAiServer> {
  const maxRequests = options.maxRequests ?? 64;
  const lifetimeMs = options.lifetimeMs ?? 120_000;
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const model = options.model ?? 'fake-model';
  const requests: RecordedRequest[] = [];
  const waiters: Array<() => void> = [];
  // Set once listening; its `closed` tells a streaming reply to stop.
  let server: LoopbackServer | null = null;
  let chunkCounter = 0;

  const chunk = (id: string, delta: unknown, finishReason: string | null): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  const usage = (id: string): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`;

  async function reply(request: RecordedRequest, res: ServerResponse, plan: FakeReply): Promise<void> {
    const gone = (): boolean => request.clientGone || server?.closed === true || res.destroyed;
    if (plan.kind === 'http-error') {
      res.writeHead(plan.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: plan.message, type: 'server_error', code: 'fake_error' } }));
      request.completed = true;
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    chunkCounter += 1;
    const id = `chatcmpl-fake-${chunkCounter}`;
    if (plan.kind === 'malformed-sse') {
      res.write(chunk(id, { role: 'assistant', content: '' }, null));
      res.write('data: {this is not json\n\n');
      res.end('data: [DONE]\n\n');
      request.completed = true;
      return;
    }
    if (plan.kind === 'hang') {
      res.write(chunk(id, { role: 'assistant', content: '' }, null));
      return; // left open; closed by the client or by close()
    }
    if (plan.kind === 'tool-call') {
      res.write(
        chunk(
          id,
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: plan.callId, type: 'function', function: { name: plan.name, arguments: '' } }],
          },
          null,
        ),
      );
      const half = Math.ceil(plan.arguments.length / 2);
      for (const piece of [plan.arguments.slice(0, half), plan.arguments.slice(half)]) {
        if (piece.length > 0)
          res.write(chunk(id, { tool_calls: [{ index: 0, function: { arguments: piece } }] }, null));
      }
      res.write(chunk(id, {}, 'tool_calls'));
      res.write(usage(id));
      res.end('data: [DONE]\n\n');
      request.completed = true;
      return;
    }
    res.write(chunk(id, { role: 'assistant', content: '' }, null));
    for (const [index, piece] of plan.chunks.entries()) {
      if (plan.delayMs !== undefined && plan.delayMs > 0) await sleep(plan.delayMs);
      if (index === 1 && plan.hold !== undefined)
        await Promise.race([plan.hold, new Promise((resolve) => res.once('close', resolve))]);
      if (gone()) return;
      res.write(chunk(id, { content: piece }, null));
    }
    if (gone()) return;
    res.write(chunk(id, {}, 'stop'));
    res.write(usage(id));
    res.end('data: [DONE]\n\n');
    request.completed = true;
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const parts: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (data: Buffer) => {
      size += data.length;
      if (size > maxBodyBytes) tooLarge = true;
      else parts.push(data);
    });
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        body = null;
      }
      const last = lastMessage(body);
      const request: RecordedRequest = {
        index: requests.length,
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization ?? null,
        body,
        lastMessageText: last.text,
        lastMessageRole: last.role,
        clientGone: false,
        completed: false,
      };
      requests.push(request);
      for (const wake of waiters.splice(0)) wake();
      res.on('close', () => {
        if (!request.completed) request.clientGone = true;
        for (const wake of waiters.splice(0)) wake();
      });
      if (tooLarge) {
        res.writeHead(413).end();
        return;
      }
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      if (request.index >= maxRequests) {
        res
          .writeHead(429, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'fake server request budget exhausted' } }));
        return;
      }
      let plan: FakeReply;
      try {
        plan = options.responder(request);
      } catch (error) {
        plan = { kind: 'http-error', status: 500, message: `responder threw: ${String(error)}` };
      }
      reply(request, res, plan).catch(() => res.destroy());
    });
  }

  const listening = await listenLoopback(handle, lifetimeMs);
  server = listening;
  const port = listening.port;
  const close = listening.close;

  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close,
    waitForClientGone(index, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`fake server: the client of request #${index} was still there after ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = (): void => {
          if (requests[index]?.clientGone) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
    waitForRequests(n, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`fake server: ${requests.length}/${n} requests after ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = (): void => {
          if (requests.length >= n) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}
