// A promotion plan: what promoting some candidates would write, exactly. Built from plain values
// (the candidates, the scope, the current files of the memory root) so that what a person approves
// is a value: every target path, each target's current git blob OID (null for a new file), the
// sanitised bytes to write, the secret lint over those bytes, a unified diff and a digest over a
// canonical serialisation. Pure: applying it (reading targets, writing files) is
// effects/promotion-apply.ts.

import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { sha256Hex } from '../ground/digests.js';
import { MEMORY_APPLIES_WHEN_MAX_CHARS, MEMORY_ENTRY_MAX_BYTES, MEMORY_SLUG_MAX_CHARS } from '../limits.js';
import { gitBlobOid } from './blob-oid.js';
import {
  type Confidence,
  checkEntryPath,
  documentForEntry,
  type EntryDocument,
  type EntryType,
  entryPath,
  type JsonValue,
  parseEntry,
  serializeEntryDocument,
  singleLineText,
  slugify,
  updateEntryDocument,
} from './entry-format.js';
import { lintMemoryText } from './memory-lint.js';
import { isPoisonRule } from './finding-kind.js';
import { entryIdForCandidate, sanitizeBody, titleOf } from './candidate-entry.js';
import type { SecretFinding } from './secret-lint.js';

/** @2 binds the anchor, the candidates' owner, the diff and the findings a person read (issue 26). */
export const PLAN_FORMAT = 'common-memory-promotion-plan@2';
/** Changes whenever the rules that turn candidates into bytes change: a plan binds the rules it was built with. */
export const PROMOTION_POLICY_VERSION = 'promotion-policy@1';

/** The memory lint a plan runs (secrets and poisoning); a `block` finding refuses the plan. */
export type LintText = (text: string) => SecretFinding[];

export type PromotionScope = 'project' | 'user';

/** A candidate as the plan needs it (memory-state's candidate, projected to plain values). */
export interface CandidateForPromotion {
  candidateId: string;
  revision: number;
  type: EntryType;
  /** Null: the first line of the content. */
  title: string | null;
  content: string;
  appliesWhen: string | null;
  priority: number;
  confidence: Confidence;
  /** One line on what the entry rests on, e.g. "2 statements from 2 user turns, confirmed". */
  evidenceSummary: string;
  /** Entry ids this candidate replaces (adjudication update / merge). */
  supersedes: string[];
  /** An existing entry of the root to rewrite in place, or null for a new entry. */
  updatesEntryId: string | null;
  /**
   * A person's revision of that entry (`memory revise`, the Memory screen's e): it edits the title,
   * appliesWhen, type and body only, so the entry's own priority, confidence and evidence stay —
   * the proposal's defaults (50, medium) would otherwise silently replace what the person set, and
   * the revision's own evidence (one statement, no user turn) who said it and who confirmed it.
   */
  keepsEntryFields?: boolean;
}

/** A file of the memory root as it is now (from a scan). */
export interface CurrentFile {
  path: string;
  bytes: Uint8Array;
}

export interface PlanInput {
  planId: string;
  scope: PromotionScope;
  /** Whose memory root this is (memory-state's owner keys), bound into the digest. */
  ownerKey: string;
  /** Whose candidates these are, when not the root's owner (a repository's candidates promoted to the user scope). */
  candidateOwnerKey?: string;
  /** Where the root is (the worktree's root or the data home, a real path): its digest is bound, so promote writes only there. */
  anchor: string;
  candidates: CandidateForPromotion[];
  currentFiles: CurrentFile[];
  /** ISO time written as `created` / `updated`: a plan is a value, so the caller gives the clock. */
  now: string;
  /** Default: the memory lint of source/memory/memory-lint.ts (secrets and poisoning). */
  lintText?: LintText;
}

export interface PlanFile {
  path: string;
  entryId: string;
  /** remove: retiring an entry (retirement-plan.ts); its content is the bytes removed, never written. */
  action: 'create' | 'update' | 'remove';
  candidateIds: string[];
  /** The target's git blob OID when the plan was made; null: the file must not exist. */
  targetBlobHash: string | null;
  /** The exact bytes approval binds: those written, or for a removal those the file must still hold. */
  content: Uint8Array;
  sanitizedContentDigest: string;
  /** Findings below `block` severity, shown with the diff. */
  findings: SecretFinding[];
}

/**
 * A consolidation patch's plan (consolidation/patch-plan.ts): the patch, the operations it carries
 * (by their number in the patch, from 1, with what each rests on) and those the person left out.
 */
