// The contracts between the pipeline and a runner (seed 004 §9): what a runner receives and what it
// must return, each a strict zod schema with its own `format` string. A runner is untrusted: its
// output is bounded, parsed as JSON, checked against these schemas (unknown keys are errors), and
// only then looked at.
import { z } from 'zod';
import { sha256Hex } from '../ground/digests.js';
import { canonicalJson } from '../store/core/operations.js';

export const FORMATS = {
  extractionTask: 'common-memory-extraction-task@v1',
  draftBatch: 'common-memory-candidate-draft-batch@v1',
  adjudicationTask: 'common-memory-adjudication-task@v1',
  adjudicationResult: 'common-memory-adjudication-result@v1',
} as const;

/** Versions that enter every binding: a change in any of them makes earlier tasks a different identity. */
export const PROMPT_VERSION = 'builtin-rules@2';
export const CHUNKER_VERSION = 'chunker@1';
export const ANALYZER_VERSION = 'fts5-porter-unicode61@1';
export const CONTRACT_SCHEMA_VERSION = 1;

/** A digest of a JSON value: SHA-256 of its canonical JSON (sorted keys), lowercase hex. */
export const memoryDigest = (value: unknown): string => sha256Hex(canonicalJson(value));

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const draftType = z.enum(['work_fact', 'work_task', 'work_method', 'work_artifact']);

export const evidenceEntry = z
  .object({
    evidenceId: z.string().min(1).max(64),
    kind: z.literal('turn'),
    pointerDigest: hex64,
    display: z.string().max(400),
  })
  .strict();

export const extractionBinding = z
  .object({
    memoryStateUuid: z.string(),
    storeId: z.string(),
    owner: z.object({ repositoryKey: hex64, worktreeKey: hex64 }).strict(),
    sourceInputDigest: hex64,
    turnRevisions: z.array(hex64),
    promptVersion: z.string(),
    schemaVersion: z.number().int(),
    chunkerVersion: z.string(),
  })
  .strict();

export const extractionTask = z
  .object({
    format: z.literal(FORMATS.extractionTask),
    taskId: z.string(),
    binding: extractionBinding,
    session: z
      .object({
        client: z.string(),
        sessionKey: z.string(),
        timeWindow: z.object({ start: z.string(), end: z.string() }).strict(),
      })
      .strict(),
    evidenceCatalog: z.array(evidenceEntry),
    chunk: z
      .object({
        chunkRef: z.string(),
        turnRange: z.object({ start: z.number().int(), end: z.number().int() }).strict(),
        coverage: z.array(
          z
            .object({
              sourceKind: z.enum(['turn', 'tool-payload']),
              ref: z.string(),
              completeness: z.enum(['full', 'truncated']),
              bytes: z.number().int(),
              sha256: hex64.optional(),
            })
            .strict(),
        ),
        transcript: z.string(),
      })
      .strict(),
    contract: z
      .object({
        draftSchema: z.literal(FORMATS.draftBatch),
        maxCandidates: z.number().int(),
        promptVersion: z.string(),
      })
      .strict(),
  })
  .strict();
export type ExtractionTask = z.infer<typeof extractionTask>;

/** Drafts per extraction task (seed 004 §9). */
export const DRAFTS_PER_BATCH_MAX = 8;

/** A signal's name: a short word list, so a runner cannot smuggle prose or markup into the review through it. */
const DRAFT_SIGNAL = /^-?[a-z][a-z0-9+:-]{0,47}$/;
const DRAFT_SIGNALS_MAX = 16;

export const draftStatement = z
  .object({
    statementId: z.string().regex(/^[A-Za-z0-9._-]{1,32}$/),
    text: z.string().min(1).max(2000),
    evidenceIds: z.array(z.string()).min(1).max(16),
  })
  .strict();

export const draft = z
  .object({
    content: z.string().min(1).max(4000),
    type: draftType,
    priority: z.number().int().min(0).max(100),
    confidence: z.enum(['high', 'medium', 'low']),
    scene: z.string().max(200).nullable(),
    statements: z.array(draftStatement).min(1).max(16),
    /** Why the runner drafted it (the built-in runner's signals, e.g. "imperative", "-now"): shown in review. */
    signals: z.array(z.string().regex(DRAFT_SIGNAL)).max(DRAFT_SIGNALS_MAX).optional(),
  })
  .strict();
