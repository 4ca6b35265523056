// Starts a worker thread: built, its CommonJS bundle (dist/workers/<name>.cjs, scripts/bundle.mjs)
// run through its V8 code cache by bin/code-cache.cjs (runThread) — an ES module thread would
// compile its bundle again at every start (Node 20 keeps no code cache for ES modules), about
// 200 ms of CPU per thread and several threads per host; under tsx (.ts), its module. Resolved
// from the caller as `../workers/<name>`: the same from a module in dist/workers and from the
// bundled CLI in dist/cli (scripts/bundle.mjs), both one level below dist; bin/ is beside dist.
// COMMON_MEMORY_TEST_WORKERS (set by scripts/test.mjs to dist/workers, built just before) makes a
// caller running from source start the built thread instead: under tsx every worker thread
// compiles its whole module graph again, seconds of CPU per host, paid by hundreds of test hosts.
// Those threads get no execArgv: a worker inherits its process's by default, and the test process's
// `--import tsx` would load the tsx loader into every built thread (about half of a test host's
// start-up CPU). It is read only from source (.ts), so the shipped build never consults it.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

/** `moduleUrl` is the caller's import.meta.url; `name` the worker module's name without extension. */
export function startWorker(
  moduleUrl: string,
  name: string,
  workerData: unknown,
  transferList: TransferListItem[] = [],
  resourceLimits?: ResourceLimits,
  /** The environment the thread sees (by default a copy of the process's as it is now). */
  env?: NodeJS.ProcessEnv,
): Worker {
  const fromSource = moduleUrl.endsWith('.ts');
  const built = fromSource ? process.env['COMMON_MEMORY_TEST_WORKERS'] : undefined;
  const options = { ...(resourceLimits ? { resourceLimits } : {}), ...(env ? { env } : {}) };
  if (!fromSource || (built !== undefined && built !== '')) {
    const workers = built ? pathToFileURL(`${built}/`) : new URL('../workers/', moduleUrl);
    const bundle = fileURLToPath(new URL(`${name}.cjs`, workers));
    const loader = fileURLToPath(new URL('../../bin/code-cache.cjs', workers));
    // Evaluated as CommonJS in the new thread: the loader runs the bundle, which reads workerData itself.
    const source = `require(${JSON.stringify(loader)}).runThread(${JSON.stringify(bundle)});`;
    return new Worker(source, { eval: true, workerData, transferList, ...(built ? { execArgv: [] } : {}), ...options });
  }
  // tsx registers itself on the main thread only; a .ts worker registers it first, then imports its entry.
  const entry = new URL(`../workers/${name}.ts`, moduleUrl);
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(source, { eval: true, workerData, transferList, ...options });
}
