// An API method, declared once: its path, how its request travels, whether a read-only connection
// may answer it, and (as type parameters) its request and response. The HTTP server, the HTTP
// client and the read-only application are all derived from the declarations in this folder.
import type { z } from 'zod';
import { CmError } from '../errors.js';

/** How one request field travels in a GET query string. */
export interface QueryField<T> {
  name: string;
  decode(text: string | null): T;
  encode(value: T): string | undefined;
}

/** Carries the request and response types; never set at run time. */
interface Carried<Req, Res> {
  readonly types?: { request: Req; response: Res };
}

/** A GET that a read-only connection (no host, no lease) answers too. */
export interface ReadRoute<Req, Res> extends Carried<Req, Res> {
  readonly kind: 'read';
  /** Segments ":name" are string fields of the request, URI-encoded. */
  readonly path: string;
  readonly query: { readonly [K in keyof Req]?: QueryField<Req[K]> };
}

/** A POST, answered by the host or a command holding the lease; a read-only connection refuses it. */
export interface WriteRoute<Req, Res> extends Carried<Req, Res> {
  readonly kind: 'write';
  readonly path: string;
  /** The request's fields that are not in the path; without one the body is not read. */
  readonly body: { schema: z.ZodType<Partial<Req>>; shape: string } | undefined;
  /** 201 instead of 200: the answer made something new (a replay of a receipt is a 200). */
  readonly created: (response: Res) => boolean;
}

export type Route = ReadRoute<never, unknown> | WriteRoute<never, unknown>;

export function read<Req = void, Res = never>(path: string, query: ReadRoute<Req, Res>['query'] = {}): ReadRoute<Req, Res> {
  return { kind: 'read', path, query };
}

export function write<Req = void, Res = never>(
  path: string,
  options: { body?: { schema: z.ZodType<Partial<Req>>; shape: string }; created?: (response: Res) => boolean } = {},
): WriteRoute<Req, Res> {
  return { kind: 'write', path, body: options.body, created: options.created ?? (() => false) };
}

/** The method a route declares: one request in, one response out. */
export type MethodOf<R> =
  R extends ReadRoute<infer Req, infer Res> ? (request: Req) => Promise<Res> : R extends WriteRoute<infer Req, infer Res> ? (request: Req) => Promise<Res> : never;

export type MethodsOf<Routes> = { [K in keyof Routes]: MethodOf<Routes[K]> };

/** The methods a read-only connection answers itself; it refuses the others. */
export type ReadMethodsOf<Routes> = { [K in keyof Routes as Routes[K] extends { kind: 'read' } ? K : never]: MethodOf<Routes[K]> };

/** The names of a path's ":name" segments, in order. */
export function pathParams(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

// ---- query fields ----

/** A whole number of 0 or more; `code` says which error a wrong one is (a cursor or any input). */
export function wholeNumber(name: string, fallback: number, code: 'invalid_cursor' | 'invalid_input'): QueryField<number> {
  return {
    name,
    decode(text) {
      if (text === null) return fallback;
      if (!/^\d{1,16}$/.test(text)) throw new CmError(code, `"${name}" must be a whole number of 0 or more, not ${JSON.stringify(text)}.`);
      return Number(text);
    },
    encode: (value) => String(value),
  };
}

/** Optional text, left out of the query when absent. */
export function optionalText(name: string): QueryField<string | undefined> {
  return { name, decode: (text) => text ?? undefined, encode: (value) => value };
}
