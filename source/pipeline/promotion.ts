// prepare and promote: the file side of the human gate. prepare reads the candidates (read-only)
// and the memory root's current files, builds the plan (promotion-plan.ts) and journals it through
// the writer; promote turns the plan applying, drives it file by file — re-read the target,
// compare its blob OID, write the approved bytes by the no-follow writer — then closes it in one
// transaction (each file's outcome, the candidates promoted) and syncs the root into the approved
// projection. A crash anywhere leaves the plan applying; promoting again (or the next open) runs
// every step again, and the target's content decides: a file that already holds the approved
// bytes is skipped, never written twice. Promote never runs git (but to bind an unusual layout):
// the plan names its root's anchor, checked against the approved digest and re-derived from the
// repository binding before anything is written.
import { inPromotionOrder } from '../memory/promotion-order.js';
import { notDraftRefusal } from '../memory/plan-voided.js';
import { crypto } from '../ground/lazy-builtin.js';
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { echoed } from '../echo-text.js';
import { CmError, lintRefusalCode } from '../errors.js';
import type { FaultPoint } from '../ground/faults.js';
import type { MemoryPlanView, MemoryPromoteResult } from '../api/memory-views.js';
import type { MemoryPrepareRequest, MemoryRetireRequest } from '../api/memory.js';
import type { Db } from '../store/database.js';
import type { WriterPort } from '../store/writer-commands.js';
import { readEntryFiles, scanApprovedRoot } from '../effects/approved-projection.js';
import type { SyncApprovedInput, SyncApprovedResult } from '../store/memory/approved-store.js';
import { projectedState, syncRoot } from './approved-access.js';
import { sha256Hex } from '../ground/digests.js';
import { scanInput } from '../store/memory/approved-follow.js';
import type { Draft } from '../memory/contracts.js';
import { candidateFindings, candidateSupport } from '../store/memory/candidate-support.js';
import { isPoisonRule } from '../memory/finding-kind.js';
import { ENTRY_TYPES, type EntryType, parseEntry } from '../memory/entry-format.js';
import { withMemoryState } from '../store/memory/state-database.js';
import { memoryRootOf } from '../effects/memory-root.js';
import {
  buildPromotionPlan,
  type CandidateForPromotion,
  canonicalPlanJson,
  type PromotionPlan,
} from '../memory/promotion-plan.js';
import { buildRetirementPlan, filesOfEntry } from '../memory/retirement-plan.js';
import {
  applyPlanFile,
  applySession,
  driftedTargets,
  syncPlanDirectories,
  targetStates,
} from '../effects/promotion-apply.js';
import {
  type FinishPromotionInput,
  candidateOwnerOf,
  ownedCandidate,
  type PromotionWork,
  readPlanTargets,
  readPlanView,
  type StorePlanInput,
  unfinishedPlanIds,
} from '../store/memory/promotion-store.js';
import {
  blobAtHead,
  resolveScope,
  resolveScopeQuickly,
  type Scope,
  scopeAsked,
  USER_SCOPE,
} from '../effects/repository.js';
import { MemoryFileError, memoryFileRefusalCode, type MemoryRoot } from '../effects/safe-files.js';

/** The writer commands prepare and promote use (the worker passes its writer's). */
export interface GateWriter {
  storePlan(input: StorePlanInput): Promise<MemoryPlanView>;
  beginPromotion(input: { planId: string }): Promise<{ work: PromotionWork | null; view: MemoryPlanView }>;
  voidPlan(input: { planId: string; reason: string; drifted: string[] }): Promise<MemoryPlanView>;
  finishPromotion(
    input: FinishPromotionInput,
  ): Promise<{ view: MemoryPlanView; projection: SyncApprovedResult | null }>;
  storeScan(input: SyncApprovedInput): Promise<SyncApprovedResult>;
}

/** The gate's writer commands over a writer port (the memory files thread's, or a test's in process). */
export const gateWriterOver = (writer: WriterPort): GateWriter => ({
  storePlan: (input) => writer.call('memoryStorePlan', input),
  beginPromotion: (input) => writer.call('memoryBeginPromotion', input),
  voidPlan: (input) => writer.call('memoryVoidPlan', input),
  finishPromotion: (input) => writer.call('memoryFinishPromotion', input),
  storeScan: (input) => writer.call('memorySyncApproved', input),
});

