// Starts a worker thread from its module in the workers directory, compiled (.js) or under tsx
// (.ts). Resolved from the caller as `../workers/<name>`: the same from a module in dist/workers
// and from the bundled CLI in dist/cli (scripts/bundle.mjs), both one level below dist.
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
  const entry = new URL(`../workers/${name}${extension}`, moduleUrl);
  if (extension === '.js')
    return new Worker(entry, { workerData, transferList, ...(resourceLimits ? { resourceLimits } : {}) });
  // tsx registers itself on the main thread only; a .ts worker registers it first, then imports its entry.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(source, { eval: true, workerData, transferList, ...(resourceLimits ? { resourceLimits } : {}) });
}
