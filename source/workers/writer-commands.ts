// The writer's command registry. Each aggregate contributes its named commands (source/store/*);
// a new capability adds its module here and the writer thread stays unchanged.
import type { z } from 'zod';
import { hostCommands } from '../store/host-activations.js';
import { noteCommands } from '../store/notes.js';

export const writerCommands = {
  ...noteCommands,
  ...hostCommands,
};

export type WriterCommands = typeof writerCommands;
export type CommandName = keyof WriterCommands;
export type CommandInput<K extends CommandName> = z.infer<WriterCommands[K]['schema']>;
export type CommandResult<K extends CommandName> = ReturnType<WriterCommands[K]['run']>;
