// What an external runner is about to receive, stated before anything is sent (seed 004 §9): a
// RunnerExecutionPlan per task — the digest and size of the exact bytes, what they cover, and
// where they go — and, for a run of several tasks, an AuthorizationManifest over those plans. A
// plan's digest covers every field but the digest and the decision, so the same bytes under
// another provider, model, endpoint or profile are another plan and need another approval.
import { sha256Hex } from '../ground/digests.js';
import { memoryDigest, type AdjudicationTask, type ExtractionTask } from './contracts.js';
import type {
  AuthorizationManifest,
  InputCoverageItem,
  RunnerExecutionPlan,
  RunnerInputFinding,
} from '../api/memory-runs.js';
import type { ExternalRunner, RunnerTask } from './runner.js';
import { CONSOLIDATION_PROMPT_VERSION, type ConsolidationTask } from './consolidation/task.js';

export type { AuthorizationManifest, InputCoverageItem, RunnerExecutionPlan };

export const PLAN_FORMAT = 'common-memory-runner-execution-plan@v1';
export const MANIFEST_FORMAT = 'common-memory-authorization-manifest@v1';

function coverageOf(work: RunnerTask, promptDigest: string, promptBytes: number): InputCoverageItem[] {
  const prompt: InputCoverageItem = {
    sourceKind: 'prompt',
    opaqueSourceId: work.kind === 'consolidation' ? CONSOLIDATION_PROMPT_VERSION : work.task.contract.promptVersion,
    revision: null,
    contentDigest: promptDigest,
    bytes: promptBytes,
    truncated: false,
  };
  if (work.kind === 'extraction') {
    const task: ExtractionTask = work.task;
    return [
      ...task.chunk.coverage.map((item) => ({
        sourceKind: 'transcript' as const,
        opaqueSourceId: item.ref,
        revision: null,
        contentDigest: item.sha256 ?? memoryDigest(item),
        bytes: item.bytes,
        truncated: item.completeness === 'truncated',
      })),
      // Earlier turns sent as context: only with the profile's conversationContext, each named.
      ...(work.context ?? []).map((turn) => ({
        sourceKind: 'context' as const,
        opaqueSourceId: turn.turnKey,
        revision: null,
        contentDigest: sha256Hex(turn.text),
        bytes: turn.bytes,
        truncated: false,
      })),
      prompt,
    ];
  }
  if (work.kind === 'consolidation') {
    // Each approved entry at the revision the task saw, each scene file of the root by its bytes.
    const task: ConsolidationTask = work.task;
    return [
      ...task.entries.map((entry) => ({
        sourceKind: 'entry' as const,
        opaqueSourceId: entry.id,
        revision: entry.revision,
        contentDigest: entry.contentDigest,
        bytes: Buffer.byteLength(JSON.stringify(entry), 'utf8'),
        truncated: false,
      })),
      ...task.scenes.map((scene) => ({
        sourceKind: 'scene' as const,
        opaqueSourceId: scene.name,
        revision: null,
        contentDigest: scene.contentDigest,
        bytes: Buffer.byteLength(JSON.stringify(scene), 'utf8'),
        truncated: false,
      })),
      prompt,
    ];
  }
  const task: AdjudicationTask = work.task;
  return [
    ...task.drafts.map((draft) => ({
      sourceKind: 'draft' as const,
      opaqueSourceId: draft.candidateId,
      revision: null,
      contentDigest: memoryDigest(draft),
      bytes: Buffer.byteLength(JSON.stringify(draft), 'utf8'),
      truncated: false,
    })),
    ...task.pool.map((item) => ({
      sourceKind: 'candidate-pool' as const,
      opaqueSourceId: `${item.sourceKind}:${item.id}`,
      revision: item.revision,
      contentDigest: item.contentDigest,
      bytes: Buffer.byteLength(item.summary, 'utf8'),
      truncated: false,
    })),
    prompt,
  ];
}

/**
 * The plan of one task: `input` is exactly the bytes the runner's `send` will get, built from the
 * screened task (runner-input-lint.ts); `screening` lists what the lint found and replaced there.
 */
export function executionPlan(
  runner: ExternalRunner,
  work: RunnerTask,
  input: Buffer,
  screening: { findings: RunnerInputFinding[]; replaced: number },
): RunnerExecutionPlan {
  const inputCoverage = coverageOf(work, sha256Hex(input), input.length);
  const body = {
    format: PLAN_FORMAT,
    taskKind: work.kind,
    taskId: work.task.taskId,
    runnerInputDigest: sha256Hex(input),
    inputCoverageDigest: memoryDigest(inputCoverage),
    inputCoverage,
    runnerProfile: runner.profile.name,
    provider: runner.profile.provider,
    model: runner.profile.model,
    endpoint: runner.profile.endpoint,
    bytesToSend: input.length,
    localSessionPersistence: 'none',
    providerRetention: runner.profile.providerRetention,
    inputFindings: screening.findings,
    secretsReplaced: screening.replaced,
  } as const;
  return { ...body, planDigest: memoryDigest(body), authorization: 'pending' };
}

export function authorizationManifest(plans: RunnerExecutionPlan[]): AuthorizationManifest {
  const body = {
    format: MANIFEST_FORMAT,
    plans: plans.map((plan) => ({
      planDigest: plan.planDigest,
      taskKind: plan.taskKind,
      taskId: plan.taskId,
      bytesToSend: plan.bytesToSend,
    })),
    totalBytes: plans.reduce((sum, plan) => sum + plan.bytesToSend, 0),
  } as const;
  return { ...body, manifestDigest: memoryDigest(body), authorization: 'pending' };
}

export interface Approval {
  approvePlan?: string | undefined;
  approveManifest?: string | undefined;
}

/**
 * Which plans an approval covers: the manifest digest covers all of them; a plan digest covers its
 * own task (and, when the run has one task, the manifest digest of that one plan too).
 */
export function approvedPlans(
  plans: RunnerExecutionPlan[],
  manifest: AuthorizationManifest,
  approval: Approval,
): { approved: RunnerExecutionPlan[]; via: 'digest' | 'manifest' | null; mismatch: string | null } {
  if (approval.approveManifest !== undefined) {
    if (approval.approveManifest === manifest.manifestDigest)
      return { approved: plans, via: 'manifest', mismatch: null };
    return { approved: [], via: null, mismatch: approval.approveManifest };
  }
  if (approval.approvePlan !== undefined) {
    const plan = plans.find((entry) => entry.planDigest === approval.approvePlan);
    if (plan) return { approved: [plan], via: 'digest', mismatch: null };
    if (plans.length === 1 && approval.approvePlan === manifest.manifestDigest)
      return { approved: plans, via: 'digest', mismatch: null };
    return { approved: [], via: null, mismatch: approval.approvePlan };
  }
  return { approved: [], via: null, mismatch: null };
}
