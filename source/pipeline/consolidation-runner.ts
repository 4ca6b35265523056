// Consolidation by an external runner (issue 28), in the runners thread: the task the memory files
// thread planned for that runner goes through extraction's own machinery — conformance probe, the
// authorised-bytes plan (its entries and scenes screened for secrets first), budgets, the bounded
// send — and the runner's answer through the same submission as the built-in runner's: the strict
// ConsolidationPatch@v1 schema, every citation inside the task, doctrine citing entries it rests
// on, the memory lint of every text, and the compare-and-swap on every entry's revision.
import { randomBytes } from 'node:crypto';
import type { PendingAuthorization } from '../api/memory-runs.js';
import type { MemoryConsolidateResult } from '../api/memory-views.js';
import { CmError } from '../errors.js';
import { isExternal } from '../memory/runner.js';
import type { Approval } from '../memory/runner-plan.js';
import type { ConsolidationTask } from '../memory/consolidation/task.js';
import type { WriterPort } from '../store/writer-commands.js';
import { storedPatch } from './consolidation.js';
import { type ExtractionPipeline, leaseFor } from './extraction-pipeline.js';

export interface RunConsolidationRequest {
  /** What the memory files thread made: the pending task, for this runner. */
  made: MemoryConsolidateResult;
  runner: string;
  approvePlan?: string | undefined;
  approveManifest?: string | undefined;
}

export async function consolidateWithRunner(
  pipeline: ExtractionPipeline,
  writer: WriterPort,
  memoryStatePath: string,
  holder: string,
  request: RunConsolidationRequest,
): Promise<MemoryConsolidateResult> {
  const { made } = request;
  const runner = pipeline.runnerOf(request.runner);
  if (!isExternal(runner))
    throw new CmError('usage', `The ${runner.name} runner is offline: run memory consolidate without --runner.`);
  await pipeline.conformance(runner, false);
  const approval: Approval = { approvePlan: request.approvePlan, approveManifest: request.approveManifest };
  // The gate reports into an extraction report's fields: a plan to approve, or (never here) a budget stop.
  const scratch: { failures: string[]; pendingPlan?: PendingAuthorization; tasks: { submitted: number } } = {
    failures: [],
    tasks: { submitted: 0 },
  };
  const gate = await pipeline.authorise(runner, [made.taskId], approval, scratch);
  if (scratch.pendingPlan) return { ...made, outcome: 'pending', pendingPlan: scratch.pendingPlan };
  const { claim } = await writer.call('memoryClaimTask', {
    holder,
    leaseMs: leaseFor(runner),
    taskIds: [made.taskId],
  });
  if (!claim)
    throw new CmError(
      'operation_conflict',
      `Consolidation task ${made.taskId} is being run by another process, or spent its attempts (memory retry ${made.taskId}); try again in a minute.`,
    );
  const task = claim.stored.task as unknown as ConsolidationTask;
  const runId = `consolidation-${randomBytes(6).toString('hex')}`;
  const output = await pipeline.runOnce(runner, { kind: 'consolidation', task }, { runId, claim, gate });
  const failed = (reason: string) => ({ ...made, outcome: 'rejected' as const, reason });
  if (output.ok === 'unsent') return failed(output.reason);
  if (!output.ok) {
    await writer.call('memoryAbandonTask', {
      taskId: claim.taskId,
      claimToken: claim.claimToken,
      reason: output.reason,
    });
    return failed(`${output.reason}; nothing was kept (run memory consolidate --runner ${runner.name} again to retry)`);
  }
  const submitted = await writer.call('memorySubmitConsolidation', {
    taskId: claim.taskId,
    claimToken: claim.claimToken,
    runner: runner.name,
    output: output.text,
  });
  switch (submitted.outcome) {
    case 'accepted':
      return {
        ...made,
        outcome: 'accepted',
        reason: null,
        blocked: submitted.blocked,
        findings: submitted.findings,
        patch: storedPatch(memoryStatePath, made),
      };
    case 'stale':
      return { ...made, outcome: 'stale', reason: submitted.reason };
    default:
      return failed(`the ${runner.name} runner's patch was refused: ${submitted.reason}`);
  }
}
