// An API method, declared once: its path, how its request travels, whether a read-only connection
// may answer it, its request and its response (each type the `z.infer` of its area's schema). The
// HTTP server, the HTTP client and the read-only application are all derived from the declarations
// in this folder. The response schema is checked by the tests against a real host's answers; the
// shipped client does not parse answers with it (every call would pay for it).
import type { z } from 'zod';
import { CmError } from '../errors.js';
import { shapeOf } from './shape.js';

/** How one request field travels in a GET query string. */
export interface QueryField<T> {
  name: string;
  decode(text: string | null): T;
  encode(value: T): string | undefined;
}

/** A request body: the zod schema of the request's fields that are not in the path, and its shape for errors. */
export interface Body<Req> {
  schema: z.ZodType<Partial<Req>>;
  shape: string;
}

/** A body from its schema: the shape an invalid request is told is written from the schema itself. */
export function body<S extends z.ZodType>(schema: S): Body<z.infer<S>> {
  return { schema: schema as z.ZodType<Partial<z.infer<S>>>, shape: shapeOf(schema) };
}

export type Access = 'read' | 'write';

export interface Route<Req = never, Res = unknown, Kind extends Access = Access> {
  /** read: a read-only connection (no host, no lease) answers it too; write: it refuses it. */
  readonly kind: Kind;
  readonly method: 'GET' | 'POST';
  /** Segments ":name" are string fields of the request, URI-encoded. */
  readonly path: string;
  /** GET: the request's query fields. */
  readonly query: { readonly [K in keyof Req]?: QueryField<Req[K]> };
  /** POST: the body; without one the body is not read. */
  readonly body: Body<Req> | undefined;
  /** What the host answers; its `z.infer` is `Res`. Checked by the tests, not at run time. */
  readonly response: z.ZodType<Res>;
  /** 201 instead of 200: the answer made something new (a replay of a receipt is a 200). */
  readonly created: (response: Res) => boolean;
  /** Carries the request and response types; never set at run time. */
  readonly types?: { request: Req; response: Res };
}

const never = () => false;

/** A GET that a read-only connection answers too. */
export function read<Req = void, Res = never>(
  path: string,
  response: z.ZodType<Res>,
  query: Route<Req, Res>['query'] = {},
): Route<Req, Res, 'read'> {
  return { kind: 'read', method: 'GET', path, query, body: undefined, response, created: never };
}

/** A read whose request is too large or too free for a query string: a POST a read-only connection answers too. */
export function readByBody<Req, Res = never>(
  path: string,
  body: Body<Req>,
  response: z.ZodType<Res>,
): Route<Req, Res, 'read'> {
  return { kind: 'read', method: 'POST', path, query: {}, body, response, created: never };
}

/** A POST answered by the host or a command holding the lease; a read-only connection refuses it. */
export function write<Req = void, Res = never>(
  path: string,
  response: z.ZodType<Res>,
  options: { body?: Body<Req>; created?: (response: Res) => boolean } = {},
): Route<Req, Res, 'write'> {
  return {
    kind: 'write',
    method: 'POST',
    path,
    query: {},
    body: options.body,
    response,
    created: options.created ?? never,
  };
}

/** The method a route declares: one request in, one response out. */
export type MethodOf<R> = R extends { types?: { request: infer Req; response: infer Res } }
  ? (request: Req) => Promise<Res>
  : never;

export type MethodsOf<Routes> = { [K in keyof Routes]: MethodOf<Routes[K]> };

/** A route's request and response types. */
export type RequestOf<R> = R extends { types?: { request: infer Req } } ? Req : never;
export type ResponseOf<R> = R extends { types?: { response: infer Res } } ? Res : never;

/** A worker thread's call that does a route's work: the route's request in, its response out. */
export type CallOf<R> = { input: RequestOf<R>; result: ResponseOf<R> };

/** The methods a read-only connection answers itself; it refuses the others. */
export type ReadMethodsOf<Routes> = {
  [K in keyof Routes as Routes[K] extends { kind: 'read' } ? K : never]: MethodOf<Routes[K]>;
};

/** The names of a path's ":name" segments, in order. */
export function pathParams(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

// ---- query fields ----

/** A whole number of 0 or more; `code` says which error a wrong one is (a cursor or any input). */
export function wholeNumber(
  name: string,
  fallback: number,
  code: 'invalid_cursor' | 'invalid_input',
): QueryField<number> {
  return {
    name,
    decode(text) {
      if (text === null) return fallback;
      if (!/^\d{1,16}$/.test(text))
        throw new CmError(code, `"${name}" must be a whole number of 0 or more, not ${JSON.stringify(text)}.`);
      return Number(text);
    },
    encode: (value) => String(value),
  };
}

/** Optional text, left out of the query when absent. */
export function optionalText(name: string): QueryField<string | undefined> {
  return { name, decode: (text) => text ?? undefined, encode: (value) => value };
}

/** An optional whole number, left out of the query when absent. */
export function optionalNumber(name: string): QueryField<number | undefined> {
  return {
    name,
    decode(text) {
      if (text === null) return undefined;
      if (!/^\d{1,16}$/.test(text))
        throw new CmError('invalid_input', `"${name}" must be a whole number, not ${JSON.stringify(text)}.`);
      return Number(text);
    },
    encode: (value) => (value === undefined ? undefined : String(value)),
  };
}

/** A yes/no option: "1" in the query when set, absent otherwise. */
export function flag(name: string): QueryField<boolean | undefined> {
  return { name, decode: (text) => text === '1', encode: (value) => (value ? '1' : undefined) };
}
