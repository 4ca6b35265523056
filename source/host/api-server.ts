// The loopback HTTP/JSON API. It speaks application language only; there is no route that
// forwards arbitrary JSON to a child: every route is an API method declared in source/api/. Every request needs the bearer token from host.json.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { asCmError, CmError } from '../errors.js';
import { type Application, apiRoutes, type MethodName } from '../api/application.js';
import { pathParams, type QueryField, type Route } from '../api/route.js';
import { REQUEST_BODY_MAX_BYTES } from '../limits.js';

/** One compiled route: its method's name, its declaration, and the path as a pattern whose groups are the ":name" fields. */
interface Compiled {
  name: MethodName;
  route: Route;
  pattern: RegExp;
  params: string[];
}

const compiled: Compiled[] = Object.entries(apiRoutes).map(([name, declared]) => {
  const route = declared as Route;
  const pattern = new RegExp(`^${route.path.replace(/:[A-Za-z]+/g, '([^/]+)')}$`);
  return { name: name as MethodName, route, pattern, params: pathParams(route.path) };
});

/** The request an HTTP call carries: path fields, then the query (GET) or the body (POST). */
async function requestOf(
  entry: Compiled,
  match: RegExpExecArray,
  url: URL,
  request: IncomingMessage,
): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  entry.params.forEach((param, index) => {
    try {
      fields[param] = decodeURIComponent(match[index + 1]!);
    } catch {
      throw new CmError('invalid_input', `The path's "${param}" is not valid URI encoding.`);
    }
  });
  const route = entry.route;
  if (route.method === 'GET') {
    for (const [field, codec] of Object.entries(route.query) as [string, QueryField<unknown>][])
      fields[field] = codec.decode(url.searchParams.get(codec.name));
  } else if (route.body) {
    const parsed = route.body.schema.safeParse(await readBody(request));
    if (!parsed.success)
      throw new CmError(
        'invalid_input',
        `Expected ${route.body.shape}: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
      );
    Object.assign(fields, parsed.data);
  }
  return fields;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > REQUEST_BODY_MAX_BYTES)
      throw new CmError(
        'limit_exceeded',
        `The request body is over ${REQUEST_BODY_MAX_BYTES} bytes; nothing was written.`,
      );
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
  for (const entry of compiled) {
    if (entry.route.method !== method) continue;
    const match = entry.pattern.exec(url.pathname);
    if (!match) continue;
    const call = app[entry.name] as (request: Record<string, unknown>) => Promise<unknown>;
    const response = await call.call(app, await requestOf(entry, match, url, request));
    return [entry.route.created(response as never) ? 201 : 200, response];
  }
  throw new CmError('not_found', `No route ${method} ${url.pathname}.`);
}

/**
 * The Host header names this server only as a loopback address with its own port. A web page can
 * rebind its own DNS name to 127.0.0.1 (DNS rebinding) and reach this port from the browser; its
 * requests then carry its name as Host, and are refused before anything else is looked at.
 */
function hostAllowed(request: IncomingMessage, port: number): boolean {
  const host = request.headers.host?.toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;
}

/**
 * Statuses after which the rest of the request is not read: the connection is closed instead, so
 * that a refused client cannot make the host read (and discard) a body of any size.
 */
const CLOSE_AFTER = new Set([401, 413, 421]);

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  const close = CLOSE_AFTER.has(status);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}

export async function startApiServer(
  app: Application,
  token: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  let listening = port;
  const server = createServer((request, response) => {
    if (!hostAllowed(request, listening)) {
      send(response, 421, {
        error: {
          code: 'misdirected_request',
          message: `The Host header must be 127.0.0.1:${listening}, localhost:${listening} or [::1]:${listening}; this server answers loopback clients only.`,
        },
      });
      return;
    }
    if (!authorized(request, token)) {
      send(response, 401, {
        error: {
          code: 'unauthorized',
          message: 'Missing or wrong bearer token; read it from host.json in the data home.',
        },
      });
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
      reject(
        new CmError(
          'usage',
          `Cannot listen on 127.0.0.1:${port} (${(error as NodeJS.ErrnoException).code ?? error.message}). Choose another port with --port.`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  listening = typeof address === 'object' && address ? address.port : port;
  return { server, port: listening };
}
