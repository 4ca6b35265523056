// What a screen or a CLI command may ask of common-memory: every API area's declarations, merged.
//
// How to add an API method:
//   1. Declare it in its area's file (source/api/<area>.ts, or a new area added to `apiRoutes`
//      below): `read<Request, Response>(path, queryFields)` for a GET that a read-only connection
//      answers too (`readByBody(path, body)` when the request does not fit a query string), or
//      `write<Request, Response>(path, { body, created })` for a POST that changes something.
//      Request and response types live in source/protocol.ts; ":name" path segments are request
//      fields; `body` is the zod schema of the other fields.
//   2. Implement it in source/host/host-application.ts (the compiler asks for it), and, for a read,
//      in source/client/read-only-application.ts (the compiler asks for that too).
// The HTTP route (source/host/api-server.ts), the client method (source/client/api-client.ts) and
// a read-only connection's refusal of a write follow from the declaration; nothing else changes.
import { agentsApi } from './agents.js';
import { captureApi } from './capture.js';
import { historyApi } from './history.js';
import { memoryApi } from './memory.js';
import { CmError } from '../errors.js';
import type { MethodsOf, ReadMethodsOf } from './route.js';

export const apiRoutes = { ...historyApi, ...agentsApi, ...captureApi, ...memoryApi };

export type ApiRoutes = typeof apiRoutes;
export type MethodName = keyof ApiRoutes;

/** Implemented in-process by the host, over HTTP by the client, and for reads by a read-only connection. */
export type Application = MethodsOf<ApiRoutes>;

/** The reads a read-only connection answers (no host, no lease). */
export type ReadOnlyReads = ReadMethodsOf<ApiRoutes>;

/** An application from its reads; every write is refused (a read-only connection holds no lease). */
export function readOnlyApplication(reads: ReadOnlyReads): Application {
  const methods = Object.entries(apiRoutes).map(([name, route]) => {
    if (route.kind === 'read') return [name, reads[name as keyof ReadOnlyReads]];
    return [
      name,
      () =>
        Promise.reject(new CmError('internal', `This connection is read-only; "${name}" needs the host or the lease.`)),
    ];
  });
  return Object.fromEntries(methods) as Application;
}
