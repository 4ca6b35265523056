// What a read-only connection (no host, no lease) answers: its reads, and for every other method
// of the application a refusal. It names no area's route table: a read without a host is a whole
// process that scripts and agents start in loops, and building the tables' schemas was a large
// part of its start. test/store/api.test.ts asks it every method the areas declare.
import { CmError } from '../errors.js';
import type { Application, ReadOnlyReads } from './application.js';

/** Names asked of any object that no API method has: `then` (awaiting), `toJSON` (serialising). */
const NOT_METHODS = new Set(['then', 'toJSON']);

/** An application from its reads; every write is refused (a read-only connection holds no lease). */
export function readOnlyApplication(reads: ReadOnlyReads): Application {
  const refusals = new Map<string, () => Promise<never>>();
  const refusal = (name: string) => () =>
    Promise.reject(new CmError('internal', `This connection is read-only; "${name}" needs the host or the lease.`));
  return new Proxy(reads, {
    get(target, name) {
      if (typeof name !== 'string' || NOT_METHODS.has(name) || name in Object.prototype) return undefined;
      if (Object.hasOwn(target, name)) return target[name as keyof ReadOnlyReads];
      let refused = refusals.get(name);
      if (refused === undefined) refusals.set(name, (refused = refusal(name)));
      return refused;
    },
  }) as unknown as Application;
}
