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
    return withRegExpsCompiledOnce(() => require(path) as T);
  } catch (error) {
    const packageDir = dirname(dirname(path));
    const missing = (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND';
    throw new BrokenInstallError({
      what: `${what} cannot be loaded: common-memory in ${packageDir} is not built (${path} ${missing ? 'is missing' : `fails: ${String((error as Error).message).split('\n')[0]}`})`,
      fix: `build it: cd ${shellQuote(packageDir)} && npm run build`,
    });
  }
}

/**
 * Whether this process runs V8 with the tier-up ticks at 1, the default of the V8 in node 20 to 24
 * (11 to 13), and no regular-expression flag of its own: then putting the flag back restores it.
 */
const TICKS_DEFAULT_ONE =
  Number(process.versions.v8.split('.')[0]) <= 13 && !process.execArgv.some((arg) => arg.includes('regexp'));

/**
 * Runs `load` with V8 making each regular expression for machine code at its first run. By default
 * (in node 20) V8 first makes interpreter bytecode for an expression, runs that once, then compiles
 * it again for machine code: for the lint's several hundred expressions, made when its bundle loads,
 * the first lint of a process did both (a 3 KB text 410 → 230 ms, a one-line note 80 → 50 ms; later
 * runs alike). V8 reads the tier-up ticks only when it makes an expression, so the flag is set for
 * the load alone and put back at once: while any V8 flag differs from node's own, V8 refuses every
 * code cache (node's for its built-in modules, dist/'s .v8cache files), and with the flag restored
 * they are accepted again. Only the ticks change: turning tier-up itself off in a running process
 * crashes an expression that has run before (docs/benchmarks.md). Later V8 made ticks 0 its default.
 */
export function withRegExpsCompiledOnce<T>(load: () => T): T {
  if (!TICKS_DEFAULT_ONE) return load();
  // Named through a variable, as requireBeside's path is: the ES module chunks that bundle this file
  // too (never calling it) would otherwise warn that a literal require cannot be converted.
  const v8Module = 'node:v8';
  const v8 = require(v8Module) as typeof import('node:v8');
  v8.setFlagsFromString('--regexp-tier-up-ticks=0');
  try {
    return load();
  } finally {
    v8.setFlagsFromString('--regexp-tier-up-ticks=1');
  }
}
