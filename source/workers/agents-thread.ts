// The agents worker: hosts the AgentManager, its pi children and their pipe readers, off the main
// thread. It reaches the writer through its own port; the main thread's calls are typed by AgentsCalls.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { cliCommand } from '../hook/cli-command.js';
import type { AgentsRoutes } from '../api/agents.js';
import type { CallOf, RequestOf } from '../api/route.js';
import { AgentManager } from '../hosts/pi/agent-manager.js';
import { resolvePiCommand } from '../hosts/pi/pi-command.js';
import { readSessionSnapshot } from '../store/memory/snapshot-read.js';
import type { PiStoreCalls, PiStoreFunctions } from '../hosts/pi/store-port.js';
import { WriterClient } from './writer-client.js';
import type { CommandInput, CommandResult } from '../store/writer-commands.js';
import { serveCalls } from './reply-channel.js';

export interface AgentsWorkerData {
  writerPort: MessagePort;
  storeId: string;
  hostId: string;
  maxRecordBytes?: number;
  /** memory-state.sqlite: each generation's pi gets the session-start snapshot from it. */
  memoryStatePath?: string;
}

/** What the host may ask of the agents worker: the runtime's part of the agents routes. */
export type AgentsCalls = {
  /** The route answers with the agent's view, which the host reads itself once the thread is done. */
  start: { input: RequestOf<AgentsRoutes['startAgent']>; result: void };
  stop: { input: RequestOf<AgentsRoutes['stopAgent']>; result: void };
  /** The host has chosen the operation ID by then (a stored one is a replay and never gets here). */
  prompt: CallOf<AgentsRoutes['prompt']> & { input: { operationId: string } };
  /** Without an operation ID the abort is pinned to the agent's active prompt. */
  abort: CallOf<AgentsRoutes['abort']>;
  shutdown: { input: Record<string, never>; result: void };
};

const data = workerData as AgentsWorkerData;
const writer = WriterClient.overPort(data.writerPort, data.storeId);
/** Whether the writer fits the port the pi runtime declares, command by command. */
type WriterFitsPiPort = {
  [K in keyof PiStoreCalls]: (input: CommandInput<K>) => Promise<CommandResult<K>>;
} extends PiStoreFunctions
  ? true
  : never;
// Checked when compiling: this line stops type-checking as soon as the writer no longer fits.
true satisfies WriterFitsPiPort;

const manager = new AgentManager({
  writer,
  hostId: data.hostId,
  pi: () => resolvePiCommand(),
  ...(data.maxRecordBytes ? { maxRecordBytes: data.maxRecordBytes } : {}),
  snapshot: (cwd: string) => {
    if (data.memoryStatePath === undefined) return '';
    try {
      return readSessionSnapshot(
        data.memoryStatePath,
        cwd,
        cliCommand(
          dirname(data.memoryStatePath),
          fileURLToPath(new URL('../../bin/common-memory.cjs', import.meta.url)),
        ),
      ).text;
    } catch {
      // memory-state unavailable: the agent starts without memory; `memory status` says why
      return '';
    }
  },
});

serveCalls<AgentsCalls>(parentPort!, {
  start: ({ agent }) => manager.start(agent),
  stop: ({ agent }) => manager.stop(agent),
  prompt: ({ agent, text, operationId }) => manager.prompt(agent, text, operationId),
  abort: ({ agent, operationId }) => manager.abort(agent, operationId),
  shutdown: () => manager.shutdown(),
});
