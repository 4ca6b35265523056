// The approved projection in memory-state (seed 004 DEV-1): per owner (a repository worktree, or
// the user scope) the entries of its memory root with their FTS rows, the generation, the source
// tree digest and the coverage of the last scan. Storing a scan (approved-sync.ts) is the writer's
// command here, its input checked; approved-reads.ts serves search, get and status. The scan itself
// happens outside the writer (approved-projection.ts): the command refuses it when another sync
// committed since it began, and the caller scans again.
import { z } from 'zod';
import { memoryCommand } from '../command.js';
import { syncApproved } from './approved-sync.js';

export {
  APPROVED_ANALYZER_VERSION,
  APPROVED_RECALL_VERSION,
  type ApprovedOwner,
  type ProjectionRow,
  readProjection,
  type SyncApprovedInput,
  type SyncApprovedResult,
  syncApproved,
} from './approved-sync.js';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

const ownerSchema = z.object({ scope: z.enum(['project', 'user']), repositoryKey: hex64, worktreeKey: hex64 }).strict();

const entrySchema = z
  .object({
    id: z.string().min(1),
    type: z.string(),
    title: z.string(),
    appliesWhen: z.string().nullable(),
    priority: z.number(),
    confidence: z.string().nullable(),
    evidence: z.unknown(),
    created: z.string().nullable(),
    supersedes: z.array(z.string()),
    body: z.string(),
    extra: z.record(z.string(), z.unknown()),
    scope: z.enum(['project', 'user']),
    paths: z.array(z.string()).min(1),
    contentDigest: hex64,
  })
  .strict();

const problemSchema = z
  .object({ kind: z.string(), path: z.string(), line: z.number().nullable(), message: z.string() })
  .strict();

export const syncInput = z
  .object({
    owner: ownerSchema,
    /** The generation the caller saw before it scanned (null: no projection yet). */
    expectedGeneration: z.number().int().nullable(),
    coverage: z.enum(['complete', 'partial']),
    unchanged: z.boolean(),
    sourceTreeDigest: hex64,
    /** encodePreviousScan of a complete scan; kept for the next short circuit. */
    scanJson: z.string(),
    problems: z.array(problemSchema),
    entries: z.array(entrySchema),
    scenes: z
      .array(
        z
          .object({
            name: z.string().min(1),
            title: z.string(),
            appliesWhen: z.string().nullable(),
            entries: z.array(z.string()),
            summary: z.string(),
            path: z.string(),
            contentDigest: hex64,
          })
          .strict(),
      )
      .optional(),
    doctrine: z
      .array(
        z
          .object({
            name: z.string().min(1),
            title: z.string(),
            cites: z.array(z.string()),
            principle: z.string(),
            path: z.string(),
            contentDigest: hex64,
          })
          .strict(),
      )
      .optional(),
    directories: z
      .object({
        stamps: z.string(),
        takenAtMs: z.number(),
        files: z.number().int().nonnegative(),
        outOfTime: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const approvedCommands = {
  /** Stores one owner's scan: replace + new generation, or coverage only, or nothing (same tree). */
  memorySyncApproved: memoryCommand({ schema: syncInput, run: (tx, _context, input) => syncApproved(tx, input) }),
};
