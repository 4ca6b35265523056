// prepare for a consolidation patch (issue 28, item 3): the operations a person accepted become a
// promotion plan (memory/consolidation/patch-plan.ts) journalled like any — then approve and
// promote as for candidates. The patch's root is read into the approved projection first, so an
// entry edited by hand since the task was made is seen as a new revision; a patch resting on
// anything that changed is refused as stale, and `memory consolidate` makes a new one.
import { crypto } from '../ground/lazy-builtin.js';
import { echoed } from '../echo-text.js';
import { CmError, lintRefusalCode } from '../errors.js';
import type { MemoryPlanView } from '../api/memory-views.js';
import type { MemoryPrepareRequest } from '../api/memory.js';
import { readEntryFiles } from '../effects/approved-projection.js';
import { memoryRootOf } from '../effects/memory-root.js';
import { resolveScope, USER_SCOPE } from '../effects/repository.js';
import type { MemoryRoot } from '../effects/safe-files.js';
import { readConsolidationFiles, readSceneFiles } from '../effects/scene-files.js';
import { buildConsolidationPlan, consolidationTargets } from '../memory/consolidation/patch-plan.js';
import { readEntryRevisions, readPatchToPrepare } from '../store/memory/consolidation-reads.js';
import { withMemoryState } from '../store/memory/state-database.js';
import { syncRoot } from './approved-access.js';
import { fileProblem, type GateDeps, storeBuilt } from './promotion.js';

const readPatch = (deps: GateDeps, taskId: string) =>
  withMemoryState(
    deps.memoryStatePath,
    () => undefined,
    (db) => readPatchToPrepare(db, taskId),
  );

/** The plan of a consolidation patch's accepted operations, journalled (status generated). */
export async function preparePatchPlan(deps: GateDeps, request: MemoryPrepareRequest): Promise<MemoryPlanView> {
  const { taskId, operations } = request.patch!;
  if (request.candidateIds.length > 0)
    throw new CmError(
      'usage',
      'Prepare a consolidation patch on its own, not with candidates: memory prepare <patch-id> [--operations 1,3]. Nothing was prepared.',
    );
  const patch = readPatch(deps, taskId);
  if (!patch)
    throw new CmError(
      'not_found',
      `No consolidation patch ${echoed(taskId)}; memory review lists them. Nothing was prepared.`,
    );
  if (patch.status === 'discarded')
    throw new CmError('operation_conflict', `Consolidation patch ${taskId} was discarded. Nothing was prepared.`);
  if (patch.status === 'applied')
    throw new CmError(
      'operation_conflict',
      `Consolidation patch ${taskId} was applied by plan ${patch.planId}; run memory consolidate for a new patch. Nothing was prepared.`,
    );
  if (request.scope !== undefined && request.scope !== patch.scope)
    throw new CmError(
      'usage',
      `Patch ${taskId} is over the ${patch.scope} scope's entries; it is prepared there. Nothing was prepared.`,
    );
  const owner = { repositoryKey: patch.repositoryKey, worktreeKey: patch.worktreeKey };
  let anchor: string;
  if (patch.scope === 'user') {
    if (owner.repositoryKey !== USER_SCOPE.repositoryKey || owner.worktreeKey !== USER_SCOPE.worktreeKey)
      throw new CmError('internal', `Patch ${taskId} names the user scope with another owner.`);
    anchor = deps.home;
  } else {
    // A project patch is prepared in its own worktree: the one the caller stands in.
    const here = resolveScope(request.cwd);
    if (
      here.scope !== 'project' ||
      here.repositoryKey !== owner.repositoryKey ||
      here.worktreeKey !== owner.worktreeKey
    )
      throw new CmError(
        'usage',
        `Patch ${taskId} is over another worktree's entries: run memory prepare in the worktree it was made in. Nothing was prepared.`,
      );
    anchor = here.rootRealpath;
  }

  // The projection follows the files first: a hand edit since the task is a new revision.
  await syncRoot(
    { memoryStatePath: deps.memoryStatePath, store: (input) => deps.writer.storeScan(input) },
    { scope: patch.scope, ...owner },
    anchor,
  );
  const revisions = withMemoryState(
    deps.memoryStatePath,
    () => new Map<string, number>(),
    (db) => readEntryRevisions(db, owner),
  );
  let root: MemoryRoot;
  let entryFiles: Array<{ path: string; bytes: Uint8Array }>;
  let consolidationFiles: Array<{ path: string; bytes: Uint8Array }>;
  try {
    root = memoryRootOf(patch.scope, anchor);
    entryFiles = readEntryFiles(root);
    // Every scene of the root too: one that lists an entry the plan removes is updated with it.
    const scenes = readSceneFiles(root, patch.scope).scenes.map((scene) => scene.path);
    consolidationFiles = readConsolidationFiles(root, [
      ...new Set([...consolidationTargets(patch.operations), ...scenes]),
    ]);
  } catch (error) {
    throw fileProblem(error, 'nothing was prepared') ?? error;
  }
  const built = buildConsolidationPlan({
    planId: `plan-${crypto().randomBytes(8).toString('hex')}`,
    scope: patch.scope,
    ownerKey: `${owner.repositoryKey}:${owner.worktreeKey}`,
    anchor: root.anchor,
    patch: { taskId, operations: patch.operations },
    task: patch.task,
    accepted: operations ?? null,
    revisions,
    entryFiles,
    consolidationFiles,
    now: new Date().toISOString(),
  });
  if (!built.ok) {
    const { refusal } = built;
    if (refusal.reason === 'stale')
      throw new CmError(
        'operation_conflict',
        `Cannot prepare: ${refusal.message}. Nothing was prepared; run memory consolidate again for a new patch.`,
      );
    if (refusal.reason === 'secret' || refusal.reason === 'poisoning')
      throw new CmError(lintRefusalCode(refusal.reason), `Cannot prepare: ${refusal.message}. Nothing was prepared.`);
    throw new CmError('invalid_input', `Cannot prepare: ${refusal.message}. Nothing was prepared.`);
  }
  return storeBuilt(deps, built.plan, owner, owner, root.anchor);
}