export interface GateDeps {
  memoryStatePath: string;
  home: string;
  writer: GateWriter;
  /** Drills stop the process at a named step: promote.afterFile.<n>, promote.beforeFinish. */
  fault?: FaultPoint | undefined;
  /**
   * Verifies the anchors of a worktree's entries once promote synced its projection
   * (anchor-refresh.ts verifyWorktreeAnchors); never fails the promotion.
   */
  verify?: ((worktree: string) => Promise<unknown>) | undefined;
}

export const fileProblem = (error: unknown, what: string): CmError | null =>
  error instanceof MemoryFileError ? new CmError(memoryFileRefusalCode(error), `${error.message}; ${what}.`) : null;

/**
 * Why a quarantined candidate cannot be prepared: its first blocking finding, a secret before a
 * poisoning, by rule and position with its excerpt (stored masked), so the person can find it in
 * the review; exit 11 promises the rule and position.
 */
function quarantined(db: Db, id: string): CmError {
  const blocking = candidateFindings(db, id).filter((f) => f.severity === 'block');
  const secret = blocking.find((f) => !isPoisonRule(f.rule));
  const first = secret ?? blocking[0];
  const where = first ? `${first.rule} at ${first.field} ${first.line}:${first.column} (${first.excerpt})` : '';
  const why = !first
    ? 'a secret was found in it'
    : secret
      ? `${where}: a secret`
      : `${where}: text written to steer the model that reads it`;
  return new CmError(
    secret || !first ? 'secret_found' : 'poisoning_found',
    `Candidate ${id} is quarantined: ${why}, so it can never be promoted. Discard it (memory discard ${id}); nothing was prepared.`,
  );
}

/** The candidate as a plan needs it: its payload, its evidence in one line, the approved entry it revises. */
function candidateForPromotion(db: Db, owner: { repositoryKey: string; worktreeKey: string }, id: string) {
  const row = ownedCandidate(db, owner, id);
  if (row.status === 'quarantined') throw quarantined(db, id);
  if (row.status !== 'draft') throw new CmError('operation_conflict', notDraftRefusal(id, row.status));
  const payload = JSON.parse(row.payload_json) as Draft & { title?: string };
  const { statements, turns, revises, proposedRevision } = candidateSupport(db, id);
  const confirmed = statements.filter((s) => s === 'human-confirmed').length;
  return {
    revision: row.revision,
    payload,
    revises,
    proposedRevision,
    evidenceSummary:
      `${statements.length} statement(s) from ${turns} user turn(s)` +
      (confirmed > 0 ? `, ${confirmed} confirmed by a person` : ''),
  };
}

/**
 * The scope the candidates belong to — one, whichever directory prepare was asked from (one inbox
 * for every repository) — and, for a project plan, their worktree as it is now: the root their
 * binding recorded must still be that repository's worktree, or nothing is prepared.
 */
