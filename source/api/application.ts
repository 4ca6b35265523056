// What a screen or a CLI command may ask of common-memory: every API area's declarations, merged.
//
// How to add an API method:
//   1. Declare it in its area's file (source/api/<area>.ts, or a new area added to `areaRoutes`
//      below): `read<Request, Response>(path, responseSchema, queryFields)` for a GET that a
//      read-only connection answers too (`readByBody(path, body(schema), responseSchema)` when the
//      request does not fit a query string), or `write<Request, Response>(path, responseSchema,
//      { body: body(schema), created })` for a POST that changes something. The request type is the
//      body schema's `z.infer` (with the ":name" path segments, which are string fields of the
//      request); the response type is the response schema's `z.infer`, declared in the area; the
//      shape an invalid body is told follows from the schema. Responses are not parsed at run time;
//      the tests parse real answers with the schema (test/support/checked-application.ts).
//   2. Implement it in the area's service in source/host/ (<area>-service.ts, which `implements`
//      the area's route table: the compiler asks for it), and, for a read, in
//      source/client/read-only-application.ts (the compiler asks for that too; a read-only
//      connection refuses every other method: read-only.ts).
// The HTTP route (source/host/api-server.ts), the client method (source/client/api-client.ts) and
// a read-only connection's refusal of a write follow from the declaration; nothing else changes.
import { agentsApi } from './agents.js';
import { captureApi } from './capture.js';
import { historyApi } from './history.js';
import { memoryApi } from './memory.js';
import type { MethodsOf, ReadMethodsOf } from './route.js';

/** The areas, each a route table; a method's name is unique across them. */
export const areaRoutes = { history: historyApi, agents: agentsApi, capture: captureApi, memory: memoryApi };
type AreaRoutes = typeof areaRoutes;

export const apiRoutes = { ...historyApi, ...agentsApi, ...captureApi, ...memoryApi };

export type ApiRoutes = typeof apiRoutes;
export type MethodName = keyof ApiRoutes;

/** Implemented in-process by the host, over HTTP by the client, and for reads by a read-only connection. */
export type Application = MethodsOf<ApiRoutes>;

/** One service per area, each with every method its area declares. */
export type AreaServices = { [Area in keyof AreaRoutes]: MethodsOf<AreaRoutes[Area]> };

/** The application the host answers with: each method is its area's service's own. */
export function applicationOf(services: AreaServices): Application {
  const methods = Object.entries(areaRoutes).flatMap(([area, routes]) => {
    const service = services[area as keyof AreaServices] as unknown as Record<string, (request: unknown) => unknown>;
    return Object.keys(routes).map((name) => [name, (request: unknown) => service[name]!(request)]);
  });
  return Object.fromEntries(methods) as Application;
}

/** The reads a read-only connection answers (no host, no lease). */
export type ReadOnlyReads = ReadMethodsOf<ApiRoutes>;
