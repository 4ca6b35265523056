// The strict wire schema of ConsolidationPatch@v1: what a runner's answer to a consolidation task
// must be before anything looks at it (unknown keys are errors, every string bounded). Loaded only
// by the commands that write (submission); reads show stored patches through patch.ts' plain types.
import { z } from 'zod';
import { MEMORY_ENTRY_MAX_BYTES } from '../../limits.js';
import { CONSOLIDATION_FORMATS, CONSOLIDATION_OPS, CONSOLIDATION_TARGETS } from './patch.js';

/** At most this many operations in one patch: a scope's consolidation is read by a person. */
export const CONSOLIDATION_OPERATIONS_MAX = 2000;

const id = z.string().min(1).max(200);

export const consolidationOperationSchema = z
  .object({
    op: z.enum(CONSOLIDATION_OPS),
    target: z.enum(CONSOLIDATION_TARGETS),
    name: id,
    newContent: z.string().max(MEMORY_ENTRY_MAX_BYTES).nullable(),
    basedOn: z
      .array(z.object({ entryId: id, revision: z.number().int().min(1) }).strict())
      .min(1)
      .max(1000),
    mergeSources: z.array(id).max(1000),
    supersededBy: id.nullable(),
    reason: z.string().max(500),
  })
  .strict();

export const consolidationPatchSchema = z
  .object({
    format: z.literal(CONSOLIDATION_FORMATS.patch),
    taskId: id,
    binding: z.unknown(),
    operations: z.array(consolidationOperationSchema).max(CONSOLIDATION_OPERATIONS_MAX),
  })
  .strict();