export interface PlanConsolidation {
  taskId: string;
  operations: Array<{
    number: number;
    op: string;
    target: string;
    name: string;
    basedOn: Array<{ entryId: string; revision: number }>;
  }>;
  leftOut: number[];
}

export interface PromotionPlan {
  format: typeof PLAN_FORMAT;
  planId: string;
  scope: PromotionScope;
  ownerKey: string;
  candidateOwnerKey: string;
  /** sha256 of the anchor: the path stays in memory-state, its identity is in the digest. */
  anchorDigest: string;
  policyVersion: string;
  candidates: Array<{ candidateId: string; revision: number }>;
  files: PlanFile[];
  diff: string;
  /** Set: the plan carries operations of a consolidation patch (it has no candidates). */
  consolidation?: PlanConsolidation;
  planDigest: string;
}

export type PlanRefusal =
  /** Findings on line 0 are in the file name. */
  | { reason: 'secret' | 'poisoning'; message: string; findings: Array<SecretFinding & { candidateId: string }> }
  | { reason: 'invalid'; message: string };

export type PlanResult = { ok: true; plan: PromotionPlan } | { ok: false; refusal: PlanRefusal };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function entryFields(candidate: CandidateForPromotion): Record<string, JsonValue | null> {
  const appliesWhen =
    candidate.appliesWhen === null ? null : singleLineText(candidate.appliesWhen, MEMORY_APPLIES_WHEN_MAX_CHARS);
  return {
    title: titleOf(candidate),
    appliesWhen: appliesWhen === '' ? null : appliesWhen,
    priority: Math.min(100, Math.max(0, Math.round(candidate.priority))),
    confidence: candidate.confidence,
    evidence: {
      summary: singleLineText(candidate.evidenceSummary, MEMORY_APPLIES_WHEN_MAX_CHARS),
      candidateId: candidate.candidateId,
    },
  };
}

/** A slug not taken by another file: `use-pnpm`, then `use-pnpm-2`, … */
function freePath(type: EntryType, title: string, taken: Set<string>): string {
  const base = slugify(title);
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const slug = `${base.slice(0, MEMORY_SLUG_MAX_CHARS - suffix.length).replace(/-+$/, '')}${suffix}`;
    const path = entryPath(type, slug);
    if (!taken.has(path)) return path;
  }
}

const invalid = (message: string): PlanResult => ({ ok: false, refusal: { reason: 'invalid', message } });

interface Existing {
  path: string;
  bytes: Uint8Array;
  document: EntryDocument | null;
  entryId: string | null;
  type: EntryType | null;
  supersedes: string[];
  problem: string | null;
}

