// The human gate in memory-state (seed 004 §2, tx-promotion): a person confirms statements and
// discards candidates; a promotion plan is journalled with its exact bytes, approved against its
// digest, and driven generated → approved → applying → applied | voided. The file writes happen
// outside the writer (promotion.ts); each step here is one transaction, so a crash between two
// resumes from what the journal says. Nothing is ever deleted: a discarded candidate and a voided
// plan stay, with their reasons.
import { z } from 'zod';
import { CmError } from '../../errors.js';
import { sha256Hex } from '../../ground/digests.js';
import type { MemoryPlanFileView, MemoryPlanStatus, MemoryPlanView } from '../../api/memory-views.js';
import { memoryCommand } from '../command.js';
import { type Db, prepared } from '../database.js';
import type { Tx } from '../transaction.js';
import { type SyncApprovedResult, syncApproved, syncInput } from './approved-store.js';
import { readProjectionCoverage } from './approved-sync.js';
import { ANALYZER_VERSION, memoryDigest } from '../../memory/contracts.js';
import { type PlanConsolidation, storedPlanProblem } from '../../memory/promotion-plan.js';
import { RECALL_ALGORITHM } from '../../memory/rrf.js';
import { unpoolCandidate } from './recall-terms.js';
import { NOTHING_TO_PREPARE, withStepAfterVoid } from '../../memory/plan-voided.js';
import { revisedEntries } from './candidate-support.js';
import { entryIdForCandidate } from '../../memory/candidate-entry.js';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const ownerSchema = z.object({ repositoryKey: hex64, worktreeKey: hex64 }).strict();
type Owner = z.infer<typeof ownerSchema>;

export interface CandidateRow {
  rowid: number;
  candidate_id: string;
  repository_key: string;
  worktree_key: string;
  status: string;
  revision: number;
  payload_json: string;
}

const readCandidate = (db: Db, candidateId: string): CandidateRow | undefined =>
  prepared(
    db,
    'SELECT rowid, candidate_id, repository_key, worktree_key, status, revision, payload_json FROM candidates WHERE candidate_id = ?',
  ).get(candidateId) as CandidateRow | undefined;

/**
 * Whose a candidate is: its owner's keys and, for a repository's, the worktree root its binding
 * recorded (null for the user scope). Undefined when there is no such candidate. The human gate
 * acts on the candidate's own scope, whatever directory the person works from (one inbox).
 */
export function candidateOwnerOf(
  db: Db,
  candidateId: string,
): { repositoryKey: string; worktreeKey: string; rootRealpath: string | null } | undefined {
  return prepared(
    db,
    `SELECT c.repository_key AS repositoryKey, c.worktree_key AS worktreeKey, b.root_realpath AS rootRealpath
     FROM candidates c LEFT JOIN repository_bindings b USING (repository_key, worktree_key) WHERE c.candidate_id = ?`,
  ).get(candidateId) as { repositoryKey: string; worktreeKey: string; rootRealpath: string | null } | undefined;
}

/** The candidate, if it belongs to the caller's repository; "not found" otherwise (another repository's is not shown). */
export function ownedCandidate(db: Db, owner: Owner, candidateId: string): CandidateRow {
  const row = readCandidate(db, candidateId);
  if (!row || row.repository_key !== owner.repositoryKey || row.worktree_key !== owner.worktreeKey) {
    throw new CmError(
      'not_found',
      `No candidate ${JSON.stringify(candidateId)} in this repository; memory review lists the candidates (run it in the repository they came from).`,
    );
  }
  return row;
}

function bumpCandidateGeneration(db: Db, owner: Owner): void {
  prepared(
    db,
    `INSERT INTO candidate_projection (repository_key, worktree_key, generation, analyzer_version, recall_algorithm_version) VALUES (?, ?, 1, ?, ?)
    ON CONFLICT (repository_key, worktree_key) DO UPDATE SET generation = generation + 1`,
  ).run(owner.repositoryKey, owner.worktreeKey, ANALYZER_VERSION, RECALL_ALGORITHM);
}

/** What a statement's citations digest is computed from: its evidence references, by id. */
function citationsDigestOf(db: Db, candidateId: string, statementId: string): string {
  const refs = prepared(
    db,
    'SELECT evidence_id AS evidenceId, pointer_digest AS pointerDigest FROM evidence_refs WHERE candidate_id = ? AND statement_id = ? ORDER BY evidence_id',
  ).all(candidateId, statementId) as Array<{ evidenceId: string; pointerDigest: string }>;
  return memoryDigest(refs);
}

// ---- confirm, discard ----

const confirmInput = ownerSchema.extend({ candidateId: z.string().min(1), statementId: z.string().min(1) }).strict();

