// tx-extraction-submit (seed 004 §2): one transaction that checks the claim, parses the runner's
// draft batch strictly, refuses any citation outside the task's evidence catalogue, lints every
// draft for secrets and poisoning (memory-lint.ts; a blocking finding quarantines it), and writes candidates with their evidence
// references and deterministic assessments. Drafts enter the dedup pool only after adjudication.
import { z } from 'zod';
import { sha256Hex } from '../../ground/digests.js';
import { memoryCommand } from '../command.js';
import { prepared } from '../database.js';
import type { Tx } from '../transaction.js';
import type { EvidencePointer } from '../../memory/chunking.js';
import {
  draftBatch,
  FORMATS,
  memoryDigest,
  parseRunnerOutput,
  SUBMISSIONS_PER_BATCH_MAX,
  type Draft,
  type ExtractionTask,
} from '../../memory/contracts.js';
import { carriedSecretFindings } from '../../memory/carried-secret.js';
import { findingView, lintMemoryText, type MemoryFinding } from '../../memory/memory-lint.js';
import { secretFindings } from '../../memory/finding-kind.js';
import type { SecretFinding } from '../../memory/secret-lint.js';
import { maskText } from '../../memory/secret-mask.js';
import { acceptSubmission, beginSubmission, failAttempt } from './task-store.js';
import { canonicalJson } from '../../ground/canonical-json.js';

export interface CandidateFinding {
  /** `content` or `statement:<statementId>`. */
  field: string;
  line: number;
  column: number;
  rule: string;
  severity: SecretFinding['severity'];
  excerpt: string;
  /**
   * The disguise the lint read through (`base64`, `nfkc`, `zero-width`, …): the excerpt is of the
   * decoded text, which the text as shown does not hold, so review says why.
   */
  transform?: string;
}

/** A lint finding of one field of a candidate, as the candidate keeps it. */
export function candidateFinding(field: string, f: MemoryFinding): CandidateFinding {
  return { field, ...findingView(f) };
}

export interface ExtractionOutcome {
  outcome: 'accepted';
  taskId: string;
  candidateIds: string[];
  quarantined: number;
  replayed: boolean;
}

const collapse = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** The text with every finding's span masked: what a person may be shown (secret-mask.ts's `maskText`). */
export const maskFindings = (text: string, findings: readonly SecretFinding[]): string => maskText(text, findings);

/** Texts whose findings are kept: far more than one run's distinct drafts, a bounded few MB at most. */
const LINT_MEMO_MAX = 4096;
const lintMemo = new Map<string, readonly MemoryFinding[]>();

/**
 * The lint of a text, remembered: drafts restate the same sentences run after run (a rule said in
 * every session), and the poisoning lint's views and patterns cost more than the rest of a
 * submission. The lint is a pure function of the text, so a remembered answer is the answer.
 */
function lintOnce(text: string): readonly MemoryFinding[] {
  let found = lintMemo.get(text);
  if (found === undefined) {
    if (lintMemo.size >= LINT_MEMO_MAX) lintMemo.clear();
    found = Object.freeze(lintMemoryText(text));
    lintMemo.set(text, found);
  }
  return found;
}

/**
 * The draft's findings and its masked texts. `cited` are the user turns its statements cite: a
 * line's part of a secret they hold wrapped over lines is a finding of the draft too
 * (carried-secret.ts), since the draft alone shows no rule a token.
 */
function lintDraft(
  candidate: Draft,
  cited: readonly string[],
): {
  findings: CandidateFinding[];
  masked: { content: string; statements: Record<string, string> };
} {
  const findings: CandidateFinding[] = [];
  const sources = cited.map((text) => ({ text, findings: secretFindings(lintOnce(text)) as SecretFinding[] }));
  const record = (field: string, text: string) => {
    const own = lintOnce(text);
    const found = [...own, ...carriedSecretFindings(text, sources, secretFindings(own) as SecretFinding[])];
    findings.push(...found.map((f) => candidateFinding(field, f)));
    // Secrets are masked; poisoning is shown as written (review labels its hidden characters).
    return { found, masked: maskFindings(text, secretFindings(found)) };
  };
  const content = record('content', candidate.content);
  const statements: Record<string, string> = {};
  for (const statement of candidate.statements)
    statements[statement.statementId] = record(`statement:${statement.statementId}`, statement.text).masked;
  return { findings, masked: { content: content.masked, statements } };
}

export function candidateIdOf(taskId: string, index: number): string {
  return `cand-${sha256Hex(`${taskId}\0${index}`).slice(0, 24)}`;
}

const submitInput = z.object({ taskId: z.string(), claimToken: z.string(), output: z.string() }).strict();