/** Builds a plan, or says why there cannot be one. Pure: nothing is read or written. */
export function buildPromotionPlan(input: PlanInput): PlanResult {
  if (input.candidates.length === 0) return invalid('no candidates to promote; name at least one');
  const existing: Existing[] = input.currentFiles.map((file) => {
    const parsed = parseEntry(file.bytes);
    if (!parsed.ok) {
      return {
        ...file,
        document: null,
        entryId: null,
        type: null,
        supersedes: [],
        problem: `line ${parsed.problem.line}: ${parsed.problem.message}`,
      };
    }
    const { entry, document } = parsed.value;
    return { ...file, document, entryId: entry.id, type: entry.type, supersedes: entry.supersedes, problem: null };
  });
  const byEntryId = new Map(existing.filter((e) => e.entryId !== null).map((e) => [e.entryId!, e]));
  const byPath = new Map(existing.map((e) => [e.path, e]));
  const taken = new Set(existing.map((e) => e.path));
  const seenCandidates = new Set<string>();
  const files: Array<Omit<PlanFile, 'findings' | 'sanitizedContentDigest'>> = [];

  for (const candidate of input.candidates) {
    if (seenCandidates.has(candidate.candidateId)) return invalid(`candidate ${candidate.candidateId} is named twice`);
    seenCandidates.add(candidate.candidateId);
    const body = sanitizeBody(candidate.content);
    if (body === '') return invalid(`candidate ${candidate.candidateId} has no content to write`);
    const fields = entryFields(candidate);
    // A candidate updating an entry rewrites that entry's file; a new entry whose id already has a
    // file (the same candidate prepared again) targets that file too.
    const entryId = candidate.updatesEntryId ?? entryIdForCandidate(candidate.candidateId);
    const target = byEntryId.get(entryId);
    if (candidate.updatesEntryId !== null && !target) {
      return invalid(
        `entry ${entryId}, which candidate ${candidate.candidateId} updates, is not in the ${input.scope} memory root`,
      );
    }
    if (files.some((file) => file.entryId === entryId)) {
      return invalid(`two candidates would write entry ${entryId}; promote them in separate plans`);
    }
    let document: EntryDocument;
    let path: string;
    let moved = false;
    if (target) {
      path = target.path;
      const supersedes = [...new Set([...target.supersedes, ...candidate.supersedes])];
      const patch: Record<string, JsonValue | null> = {
        ...fields,
        supersedes: supersedes.length > 0 ? supersedes : null,
        updated: input.now,
      };
      if (candidate.keepsEntryFields) {
        delete patch['priority'];
        delete patch['confidence'];
        delete patch['evidence'];
      }
      // A person's revision may change the type, and an entry's type names its folder: the file
      // moves there (the old one removed only while it holds the bytes read now), else the scan
      // would find it misplaced.
      const moves = candidate.keepsEntryFields === true && target.type !== null && target.type !== candidate.type;
      if (moves) {
        moved = true;
        patch['type'] = candidate.type;
        const name = target.path.slice(target.path.lastIndexOf('/') + 1);
        const wanted = `${candidate.type}/${name}`;
        path = taken.has(wanted) ? freePath(candidate.type, fields.title as string, taken) : wanted;
        files.push({
          path: target.path,
          entryId,
          action: 'remove',
          candidateIds: [candidate.candidateId],
          targetBlobHash: gitBlobOid(target.bytes),
          content: target.bytes,
        });
      }
      document = updateEntryDocument(target.document!, patch, body);
    } else {
      path = freePath(candidate.type, fields.title as string, taken);
      document = documentForEntry({
        id: entryId,
        type: candidate.type,
        title: fields.title as string,
        appliesWhen: fields.appliesWhen as string | null,
        priority: fields.priority as number,
        confidence: candidate.confidence,
        evidence: fields.evidence as { [key: string]: JsonValue },
        created: input.now,
        supersedes: [...new Set(candidate.supersedes)],
        extra: [],
        body,
      });
    }
    taken.add(path);
    const check = checkEntryPath(path, target && !moved ? 'existing' : 'new');
    if (!check.ok) return invalid(check.reason);
    const content = encoder.encode(serializeEntryDocument(document));
    if (content.length > MEMORY_ENTRY_MAX_BYTES) {
      return invalid(
        `the entry for candidate ${candidate.candidateId} would be ${content.length} bytes, ` +
          `over the ${MEMORY_ENTRY_MAX_BYTES}-byte limit; shorten it`,
      );
    }
    const reparsed = parseEntry(content);
    if (!reparsed.ok)
      return invalid(
        `the entry for candidate ${candidate.candidateId} would not read back ` +
          `(line ${reparsed.problem.line}: ${reparsed.problem.message})`,
      );
    const current = byPath.get(path);
    files.push({
      path,
      entryId,
      action: target && !moved ? 'update' : 'create',
      candidateIds: [candidate.candidateId],
      targetBlobHash: current ? gitBlobOid(current.bytes) : null,
      content,
    });
  }

  // The lint runs over the exact bytes that would be written, after every transformation, and over
  // the path (a file name is committed too). A refusal names the candidate, never the path: a path
  // made from a title could carry the very secret.
  const lint = input.lintText ?? lintMemoryText;
  const planFiles: PlanFile[] = [];
  const blocking: Array<SecretFinding & { candidateId: string }> = [];
  for (const file of files.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    // A removal writes nothing: the bytes it names are the file's as it is (a type change's move).
    const findings =
      file.action === 'remove'
        ? []
        : [...lint(file.path).map((f) => ({ ...f, line: 0 })), ...lint(decoder.decode(file.content))];
    blocking.push(
      ...findings.filter((f) => f.severity === 'block').map((f) => ({ ...f, candidateId: file.candidateIds[0]! })),
    );
    planFiles.push({
      ...file,
      sanitizedContentDigest: sha256Hex(file.content),
      findings: findings.filter((f) => f.severity !== 'block'),
    });
  }
  if (blocking.length > 0) {
    // A secret is named first: of the two, it is the one that must never reach a file.
    const first = blocking.find((f) => !isPoisonRule(f.rule)) ?? blocking[0]!;
    const poisoning = isPoisonRule(first.rule);
    const where =
      first.line === 0
        ? 'its file name'
        : poisoning
          ? `line ${first.line}, column ${first.column} of its entry`
          : `line ${first.line} of its entry`;
    const what = poisoning ? 'text written to steer the model that reads it' : 'what looks like a secret';
    const more = blocking.length > 1 ? `, and ${blocking.length - 1} more finding(s)` : '';
    return {
      ok: false,
      refusal: {
        reason: poisoning ? 'poisoning' : 'secret',
        message:
          `refused: candidate ${first.candidateId} has ${what} at ${where} ` +
          `(${first.rule}: ${first.excerpt})${more}; discard or edit the candidate`,
        findings: blocking,
      },
    };
  }

  const unsigned = {
    format: PLAN_FORMAT,
    planId: input.planId,
    scope: input.scope,
    ownerKey: input.ownerKey,
    candidateOwnerKey: input.candidateOwnerKey ?? input.ownerKey,
    anchorDigest: sha256Hex(input.anchor),
    policyVersion: PROMOTION_POLICY_VERSION,
    candidates: input.candidates
      .map((c) => ({ candidateId: c.candidateId, revision: c.revision }))
      .sort((a, b) => (a.candidateId < b.candidateId ? -1 : 1)),
    files: planFiles,
    diff: planDiff(planFiles, byPath),
  } as const;
  return { ok: true, plan: { ...unsigned, planDigest: planDigestOf(unsigned) } };
}

