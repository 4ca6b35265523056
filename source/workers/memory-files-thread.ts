// The memory files thread: a serving host's memory files work (memory-files-calls.ts) off its main
// thread, whose event loop serves the API and the TUI. It reaches the writer over its own port for
// every commit.
import { parentPort, workerData } from 'node:worker_threads';
import { type MemoryFilesCalls, type MemoryFilesWorkerData, memoryFilesHandlers } from './memory-files-calls.js';
import { serveCalls } from './reply-channel.js';
import { WriterClient } from './writer-client.js';

const data = workerData as MemoryFilesWorkerData;
serveCalls<MemoryFilesCalls>(
  parentPort!,
  memoryFilesHandlers(data, WriterClient.overPort(data.writerPort, data.storeId)),
);
