// The application API over loopback HTTP: what the CLI uses when a host runs. Every method is
// derived from its declaration in source/api/; memoryExtract and memoryReverifyRunner are each
// composed of two of them.
import type { Agent } from 'node:http';
import { CmError, isErrorCode } from '../errors.js';
import { API_TIMEOUT_ENV, API_TIMEOUT_MS } from '../limits.js';
import { type Application, apiRoutes } from '../api/application.js';
import type { QueryField, Route } from '../api/route.js';
import { extractByFollowing, reverifyByFollowing } from './extract-run.js';
import { http } from '../ground/lazy-builtin.js';

// node:http with a keep-alive agent: fetch costs several times more per loopback request. Made at
// the first request: a read without a host never loads node:http.
let agent: Agent | undefined;

/** The bound of one request: API_TIMEOUT_MS, or a whole number of milliseconds in COMMON_MEMORY_API_TIMEOUT_MS. */
function requestTimeoutMs(): number {
  const set = process.env[API_TIMEOUT_ENV];
  return set !== undefined && /^\d{1,9}$/.test(set) && Number(set) > 0 ? Number(set) : API_TIMEOUT_MS;
}

function send(
  port: number,
  token: string,
  method: string,
  path: string,
  body: string | undefined,
): Promise<{ status: number; text: string }> {
  const timeout = requestTimeoutMs();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (body !== undefined)
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    agent ??= new (http().Agent)({ keepAlive: true, maxSockets: 8 });
    const request = http().request({ host: '127.0.0.1', port, method, path, headers, agent, timeout }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeout} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** Turns an HTTP answer into the response, or the host's error into the same CmError. */
function answer(response: { status: number; text: string }): unknown {
  let payload: { error?: { code?: unknown; message?: unknown } } | null = null;
  try {
    payload = JSON.parse(response.text);
  } catch {
    payload = null;
  }
  if (response.status >= 400) {
    const code = payload?.error?.code;
    const message = typeof payload?.error?.message === 'string' ? payload.error.message : `HTTP ${response.status}`;
    throw new CmError(isErrorCode(code) ? code : response.status >= 500 ? 'host_unreachable' : 'internal', message);
  }
  return payload;
}

/** The method and path of a call, and its body: the request's fields that are not in the path. */
function httpForm(
  route: Route,
  request: Record<string, unknown>,
): { method: 'GET' | 'POST'; path: string; body?: string } {
  const rest = { ...request };
  const path = route.path.replace(/:([A-Za-z]+)/g, (_, field: string) => {
    delete rest[field];
    return encodeURIComponent(String(request[field]));
  });
  if (route.method === 'POST') return { method: 'POST', path, body: JSON.stringify(rest) };
  const query = new URLSearchParams();
  for (const [field, codec] of Object.entries(route.query) as [string, QueryField<unknown>][]) {
    const text = codec.encode(request[field]);
    if (text !== undefined) query.set(codec.name, text);
  }
  const search = query.toString();
  return { method: 'GET', path: search ? `${path}?${search}` : path };
}

/** The application over loopback HTTP, one method per declared route. */
export function apiClient(port: number, token: string): Application {
  const call = async (route: Route, request: unknown): Promise<unknown> => {
    const form = httpForm(route, (request ?? {}) as Record<string, unknown>);
    let response: { status: number; text: string };
    try {
      response = await send(port, token, form.method, form.path, form.body);
    } catch (error) {
      throw new CmError(
        'host_unreachable',
        `The common-memory host on 127.0.0.1:${port} did not answer (${(error as Error).message}).`,
      );
    }
    return answer(response);
  };
  const methods = Object.entries(apiRoutes).map(([name, route]) => [
    name,
    (request: unknown) => call(route as Route, request),
  ]);
  const client = Object.fromEntries(methods) as Application;
  // The methods whose answer waits for a runner: over HTTP each is started, then followed by short
  // reads, so no request waits as long as a runner does (issue 26).
  client.memoryExtract = (request) => extractByFollowing(client, request);
  client.memoryReverifyRunner = (request) => reverifyByFollowing(client, request);
  return client;
}
