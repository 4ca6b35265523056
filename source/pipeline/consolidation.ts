// Consolidation with the built-in runner (issue 28): plan a task over one owner's approved entries,
// claim it, run the deterministic runner on what the task gives (nothing else), and submit the
// patch — the writer checks it against the task and every entry's revision now (a compare-and-
// swap); an accepted patch waits in the review queue. The same entries consolidated before answer
// `unchanged` with the patch already queued. A task for an external runner is only planned here
// (with the runner in its binding); the runners thread runs it (consolidation-runner.ts).
import type { MemoryConsolidateRequest } from '../api/memory.js';
import type { MemoryConsolidateResult } from '../api/memory-views.js';
import { memoryRootOf } from '../effects/memory-root.js';
import { publicScope, scopeAsked, USER_SCOPE } from '../effects/repository.js';
import { readSceneFiles } from '../effects/scene-files.js';
import { SCENE_DIRECTORY } from '../memory/consolidation/scene-format.js';
import { CmError } from '../errors.js';
import {
  BUILTIN_CONSOLIDATION_RUNNER,
  builtinConsolidationPatch,
  type ConsolidationTask,
  type ConsolidationTaskScene,
} from '../memory/consolidation/task.js';
import { serializeEntryDocument } from '../memory/entry-format.js';
import { type SyncDeps, syncRoot } from './approved-access.js';
import type { WriterPort } from '../store/writer-commands.js';
import { readConsolidationPatch } from '../store/memory/consolidation-reads.js';
import { withMemoryState } from '../store/memory/state-database.js';

/** How long the built-in runner may hold its claim: it answers in well under a second. */
const CONSOLIDATION_LEASE_MS = 60_000;

/**
 * The task's patch as stored once accepted. A task answered with no operation keeps no patch
 * (there is nothing to review), so an empty patch of the task stands for it.
 */
export const storedPatch = (
  memoryStatePath: string,
  task: { taskId: string; scope: 'project' | 'user'; repositoryKey: string; runner: string },
) =>
  withMemoryState(
    memoryStatePath,
    () => undefined,
    (db) => readConsolidationPatch(db, task.taskId),
  ) ?? {
    taskId: task.taskId,
    scope: task.scope,
    repositoryKey: task.repositoryKey,
    runner: task.runner,
    createdAt: new Date().toISOString(),
    status: 'pending' as const,
    planId: null,
    operations: [],
  };

export async function consolidateWithBuiltin(
  writer: WriterPort,
  memoryStatePath: string,
  owner: { scope: 'project' | 'user'; repositoryKey: string; worktreeKey: string },
  holder: string,
  scenes: readonly ConsolidationTaskScene[] = [],
  problems: readonly string[] = [],
  preview = false,
  /** An external runner's profile: the task is made for it and left pending (consolidation-runner.ts runs it). */
  runner?: string,
): Promise<MemoryConsolidateResult> {
  const planned = await writer.call('memoryPlanConsolidation', {
    owner,
    scenes: scenes.map((scene) => ({ ...scene, entries: [...scene.entries] })),
    ...(runner === undefined ? {} : { runner }),
  });
  const head = {
    problems: [...problems],
    taskId: planned.taskId,
    scope: owner.scope,
    repositoryKey: owner.repositoryKey,
    runner: runner ?? BUILTIN_CONSOLIDATION_RUNNER,
    entries: planned.task.entries.length,
    pendingPlan: null,
    blocked: 0,
    findings: [],
  };
  const stored = () => storedPatch(memoryStatePath, head);
  if (planned.status === 'submitted') return { ...head, outcome: 'unchanged', reason: null, patch: stored() };
  if (preview || runner !== undefined) return { ...head, outcome: 'pending', reason: null, patch: null };
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
  const patch = builtinConsolidationPatch(planned.task as ConsolidationTask);
  const submitted = await writer.call('memorySubmitConsolidation', {
    taskId: planned.taskId,
    claimToken: claim.claimToken,
    runner: BUILTIN_CONSOLIDATION_RUNNER,
    output: JSON.stringify(patch),
  });
  switch (submitted.outcome) {
    case 'accepted':
      return {
        ...head,
        outcome: 'accepted',
        reason: null,
        blocked: submitted.blocked,
        findings: submitted.findings,
        patch: stored(),
      };
    case 'stale':
      return { ...head, outcome: 'stale', reason: submitted.reason, patch: null };
    default:
      throw new CmError(
        'internal',
        `The built-in runner's patch for ${planned.taskId} was refused: ${submitted.reason}`,
      );
  }
}

/**
 * `memory consolidate` as the memory files thread runs it: the scope's root read into the
 * projection, its scene files read (a file that is not a scene is left out and named), then the
 * built-in runner's task as above.
 */
export async function consolidateScope(
  deps: SyncDeps & { writer: WriterPort; holder: string },
  request: MemoryConsolidateRequest,
): Promise<MemoryConsolidateResult> {
  const here = scopeAsked(request.cwd, request.scope);
  const scope = request.scope ?? here.scope;
  const owner = scope === 'user' ? publicScope(USER_SCOPE) : publicScope(here);
  const anchor = scope === 'user' ? deps.home : (here as { rootRealpath: string }).rootRealpath;
  await deps.open();
  const synced = await syncRoot(deps, owner, anchor);
  const read = readSceneFiles(memoryRootOf(scope, anchor), scope);
  // A scene file left out is named once: by the reading of the scenes below, not by the sync too.
  const problems = [
    ...synced.problems
      .filter((problem) => !problem.path.startsWith(`${SCENE_DIRECTORY}/`))
      .map((problem) => `${problem.path}: ${problem.message}`),
    ...read.problems,
  ];
  const scenes = read.scenes.flatMap(({ parsed, contentDigest }) =>
    parsed.file.kind === 'scene'
      ? [
          {
            name: parsed.file.name,
            title: parsed.file.title,
            appliesWhen: parsed.file.appliesWhen,
            entries: parsed.file.entries,
            body: parsed.file.body,
            text: serializeEntryDocument(parsed.document),
            contentDigest,
          },
        ]
      : [],
  );
  return consolidateWithBuiltin(
    deps.writer,
    deps.memoryStatePath,
    owner,
    deps.holder,
    scenes,
    problems,
    request.preview ?? false,
    request.runner === undefined || request.runner === 'builtin' ? undefined : request.runner,
  );
}
