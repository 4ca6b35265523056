// The runners thread: a serving host's runners' work (runners-work.ts) off its main thread, the
// writer reached over a port of its own.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { type RunnersData, serveRunners } from './runners-work.js';
import { WriterClient } from './writer-client.js';

const data = workerData as RunnersData & { writerPort: MessagePort };
serveRunners(parentPort!, data, WriterClient.overPort(data.writerPort, data.storeId));