function confirmStatement(tx: Tx<'memory'>, input: z.infer<typeof confirmInput>) {
  const row = ownedCandidate(tx.db, input, input.candidateId);
  if (row.status !== 'draft' && row.status !== 'quarantined') {
    throw new CmError(
      'operation_conflict',
      `Candidate ${row.candidate_id} is ${row.status}; only draft and quarantined candidates can be confirmed.`,
    );
  }
  const payload = JSON.parse(row.payload_json) as { statements: Array<{ statementId: string; text: string }> };
  const statement = payload.statements.find((s) => s.statementId === input.statementId);
  const assessment = prepared(
    tx.db,
    'SELECT citations_digest, statement_text_digest, claim_support, revision FROM assessments WHERE candidate_id = ? AND statement_id = ?',
  ).get(row.candidate_id, input.statementId) as
    | { citations_digest: string; statement_text_digest: string; claim_support: string; revision: number }
    | undefined;
  if (!statement || !assessment) {
    throw new CmError(
      'not_found',
      `Candidate ${row.candidate_id} has no statement ${JSON.stringify(input.statementId)}; memory review lists its statements.`,
    );
  }
  if (sha256Hex(statement.text) !== assessment.statement_text_digest) {
    throw new CmError(
      'operation_conflict',
      `Statement ${input.statementId} of ${row.candidate_id} changed since it was assessed (its text is not the text that was checked); nothing was confirmed — review it again.`,
    );
  }
  if (citationsDigestOf(tx.db, row.candidate_id, input.statementId) !== assessment.citations_digest) {
    throw new CmError(
      'operation_conflict',
      `Statement ${input.statementId} of ${row.candidate_id} cites other evidence than when it was assessed; nothing was confirmed — review it again.`,
    );
  }
  const base = {
    candidateId: row.candidate_id,
    statementId: input.statementId,
    claimSupport: 'human-confirmed' as const,
    quarantined: row.status === 'quarantined',
  };
  if (assessment.claim_support === 'human-confirmed') return { ...base, revision: assessment.revision, replayed: true };
  prepared(
    tx.db,
    "UPDATE assessments SET claim_support = 'human-confirmed', assessed_by = 'human', revision = revision + 1 WHERE candidate_id = ? AND statement_id = ?",
  ).run(row.candidate_id, input.statementId);
  prepared(tx.db, 'UPDATE candidates SET updated_at_ms = ? WHERE candidate_id = ?').run(tx.nowMs, row.candidate_id);
  return { ...base, revision: assessment.revision + 1, replayed: false };
}

const discardInput = ownerSchema.extend({ candidateId: z.string().min(1) }).strict();

function discardCandidate(tx: Tx<'memory'>, input: z.infer<typeof discardInput>) {
  const row = ownedCandidate(tx.db, input, input.candidateId);
  if (row.status === 'discarded')
    return { candidateId: row.candidate_id, status: 'discarded' as const, revision: row.revision, replayed: true };
  if (row.status !== 'draft' && row.status !== 'quarantined') {
    throw new CmError(
      'operation_conflict',
      `Candidate ${row.candidate_id} is ${row.status}; only draft and quarantined candidates can be discarded${row.status === 'promoted' ? promotedEntrySteps(tx.db, row.candidate_id) : ''}.`,
    );
  }
  // Out of the dedup pool (a no-op for a candidate that never entered it).
  unpoolCandidate(tx.db, row.rowid);
  prepared(
    tx.db,
    "UPDATE candidates SET status = 'discarded', revision = revision + 1, updated_at_ms = ? WHERE candidate_id = ?",
  ).run(tx.nowMs, row.candidate_id);
  bumpCandidateGeneration(tx.db, input);
  return { candidateId: row.candidate_id, status: 'discarded' as const, revision: row.revision + 1, replayed: false };
}

/** What to do with a promoted candidate's entry instead: retire or revise it, through a plan like any change. */
function promotedEntrySteps(db: Db, candidateId: string): string {
  const entryId = revisedEntries(db, candidateId)[0] ?? entryIdForCandidate(candidateId);
  return ` (it is the approved entry ${entryId} now: remove it with memory retire ${entryId}, or change it with memory revise ${entryId})`;
}

// ---- plans ----

/**
 * What a plan rests on besides the candidates' revisions: every assessment of its candidates. A
 * statement confirmed after prepare changes it, and the plan no longer says what it was approved for.
 */
export function assessmentDigestOf(db: Db, candidateIds: readonly string[]): string {
  const rows = prepared(
    db,
    `SELECT candidate_id AS c, statement_id AS s, claim_support AS support, revision AS r, statement_text_digest AS d, citations_digest AS e
     FROM assessments WHERE candidate_id IN (SELECT value FROM json_each(?)) ORDER BY candidate_id, statement_id`,
  ).all(JSON.stringify([...candidateIds].sort())) as unknown[];
  return memoryDigest(rows);
}