function candidatesScope(deps: GateDeps, ids: readonly string[], scope: 'project' | 'user' | undefined, cwd: string) {
  const owners = withMemoryState(
    deps.memoryStatePath,
    () => null,
    (db) => ids.map((id) => ({ id, owner: candidateOwnerOf(db, id) })),
  );
  if (!owners)
    throw new CmError('not_found', `No candidate ${JSON.stringify(ids[0])}: memory holds no candidates yet.`);
  const missing = owners.find((o) => o.owner === undefined);
  if (missing)
    throw new CmError(
      'not_found',
      `No candidate ${JSON.stringify(missing.id)}; memory review lists the candidates. Nothing was prepared.`,
    );
  const [first, ...rest] = owners as Array<{ id: string; owner: NonNullable<(typeof owners)[number]['owner']> }>;
  const { owner } = first!;
  const other = rest.find(
    (o) => o.owner.repositoryKey !== owner.repositoryKey || o.owner.worktreeKey !== owner.worktreeKey,
  );
  if (other)
    throw new CmError(
      'usage',
      `${first!.id} and ${other.id} belong to different repositories (or one to the user scope): prepare each one's candidates in a plan of its own. Nothing was prepared.`,
    );
  const ofUser = owner.repositoryKey === USER_SCOPE.repositoryKey && owner.worktreeKey === USER_SCOPE.worktreeKey;
  const chosen = scope ?? (ofUser ? 'user' : 'project');
  if (chosen === 'project' && ofUser)
    throw new CmError(
      'usage',
      `${first!.id} came from outside any git worktree: it belongs to the user scope (--scope user). Nothing was prepared.`,
    );
  const candidateOwner = { repositoryKey: owner.repositoryKey, worktreeKey: owner.worktreeKey };
  if (chosen === 'user') return { scope: chosen, candidateOwner, anchor: deps.home };
  // A proposal's repository may have no binding recorded yet: the caller's worktree, if it is that one.
  const root = owner.rootRealpath ?? (resolveScope(cwd) as { rootRealpath?: string }).rootRealpath ?? null;
  const now = root === null ? null : resolveScope(root);
  if (
    root === null ||
    now?.scope !== 'project' ||
    now.rootRealpath !== root ||
    now.repositoryKey !== owner.repositoryKey ||
    now.worktreeKey !== owner.worktreeKey
  )
    throw new CmError(
      'not_found',
      `${first!.id} belongs to the repository worktree at ${root ?? '(unknown)'}, which is gone or is no longer that repository's: nothing was prepared. Restore it, prepare into your user memory with --scope user, or discard the candidate.`,
    );
  return { scope: chosen, candidateOwner, anchor: root };
}

/**
 * Builds a plan for candidates of one scope and journals it (status generated): into their own
 * repository's memory root (or the user's with --scope user), never the caller's directory's.
 */
export async function preparePlan(deps: GateDeps, request: MemoryPrepareRequest): Promise<MemoryPlanView> {
  const ids = [...new Set(request.candidateIds)];
  if (ids.length === 0) throw new CmError('usage', 'Name the candidates to promote: memory prepare <candidate-id>…');
  const { scope, candidateOwner, anchor } = candidatesScope(deps, ids, request.scope, request.cwd);
  const owner = scope === 'project' ? candidateOwner : USER_SCOPE;
  const read = withMemoryState(
    deps.memoryStatePath,
    () => null,
    (db) => ids.map((id) => ({ id, ...candidateForPromotion(db, candidateOwner, id) })),
  );
  if (!read) throw new CmError('not_found', `No candidate ${JSON.stringify(ids[0])}: memory holds no candidates yet.`);

  let root: MemoryRoot;
  let currentFiles: Array<{ path: string; bytes: Uint8Array }>;
  try {
    root = memoryRootOf(scope, anchor);
    currentFiles = readEntryFiles(root);
  } catch (error) {
    throw fileProblem(error, 'nothing was prepared') ?? error;
  }
  const entryIds = new Set(
    currentFiles.flatMap((file) => {
      const parsed = parseEntry(file.bytes);
      return parsed.ok ? [parsed.value.entry.id] : [];
    }),
  );
  // A revision its proposer aimed at one entry edits that entry's file: prepared into a memory that
  // does not hold the entry, it would become a new entry of this scope instead.
  const misplaced = read.find((c) => c.proposedRevision !== null && !entryIds.has(c.proposedRevision));
  if (misplaced) {
    const other = scope === 'project' ? 'user' : 'project';
    throw new CmError(
      'usage',
      `${misplaced.id} revises ${misplaced.proposedRevision}, which is not in the ${scope} memory: prepare it into the ${other} memory (--scope ${other}) if that one holds it, or discard it if the entry was retired. Nothing was prepared.`,
    );
  }
  const candidates: CandidateForPromotion[] = read.map((c) => {
    const inRoot = c.revises.find((entryId) => entryIds.has(entryId)) ?? null;
    return {
      candidateId: c.id,
      revision: c.revision,
      type: (ENTRY_TYPES as readonly string[]).includes(c.payload.type) ? (c.payload.type as EntryType) : 'work_fact',
      // A proposal names its title; an extraction draft's comes from its first line.
      title: c.payload.title ?? null,
      content: c.payload.content,
      appliesWhen: c.payload.scene,
      priority: c.payload.priority,
      confidence: c.payload.confidence,
      evidenceSummary: c.evidenceSummary,
      supersedes: c.revises.filter((entryId) => entryId !== inRoot),
      updatesEntryId: inRoot,
      keepsEntryFields: inRoot !== null && inRoot === c.proposedRevision,
    };
  });
  const planId = `plan-${crypto().randomBytes(8).toString('hex')}`;
  const built = buildPromotionPlan({
    planId,
    scope,
    ownerKey: `${owner.repositoryKey}:${owner.worktreeKey}`,
    candidateOwnerKey: `${candidateOwner.repositoryKey}:${candidateOwner.worktreeKey}`,
    anchor: root.anchor,
    candidates,
    currentFiles,
    now: new Date().toISOString(),
  });
  if (!built.ok) {
    const { refusal } = built;
    // Poisoning is refused as a secret is: the same exit code (11), the rule and position named.
    if (refusal.reason === 'secret' || refusal.reason === 'poisoning')
      throw new CmError(lintRefusalCode(refusal.reason), `${capitalise(refusal.message)}. Nothing was prepared.`);
    throw new CmError('invalid_input', `Cannot prepare: ${refusal.message}. Nothing was prepared.`);
  }
  return storeBuilt(deps, built.plan, owner, candidateOwner, root.anchor);
}