export type Draft = z.infer<typeof draft>;

export const draftBatch = z
  .object({
    format: z.literal(FORMATS.draftBatch),
    taskId: z.string(),
    binding: extractionBinding,
    candidates: z.array(draft).max(DRAFTS_PER_BATCH_MAX),
  })
  .strict();
export type DraftBatch = z.infer<typeof draftBatch>;

export const poolItem = z
  .object({
    sourceKind: z.enum(['approved', 'candidate']),
    id: z.string(),
    revision: z.number().int(),
    contentDigest: hex64,
    state: z.string(),
    summary: z.string(),
  })
  .strict();

export const adjudicationBinding = z
  .object({
    memoryStateUuid: z.string(),
    owner: z.object({ repositoryKey: hex64, worktreeKey: hex64 }).strict(),
    draftBatchDigest: hex64,
    approvedProjection: z.object({ generation: z.number().int(), analyzerVersion: z.string() }).strict(),
    candidateProjection: z.object({ generation: z.number().int(), analyzerVersion: z.string() }).strict(),
    recallAlgorithmVersion: z.string(),
    recallQueryDigest: hex64,
    resultSetDigest: hex64,
    poolItemRevisions: z.array(
      z.object({ sourceKind: z.enum(['approved', 'candidate']), id: z.string(), revision: z.number().int() }).strict(),
    ),
    promptVersion: z.string(),
    schemaVersion: z.number().int(),
  })
  .strict();
export type AdjudicationBinding = z.infer<typeof adjudicationBinding>;

export const adjudicationTask = z
  .object({
    format: z.literal(FORMATS.adjudicationTask),
    taskId: z.string(),
    binding: adjudicationBinding,
    drafts: z.array(draft.extend({ candidateId: z.string() }).strict()),
    recallSets: z.array(
      z
        .object({
          draftRef: z.string(),
          ordered: z.array(z.object({ rank: z.number().int(), sourceKind: z.string(), id: z.string() }).strict()),
        })
        .strict(),
    ),
    pool: z.array(poolItem),
    contract: z.object({ resultSchema: z.literal(FORMATS.adjudicationResult), promptVersion: z.string() }).strict(),
  })
  .strict();
export type AdjudicationTask = z.infer<typeof adjudicationTask>;

export const adjudicationResult = z
  .object({
    format: z.literal(FORMATS.adjudicationResult),
    taskId: z.string(),
    binding: adjudicationBinding,
    adjudications: z.array(
      z
        .object({
          draftRef: z.string(),
          action: z.enum(['store', 'skip', 'update', 'merge']),
          targetIds: z.array(z.string()).max(1),
          mergedFields: z
            .object({
              content: z.string().min(1).max(4000).optional(),
              type: draftType.optional(),
              priority: z.number().int().min(0).max(100).optional(),
            })
            .strict()
            .nullable(),
        })
        .strict(),
    ),
  })
  .strict();
export type AdjudicationResult = z.infer<typeof adjudicationResult>;

/** A runner's whole answer, in bytes: drafts of one chunk are a few KiB; a megabyte is a runaway. */
export const RUNNER_OUTPUT_MAX_BYTES = 1024 * 1024;

/**
 * Parses a runner's raw output against a contract. Returns the value or one line that says what
 * was wrong (never throws: a bad answer is a recorded, retriable failure of that attempt).
 */
export function parseRunnerOutput<T>(
  raw: string,
  schema: z.ZodType<T>,
  format: string,
): { ok: true; value: T } | { ok: false; reason: string } {
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > RUNNER_OUTPUT_MAX_BYTES)
    return { ok: false, reason: `the runner's output is ${bytes} bytes, over the ${RUNNER_OUTPUT_MAX_BYTES}-byte cap` };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "the runner's output is not JSON" };
  }
  const given = (value as { format?: unknown } | null)?.format;
  if (given !== format)
    return { ok: false, reason: `the runner's output has format ${JSON.stringify(given ?? null)}, expected ${format}` };
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `the runner's output does not match ${format}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`,
    };
  }
  return { ok: true, value: parsed.data };
}
