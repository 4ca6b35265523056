// An application whose every answer is checked against its route's response schema, as it would
// arrive over the wire (JSON). The shipped client trusts the host's answers (parsing each would
// cost every call); the tests hold the host to what each route declares instead.
import { z } from 'zod';
import { apiRoutes, type Application, type MethodName } from '../../source/api/application.js';

/** The methods whose answers a checked application has parsed, by name. */
export type ParsedMethods = Set<MethodName>;

/** The error a drifted answer gets: the method, what differs, and where. */
export function responseProblem(name: MethodName, answer: unknown): string | null {
  const wire: unknown = answer === undefined ? undefined : JSON.parse(JSON.stringify(answer));
  const result = (apiRoutes[name].response as z.ZodType).safeParse(wire);
  return result.success
    ? null
    : `${name}'s answer does not match its response schema:\n${z.prettifyError(result.error)}`;
}

/** `app` with each answer parsed by its route's response schema; a mismatch rejects the call. */
export function checkedApplication(app: Application, parsed: ParsedMethods = new Set()): Application {
  const methods = (Object.keys(apiRoutes) as MethodName[]).map((name) => {
    const method = app[name] as (request: unknown) => Promise<unknown>;
    const checked = async (request: unknown) => {
      const answer = await method.call(app, request);
      const problem = responseProblem(name, answer);
      if (problem) throw new Error(problem);
      parsed.add(name);
      return answer;
    };
    return [name, checked];
  });
  return Object.fromEntries(methods) as Application;
}
