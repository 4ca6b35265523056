// A client that follows its host: the TUI of another terminal keeps working when the host it
// talked to stops and a new one starts (on another port, with another token). When the host does
// not answer, host.json is read again; a read is retried once against the host found there, a
// write is not (it may have reached the old host) — the next write goes to the new one.
import { CmError } from '../errors.js';
import { type Application, apiRoutes } from '../api/application.js';
import type { Route } from '../api/route.js';
import { findRunningHost } from './connect.js';

const LOST = new Set(['host_unreachable', 'unauthorized']);

export function reconnectingClient(home: string, first: Application): Application {
  let current = first;
  let finding: Promise<Application | undefined> | null = null;
  // Concurrent failures share one look at host.json.
  const findAgain = (): Promise<Application | undefined> => {
    finding ??= findRunningHost(home)
      .catch(() => undefined)
      .finally(() => {
        finding = null;
      });
    return finding;
  };
  const call = async (name: keyof Application, route: Route, request: unknown): Promise<unknown> => {
    const used = current;
    const method = (app: Application) => (app[name] as (request: unknown) => Promise<unknown>).bind(app);
    try {
      return await method(used)(request);
    } catch (error) {
      if (!(error instanceof CmError && LOST.has(error.code))) throw error;
      const found = current === used ? await findAgain() : current;
      if (!found) {
        throw new CmError(
          'host_unreachable',
          `No common-memory host answers for ${home}: ${error.message} This screen reconnects by itself once a host runs again (common-memory host, or the TUI in another terminal).`,
        );
      }
      current = found;
      if (route.kind !== 'read') throw error;
      return method(found)(request);
    }
  };
  const methods = Object.entries(apiRoutes).map(([name, route]) => [
    name,
    (request: unknown) => call(name as keyof Application, route as Route, request),
  ]);
  return Object.fromEntries(methods) as Application;
}
