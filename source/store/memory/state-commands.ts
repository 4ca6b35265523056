// Writer commands of memory-state that belong to no single aggregate.
import { z } from 'zod';
import { memoryCommand } from '../command.js';
import { schemaVersion } from '../migrations.js';

export const memoryStateCommands = {
  /** Opens (creates, migrates) memory-state in the writer and names it. */
  memoryOpen: memoryCommand({
    schema: z.object({}).strict(),
    run: (tx, context) => ({ memoryStateUuid: context.memoryStateUuid, schemaVersion: schemaVersion(tx.db) }),
  }),
};
