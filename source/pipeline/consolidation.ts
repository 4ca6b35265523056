// Consolidation with the built-in runner (issue 28): plan a task over one owner's approved entries,
// claim it, run the deterministic runner on what the task gives (nothing else), and submit the
// patch — the writer checks it against the task and every entry's revision now (a compare-and-
// swap); an accepted patch waits in the review queue. The same entries consolidated before answer
// `unchanged` with the patch already queued.
import type { MemoryConsolidateResult } from '../api/memory-views.js';
import { CmError } from '../errors.js';
import { BUILTIN_CONSOLIDATION_RUNNER, builtinConsolidationPatch } from '../memory/consolidation/task.js';
import type { WriterPort } from '../store/writer-commands.js';
import { readConsolidationPatch } from '../store/memory/consolidation-reads.js';
import { withMemoryState } from '../store/memory/state-database.js';

/** How long the built-in runner may hold its claim: it answers in well under a second. */
const CONSOLIDATION_LEASE_MS = 60_000;

export async function consolidateWithBuiltin(
  writer: WriterPort,
  memoryStatePath: string,
  owner: { scope: 'project' | 'user'; repositoryKey: string; worktreeKey: string },
  holder: string,
): Promise<MemoryConsolidateResult> {
  const planned = await writer.call('memoryPlanConsolidation', { owner });
  const head = {
    taskId: planned.taskId,
    scope: owner.scope,
    repositoryKey: owner.repositoryKey,
    runner: BUILTIN_CONSOLIDATION_RUNNER,
    entries: planned.task.entries.length,
  };
  const stored = () =>
    withMemoryState(
      memoryStatePath,
      () => undefined,
      (db) => readConsolidationPatch(db, planned.taskId),
    ) ?? null;
  if (planned.status === 'submitted') return { ...head, outcome: 'unchanged', reason: null, patch: stored() };
  const { claim } = await writer.call('memoryClaimTask', {
    holder,
    leaseMs: CONSOLIDATION_LEASE_MS,
    taskIds: [planned.taskId],
  });
  if (!claim)
    throw new CmError(
      'operation_conflict',
      `Consolidation task ${planned.taskId} is being run by another process, or spent its attempts (memory retry ${planned.taskId}); try again in a minute.`,
    );
  const patch = builtinConsolidationPatch(planned.task);
  const submitted = await writer.call('memorySubmitConsolidation', {
    taskId: planned.taskId,
    claimToken: claim.claimToken,
    runner: BUILTIN_CONSOLIDATION_RUNNER,
    output: JSON.stringify(patch),
  });
  switch (submitted.outcome) {
    case 'accepted':
      return { ...head, outcome: 'accepted', reason: null, patch: stored() };
    case 'stale':
      return { ...head, outcome: 'stale', reason: submitted.reason, patch: null };
    default:
      throw new CmError(
        'internal',
        `The built-in runner's patch for ${planned.taskId} was refused: ${submitted.reason}`,
      );
  }
}