export type Keys = { repositoryKey: string; worktreeKey: string };

/** Journals a built plan (status generated) through the writer. */
export function storeBuilt(deps: GateDeps, plan: PromotionPlan, owner: Keys, candidateOwner: Keys, anchor: string) {
  return deps.writer.storePlan({
    planId: plan.planId,
    owner: { repositoryKey: owner.repositoryKey, worktreeKey: owner.worktreeKey },
    scope: plan.scope,
    anchor,
    candidateOwner: { repositoryKey: candidateOwner.repositoryKey, worktreeKey: candidateOwner.worktreeKey },
    canonicalJson: canonicalPlanJson(plan),
    planDigest: plan.planDigest,
    policyVersion: plan.policyVersion,
    candidates: plan.candidates,
    diff: plan.diff,
    ...(plan.consolidation ? { consolidation: { taskId: plan.consolidation.taskId } } : {}),
    files: plan.files.map((file) => ({
      path: file.path,
      entryId: file.entryId,
      action: file.action,
      candidateIds: file.candidateIds,
      targetBlobHash: file.targetBlobHash,
      content: file.content,
      sanitizedContentDigest: file.sanitizedContentDigest,
      findings: file.findings.map(({ line, column, rule, severity, excerpt }) => ({
        line,
        column,
        rule,
        severity,
        excerpt,
      })),
    })),
  });
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The one memory root whose files hold the entry `memory retire` names, and those files: looked up
 * in the files themselves, never the projection (a file already gone is not found). Without a scope:
 * the caller's worktree's root, then the user's. Refused — no project memory here, no file holds
 * it, or both roots do — before anything is stored: `memory retire` asks it before it connects too.
 */
export function retirementTarget(
  home: string,
  request: MemoryRetireRequest,
): {
  here: Scope;
  scope: 'project' | 'user';
  root: MemoryRoot;
  files: Array<{ path: string; bytes: Uint8Array }>;
} {
  const here = scopeAsked(request.cwd, request.scope, ' Nothing was prepared.');
  const scopes: Array<'project' | 'user'> = request.scope
    ? [request.scope]
    : here.scope === 'project'
      ? ['project', 'user']
      : ['user'];
  const found: Array<{
    scope: 'project' | 'user';
    root: MemoryRoot;
    files: Array<{ path: string; bytes: Uint8Array }>;
  }> = [];
  for (const scope of scopes) {
    // A data home not made yet (asked before the command connects) holds no user memory.
    if (scope === 'user' && !existsSync(home)) continue;
    const anchor = scope === 'project' ? (here as { rootRealpath: string }).rootRealpath : home;
    let root: MemoryRoot;
    let files: Array<{ path: string; bytes: Uint8Array }>;
    try {
      root = memoryRootOf(scope, anchor);
      files = readEntryFiles(root);
    } catch (error) {
      throw fileProblem(error, 'nothing was prepared') ?? error;
    }
    if (filesOfEntry(files, request.entryId).length > 0) found.push({ scope, root, files });
  }
  if (found.length === 0)
    throw new CmError(
      'not_found',
      `No approved entry ${echoed(request.entryId)} in the ${scopes.join(' or the ')} memory root: no file holds it (removed already, or another repository's). memory search lists the entries. Nothing was prepared.`,
    );
  if (found.length > 1)
    throw new CmError(
      'usage',
      `Entry ${request.entryId} is in both the project and the user memory root: say which with --scope project or --scope user. Nothing was prepared.`,
    );
  return { here, ...found[0]! };
}

/**
 * A retirement plan (memory retire): removes the file of one approved entry (retirementTarget),
 * with its exact bytes and blob OID recorded, journalled like any plan (status generated) for a
 * person to approve.
 */
export async function prepareRetirement(deps: GateDeps, request: MemoryRetireRequest): Promise<MemoryPlanView> {
  const { here, scope, root, files } = retirementTarget(deps.home, request);
  const owner: Keys = scope === 'project' ? publicKeys(here) : USER_SCOPE;
  const built = buildRetirementPlan({
    planId: `plan-${crypto().randomBytes(8).toString('hex')}`,
    scope,
    ownerKey: `${owner.repositoryKey}:${owner.worktreeKey}`,
    anchor: root.anchor,
    entryId: request.entryId,
    currentFiles: files,
  });
  if (!built.ok) throw new CmError('invalid_input', `Cannot retire: ${built.refusal.message}. Nothing was prepared.`);
  const view = await storeBuilt(deps, built.plan, owner, owner, root.anchor);
  return { ...view, history: retiredHistory(scope, root, built.plan.files[0]!) };
}

/**
 * Where a retired file's text stays once it is removed, for the person to read before approving:
 * git keeps only what a commit holds — a file never committed, or edits since, stay only in the
 * plan. One git process, in a command a person runs. The user memory is in the data home, which
 * may itself be in a repository (a dotfiles repository in the home directory): found by file
 * reads, so a data home in no repository — the usual case — costs no git process and says none.
 */
function retiredHistory(
  scope: 'project' | 'user',
  root: MemoryRoot,
  file: { path: string; targetBlobHash: string | null },
): NonNullable<MemoryPlanView['history']> {
  let worktree = root.anchor;
  let inWorktree = [...root.parts, file.path];
  if (scope === 'user') {
    const holder = resolveScopeQuickly(root.anchor);
    if (holder.scope !== 'project') return 'none';
    const below = relative(holder.rootRealpath, root.anchor);
    if (below.startsWith('..') || isAbsolute(below)) return 'unknown';
    worktree = holder.rootRealpath;
    inWorktree = [...below.split(sep).filter(Boolean), ...inWorktree];
  }
  const atHead = blobAtHead(worktree, inWorktree.join('/'));
  if (atHead === undefined) return 'unknown';
  if (atHead === null) return 'uncommitted';
  return atHead === file.targetBlobHash ? 'committed' : 'changed';
}

const publicKeys = (scope: Keys): Keys => ({ repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey });

/**
 * Why the plan's anchor is not where its owner's memory root is now, or null. The anchor is
 * re-derived from the binding the plan was prepared for — a project plan's anchor must be the root
 * of a git worktree whose repository and worktree keys are the plan's (the worktree key digests the
 * root's real path), a user plan's the data home — so a path changed in memory-state never leads
 * promote anywhere else, even when the digest and approval were forged to match it.
 */
function anchorProblem(
  deps: Pick<GateDeps, 'home'>,
  work: Pick<PromotionWork, 'scope' | 'anchor' | 'owner'>,
): string | null {
  const owned = (keys: { repositoryKey: string; worktreeKey: string }) =>
    keys.repositoryKey === work.owner.repositoryKey && keys.worktreeKey === work.owner.worktreeKey;
  if (work.scope === 'user') {
    let home: string | null;
    try {
      home = realpathSync(deps.home);
    } catch {
      home = null;
    }
    if (home !== work.anchor || !owned(USER_SCOPE))
      return 'its anchor is not this data home, where user-scope memory lives';
    return null;
  }
  // The file-read form of the binding (git itself for anything unusual): promote stays without a git process.
  const binding = resolveScopeQuickly(work.anchor);
  if (binding.scope !== 'project' || binding.rootRealpath !== work.anchor || !owned(binding))
    return 'its anchor is not the worktree of the repository it was prepared for';
  return null;
}

/** MemoryFileError codes that mean the root cannot be written safely as planned: the plan is voided. */
const UNSAFE = new Set(['invalid_path', 'symlink', 'not_directory', 'not_regular_file', 'too_large', 'changed']);

/** A plan's file as promote would find it now: already as approved (a removal: gone), still to do, or changed since prepare. */
export type PromoteFileNow = 'as-approved' | 'to-do' | 'changed';

/**
 * What `memory promote` would do now, read from the files and nothing written (`--dry-run`): each
 * file's state, in the plan's order, or why promote would void the plan before any file (its
 * anchor moved, a target is a link or too large). The journal alone cannot say it: an interrupted
 * promotion's files are marked only as the plan closes.
 */
export function promotePreviewAt(
  memoryStatePath: string,
  home: string,
  planId: string,
): { files: Array<{ path: string; now: PromoteFileNow }>; voidReason: string | null } {
  const targets = withMemoryState(
    memoryStatePath,
    () => undefined,
    (db) => readPlanTargets(db, planId),
  );
  if (!targets) throw new CmError('not_found', `No promotion plan ${echoed(planId)}; memory prepare makes one.`);
  const misplaced = anchorProblem({ home }, targets);
  if (misplaced !== null) return { files: [], voidReason: misplaced };
  let states: ReturnType<typeof targetStates>;
  try {
    states = targetStates(memoryRootOf(targets.scope, targets.anchor), targets);
  } catch (error) {
    if (error instanceof MemoryFileError && UNSAFE.has(error.code)) return { files: [], voidReason: error.message };
    throw fileProblem(error, 'nothing was written') ?? error;
  }
  return {
    files: targets.files.map((file, at) => ({
      path: file.path,
      now: states[at] === null ? 'to-do' : states[at]!.outcome === 'drift' ? 'changed' : 'as-approved',
    })),
    voidReason: null,
  };
}

/** Applies an approved plan, or finishes one a crash interrupted; an applied plan answers as it is. */
export async function promotePlan(deps: GateDeps, planId: string): Promise<MemoryPromoteResult> {
  const begun = await deps.writer.beginPromotion({ planId });
  // No work: the plan was applied already (its files' states are the earlier run's, not this
  // one's: a second promote racing the first must not say it wrote them), or voided as it began.
  if (!begun.work) return { ...begun.view, sync: null, alreadyApplied: begun.view.status === 'applied' };
  const work = begun.work;
  const voided = async (reason: string, drifted: string[]): Promise<MemoryPromoteResult> => ({
    ...(await deps.writer.voidPlan({ planId, reason, drifted })),
    sync: null,
    alreadyApplied: false,
  });
  // The journal's rows were checked against the approved digest as the plan began; where they
  // point is checked against the repository itself, before anything is read or written there.
  const misplaced = anchorProblem(deps, work);
  if (misplaced !== null) return voided(misplaced, []);
  let root: MemoryRoot;
  const session = applySession();
  try {
    root = memoryRootOf(work.scope, work.anchor);
    // Every target is checked before the first write: a plan whose files moved writes nothing.
    const drifted = driftedTargets(root, work, session);
    if (drifted.length > 0)
      return await voided(
        work.files.every((file) => file.action === 'remove')
          ? `${drifted.join(', ')} changed since the retirement plan was made, so it was not removed; read the file again and run memory retire for its entry if it should still go`
          : `${drifted.join(', ')} changed since the plan was made`,
        drifted,
      );
  } catch (error) {
    if (error instanceof MemoryFileError && UNSAFE.has(error.code)) return voided(error.message, []);
    throw fileProblem(error, `nothing was written; fix it and run memory promote ${planId} again`) ?? error;
  }
  let step = 0;
  const outcomes: Array<{ path: string; state: 'written' | 'skipped' | 'removed' }> = [];
  for (const file of inPromotionOrder(work.files)) {
    step += 1;
    let outcome: ReturnType<typeof applyPlanFile>;
    try {
      outcome = applyPlanFile(root, work.scope, file, {}, session);
    } catch (error) {
      if (error instanceof MemoryFileError && UNSAFE.has(error.code)) return voided(error.message, []);
      throw (
        fileProblem(
          error,
          `the files before it hold the approved bytes; fix it and run memory promote ${planId} again to finish`,
        ) ?? error
      );
    }
    if (outcome.outcome === 'drift')
      return voided(
        `${file.path} changed while the plan was applied${file.action === 'remove' ? '; it was kept' : ''}`,
        [file.path],
      );
    outcomes.push({ path: file.path, state: outcome.outcome });
    deps.fault?.(`promote.afterFile.${step}`);
  }
  // Every rename and every directory made is durable before the journal says applied. A resumed
  // plan flushes the whole chain: the interrupted run may have made directories it never flushed.
  syncPlanDirectories(root, work, session, { ancestors: work.resumed });
  deps.fault?.('promote.beforeFinish');
  const owner = { scope: work.scope, ...work.owner };
  // The new entries go into the approved projection in the closing transaction: search, get and
  // the next session see them. The scan runs now (the files are durable); a scan that saw a file
  // change, or lost the generation check to another sync, is done again after the plan closes.
  const projection = closingScan(deps.memoryStatePath, root, owner, work);
  let closed: Awaited<ReturnType<GateWriter['finishPromotion']>>;
  try {
    closed = await deps.writer.finishPromotion({ planId, files: outcomes, ...(projection ? { projection } : {}) });
  } catch (error) {
    // The projection must never keep the plan from closing: close it alone, then sync as any sync.
    if (!projection) throw error;
    closed = await deps.writer.finishPromotion({ planId, files: outcomes });
  }
  const stored = closed.projection && closed.projection.outcome !== 'raced' ? closed.projection : null;
  const synced = stored
    ? { generation: stored.generation, coverage: stored.coverage, entries: stored.entries }
    : await syncRoot(
        { memoryStatePath: deps.memoryStatePath, store: (input) => deps.writer.storeScan(input) },
        owner,
        work.anchor,
      )
        .then(({ scope }) => ({ generation: scope.generation, coverage: scope.coverage, entries: scope.entries }))
        .catch(() => null);
  // The promoted entries' anchors are read and verified now, not at the next sync or status.
  if (synced && work.scope === 'project' && deps.verify) await deps.verify(work.anchor).catch(() => undefined);
  return { ...closed.view, sync: synced, alreadyApplied: false };
}

/** The scan promote stores with its closing transaction; null when it must be done after (see above). */
function closingScan(
  memoryStatePath: string,
  root: MemoryRoot,
  owner: SyncApprovedInput['owner'],
  work: { projectionGeneration: number | null; files: ReadonlyArray<{ path: string; content: Uint8Array }> },
): SyncApprovedInput | null {
  let scan: ReturnType<typeof scanApprovedRoot>;
  try {
    // Not linted again: the files the projection holds as they are, and the bytes this plan wrote —
    // the exact bytes the lint passed at prepare.
    const projected = projectedState(memoryStatePath, owner).linted;
    const written = new Map(work.files.map((file) => [file.path, sha256Hex(file.content)]));
    const linted = (path: string, digest: string) => written.get(path) === digest || projected(path, digest);
    scan = scanApprovedRoot(root, owner.scope, { linted });
  } catch {
    return null;
  }
  if (scan.problems.some((problem) => problem.kind === 'changed')) return null;
  return scanInput(owner, work.projectionGeneration, scan);
}

/** Finishes every plan a crash left applying; each failure stays in the journal for the next try. */
export async function resumePromotions(deps: GateDeps): Promise<MemoryPromoteResult[]> {
  const ids = withMemoryState(deps.memoryStatePath, () => [] as string[], unfinishedPlanIds);
  const done: MemoryPromoteResult[] = [];
  for (const planId of ids) {
    const result = await promotePlan(deps, planId).catch(() => null);
    if (result) done.push(result);
  }
  return done;
}

/** One plan as the journal holds it (read-only). */
export function readPlanAt(memoryStatePath: string, planId: string): MemoryPlanView {
  const view = withMemoryState(
    memoryStatePath,
    () => undefined,
    (db) => readPlanView(db, planId),
  );
  if (!view)
    throw new CmError(
      'not_found',
      `No promotion plan ${JSON.stringify(planId)}; memory prepare makes one and prints its id.`,
    );
  return view;
}
