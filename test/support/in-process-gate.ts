// An approved promotion plan over a real memory-state, with the gate's writer commands run as the
// writer thread runs them (schema-checked, one transaction each) but in this process: what the
// promote tests and the promotion bench drive promotePlan with. The commands run are counted. The
// plan's root is a real git worktree, bound as prepare binds one: promote re-derives the anchor.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../../source/ground/digests.js';
import { approvedCommands } from '../../source/store/memory/approved-store.js';
import {
  buildPromotionPlan,
  type CandidateForPromotion,
  canonicalPlanJson,
} from '../../source/memory/promotion-plan.js';
import type { GateDeps } from '../../source/pipeline/promotion.js';
import { promotionCommands } from '../../source/store/memory/promotion-store.js';
import { resolveScope } from '../../source/effects/repository.js';
import { openMemoryState } from '../../source/store/memory/state-database.js';
import type { AnyCommand } from '../../source/store/command.js';
import type { Db } from '../../source/store/database.js';
import { commit } from '../../source/store/transaction.js';

export interface InProcessGate {
  deps: GateDeps;
  db: Db;
  /** The worktree the plan writes into. */
  anchor: string;
  /** Its keys: the owner of the plan and of its candidates. */
  owner: { repositoryKey: string; worktreeKey: string };
  planId: string;
  /** The writer commands run since the plan was approved, in order. */
  commits: string[];
  run(name: string, input: unknown): Promise<never>;
  close(): void;
}

/** `count` new work facts, `<prefix>-0`…, each one line, ready for a plan. */
export const factCandidates = (count: number, prefix: string): CandidateForPromotion[] =>
  Array.from({ length: count }, (_, i) => ({
    candidateId: `${prefix}-${i}`,
    revision: 1,
    type: 'work_fact',
    title: `Fact ${i}`,
    content: `Fact number ${i}.\n`,
    appliesWhen: null,
    priority: 50,
    confidence: 'high',
    evidenceSummary: '1 statement from 1 user turn',
    supersedes: [],
    updatesEntryId: null,
  }));

/** `candidates` as drafts of a fresh git worktree's repository, their plan stored and approved. */
export function approvedPlanInProcess(
  dir: string,
  candidates: CandidateForPromotion[],
  planId = 'plan-in-process',
): InProcessGate {
  mkdirSync(dir, { recursive: true });
  const worktree = join(dir, 'worktree');
  mkdirSync(worktree);
  execFileSync('git', ['init', '-q'], { cwd: worktree });
  const binding = resolveScope(worktree);
  if (binding.scope !== 'project') throw new Error('git init made no worktree');
  const anchor = realpathSync(worktree);
  const owner = { repositoryKey: binding.repositoryKey, worktreeKey: binding.worktreeKey };
  const memoryStatePath = join(dir, 'memory-state.sqlite');
  const state = openMemoryState(memoryStatePath);
  const db = state.db;
  db.prepare(
    "INSERT INTO chunks (chunk_ref, repository_key, worktree_key, session_key, turn_range, chunk_digest, source_input_digest, status, created_at_ms) VALUES ('gate', ?, ?, 's', '0-1', 'd', 'd', 'drafted', 0)",
  ).run(owner.repositoryKey, owner.worktreeKey);
  const insert = db.prepare(
    "INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref, task_id, content_digest, payload_json, status, created_at_ms, updated_at_ms) VALUES (?, ?, ?, 'gate', 't', ?, ?, 'draft', 0, 0)",
  );
  for (const c of candidates)
    insert.run(c.candidateId, owner.repositoryKey, owner.worktreeKey, sha256Hex(c.content), JSON.stringify(c));
  const commits: string[] = [];
  const run = (name: string, input: unknown): Promise<never> => {
    const command =
      (promotionCommands as Record<string, AnyCommand>)[name] ??
      (approvedCommands as Record<string, AnyCommand>)[name]!;
    const context = { storeId: 'gate', memoryStateUuid: state.memoryStateUuid, core: db };
    commits.push(name);
    return Promise.resolve(commit(db, name, (tx) => command.run(tx, context, command.schema.parse(input)))) as never;
  };
  const built = buildPromotionPlan({
    planId,
    scope: 'project',
    ownerKey: `${owner.repositoryKey}:${owner.worktreeKey}`,
    anchor,
    candidates,
    currentFiles: [],
    now: '2026-03-01T00:00:00.000Z',
  });
  if (!built.ok) throw new Error(built.refusal.message);
  const { plan } = built;
  void run('memoryStorePlan', {
    planId: plan.planId,
    owner,
    scope: 'project',
    anchor,
    candidateOwner: owner,
    canonicalJson: canonicalPlanJson(plan),
    planDigest: plan.planDigest,
    policyVersion: plan.policyVersion,
    candidates: plan.candidates,
    diff: plan.diff,
    files: plan.files.map(({ findings, ...file }) => ({
      ...file,
      findings: findings.map(({ line, column, rule, severity, excerpt }) => ({
        line,
        column,
        rule,
        severity,
        excerpt,
      })),
    })),
  });
  void run('memoryApprovePlan', { planId: plan.planId, digest: plan.planDigest });
  commits.length = 0;
  const deps: GateDeps = {
    memoryStatePath,
    home: dir,
    writer: {
      storePlan: (input) => run('memoryStorePlan', input),
      beginPromotion: (input) => run('memoryBeginPromotion', input),
      voidPlan: (input) => run('memoryVoidPlan', input),
      finishPromotion: (input) => run('memoryFinishPromotion', input),
      storeScan: (input) => run('memorySyncApproved', input),
    },
  };
  return { deps, db, anchor, owner, planId, commits, run, close: () => db.close() };
}