/** Why the candidates are not what the plan was made from, or null. */
function candidatesMoved(
  db: Db,
  candidates: ReadonlyArray<{ candidateId: string; revision: number }>,
  assessmentDigest: string,
): string | null {
  // A candidate that can no longer be promoted: with it alone there is nothing to prepare again.
  const without = candidates.length === 1 ? NOTHING_TO_PREPARE : 'run memory prepare again with the other candidates';
  for (const { candidateId, revision } of candidates) {
    const row = readCandidate(db, candidateId);
    if (!row) return `candidate ${candidateId} no longer exists; ${without}`;
    if (row.status === 'promoted')
      return `candidate ${candidateId} is promoted now (another plan wrote it); ${without}`;
    if (row.status !== 'draft') return `candidate ${candidateId} is ${row.status} now; ${without}`;
    if (row.revision !== revision) return `candidate ${candidateId} changed (revision ${revision} → ${row.revision})`;
  }
  if (
    assessmentDigestOf(
      db,
      candidates.map((c) => c.candidateId),
    ) !== assessmentDigest
  )
    return 'a statement of its candidates was confirmed or re-assessed since';
  return null;
}

/** Voids the plan in this transaction when its candidates moved; returns why, or null. */
function voidIfMoved(tx: Tx<'memory'>, row: PlanRow): string | null {
  const moved =
    candidatesMoved(
      tx.db,
      JSON.parse(row.candidate_ids_json) as Array<{ candidateId: string; revision: number }>,
      row.assessment_digest,
    ) ?? consolidationMoved(tx.db, row);
  if (moved !== null) setStatus(tx, row.plan_id, 'voided', moved);
  return moved;
}

const findingSchema = z
  .object({
    line: z.number(),
    column: z.number(),
    rule: z.string(),
    severity: z.enum(['block', 'warn']),
    excerpt: z.string(),
  })
  .strict();

