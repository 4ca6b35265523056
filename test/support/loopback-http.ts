// What the fake model servers (Anthropic Messages, OpenAI chat completions, OpenAI Responses) share:
// one loopback server with a bounded lifetime, bounded request bodies, lenient JSON, JSON replies.
// Each fake adds only its API's dialect.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The largest request body a fake server accepts; clients send a few hundred KB at most. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed body, or null when it is empty or not JSON (recorded as such, never thrown). */
export function parseJson(raw: string): unknown {
  if (raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(new Error('body too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(body));
}

export interface LoopbackServer {
  readonly port: number;
  /** True from the first close() (or the end of the lifetime) on. */
  readonly closed: boolean;
  /** Ends every open connection and stops listening; safe to call again. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 at a random port. The server closes itself after `lifetimeMs`, so a server a
 * test forgot can neither hang the run nor outlive it (the timer does not keep the process alive).
 */
export async function listenLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  lifetimeMs: number,
): Promise<LoopbackServer> {
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      clearTimeout(lifetime);
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  const lifetime = setTimeout(() => void close(), lifetimeMs);
  lifetime.unref();
  return {
    port: (server.address() as AddressInfo).port,
    get closed() {
      return closing !== undefined;
    },
    close,
  };
}
