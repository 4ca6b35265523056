// A bundle of its own, loaded on first use from beside the bundle that runs. The memory lint (its
// rules and the poisoning scorer's table) is most of a CLI bundle's size and of its start-up, and
// most processes never lint: the hook's events, `get`, `sessions`, `memory review`, a host's
// threads until a candidate arrives. Only ever run bundled as CommonJS (scripts/bundle.mjs): the
// `require` and `__dirname` here are the running bundle's.
import { dirname, join } from 'node:path';
import { BrokenInstallError } from './broken-install.js';
import { shellQuote } from './shell-quote.js';

/**
 * The exports of `file` (relative to the running bundle's directory, in the package's dist/).
 * A file that cannot be loaded is a broken installation: thrown as one, naming the build to run.
 */
export function requireBeside<T>(file: string, what: string): T {
  const path = join(__dirname, file);
  try {
    return require(path) as T;
  } catch (error) {
    const packageDir = dirname(dirname(path));
    const missing = (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND';
    throw new BrokenInstallError({
      what: `${what} cannot be loaded: common-memory in ${packageDir} is not built (${path} ${missing ? 'is missing' : `fails: ${String((error as Error).message).split('\n')[0]}`})`,
      fix: `build it: cd ${shellQuote(packageDir)} && npm run build`,
    });
  }
}
