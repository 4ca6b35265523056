// tx-proposal: a memory an agent proposed through the MCP server's `memory_propose` becomes one
// draft candidate of the caller's repository, in one transaction. Its source is the conversation
// that proposed it (client, version, agent, the conversation's reference as a digest), never a
// file and never a turn: it cites no evidence, so its one statement is `unverified` until a person
// confirms it. Memory lint (secrets and poisoning) runs on every field; a blocking finding
// quarantines it (secrets shown masked).
// A runner never adjudicates a proposal — the person reviewing the queue is its dedup — and the
// same proposal from the same conversation is the same candidate (created: false).
import { z } from 'zod';
import { hex64, proposalFields, proposalOrigin } from '../../api/proposal.js';
import { sha256Hex } from '../../ground/digests.js';
import { memoryCommand } from '../command.js';
import { prepared } from '../database.js';
import type { Tx } from '../transaction.js';
import { memoryDigest } from '../../memory/contracts.js';
import { type CandidateFinding, candidateFinding, maskFindings } from './extraction-submit.js';
import { lintMemoryText } from '../../memory/memory-lint.js';
import { secretFindings } from '../../memory/finding-kind.js';
import { bindingInput, bindRepository } from './task-store.js';

export const proposalInput = z
  .object({
    repositoryKey: hex64,
    worktreeKey: hex64,
    ...proposalFields,
    appliesWhen: proposalFields.appliesWhen.nullable(),
    origin: proposalOrigin,
    /** The approved entry it rewrites: recorded as an `update` of `approved:<id>`, as adjudication records one. */
    revises: z.string().min(1).max(256).optional(),
    /** Where the caller's worktree is (null outside git): the review names the repository it goes into. */
    binding: bindingInput.nullable().optional(),
  })
  .strict();

export interface ProposalOutcome {
  candidateId: string;
  status: 'draft' | 'quarantined';
  created: boolean;
  /** Rules of the blocking findings (never the secret): why a proposal was quarantined. */
  blockedBy: string[];
}

/**
 * The rules of the blocking findings, each once in the order first met: a rule that matches twice
 * (a forged frame tag opened and closed) is one reason, and `memory revise` prints the list.
 */
function blockingRules(findings: readonly CandidateFinding[]): string[] {
  return [...new Set(findings.filter((f) => f.severity === 'block').map((f) => f.rule))];
}

/** The statement a proposal carries: its content, citing nothing. */
const STATEMENT_ID = 's1';

function propose(tx: Tx<'memory'>, input: z.infer<typeof proposalInput>): ProposalOutcome {
  const { db, nowMs } = tx;
  if (input.binding) bindRepository(db, input, input.binding);
  const conversation = input.origin.conversation ?? sha256Hex(`${input.origin.client}\0unnamed conversation`);
  const chunkRef = `proposal:${conversation.slice(0, 32)}`;
  const revising = input.revises === undefined ? '' : `\0revises\0${input.revises}`;
  const candidateId = `cand-${sha256Hex(
    `proposal\0${input.repositoryKey}\0${input.worktreeKey}\0${conversation}\0${input.title}\0${input.content}${revising}`,
  ).slice(0, 24)}`;
  const existing = prepared(db, 'SELECT status, findings_json FROM candidates WHERE candidate_id = ?').get(
    candidateId,
  ) as { status: string; findings_json: string } | undefined;
  if (existing) {
    const findings = JSON.parse(existing.findings_json) as CandidateFinding[];
    return {
      candidateId,
      status: existing.status === 'quarantined' ? 'quarantined' : 'draft',
      created: false,
      blockedBy: blockingRules(findings),
    };
  }

  const findings: CandidateFinding[] = [];
  const lint = (field: string, text: string): string => {
    const found = lintMemoryText(text);
    for (const f of found) findings.push(candidateFinding(field, f));
    return maskFindings(text, secretFindings(found));
  };
  const masked = {
    title: lint('title', input.title),
    content: lint('content', input.content),
    appliesWhen: input.appliesWhen === null ? null : lint('appliesWhen', input.appliesWhen),
  };
  const blocked = findings.filter((f) => f.severity === 'block');
  const status = blocked.length > 0 ? 'quarantined' : 'draft';

  // The conversation is the source: one chunk row per proposing conversation, never pending, so
  // extraction never picks it up (its session key is the conversation's digest, not a captured session).
  prepared(
    db,
    `INSERT INTO chunks (chunk_ref, repository_key, worktree_key, session_key, turn_range, chunk_digest, source_input_digest, status, created_at_ms)
     VALUES (?, ?, ?, ?, 'proposal', ?, ?, 'extracted', ?) ON CONFLICT (chunk_ref) DO NOTHING`,
  ).run(chunkRef, input.repositoryKey, input.worktreeKey, conversation, conversation, conversation, nowMs);
  const payload = {
    content: input.content,
    type: input.type,
    priority: 50,
    confidence: 'medium' as const,
    scene: input.appliesWhen,
    statements: [{ statementId: STATEMENT_ID, text: input.content, evidenceIds: [] as string[] }],
    title: input.title,
    origin: { kind: 'proposal' as const, ...input.origin },
    masked: { ...masked, statements: { [STATEMENT_ID]: masked.content } },
  };
  prepared(
    db,
    `INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref, task_id, content_digest, payload_json, status, adjudication, findings_json, created_at_ms, updated_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'done', ?, ?, ?)`,
  ).run(
    candidateId,
    input.repositoryKey,
    input.worktreeKey,
    chunkRef,
    `proposal:${input.origin.client}`,
    sha256Hex(input.content),
    JSON.stringify(payload),
    status,
    JSON.stringify(findings),
    nowMs,
    nowMs,
  );
  prepared(
    db,
    `INSERT INTO assessments (candidate_id, statement_id, citations_digest, provenance_strength, limitations_json, claim_support, assessed_by, statement_text_digest, revision)
     VALUES (?, ?, ?, 'proposed', ?, 'unverified', 'deterministic', ?, 1)`,
  ).run(
    candidateId,
    STATEMENT_ID,
    memoryDigest([]),
    JSON.stringify(['proposed by an agent: it cites no user turn']),
    sha256Hex(input.content),
  );
  // A revision of an approved entry is represented as adjudication represents one (candidate-support.ts
  // reads it): prepare then targets that entry's file, an update, not a new entry.
  if (input.revises !== undefined)
    prepared(
      db,
      `INSERT INTO candidate_provenance (candidate_id, from_candidate_id, relation, task_id, from_revision, recorded_at_ms)
       VALUES (?, ?, 'update', ?, 0, ?) ON CONFLICT DO NOTHING`,
    ).run(candidateId, `approved:${input.revises}`, `proposal:${input.origin.client}`, nowMs);
  return { candidateId, status, created: true, blockedBy: blockingRules(blocked) };
}

export const proposalCommands = {
  memoryProposeCandidate: memoryCommand({ schema: proposalInput, run: (tx, _context, input) => propose(tx, input) }),
};
