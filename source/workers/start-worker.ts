// Starts a worker thread from its module in the workers directory, compiled (.js) or under tsx
// (.ts). Resolved from the caller as `../workers/<name>`: the same from a module in dist/workers
// and from the bundled CLI in dist/cli (scripts/bundle.mjs), both one level below dist.
// COMMON_MEMORY_TEST_WORKERS (set by scripts/test.mjs to dist/workers, built just before) makes a
// caller running from source start the compiled worker instead: under tsx every worker thread
// compiles its whole module graph again, seconds of CPU per host, paid by hundreds of test hosts.
// Those threads get no execArgv: a worker inherits its process's by default, and the test process's
// `--import tsx` would load the tsx loader into every compiled thread (about half of a test host's
// start-up CPU). It is read only from source (.ts), so the shipped build never consults it.
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

/** `moduleUrl` is the caller's import.meta.url; `name` the worker module's name without extension. */
export function startWorker(
  moduleUrl: string,
  name: string,
  workerData: unknown,
  transferList: TransferListItem[] = [],
  resourceLimits?: ResourceLimits,
): Worker {
  const extension = moduleUrl.endsWith('.ts') ? '.ts' : '.js';
  const built = extension === '.ts' ? process.env['COMMON_MEMORY_TEST_WORKERS'] : undefined;
  const entry =
    built !== undefined && built !== ''
      ? new URL(`${name}.js`, pathToFileURL(`${built}/`))
      : new URL(`../workers/${name}${extension}`, moduleUrl);
  if (built)
    return new Worker(entry, { workerData, transferList, execArgv: [], ...(resourceLimits ? { resourceLimits } : {}) });
  if (extension === '.js')
    return new Worker(entry, { workerData, transferList, ...(resourceLimits ? { resourceLimits } : {}) });
  // tsx registers itself on the main thread only; a .ts worker registers it first, then imports its entry.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(source, { eval: true, workerData, transferList, ...(resourceLimits ? { resourceLimits } : {}) });
}
