// The writer's command registry. Each aggregate contributes its named commands
// (source/store/core/*, source/store/memory/*); a new capability adds its module here and the
// writer thread stays unchanged.
import type { z } from 'zod';
import { adjudicationCommands } from './memory/adjudication-store.js';
import { anchorCommands } from './memory/anchor-store.js';
import { approvedCommands } from './memory/approved-store.js';
import { consolidationCommands } from './memory/consolidation-store.js';
import { extractionCommands } from './memory/extraction-submit.js';
import { promotionCommands } from './memory/promotion-store.js';
import { proposalCommands } from './memory/proposal.js';
import { runnerCommands } from './memory/runner-store.js';
import { memoryStateCommands } from './memory/state-commands.js';
import { taskCommands } from './memory/task-store.js';
import { usageCommands } from './memory/usage-store.js';
import { agentCommands } from './core/agent-commands.js';
import { captureCommands } from './core/capture-sessions.js';
import { importCommands } from './core/capture-imports.js';
import { hostCommands } from './core/host-activations.js';
import { noteCommands } from './core/notes.js';
import { ingestCommands } from './core/pi-ingest.js';
import { promptCommands } from './core/prompts.js';

export const writerCommands = {
  ...noteCommands,
  ...hostCommands,
  ...agentCommands,
  ...promptCommands,
  ...ingestCommands,
  ...captureCommands,
  ...importCommands,
  ...memoryStateCommands,
  ...taskCommands,
  ...extractionCommands,
  ...adjudicationCommands,
  ...approvedCommands,
  ...anchorCommands,
  ...promotionCommands,
  ...proposalCommands,
  ...runnerCommands,
  ...usageCommands,
  ...consolidationCommands,
};

export type WriterCommands = typeof writerCommands;
export type CommandName = keyof WriterCommands;
export type CommandInput<K extends CommandName> = z.input<WriterCommands[K]['schema']>;
export type CommandResult<K extends CommandName> = ReturnType<WriterCommands[K]['run']>;

/**
 * The writer as an orchestrator sees it: named commands, each one committed transaction. The
 * writer thread's client (workers/writer-client.ts) is one; pipelines take this port, not the client.
 */
export interface WriterPort {
  readonly storeId: string;
  call<K extends CommandName>(
    name: K,
    input: CommandInput<K>,
    transfer?: readonly ArrayBuffer[],
  ): Promise<CommandResult<K>>;
}
