// The memory reads as the host and a read-only connection answer them: memory-state opened
// read-only per request (a missing file is "nothing yet"; a damaged one is memory_unavailable, and
// status says so instead of failing), the caller's scope resolved from its directory.
import { CmError } from '../errors.js';
import type { MemoryExtractRun } from '../api/memory-runs.js';
import type { ConsolidationReview, MemoryRecallResult, MemoryReview } from '../api/memory-views.js';
import { readConsolidationPatch, readConsolidationReview } from '../store/memory/consolidation-reads.js';
import type { MemoryReviewRequest } from '../api/memory.js';
import type { MemoryReviewScope } from '../api/memory-views.js';
import type { HostStatus } from '../api/history.js';
import { RESULTS_LIMIT_MAX, REVIEW_PAGE_DEFAULT, REVIEW_PAGE_MAX } from '../limits.js';
import type { Db } from '../store/database.js';
import {
  readMemoryRecall,
  readMemoryReview,
  readLastAutoUntil,
  readStoredExtractRun,
} from '../store/memory/memory-reads.js';
import { parseReviewCursor } from '../memory/review-cursor.js';
import { readWaiting } from '../store/core/capture-reads.js';
import { WINDOW_MAX_DAYS } from '../memory/window.js';
import { publicScope, resolveScopeQuickly, USER_SCOPE } from '../effects/repository.js';
import { withMemoryState } from '../store/memory/state-database.js';
import { buildFtsQuery } from '../memory/fts-query.js';
import { RECALL_K } from '../store/memory/recall.js';
import { recallQueryDigest, resultSetDigest } from '../memory/rrf.js';
import { checkedLimit } from '../ground/limit-check.js';

/**
 * What waits to be processed (HostStatus.waiting): events the drain has not read, and sealed turns
 * no automatic extraction has read — before the first, those of the last year, as its window.
 * Memory-state that cannot be read counts no turns (memory status says why).
 */
export function waitingAt(core: Db, memoryStatePath: string): HostStatus['waiting'] {
  let since: number | null = null;
  try {
    since = withMemoryState(memoryStatePath, () => null, readLastAutoUntil);
  } catch {
    return { ...readWaiting(core, Number.MAX_SAFE_INTEGER), turns: 0 };
  }
  return readWaiting(core, since ?? Date.now() - (WINDOW_MAX_DAYS - 1) * 86_400_000);
}

/** A run memory-state recorded (see readStoredExtractRun); undefined when it holds none of that id. */
export function storedExtractRunAt(path: string, runId: string): MemoryExtractRun | undefined {
  return withMemoryState(
    path,
    () => undefined,
    (db) => readStoredExtractRun(db, runId),
  );
}

const REVIEW_SCOPES: readonly MemoryReviewScope[] = ['all', 'user', 'project', 'here'];

export function memoryReviewAt(path: string, request: MemoryReviewRequest): MemoryReview {
  const filter = request.scope ?? 'all';
  if (!REVIEW_SCOPES.includes(filter))
    throw new CmError('usage', `--scope must be all, user or project, not ${JSON.stringify(filter)}.`);
  const limit = checkedLimit(request.limit, REVIEW_PAGE_MAX, REVIEW_PAGE_DEFAULT);
  const after = request.after === undefined ? null : parseReviewCursor(request.after);
  // Without a git process where the layout is plain (the same binding: effects/repository.ts).
  const caller = publicScope(resolveScopeQuickly(request.cwd));
  if (filter === 'project' && caller.scope !== 'project')
    throw new CmError(
      'usage',
      'This directory is not inside a git worktree, so it has no repository scope: run memory review --scope project in the repository, or use --scope user or all.',
    );
  const owner = filter === 'all' ? null : filter === 'user' ? USER_SCOPE : caller;
  const head = { scope: filter, callerScope: caller.scope, repositoryKey: caller.repositoryKey };
  return withMemoryState(
    path,
    () => ({ ...head, candidates: [], total: 0, nextAfter: null, patches: [] }),
    (db) => ({
      ...head,
      ...readMemoryReview(db, { owner, limit, after }),
      // Patches are not paged by the candidates' cursor: the first page carries them.
      patches: after === null ? readConsolidationReview(db, owner) : [],
    }),
  );
}

/** One stored consolidation patch by its whole id (memory patch), whatever its status. */
export function memoryPatchAt(path: string, taskId: string): ConsolidationReview {
  const patch = withMemoryState(
    path,
    () => undefined,
    (db) => readConsolidationPatch(db, taskId),
  );
  if (!patch)
    throw new CmError(
      'not_found',
      `No consolidation patch ${JSON.stringify(taskId.slice(0, 200))}; memory review and memory consolidate list them.`,
    );
  return patch;
}

/** Recall text is what a person or a draft says: bounded like a search query. */
export const RECALL_TEXT_MAX_CHARS = 4096;

export function memoryRecallAt(path: string, text: string, cwd: string, limit?: number): MemoryRecallResult {
  if (text.trim() === '')
    throw new CmError('usage', 'Give the text to recall against, e.g. common-memory memory recall "use pnpm".');
  if (text.length > RECALL_TEXT_MAX_CHARS)
    throw new CmError(
      'limit_exceeded',
      `The recall text is over ${RECALL_TEXT_MAX_CHARS} characters; use a shorter text.`,
    );
  checkedLimit(limit, RESULTS_LIMIT_MAX, RESULTS_LIMIT_MAX); // checked only: without one, the recall takes its own default
  const scope = publicScope(resolveScopeQuickly(cwd));
  return withMemoryState(
    path,
    () => emptyRecall(text, limit),
    (db) => readMemoryRecall(db, scope, text, limit),
  );
}

/** A recall before memory-state exists: the same digests as over an empty pool. */
function emptyRecall(text: string, limit?: number): MemoryRecallResult {
  const k = limit ?? RECALL_K;
  return {
    recallQueryDigest: recallQueryDigest({ ftsQuery: buildFtsQuery(text), perListLimit: 3 * k, limit: k }),
    resultSetDigest: resultSetDigest([]),
    items: [],
  };
}
