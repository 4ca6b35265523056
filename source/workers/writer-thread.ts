// The writer thread: a serving host's writer (writer-core.ts) on a thread of its own, so that the
// API, the drain and the runners go on while a transaction runs.
import { parentPort, workerData } from 'node:worker_threads';
import { openWriterCore, writerErrorOf } from './writer-core.js';

export type WriterReady =
  | { type: 'ready'; storeId: string }
  | { type: 'failed'; error: { code: string; message: string } };

const port = parentPort!;
const paths = workerData as { corePath: string; memoryStatePath: string };

try {
  const writer = openWriterCore(paths);
  writer.serve(port);
  port.on('close', () => writer.close());
  port.postMessage({ type: 'ready', storeId: writer.storeId } satisfies WriterReady);
} catch (error) {
  port.postMessage({ type: 'failed', error: writerErrorOf(error, paths) } satisfies WriterReady);
}
