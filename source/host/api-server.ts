// The loopback HTTP/JSON API. It speaks application language only; there is no route that
// forwards arbitrary JSON to a child. Every request needs the bearer token from host.json.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { asCmError, CmError } from '../errors.js';
import { PAGE_LIMIT_DEFAULT, REQUEST_BODY_MAX_BYTES } from '../limits.js';
import type { Application, PageRequest } from '../protocol.js';

const drainBody = z.object({ recover: z.string().max(64).optional() }).strict();
const noteBody = z.object({ text: z.string(), operationId: z.string().optional() }).strict();
const agentBody = z.object({ name: z.string(), model: z.string().optional(), piConfigDir: z.string().optional(), operationId: z.string().optional() }).strict();
const promptBody = z.object({ text: z.string(), operationId: z.string().optional() }).strict();
const abortBody = z.object({ operationId: z.string().optional() }).strict();
const searchBody = z.object({ query: z.string(), since: z.string().optional(), until: z.string().optional(), client: z.string().optional(), limit: z.number().optional() }).strict();

async function parseBody<T>(request: IncomingMessage, schema: z.ZodType<T>, shape: string): Promise<T> {
  const parsed = schema.safeParse(await readBody(request));
  if (!parsed.success) throw new CmError('invalid_input', `Expected ${shape}: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  return parsed.data;
}

function parseWhole(value: string | null, name: string, fallback: number, code: 'invalid_cursor' | 'invalid_input'): number {
  if (value === null) return fallback;
  if (!/^\d{1,16}$/.test(value)) throw new CmError(code, `"${name}" must be a whole number of 0 or more, not ${JSON.stringify(value)}.`);
  return Number(value);
}

export function pageRequestFrom(params: URLSearchParams): PageRequest {
  return {
    after: parseWhole(params.get('after'), 'after', 0, 'invalid_cursor'),
    limit: parseWhole(params.get('limit'), 'limit', PAGE_LIMIT_DEFAULT, 'invalid_input'),
    agentId: params.get('agent') ?? undefined,
    storeId: params.get('store') ?? undefined,
  };
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > REQUEST_BODY_MAX_BYTES) throw new CmError('limit_exceeded', `The request body is over ${REQUEST_BODY_MAX_BYTES} bytes; nothing was written.`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new CmError('invalid_input', 'The request body is not valid JSON.');
  }
}

function authorized(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function route(app: Application, method: string, url: URL, request: IncomingMessage): Promise<[number, unknown]> {
  const path = url.pathname;
  if (method === 'GET' && path === '/v1/status') return [200, await app.status()];
  if (method === 'GET' && path === '/v1/journal') return [200, await app.journal(pageRequestFrom(url.searchParams))];
  if (method === 'GET' && path === '/v1/timeline') return [200, await app.timeline(pageRequestFrom(url.searchParams))];
  if (method === 'POST' && path === '/v1/notes') {
    const parsed = noteBody.safeParse(await readBody(request));
    if (!parsed.success) throw new CmError('invalid_input', `A note is {"text": string, "operationId"?: string}: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
    const receipt = await app.appendNote(parsed.data);
    return [receipt.replayed ? 200 : 201, receipt];
  }
  if (method === 'GET' && path === '/v1/agents') return [200, await app.listAgents()];
  if (method === 'POST' && path === '/v1/agents') return [201, await app.createAgent(await parseBody(request, agentBody, '{"name": string, "model"?, "piConfigDir"?, "operationId"?}'))];
  const agentAction = /^\/v1\/agents\/([^/]+)\/(start|stop|prompts|abort)$/.exec(path);
  if (method === 'POST' && agentAction) {
    const agent = decodeURIComponent(agentAction[1]!);
    switch (agentAction[2]) {
      case 'start':
        return [200, await app.startAgent(agent)];
      case 'stop':
        return [200, await app.stopAgent(agent)];
      case 'prompts': {
        const body = await parseBody(request, promptBody, '{"text": string, "operationId"?: string}');
        const receipt = await app.prompt({ agent, ...body });
        return [receipt.replayed ? 200 : 201, receipt];
      }
      default: {
        const body = await parseBody(request, abortBody, '{"operationId"?: string}');
        return [200, await app.abort(agent, body.operationId)];
      }
    }
  }
  const abandon = /^\/v1\/operations\/([^/]+)\/abandon$/.exec(path);
  if (method === 'POST' && abandon) return [200, await app.abandon(decodeURIComponent(abandon[1]!))];
  const message = /^\/v1\/messages\/([^/]+)$/.exec(path);
  if (method === 'GET' && message) return [200, await app.message(decodeURIComponent(message[1]!))];
  const operation = /^\/v1\/operations\/([^/]+)$/.exec(path);
  if (method === 'GET' && operation) return [200, await app.operation(decodeURIComponent(operation[1]!))];
  // ---- host capture (issue 4) ----
  if (method === 'GET' && path === '/v1/capture/status') return [200, await app.captureStatus({ afterRecovery: url.searchParams.get('after-recovery') ?? undefined })];
  if (method === 'POST' && path === '/v1/capture/drain') {
    const parsed = drainBody.safeParse(await readBody(request));
    if (!parsed.success) throw new CmError('invalid_input', 'A drain request is {"recover"?: "rec-<n>"}.');
    return [200, await app.sessionDrain({ recover: parsed.data.recover })];
  }
  if (method === 'POST' && path === '/v1/capture/flush') return [200, await app.flush()];
  // ---- the memory half ----
  if (method === 'POST' && path === '/v1/search') return [200, await app.sessionSearch(await parseBody(request, searchBody, '{"query": string, "since"?, "until"?, "client"?, "limit"?: number}'))];
  throw new CmError('not_found', `No route ${method} ${path}.`);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export async function startApiServer(app: Application, token: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    if (!authorized(request, token)) {
      send(response, 401, { error: { code: 'unauthorized', message: 'Missing or wrong bearer token; read it from host.json in the data home.' } });
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    route(app, request.method ?? 'GET', url, request).then(
      ([status, body]) => send(response, status, body),
      (error: unknown) => {
        const cm = asCmError(error);
        send(response, cm.httpStatus, { error: cm.toJSON() });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new CmError('usage', `Cannot listen on 127.0.0.1:${port} (${(error as NodeJS.ErrnoException).code ?? error.message}). Choose another port with --port.`)),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}