/**
 * A plan with no candidates — a retirement, a consolidation patch's — signed: its files as built,
 * the diff against the bytes they hold now, and (a patch's) which operations it carries.
 */
export function planWithoutCandidates(
  input: { planId: string; scope: PromotionScope; ownerKey: string; anchor: string },
  files: PlanFile[],
  current: Map<string, { bytes: Uint8Array }>,
  consolidation?: PlanConsolidation,
): PromotionPlan {
  const unsigned: Omit<PromotionPlan, 'planDigest'> = {
    format: PLAN_FORMAT,
    planId: input.planId,
    scope: input.scope,
    ownerKey: input.ownerKey,
    candidateOwnerKey: input.ownerKey,
    anchorDigest: sha256Hex(input.anchor),
    policyVersion: PROMOTION_POLICY_VERSION,
    candidates: [],
    files,
    diff: planDiff(files, current),
    ...(consolidation ? { consolidation } : {}),
  };
  return { ...unsigned, planDigest: planDigestOf(unsigned) };
}

export function planDiff(files: PlanFile[], current: Map<string, { bytes: Uint8Array }>): string {
  return files
    .map((file) => {
      const before = current.get(file.path);
      if (file.action === 'remove')
        return createTwoFilesPatch(
          `a/${file.path}`,
          '/dev/null',
          decoder.decode(file.content),
          '',
          undefined,
          undefined,
          {
            headerOptions: FILE_HEADERS_ONLY,
          },
        );
      return createTwoFilesPatch(
        before ? `a/${file.path}` : '/dev/null',
        `b/${file.path}`,
        before ? decoder.decode(before.bytes) : '',
        decoder.decode(file.content),
        undefined,
        undefined,
        { headerOptions: FILE_HEADERS_ONLY },
      );
    })
    .join('');
}

export type ShownFinding = Pick<SecretFinding, 'line' | 'column' | 'rule' | 'severity' | 'excerpt'>;

/** Findings as they are stored and digested: the fields a person is shown, in a fixed key order. */
export const findingsJson = (findings: ReadonlyArray<ShownFinding>): string =>
  JSON.stringify(
    findings.map(({ line, column, rule, severity, excerpt }) => ({ line, column, rule, severity, excerpt })),
  );

/**
 * The canonical serialisation a plan's digest is taken over: fixed key order, files by path, the
 * content by its sha256. Everything promote acts on is in it — where (scope, owner, the anchor's
 * digest), what (each file) and for whom (the candidates and their owner) — and what the person
 * read before approving (the diff, each file's findings), by digest: a journal row that disagrees
 * with it is not the plan that was approved.
 */
export function canonicalPlanJson(plan: Omit<PromotionPlan, 'planDigest'>): string {
  return JSON.stringify({
    format: plan.format,
    planId: plan.planId,
    scope: plan.scope,
    ownerKey: plan.ownerKey,
    candidateOwnerKey: plan.candidateOwnerKey,
    anchorDigest: plan.anchorDigest,
    policyVersion: plan.policyVersion,
    candidates: plan.candidates.map((c) => ({ candidateId: c.candidateId, revision: c.revision })),
    diffDigest: sha256Hex(plan.diff),
    files: plan.files.map((f) => ({
      path: f.path,
      entryId: f.entryId,
      action: f.action,
      candidateIds: f.candidateIds,
      targetBlobHash: f.targetBlobHash,
      sanitizedContentDigest: f.sanitizedContentDigest,
      bytes: f.content.length,
      findingsDigest: sha256Hex(findingsJson(f.findings)),
    })),
    // Only a consolidation's plan has it: every other plan's canonical JSON (and digest) is as before.
    ...(plan.consolidation
      ? {
          consolidation: {
            taskId: plan.consolidation.taskId,
            operations: plan.consolidation.operations.map((o) => ({
              number: o.number,
              op: o.op,
              target: o.target,
              name: o.name,
              basedOn: o.basedOn.map((b) => ({ entryId: b.entryId, revision: b.revision })),
            })),
            leftOut: plan.consolidation.leftOut,
          },
        }
      : {}),
  });
}

