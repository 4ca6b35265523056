// A promotion plan: what promoting some candidates would write, exactly. Built from plain values
// (the candidates, the scope, the current files of the memory root) so that what a person approves
// is a value: every target path, each target's current git blob OID (null for a new file), the
// sanitised bytes to write, the secret lint over those bytes, a unified diff and a digest over a
// canonical serialisation. Applying it is a sequence of per-file steps a journal can drive and
// replay: each re-reads its target and writes only if the target is still what the plan saw.

import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { sha256Hex } from '../ground/digests.js';
import {
  MEMORY_APPLIES_WHEN_MAX_CHARS,
  MEMORY_ENTRY_MAX_BYTES,
  MEMORY_SLUG_MAX_CHARS,
  MEMORY_TITLE_MAX_CHARS,
} from '../limits.js';
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
import { writeModesFor } from '../effects/memory-root.js';
import type { SnapshotEntry } from './snapshot.js';
import { isPoisonRule, lintMemoryText } from './memory-lint.js';
import type { SecretFinding } from './secret-lint.js';
import {
  type CheckedDirectory,
  checkDirectory,
  type MemoryRoot,
  readFileInDirectory,
  splitRelativePath,
  syncDirectories,
  syncDirectory,
  verifyDirectory,
  type WriteOptions,
  writeFileInDirectory,
} from '../effects/safe-files.js';

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
  action: 'create' | 'update';
  candidateIds: string[];
  /** The target's git blob OID when the plan was made; null: the file must not exist. */
  targetBlobHash: string | null;
  /** The exact bytes approval binds. */
  content: Uint8Array;
  sanitizedContentDigest: string;
  /** Findings below `block` severity, shown with the diff. */
  findings: SecretFinding[];
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
  planDigest: string;
}

export type PlanRefusal =
  /** Findings on line 0 are in the file name. */
  | { reason: 'secret' | 'poisoning'; message: string; findings: Array<SecretFinding & { candidateId: string }> }
  | { reason: 'invalid'; message: string };

export type PlanResult = { ok: true; plan: PromotionPlan } | { ok: false; refusal: PlanRefusal };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The id a new entry gets from its candidate: stable, so preparing the same candidate twice targets one entry. */
export const entryIdForCandidate = (candidateId: string): string =>
  `m-${sha256Hex(`common-memory entry@1\0${candidateId}`).slice(0, 20)}`;

/**
 * The body as it is written: NFC, LF line ends, no control characters but tabs, no trailing
 * spaces, no leading or trailing blank lines, one final newline.
 */
