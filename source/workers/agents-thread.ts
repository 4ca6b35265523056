// The agents worker: hosts the AgentManager, its pi children and their pipe readers, off the main
// thread. It reaches the writer through its own port; the main thread calls it by method name.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { asCmError } from '../errors.js';
import { AgentManager } from '../hosts/pi/agent-manager.js';
import { resolvePiCommand } from '../hosts/pi/pi-command.js';
import { WriterClient } from './writer-client.js';
import type { Reply } from './reply-channel.js';

export interface AgentsWorkerData {
  writerPort: MessagePort;
  storeId: string;
  hostId: string;
  maxRecordBytes?: number;
}

export type AgentsRequest = { id: number; method: 'start' | 'stop' | 'prompt' | 'abort' | 'shutdown'; args: string[] };

const data = workerData as AgentsWorkerData;
const writer = WriterClient.overPort(data.writerPort, data.storeId);
const manager = new AgentManager({ writer, hostId: data.hostId, pi: () => resolvePiCommand(), ...(data.maxRecordBytes ? { maxRecordBytes: data.maxRecordBytes } : {}) });

async function dispatch(request: AgentsRequest): Promise<unknown> {
  const [a = '', b, c] = request.args;
  switch (request.method) {
    case 'start':
      return manager.start(a);
    case 'stop':
      return manager.stop(a);
    case 'prompt':
      return manager.prompt(a, b ?? '', c ?? '');
    case 'abort':
      return manager.abort(a, b);
    case 'shutdown':
      return manager.shutdown();
  }
}

parentPort!.on('message', (request: AgentsRequest) => {
  dispatch(request).then(
    (result) => parentPort!.postMessage({ id: request.id, ok: true, result } satisfies Reply),
    (error: unknown) => parentPort!.postMessage({ id: request.id, ok: false, error: asCmError(error).toJSON() } satisfies Reply),
  );
});