function submitExtraction(tx: Tx<'memory'>, input: z.infer<typeof submitInput>) {
  const begun = beginSubmission(tx, input.taskId, input.claimToken, input.output);
  if (begun.replay) return begun.replay as ExtractionOutcome;
  if (begun.refusal) return begun.refusal;
  const { task, digest } = begun;
  const stored = JSON.parse(task.task_json) as { task: ExtractionTask; pointers: EvidencePointer[] };
  const parsed = parseRunnerOutput(input.output, draftBatch, FORMATS.draftBatch);
  if (!parsed.ok) return failAttempt(tx, task, parsed.reason);
  const batch = parsed.value;
  if (batch.taskId !== task.task_id)
    return failAttempt(tx, task, `the draft batch names task ${batch.taskId}, not ${task.task_id}`);
  if (canonicalJson(batch.binding) !== canonicalJson(stored.task.binding))
    return failAttempt(tx, task, "the draft batch's binding is not the task's binding, returned unchanged");
  const pointers = new Map(stored.pointers.map((pointer) => [pointer.evidenceId, pointer]));
  for (const candidate of batch.candidates) {
    const ids = new Set<string>();
    for (const statement of candidate.statements) {
      if (ids.has(statement.statementId))
        return failAttempt(tx, task, `statement id ${statement.statementId} is used twice in one draft`);
      ids.add(statement.statementId);
      const outside = statement.evidenceIds.find((id) => !pointers.has(id));
      if (outside !== undefined)
        return failAttempt(
          tx,
          task,
          `statement ${statement.statementId} cites ${JSON.stringify(outside)}, which is not in the task's evidence catalogue (only the user turns of the chunk are evidence)`,
        );
    }
  }

  const { db, nowMs } = tx;
  const insertCandidate = prepared(
    db,
    `INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref, task_id, content_digest, payload_json, status, findings_json, created_at_ms, updated_at_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvidence = prepared(
    db,
    `INSERT INTO evidence_refs (candidate_id, statement_id, evidence_id, pointer_digest, session_key, turn_key, client, strength, task_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'direct', ?)`,
  );
  const insertAssessment = prepared(
    db,
    `INSERT INTO assessments (candidate_id, statement_id, citations_digest, provenance_strength, limitations_json, claim_support, assessed_by, statement_text_digest, revision)
    VALUES (?, ?, ?, 'direct', ?, ?, 'deterministic', ?, 1)`,
  );
  const candidateIds: string[] = [];
  let quarantined = 0;
  batch.candidates.forEach((candidate, index) => {
    const candidateId = candidateIdOf(task.task_id, index);
    const cited = new Set(candidate.statements.flatMap((s) => s.evidenceIds.map((id) => pointers.get(id)!.text)));
    const { findings, masked } = lintDraft(candidate, [...cited]);
    const blocked = findings.some((finding) => finding.severity === 'block');
    if (blocked) quarantined += 1;
    insertCandidate.run(
      candidateId,
      task.repository_key,
      task.worktree_key,
      task.chunk_ref,
      task.task_id,
      sha256Hex(candidate.content),
      JSON.stringify({ ...candidate, masked }),
      blocked ? 'quarantined' : 'draft',
      JSON.stringify(findings),
      nowMs,
      nowMs,
    );
    for (const statement of candidate.statements) {
      const cited = statement.evidenceIds.map((id) => pointers.get(id)!);
      for (const pointer of cited)
        insertEvidence.run(
          candidateId,
          statement.statementId,
          pointer.evidenceId,
          pointer.pointerDigest,
          pointer.sessionKey,
          pointer.turnKey,
          pointer.client,
          task.task_id,
        );
      // typed-fact: the user said these very words (whitespace and case aside); otherwise a runner's paraphrase, unverified.
      const said = cited.some((pointer) => collapse(pointer.text).includes(collapse(statement.text)));
      const citations = cited
        .map((pointer) => ({ evidenceId: pointer.evidenceId, pointerDigest: pointer.pointerDigest }))
        .sort((a, b) => (a.evidenceId < b.evidenceId ? -1 : 1));
      insertAssessment.run(
        candidateId,
        statement.statementId,
        memoryDigest(citations),
        JSON.stringify(said ? [] : ['paraphrase: not the words of the cited turn']),
        said ? 'typed-fact' : 'unverified',
        sha256Hex(statement.text),
      );
    }
    candidateIds.push(candidateId);
  });
  prepared(db, 'UPDATE chunks SET status = ? WHERE chunk_ref = ?').run(
    candidateIds.length - quarantined > 0 ? 'drafted' : 'extracted',
    task.chunk_ref,
  );
  const outcome = { outcome: 'accepted' as const, taskId: task.task_id, candidateIds, quarantined };
  acceptSubmission(tx, task, digest, outcome);
  return { ...outcome, replayed: false };
}

export const extractionCommands = {
  memorySubmitExtraction: memoryCommand({
    replayable: true,
    schema: submitInput,
    run: (tx, _context, input) => submitExtraction(tx, input),
  }),
  /** Several submissions in one transaction, each decided as alone (an offline runner's run). */
  memorySubmitExtractions: memoryCommand({
    replayable: true,
    schema: z.object({ submissions: z.array(submitInput).min(1).max(SUBMISSIONS_PER_BATCH_MAX) }).strict(),
    run: (tx, _context, input) => input.submissions.map((submission) => submitExtraction(tx, submission)),
  }),
};