export function sanitizeBody(text: string): string {
  const lines = text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function titleOf(candidate: Pick<CandidateForPromotion, 'title' | 'content'>): string {
  const source = candidate.title ?? candidate.content.split('\n').find((line) => line.trim() !== '') ?? '';
  const title = singleLineText(source.replace(/^\s*#+\s*/, ''), MEMORY_TITLE_MAX_CHARS);
  return title === '' ? 'Untitled entry' : title;
}

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

/**
 * The entry a candidate would become, as the SessionStart snapshot reads it: the same title, body,
 * `appliesWhen` and priority prepare writes (an update keeps the id of the entry it rewrites).
 * `memory review` shows its lines so the reviewer reads what the model will.
 */
export function snapshotEntryFor(
  candidate: Pick<CandidateForPromotion, 'candidateId' | 'title' | 'content' | 'appliesWhen' | 'priority'>,
  scope: PromotionScope,
  updatesEntryId: string | null = null,
): SnapshotEntry {
  const appliesWhen =
    candidate.appliesWhen === null ? null : singleLineText(candidate.appliesWhen, MEMORY_APPLIES_WHEN_MAX_CHARS);
  return {
    entryId: updatesEntryId ?? entryIdForCandidate(candidate.candidateId),
    scope,
    title: titleOf(candidate),
    appliesWhen: appliesWhen === '' ? null : appliesWhen,
    priority: Math.min(100, Math.max(0, Math.round(candidate.priority))),
    body: sanitizeBody(candidate.content),
    created: null,
  };
}

const invalid = (message: string): PlanResult => ({ ok: false, refusal: { reason: 'invalid', message } });

interface Existing {
  path: string;
  bytes: Uint8Array;
  document: EntryDocument | null;
  entryId: string | null;
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
        supersedes: [],
        problem: `line ${parsed.problem.line}: ${parsed.problem.message}`,
      };
    }
    const { entry, document } = parsed.value;
    return { ...file, document, entryId: entry.id, supersedes: entry.supersedes, problem: null };
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
    if (target) {
      path = target.path;
      const supersedes = [...new Set([...target.supersedes, ...candidate.supersedes])];
      document = updateEntryDocument(
        target.document!,
        { ...fields, supersedes: supersedes.length > 0 ? supersedes : null, updated: input.now },
        body,
      );
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
    const check = checkEntryPath(path, target ? 'existing' : 'new');
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
      action: target ? 'update' : 'create',
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
    const findings = [...lint(file.path).map((f) => ({ ...f, line: 0 })), ...lint(decoder.decode(file.content))];
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

function planDiff(files: PlanFile[], current: Map<string, { bytes: Uint8Array }>): string {
  return files
    .map((file) => {
      const before = current.get(file.path);
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

export type ApplyOutcome =
  /** The approved bytes were written. */
  | { outcome: 'written' }
  /** The target already holds exactly the approved bytes (a step replayed after a crash). */
  | { outcome: 'skipped' }
  /** The target is not what the plan saw: the plan must be voided and nothing more written. */
  | { outcome: 'drift'; expected: string | null; found: string | null };

/**
 * One application of a plan (promote's file steps): each directory's chain is checked once and
 * verified around every rename, and the fsyncs of directories it made are owed to
 * syncPlanDirectories, each directory once. Without a session every step checks and flushes on its own.
 */
export interface ApplySession {
  /** Checked directories by path relative to the root ("" for the root). */
  readonly directories: Map<string, CheckedDirectory>;
  /** Directories that gained a subdirectory, by path: flushed by syncPlanDirectories. */
  readonly unsynced: Map<string, string>;
}

export const applySession = (): ApplySession => ({ directories: new Map(), unsynced: new Map() });

/** The target's directory, checked (through the session's cache), and its name; null directory when missing. */
function targetDirectory(
  root: MemoryRoot,
  path: string,
  session: ApplySession | undefined,
): { directory: CheckedDirectory | null; name: string; key: string } {
  const parts = splitRelativePath(path);
  const dir = parts.slice(0, -1);
  const key = dir.join('/');
  const name = parts[parts.length - 1]!;
  const known = session?.directories.get(key);
  if (known) {
    // Checked earlier in the session: it must still be that directory before anything is read or
    // created through it (the same lstats a fresh check makes).
    verifyDirectory(known);
    return { directory: known, name, key };
  }
  const directory = checkDirectory(root, dir, { create: false });
  if (directory) session?.directories.set(key, directory);
  return { directory, name, key };
}

/**
 * What a target holds now, compared with the plan's view of it: null when it is what the plan saw
 * and the approved bytes are still to be written. The directory chain is verified by the caller
 * after the read: after all reads (driftedTargets), or after the read when nothing is written and
 * before and after the rename when something is (applyPlanFile).
 */
function targetState(
  file: Pick<PlanFile, 'targetBlobHash' | 'content'>,
  directory: CheckedDirectory | null,
  name: string,
): ApplyOutcome | null {
  const current = directory ? readFileInDirectory(directory, name, MEMORY_ENTRY_MAX_BYTES) : null;
  if (current && Buffer.compare(current.bytes, file.content) === 0) return { outcome: 'skipped' };
  const found = current ? gitBlobOid(current.bytes) : null;
  if (found !== file.targetBlobHash) return { outcome: 'drift', expected: file.targetBlobHash, found };
  return null;
}

/**
 * Checks every target before the first write, so a plan whose files drifted since prepare is
 * voided with nothing written. Returns the paths that drifted.
 */
export function driftedTargets(
  root: MemoryRoot,
  plan: { files: ReadonlyArray<Pick<PlanFile, 'path' | 'targetBlobHash' | 'content'>> },
  session: ApplySession = applySession(),
): string[] {
  const drifted: string[] = [];
  // Each directory is checked once for all its targets, then verified once after the reads.
  const directories = new Map<string, CheckedDirectory | null>();
  for (const file of plan.files) {
    const parts = splitRelativePath(file.path);
    const key = parts.slice(0, -1).join('/');
    if (!directories.has(key)) {
      const directory = session.directories.get(key) ?? checkDirectory(root, parts.slice(0, -1), { create: false });
      if (directory) session.directories.set(key, directory);
      directories.set(key, directory);
    }
    if (targetState(file, directories.get(key)!, parts[parts.length - 1]!)?.outcome === 'drift')
      drifted.push(file.path);
  }
  // Every directory read from is still the one checked: a swap during the reads is reported, not believed.
  for (const directory of directories.values()) if (directory) verifyDirectory(directory);
  return drifted;
}

/**
 * One step of a promotion: re-read the target; if it already holds the approved bytes, skip; if
 * its blob OID is not the plan's, report drift and write nothing; else write the approved bytes
 * through the no-follow writer. Safe to replay after a crash at any point: the journal runs every
 * step again on resume and the content decides (a file's "applied" mark is progress, not proof —
 * until syncPlanDirectories, a rename survives a process crash but maybe not a power failure). An unsafe target (a
 * link, a directory, a file over the size cap) throws a MemoryFileError: the plan cannot go on.
 * With a session (promote), directories are checked once per plan and their fsyncs are left to
 * syncPlanDirectories with the same session.
 */
export function applyPlanFile(
  root: MemoryRoot,
  scope: PromotionScope,
  file: Pick<PlanFile, 'path' | 'targetBlobHash' | 'content' | 'sanitizedContentDigest'>,
  hooks: Pick<WriteOptions, 'beforeRename'> = {},
  session?: ApplySession,
): ApplyOutcome {
  if (sha256Hex(file.content) !== file.sanitizedContentDigest) {
    throw new Error(`the bytes for ${file.path} do not match the approved digest; the plan is damaged`);
  }
  const target = targetDirectory(root, file.path, session);
  const state = targetState(file, target.directory, target.name);
  if (state) {
    if (target.directory) verifyDirectory(target.directory);
    return state;
  }
  const modes = writeModesFor(scope);
  let directory = target.directory;
  if (!directory) {
    const parts = splitRelativePath(file.path).slice(0, -1);
    directory = checkDirectory(root, parts, {
      create: true,
      mode: modes.directoryMode,
      ...(session ? { unsynced: session.unsynced } : {}),
    })!;
    session?.directories.set(target.key, directory);
  }
  // The rename's directory fsync is syncPlanDirectories' (once per directory); the chain is
  // verified before the rename, which covers the read above, and after it.
  writeFileInDirectory(directory, target.name, file.content, { ...modes, ...hooks, syncDirectory: false });
  return { outcome: 'written' };
}

/**
 * The last file step of a promotion: one fsync per directory the plan wrote into and per directory
 * the session made a subdirectory in, so every rename is durable before the journal records the
 * plan as applied. `ancestors`: also every directory from the anchor down (a resumed plan, whose
 * crashed run may have made directories and not flushed them). Replaying it is harmless.
 */
export function syncPlanDirectories(
  root: MemoryRoot,
  plan: { files: ReadonlyArray<Pick<PlanFile, 'path'>> },
  session?: ApplySession,
  options: { ancestors?: boolean } = {},
): void {
  const directories = new Set(plan.files.map((file) => file.path.split('/').slice(0, -1).join('/')));
  if (options.ancestors) {
    const chains = new Map<string, string>();
    const checked: CheckedDirectory[] = [];
    for (const directory of directories) {
      const one = checkDirectory(root, directory === '' ? [] : splitRelativePath(directory), { create: false });
      if (!one) continue;
      checked.push(one);
      chains.set(root.anchor, '');
      for (const link of one.chain) chains.set(link.path, link.display);
    }
    syncDirectories(chains);
    for (const one of checked) verifyDirectory(one);
    return;
  }
  if (session) syncDirectories(session.unsynced);
  for (const directory of [...directories].sort()) syncDirectory(root, directory);
}
