// The writer's command registry. Each aggregate contributes its named commands (source/store/*);
// a new capability adds its module here and the writer thread stays unchanged.
import type { z } from 'zod';
import { adjudicationCommands } from '../store/memory/adjudication-store.js';
import { approvedCommands } from '../store/memory/approved-store.js';
import { extractionCommands } from '../store/memory/extraction-submit.js';
import { promotionCommands } from '../store/memory/promotion-store.js';
import { proposalCommands } from '../store/memory/proposal.js';
import { runnerCommands } from '../store/memory/runner-store.js';
import { memoryStateCommands } from '../store/memory/state-commands.js';
import { taskCommands } from '../store/memory/task-store.js';
import { agentCommands } from '../store/core/agents.js';
import { captureCommands } from '../store/core/capture-sessions.js';
import { hostCommands } from '../store/core/host-activations.js';
import { noteCommands } from '../store/core/notes.js';
import { ingestCommands } from '../store/core/pi-ingest.js';
import { promptCommands } from '../store/core/prompts.js';

export const writerCommands = {
  ...noteCommands,
  ...hostCommands,
  ...agentCommands,
  ...promptCommands,
  ...ingestCommands,
  ...captureCommands,
  ...memoryStateCommands,
  ...taskCommands,
  ...extractionCommands,
  ...adjudicationCommands,
  ...approvedCommands,
  ...promotionCommands,
  ...proposalCommands,
  ...runnerCommands,
};

export type WriterCommands = typeof writerCommands;
export type CommandName = keyof WriterCommands;
export type CommandInput<K extends CommandName> = z.input<WriterCommands[K]['schema']>;
export type CommandResult<K extends CommandName> = ReturnType<WriterCommands[K]['run']>;