const storePlanInput = z
  .object({
    planId: z.string().min(1).max(200),
    owner: ownerSchema,
    scope: z.enum(['project', 'user']),
    /** The root's anchor (worktree root or data home): where promote writes, without running git. */
    anchor: z.string().min(1),
    candidateOwner: ownerSchema,
    canonicalJson: z.string(),
    planDigest: hex64,
    policyVersion: z.string(),
    /** None only for a retirement: a plan whose every file is a removal. */
    candidates: z.array(z.object({ candidateId: z.string(), revision: z.number().int() }).strict()),
    diff: z.string(),
    /** A consolidation patch's plan: the patch it carries operations of (its canonical JSON says which). */
    consolidation: z
      .object({ taskId: z.string().min(1) })
      .strict()
      .optional(),
    files: z
      .array(
        z
          .object({
            path: z.string().min(1),
            entryId: z.string().min(1),
            action: z.enum(['create', 'update', 'remove']),
            candidateIds: z.array(z.string()),
            targetBlobHash: z
              .string()
              .regex(/^[0-9a-f]{40}$/)
              .nullable(),
            content: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'content must be bytes'),
            sanitizedContentDigest: hex64,
            findings: z.array(findingSchema),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

export type StorePlanInput = z.input<typeof storePlanInput>;

function storePlan(tx: Tx<'memory'>, input: z.infer<typeof storePlanInput>): MemoryPlanView {
  if (sha256Hex(input.canonicalJson) !== input.planDigest)
    throw new CmError('internal', 'The plan does not match its digest; nothing was stored.');
  for (const file of input.files) {
    if (sha256Hex(file.content) !== file.sanitizedContentDigest)
      throw new CmError('internal', `The bytes of ${file.path} do not match their digest; nothing was stored.`);
  }
  // A plan writes what candidates say, carries a consolidation patch's operations (which write and
  // remove), or (a retirement) only removes files: never two of them, never none. A candidate plan
  // removes a file only to move its entry (a revision that changed the type: promotion-plan.ts).
  const created = new Set(input.files.filter((file) => file.action === 'create').map((file) => file.entryId));
  const removals = input.files.filter(
    (file) => file.action === 'remove' && !(input.candidates.length > 0 && created.has(file.entryId)),
  ).length;
  if (input.consolidation) {
    if (input.candidates.length > 0)
      throw new CmError('internal', 'A consolidation plan carries no candidates; nothing was stored.');
    prepareConsolidationPatch(tx, input.consolidation.taskId, input.owner, input.canonicalJson, input.planId);
  } else if (input.candidates.length === 0 ? removals !== input.files.length : removals > 0)
    throw new CmError('internal', 'A plan either writes candidates or only removes files; nothing was stored.');
  for (const { candidateId } of input.candidates) ownedCandidate(tx.db, input.candidateOwner, candidateId);
  const assessmentDigest = assessmentDigestOf(
    tx.db,
    input.candidates.map((c) => c.candidateId),
  );
  // The candidates were read before the plan was built; they must still be what it was built from.
  for (const { candidateId, revision } of input.candidates) {
    const row = readCandidate(tx.db, candidateId)!;
    if (row.status !== 'draft' || row.revision !== revision) {
      throw new CmError(
        'operation_conflict',
        `Candidate ${candidateId} changed while the plan was being made; nothing was stored — prepare again.`,
      );
    }
  }
  prepared(
    tx.db,
    `INSERT INTO promotion_journal (plan_id, repository_key, worktree_key, scope, anchor, candidate_owner_json, plan_canonical_json, plan_digest,
       candidate_ids_json, assessment_digest, policy_version, diff, status, created_at_ms, updated_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'generated', ?, ?)`,
  ).run(
    input.planId,
    input.owner.repositoryKey,
    input.owner.worktreeKey,
    input.scope,
    input.anchor,
    JSON.stringify(input.candidateOwner),
    input.canonicalJson,
    input.planDigest,
    JSON.stringify(input.candidates),
    assessmentDigest,
    input.policyVersion,
    input.diff,
    tx.nowMs,
    tx.nowMs,
  );
  const insertFile = prepared(
    tx.db,
    `INSERT INTO promotion_files (plan_id, target_path, entry_id, action, candidate_ids_json, target_blob_hash, sanitized_content, sanitized_digest, findings_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const file of input.files) {
    insertFile.run(
      input.planId,
      file.path,
      file.entryId,
      file.action,
      JSON.stringify(file.candidateIds),
      file.targetBlobHash,
      Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength),
      file.sanitizedContentDigest,
      JSON.stringify(file.findings),
    );
  }
  return readPlanView(tx.db, input.planId)!;
}

/**
 * A consolidation patch leaves the review queue as its plan is stored (status prepared, the plan
 * named in plan_id). Only the plan's owner's patch, pending or prepared before (a voided plan
 * prepared again), and the one the plan's canonical JSON names; an applied patch is never prepared
 * again (its plan's promote set it applied).
 */
function prepareConsolidationPatch(
  tx: Tx<'memory'>,
  taskId: string,
  owner: Owner,
  canonicalJson: string,
  planId: string,
): void {
  const row = prepared(
    tx.db,
    'SELECT repository_key, worktree_key, status, plan_id FROM consolidation_patches WHERE task_id = ?',
  ).get(taskId) as { repository_key: string; worktree_key: string; status: string; plan_id: string | null } | undefined;
  if (!row || row.repository_key !== owner.repositoryKey || row.worktree_key !== owner.worktreeKey)
    throw new CmError('not_found', `No consolidation patch ${taskId} for this memory root; nothing was stored.`);
  if (row.status === 'discarded')
    throw new CmError('operation_conflict', `Consolidation patch ${taskId} was discarded; nothing was stored.`);
  if (planConsolidationOf(canonicalJson)?.taskId !== taskId)
    throw new CmError('internal', `The plan does not carry patch ${taskId}; nothing was stored.`);
  if (row.status === 'applied')
    throw new CmError(
      'operation_conflict',
      `Consolidation patch ${taskId} was applied by plan ${row.plan_id}; nothing was stored — run memory consolidate for a new patch.`,
    );
  prepared(tx.db, "UPDATE consolidation_patches SET status = 'prepared', plan_id = ? WHERE task_id = ?").run(
    planId,
    taskId,
  );
}

/** The consolidation part of a plan's canonical JSON, or null (a plan of candidates or a retirement). */
function planConsolidationOf(canonicalJson: string): PlanConsolidation | null {
  try {
    const parsed = JSON.parse(canonicalJson) as { consolidation?: PlanConsolidation };
    return parsed.consolidation ?? null;
  } catch {
    return null;
  }
}

/**
 * Why a consolidation plan's operations no longer rest on what they were prepared on (an entry's
 * revision changed in memory-state since), or null.
 */
function consolidationMoved(db: Db, row: PlanRow): string | null {
  const consolidation = planConsolidationOf(row.plan_canonical_json);
  if (!consolidation) return null;
  const revision = prepared(
    db,
    'SELECT revision FROM approved_entries WHERE repository_key = ? AND worktree_key = ? AND entry_id = ?',
  ).pluck();
  for (const operation of consolidation.operations)
    for (const based of operation.basedOn) {
      const now = revision.get(row.repository_key, row.worktree_key, based.entryId) as number | undefined;
      if (now !== based.revision)
        return `entry ${based.entryId} changed since the plan was prepared (revision ${based.revision} → ${now ?? 'none'}); run memory consolidate again for a new patch`;
    }
  return null;
}

interface PlanRow {
  plan_id: string;
  repository_key: string;
  worktree_key: string;
  scope: 'project' | 'user';
  anchor: string;
  candidate_owner_json: string;
  plan_canonical_json: string;
  plan_digest: string;
  candidate_ids_json: string;
  assessment_digest: string;
  policy_version: string;
  diff: string;
  status: MemoryPlanStatus;
  void_reason: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

interface FileRow {
  target_path: string;
  entry_id: string;
  action: 'create' | 'update' | 'remove';
  candidate_ids_json: string;
  target_blob_hash: string | null;
  sanitized_content: Buffer;
  sanitized_digest: string;
  findings_json: string;
  state: MemoryPlanFileView['state'];
}

const readPlanRow = (db: Db, planId: string): PlanRow | undefined =>
  prepared(db, 'SELECT * FROM promotion_journal WHERE plan_id = ?').get(planId) as PlanRow | undefined;

const readFileRows = (db: Db, planId: string): FileRow[] =>
  prepared(db, 'SELECT * FROM promotion_files WHERE plan_id = ? ORDER BY target_path').all(planId) as FileRow[];

function requirePlan(db: Db, planId: string): PlanRow {
  const row = readPlanRow(db, planId);
  if (!row)
    throw new CmError(
      'not_found',
      `No promotion plan ${JSON.stringify(planId)}; memory prepare makes one and prints its id.`,
    );
  return row;
}

function ownerKeyOf(json: string): string {
  try {
    const owner = JSON.parse(json) as Partial<Owner> | null;
    return `${owner?.repositoryKey}:${owner?.worktreeKey}`;
  } catch {
    return '';
  }
}

/**
 * Why the journal's rows are not the plan that was approved (or, with `approval`, why it cannot
 * be promoted), or null. Each column promote acts on is compared with the plan's canonical JSON
 * and that with its digest (storedPlanProblem); an approval must be recorded for that digest.
 */
function journalProblem(db: Db, row: PlanRow, options: { approval: boolean }): string | null {
  const problem = storedPlanProblem({
    planId: row.plan_id,
    scope: row.scope,
    ownerKey: `${row.repository_key}:${row.worktree_key}`,
    candidateOwnerKey: ownerKeyOf(row.candidate_owner_json),
    anchor: row.anchor,
    canonicalJson: row.plan_canonical_json,
    planDigest: row.plan_digest,
    candidatesJson: row.candidate_ids_json,
    policyVersion: row.policy_version,
    diff: row.diff,
    files: readFileRows(db, row.plan_id).map((file) => ({
      path: file.target_path,
      entryId: file.entry_id,
      action: file.action,
      candidateIdsJson: file.candidate_ids_json,
      targetBlobHash: file.target_blob_hash,
      content: file.sanitized_content,
      sanitizedContentDigest: file.sanitized_digest,
      findingsJson: file.findings_json,
    })),
  });
  if (problem !== null) return `memory-state's record of the plan does not match what was approved (${problem})`;
  if (!options.approval) return null;
  const approved = prepared(
    db,
    "SELECT 1 FROM authorization_log WHERE plan_digest = ? AND decision = 'approved' AND via = 'digest' AND task_id IS NULL AND runner_profile IS NULL",
  ).get(row.plan_digest);
  return approved ? null : 'no approval of its digest is recorded in memory-state';
}

const fileView = (row: FileRow): MemoryPlanFileView => ({
  path: row.target_path,
  entryId: row.entry_id,
  action: row.action,
  candidateIds: JSON.parse(row.candidate_ids_json) as string[],
  targetBlobHash: row.target_blob_hash,
  sanitizedContentDigest: row.sanitized_digest,
  bytes: row.sanitized_content.length,
  state: row.state,
  findings: JSON.parse(row.findings_json) as MemoryPlanFileView['findings'],
});

const consolidationView = (canonicalJson: string) => {
  const consolidation = planConsolidationOf(canonicalJson);
  return consolidation ? { consolidation } : {};
};

export function readPlanView(db: Db, planId: string): MemoryPlanView | undefined {
  const row = readPlanRow(db, planId);
  if (!row) return undefined;
  return {
    planId: row.plan_id,
    planDigest: row.plan_digest,
    status: row.status,
    scope: row.scope,
    candidates: JSON.parse(row.candidate_ids_json) as MemoryPlanView['candidates'],
    files: readFileRows(db, planId).map(fileView),
    diff: row.diff,
    voidReason: row.void_reason,
    createdAt: new Date(row.created_at_ms).toISOString(),
    updatedAt: new Date(row.updated_at_ms).toISOString(),
    ...consolidationView(row.plan_canonical_json),
  };
}

/** Plans a crash may have left half-applied: promote finishes them. */
export const unfinishedPlanIds = (db: Db): string[] =>
  prepared(db, "SELECT plan_id FROM promotion_journal WHERE status = 'applying' ORDER BY created_at_ms, plan_id")
    .pluck()
    .all() as string[];

function setStatus(tx: Tx<'memory'>, planId: string, status: MemoryPlanStatus, reason: string | null = null): void {
  prepared(
    tx.db,
    'UPDATE promotion_journal SET status = ?, void_reason = coalesce(?, void_reason), updated_at_ms = ? WHERE plan_id = ?',
  ).run(status, reason, tx.nowMs, planId);
}

function refuseByStatus(row: PlanRow, doing: 'approve' | 'promote'): never {
  const id = row.plan_id;
  switch (row.status) {
    case 'voided':
      throw new CmError(
        'operation_conflict',
        `${withStepAfterVoid(`Plan ${id} was voided (${row.void_reason ?? 'no reason recorded'}); nothing was written`, row.void_reason, ' — ')}.`,
      );
    case 'applied':
      throw new CmError(
        'operation_conflict',
        `Plan ${id} is already applied; its files are in the memory root — commit them with git.`,
      );
    case 'generated':
      throw new CmError(
        'operation_conflict',
        `Plan ${id} is not approved yet; read its diff and run memory approve ${id} --digest ${row.plan_digest}.`,
      );
    default:
      throw new CmError(
        'operation_conflict',
        doing === 'approve'
          ? `Plan ${id} is already approved${row.status === 'approved' ? '' : ` (${row.status})`}; run memory promote ${id}.`
          : `Plan ${id} is ${row.status}.`,
      );
  }
}

const approveInput = z.object({ planId: z.string().min(1), digest: z.string().min(1) }).strict();

function approvePlan(tx: Tx<'memory'>, input: z.infer<typeof approveInput>) {
  const row = requirePlan(tx.db, input.planId);
  if (row.status !== 'generated') refuseByStatus(row, 'approve');
  if (input.digest.toLowerCase() !== row.plan_digest) {
    throw new CmError(
      'operation_conflict',
      // Its own digest is not given here: copied from a refusal, it would approve bytes nobody read.
      `The digest ${input.digest} is not plan ${row.plan_id}'s; nothing was approved — read the plan's diff (common-memory memory plan ${row.plan_id}) and approve the digest it shows.`,
    );
  }
  // A record that is not the plan its digest names is voided: approving it would approve other bytes.
  const damaged = journalProblem(tx.db, row, { approval: false });
  if (damaged !== null) {
    setStatus(tx, row.plan_id, 'voided', damaged);
    return { voided: damaged, view: readPlanView(tx.db, row.plan_id)! };
  }
  // A plan that no longer describes its candidates is voided in this transaction, and says so.
  const moved = voidIfMoved(tx, row);
  if (moved !== null) return { voided: moved, view: readPlanView(tx.db, row.plan_id)! };
  setStatus(tx, row.plan_id, 'approved');
  prepared(tx.db, "INSERT INTO authorization_log (plan_digest, decided_at_ms, via) VALUES (?, ?, 'digest')").run(
    row.plan_digest,
    tx.nowMs,
  );
  return { voided: null, view: readPlanView(tx.db, row.plan_id)! };
}

/** A plan as promote needs it: where to write and the exact bytes of each file. */
export interface PromotionWork {
  planId: string;
  planDigest: string;
  scope: 'project' | 'user';
  anchor: string;
  owner: Owner;
  canonicalJson: string;
  /** The plan was applying already: a run before this one was interrupted. */
  resumed: boolean;
  /** The owner's approved projection generation when the plan began (null: none yet), for the closing sync's check. */
  projectionGeneration: number | null;
  files: Array<{
    path: string;
    action: 'create' | 'update' | 'remove';
    targetBlobHash: string | null;
    content: Uint8Array;
    sanitizedContentDigest: string;
    state: MemoryPlanFileView['state'];
  }>;
}

/**
 * A plan's targets and bytes as promote would act on them, read only: nothing starts or resumes
 * (`memory promote --dry-run` compares them with the files). Undefined when no plan has the id.
 */
export function readPlanTargets(
  db: Db,
  planId: string,
): Pick<PromotionWork, 'scope' | 'anchor' | 'owner' | 'files'> | undefined {
  const row = readPlanRow(db, planId);
  return row ? planTargets(db, row) : undefined;
}

/** Where a plan writes and the bytes of each file step: what promote and its dry run both read. */
function planTargets(db: Db, row: PlanRow): Pick<PromotionWork, 'scope' | 'anchor' | 'owner' | 'files'> {
  return {
    scope: row.scope,
    anchor: row.anchor,
    owner: { repositoryKey: row.repository_key, worktreeKey: row.worktree_key },
    files: readFileRows(db, row.plan_id).map((file) => ({
      path: file.target_path,
      action: file.action,
      targetBlobHash: file.target_blob_hash,
      content: new Uint8Array(file.sanitized_content),
      sanitizedContentDigest: file.sanitized_digest,
      state: file.state,
    })),
  };
}

const planIdInput = z.object({ planId: z.string().min(1) }).strict();

/**
 * approved → applying (or an applying plan resumed): the plan's bytes for the file steps. The
 * candidates are checked again; if they moved, the plan is voided here and nothing is written.
 */
function beginPromotion(tx: Tx<'memory'>, input: z.infer<typeof planIdInput>) {
  const row = requirePlan(tx.db, input.planId);
  const resumed = row.status === 'applying';
  if (row.status !== 'approved' && row.status !== 'applying') {
    // An applied plan asked again answers as it is: promote is safe to repeat.
    if (row.status === 'applied') return { work: null, view: readPlanView(tx.db, row.plan_id)! };
    refuseByStatus(row, 'promote');
  }
  // The rows promote is about to act on must be the plan a person approved, every column of them,
  // whether it starts now or resumes: a record changed in memory-state since voids the plan here.
  const damaged = journalProblem(tx.db, row, { approval: true });
  if (damaged !== null) {
    setStatus(tx, row.plan_id, 'voided', damaged);
    return { work: null, view: readPlanView(tx.db, row.plan_id)! };
  }
  if (row.status === 'approved') {
    if (voidIfMoved(tx, row) !== null) return { work: null, view: readPlanView(tx.db, row.plan_id)! };
    setStatus(tx, row.plan_id, 'applying');
  }
  const targets = planTargets(tx.db, row);
  const work: PromotionWork = {
    ...targets,
    planId: row.plan_id,
    planDigest: row.plan_digest,
    canonicalJson: row.plan_canonical_json,
    resumed,
    projectionGeneration: readProjectionCoverage(tx.db, targets.owner)?.generation ?? null,
  };
  return { work, view: readPlanView(tx.db, row.plan_id)! };
}

const voidInput = z
  .object({ planId: z.string().min(1), reason: z.string().min(1), drifted: z.array(z.string()) })
  .strict();

function voidPlan(tx: Tx<'memory'>, input: z.infer<typeof voidInput>): MemoryPlanView {
  const row = requirePlan(tx.db, input.planId);
  if (row.status === 'applied') refuseByStatus(row, 'promote');
  if (row.status !== 'voided') setStatus(tx, row.plan_id, 'voided', input.reason);
  const mark = prepared(
    tx.db,
    "UPDATE promotion_files SET state = 'drifted' WHERE plan_id = ? AND target_path = ? AND state = 'pending'",
  );
  for (const path of input.drifted) mark.run(input.planId, path);
  return readPlanView(tx.db, row.plan_id)!;
}

/** The void reason of a plan a person withdrew (memory void, Esc on the TUI's Prepare). */
const WITHDRAWN_BY_A_PERSON = 'withdrawn by a person before it was written';

/**
 * A person withdraws a plan not yet written: a generated or approved plan is voided, so no approval
 * or promote can use it again. A plan being written (applying, perhaps interrupted) is refused — only
 * promote finishes it; an applied plan's files are already in the memory root. Withdrawing a voided
 * plan changes nothing and says so (`already`).
 */
function withdrawPlan(tx: Tx<'memory'>, input: z.infer<typeof planIdInput>) {
  const row = requirePlan(tx.db, input.planId);
  const id = row.plan_id;
  if (row.status === 'applying')
    throw new CmError(
      'operation_conflict',
      `Plan ${id} is being written (or its writing was interrupted); it cannot be withdrawn — run memory promote ${id} to finish it.`,
    );
  if (row.status === 'applied')
    throw new CmError(
      'operation_conflict',
      `Plan ${id} is already applied; its files are in the memory root — retire an entry with memory retire.`,
    );
  const already = row.status === 'voided';
  if (!already) setStatus(tx, id, 'voided', WITHDRAWN_BY_A_PERSON);
  return { already, view: readPlanView(tx.db, id)! };
}

const finishInput = z
  .object({
    planId: z.string().min(1),
    /** What each file step found: written now, or already holding the approved bytes (a step replayed after a crash). */
    files: z.array(z.object({ path: z.string().min(1), state: z.enum(['written', 'skipped', 'removed']) }).strict()),
    /**
     * The scan of the root the plan wrote, stored into the approved projection in this same
     * transaction (as memorySyncApproved would, with its generation check): one durable commit
     * closes the plan and shows its entries.
     */
    projection: syncInput.optional(),
  })
  .strict();

export type FinishPromotionInput = z.input<typeof finishInput>;

/**
 * The closing transaction: each file's outcome, the plan applied, its candidates promoted, out of
 * the dedup pool, the pool's generation + 1. The file steps are recorded here, not one commit
 * each: whether a step is done is decided by the target's content when it runs again, so a
 * commit per file would only add a durable write per file. With `projection`, the scan of the
 * root is stored here too: a crash before this commit leaves both to the resumed run, after it
 * neither is owed.
 */
function finishPromotion(
  tx: Tx<'memory'>,
  input: z.infer<typeof finishInput>,
): { view: MemoryPlanView; projection: SyncApprovedResult | null } {
  const row = requirePlan(tx.db, input.planId);
  if (row.status === 'applied') return { view: readPlanView(tx.db, row.plan_id)!, projection: null };
  if (row.status !== 'applying') refuseByStatus(row, 'promote');
  const scanned = input.projection?.owner;
  if (
    scanned &&
    (scanned.scope !== row.scope ||
      scanned.repositoryKey !== row.repository_key ||
      scanned.worktreeKey !== row.worktree_key)
  )
    throw new CmError('internal', `Plan ${row.plan_id} was closed with the scan of another memory root.`);
  const outcome = new Map(input.files.map((file) => [file.path, file.state]));
  const missing = readFileRows(tx.db, row.plan_id).filter((file) => !outcome.has(file.target_path));
  if (missing.length > 0)
    throw new CmError('internal', `Plan ${row.plan_id} still has ${missing.length} file(s) to write.`);
  const mark = prepared(tx.db, 'UPDATE promotion_files SET state = ? WHERE plan_id = ? AND target_path = ?');
  for (const [path, state] of outcome) mark.run(state, row.plan_id, path);
  const owner = JSON.parse(row.candidate_owner_json) as Owner;
  const promote = prepared(
    tx.db,
    "UPDATE candidates SET status = 'promoted', revision = revision + 1, updated_at_ms = ? WHERE candidate_id = ?",
  );
  for (const { candidateId } of JSON.parse(row.candidate_ids_json) as Array<{ candidateId: string }>) {
    const candidate = readCandidate(tx.db, candidateId);
    if (!candidate) continue;
    unpoolCandidate(tx.db, candidate.rowid);
    promote.run(tx.nowMs, candidateId);
  }
  if (JSON.parse(row.candidate_ids_json).length > 0) bumpCandidateGeneration(tx.db, owner);
  setStatus(tx, row.plan_id, 'applied');
  // The patch this plan was prepared from is applied: review and prepare no longer offer it.
  const consolidation = planConsolidationOf(row.plan_canonical_json);
  if (consolidation)
    prepared(
      tx.db,
      "UPDATE consolidation_patches SET status = 'applied' WHERE task_id = ? AND plan_id = ? AND status = 'prepared'",
    ).run(consolidation.taskId, row.plan_id);
  const projection = input.projection ? syncApproved(tx, input.projection) : null;
  return { view: readPlanView(tx.db, row.plan_id)!, projection };
}

export const promotionCommands = {
  memoryConfirmStatement: memoryCommand({ schema: confirmInput, run: (tx, _c, input) => confirmStatement(tx, input) }),
  memoryDiscardCandidate: memoryCommand({ schema: discardInput, run: (tx, _c, input) => discardCandidate(tx, input) }),
  memoryStorePlan: memoryCommand({ schema: storePlanInput, run: (tx, _c, input) => storePlan(tx, input) }),
  memoryApprovePlan: memoryCommand({ schema: approveInput, run: (tx, _c, input) => approvePlan(tx, input) }),
  memoryBeginPromotion: memoryCommand({ schema: planIdInput, run: (tx, _c, input) => beginPromotion(tx, input) }),
  memoryVoidPlan: memoryCommand({ schema: voidInput, run: (tx, _c, input) => voidPlan(tx, input) }),
  memoryWithdrawPlan: memoryCommand({ schema: planIdInput, run: (tx, _c, input) => withdrawPlan(tx, input) }),
  memoryFinishPromotion: memoryCommand({ schema: finishInput, run: (tx, _c, input) => finishPromotion(tx, input) }),
};
