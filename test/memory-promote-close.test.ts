// promote closes a plan and shows its entries in one durable commit: the closing transaction stores
// the approved projection's scan with the plan applied, so no commit of its own follows it; a
// projection that moved meanwhile (another sync committed) is synced again after, as any sync.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { sha256Hex } from '../source/ground/digests.js';
import { approvedCommands } from '../source/memory/approved-store.js';
import { readEntryFiles } from '../source/memory/approved-projection.js';
import { memoryRootOf } from '../source/memory/memory-root.js';
import { buildPromotionPlan, type CandidateForPromotion, canonicalPlanJson } from '../source/memory/promotion-plan.js';
import { type GateDeps, promotePlan } from '../source/memory/promotion.js';
import { promotionCommands } from '../source/memory/promotion-store.js';
import { openMemoryState } from '../source/memory/state-database.js';
import type { AnyCommand } from '../source/store/command.js';
import { commit } from '../source/store/transaction.js';

const KEY = 'b'.repeat(64);

const candidates = (count: number): CandidateForPromotion[] =>
  Array.from({ length: count }, (_, i) => ({
    candidateId: `c-close-${i}`,
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

/** An approved plan of three new entries, and the writer commands run in this process, counted. */
function approvedPlan(dir: string) {
  const state = openMemoryState(join(dir, 'memory-state.sqlite'));
  const db = state.db;
  const list = candidates(3);
  db.prepare(
    "INSERT INTO chunks (chunk_ref, repository_key, worktree_key, session_key, turn_range, chunk_digest, source_input_digest, status, created_at_ms) VALUES ('close', ?, ?, 's', '0-1', 'd', 'd', 'drafted', 0)",
  ).run(KEY, KEY);
  const insert = db.prepare(
    "INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref, task_id, content_digest, payload_json, status, created_at_ms, updated_at_ms) VALUES (?, ?, ?, 'close', 't', ?, ?, 'draft', 0, 0)",
  );
  for (const c of list) insert.run(c.candidateId, KEY, KEY, sha256Hex(c.content), JSON.stringify(c));
  const commits: string[] = [];
  const run = (name: string, input: unknown): Promise<never> => {
    const command =
      (promotionCommands as Record<string, AnyCommand>)[name] ??
      (approvedCommands as Record<string, AnyCommand>)[name]!;
    const context = { storeId: 'close', memoryStateUuid: state.memoryStateUuid, core: db };
    commits.push(name);
    return Promise.resolve(commit(db, name, (tx) => command.run(tx, context, command.schema.parse(input)))) as never;
  };
  const anchor = join(dir, 'worktree');
  mkdirSync(anchor);
  const built = buildPromotionPlan({
    planId: 'plan-close',
    scope: 'project',
    ownerKey: `${KEY}:${KEY}`,
    candidates: list,
    currentFiles: [],
    now: '2026-03-01T00:00:00.000Z',
  });
  if (!built.ok) throw new Error(built.refusal.message);
  const { plan } = built;
  void run('memoryStorePlan', {
    planId: plan.planId,
    owner: { repositoryKey: KEY, worktreeKey: KEY },
    scope: 'project',
    anchor,
    candidateOwner: { repositoryKey: KEY, worktreeKey: KEY },
    canonicalJson: canonicalPlanJson(plan),
    planDigest: plan.planDigest,
    policyVersion: plan.policyVersion,
    candidates: plan.candidates,
    diff: plan.diff,
    files: plan.files.map(({ findings: _f, ...file }) => ({ ...file, findings: [] })),
  });
  void run('memoryApprovePlan', { planId: plan.planId, digest: plan.planDigest });
  commits.length = 0;
  const deps: GateDeps = {
    memoryStatePath: join(dir, 'memory-state.sqlite'),
    home: dir,
    writer: {
      storePlan: (input) => run('memoryStorePlan', input),
      beginPromotion: (input) => run('memoryBeginPromotion', input),
      voidPlan: (input) => run('memoryVoidPlan', input),
      finishPromotion: (input) => run('memoryFinishPromotion', input),
      storeScan: (input) => run('memorySyncApproved', input),
    },
  };
  return { deps, db, anchor, commits, run };
}

describe('promote closes a plan and its projection in one commit', () => {
  let dir: string;
  let close = () => {};
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cm-close-'));
  });
  afterEach(() => {
    close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two durable commits (begin, close); the entries are in the projection when the plan is applied', async () => {
    const setup = approvedPlan(dir);
    close = () => setup.db.close();
    const result = await promotePlan(setup.deps, 'plan-close');
    assert.equal(result.status, 'applied');
    assert.deepEqual(result.sync, { generation: 1, coverage: 'complete', entries: 3 });
    assert.deepEqual(setup.commits, ['memoryBeginPromotion', 'memoryFinishPromotion']);
    const stored = setup.db
      .prepare('SELECT count(*) FROM approved_entries WHERE repository_key = ?')
      .pluck()
      .get(KEY) as number;
    assert.equal(stored, 3);
    assert.equal(readEntryFiles(memoryRootOf('project', setup.anchor)).length, 3);
  });

  it('a sync that committed while the plan was applied wins the check; promote syncs again after closing', async () => {
    const setup = approvedPlan(dir);
    close = () => setup.db.close();
    const begin = setup.deps.writer.beginPromotion;
    setup.deps.writer.beginPromotion = async (input) => {
      const begun = await begin(input);
      // Another sync of the same root lands between begin and close (an empty root: generation 1).
      await setup.run('memorySyncApproved', {
        owner: { scope: 'project', repositoryKey: KEY, worktreeKey: KEY },
        expectedGeneration: null,
        coverage: 'complete',
        unchanged: false,
        sourceTreeDigest: 'c'.repeat(64),
        scanJson: '{}',
        problems: [],
        entries: [],
      });
      return begun;
    };
    const result = await promotePlan(setup.deps, 'plan-close');
    assert.equal(result.status, 'applied');
    assert.deepEqual(result.sync, { generation: 2, coverage: 'complete', entries: 3 });
    assert.deepEqual(setup.commits, [
      'memoryBeginPromotion',
      'memorySyncApproved',
      'memoryFinishPromotion',
      'memorySyncApproved',
    ]);
  });
});