/** A plan as memory-state holds it, column by column (promotion_journal and promotion_files). */
export interface StoredPlan {
  planId: string;
  scope: string;
  ownerKey: string;
  candidateOwnerKey: string;
  anchor: string;
  canonicalJson: string;
  planDigest: string;
  candidatesJson: string;
  policyVersion: string;
  diff: string;
  files: ReadonlyArray<{
    path: string;
    entryId: string;
    action: string;
    candidateIdsJson: string;
    targetBlobHash: string | null;
    content: Uint8Array;
    sanitizedContentDigest: string;
    findingsJson: string;
  }>;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Why a stored plan is not the plan its digest names, or null: every column that decides what
 * promote writes, where, for whom, or what the person was shown is compared with the canonical JSON,
 * and that with its digest. Pure: the store reads the rows, promote voids on an answer.
 */
export function storedPlanProblem(stored: StoredPlan): string | null {
  if (sha256Hex(stored.canonicalJson) !== stored.planDigest) return 'the plan does not match its digest';
  const canonical = parsedOrNull(stored.canonicalJson) as Record<string, unknown> | null;
  if (!canonical || typeof canonical !== 'object') return 'the plan is not readable';
  if (canonical['format'] !== PLAN_FORMAT) return 'it was prepared by an earlier version';
  if (canonical['planId'] !== stored.planId) return 'its id is not the one approved';
  if (canonical['scope'] !== stored.scope) return 'its scope is not the one approved';
  if (canonical['ownerKey'] !== stored.ownerKey) return "its memory root's owner is not the one approved";
  if (canonical['candidateOwnerKey'] !== stored.candidateOwnerKey)
    return "its candidates' owner is not the one approved";
  if (canonical['anchorDigest'] !== sha256Hex(stored.anchor)) return 'its anchor is not the one approved';
  if (canonical['policyVersion'] !== stored.policyVersion) return 'its policy version is not the one approved';
  if (!sameJson(canonical['candidates'], parsedOrNull(stored.candidatesJson)))
    return 'its candidates are not the ones approved';
  if (canonical['diffDigest'] !== sha256Hex(stored.diff)) return 'its diff is not the one approved';
  const listed = Array.isArray(canonical['files']) ? (canonical['files'] as Array<Record<string, unknown>>) : [];
  if (listed.length !== stored.files.length) return 'its files are not the files it lists';
  for (const file of stored.files) {
    const entry = listed.find((f) => f['path'] === file.path);
    if (!entry) return 'its files are not the files it lists';
    const findings = parsedOrNull(file.findingsJson);
    if (
      entry['entryId'] !== file.entryId ||
      entry['action'] !== file.action ||
      !sameJson(entry['candidateIds'], parsedOrNull(file.candidateIdsJson)) ||
      entry['targetBlobHash'] !== file.targetBlobHash ||
      entry['findingsDigest'] !== (Array.isArray(findings) ? sha256Hex(findingsJson(findings as ShownFinding[])) : null)
    )
      return `the record of ${file.path} is not the one approved`;
    if (
      entry['sanitizedContentDigest'] !== file.sanitizedContentDigest ||
      entry['bytes'] !== file.content.length ||
      sha256Hex(file.content) !== file.sanitizedContentDigest
    )
      return `the stored bytes of ${file.path} are not the approved ones`;
  }
  return null;
}

export const planDigestOf = (plan: Omit<PromotionPlan, 'planDigest'>): string => sha256Hex(canonicalPlanJson(plan));

/**
 * Checks a plan read back from storage is the plan that was approved: every file's bytes match
 * their digest and the plan digest matches. Returns the problem, or null.
 */
export function checkPlanIntegrity(plan: PromotionPlan): string | null {
  for (const file of plan.files) {
    if (sha256Hex(file.content) !== file.sanitizedContentDigest)
      return `the stored bytes of ${file.path} do not match their digest`;
  }
  if (planDigestOf(plan) !== plan.planDigest) return 'the plan does not match its digest';
  return null;
}
