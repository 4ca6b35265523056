// A promotion plan tampered with in memory-state between approve and promote, through the real
// shipped bin: the anchor pointed outside the repository (alone, and with the plan's digest and its
// approval forged to match), and every other column of promotion_journal and promotion_files
// changed one at a time. promote voids the plan (exit 5, the reason in one line) or refuses it, and
// writes nothing anywhere; the columns that only record progress or timestamps change nothing
// promote writes.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import { sha256Hex } from '../../source/ground/digests.js';
import type { MemoryPlanView } from '../../source/api/memory-views.js';
import * as c from '../support/capture.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { queueSession } from '../support/memory-corpus.js';
import { filesBelow } from '../support/file-tree.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Setup {
  home: string;
  repo: string;
  outside: string;
  candidateId: string;
}

let setup: Setup;

/** Plans for the one candidate, made and (unless `approve: false`) approved through a local host. */
async function plans(count: number, approve = true, scope?: 'user'): Promise<MemoryPlanView[]> {
  return c.withLocalHost(setup.home, async (app) => {
    const made: MemoryPlanView[] = [];
    for (let i = 0; i < count; i++) {
      const plan = await app.memoryPrepare({ candidateIds: [setup.candidateId], cwd: setup.repo, scope });
      if (approve) await app.memoryApprove({ planId: plan.planId, digest: plan.planDigest });
      made.push(plan);
    }
    return made;
  });
}

/** Runs SQL on memory-state.sqlite directly, as someone with access to the file could. */
function tamper(sql: string, ...params: unknown[]): void {
  const db = new Database(storeFiles(setup.home).memoryState);
  // Someone editing the file is not held to its foreign keys (better-sqlite3 turns them on).
  db.pragma('foreign_keys = OFF');
  try {
    const changed = db.prepare(sql).run(...params).changes;
    assert.ok(changed > 0, `the tampering changed a row: ${sql}`);
  } finally {
    db.close();
  }
}

const journalRow = (planId: string): Record<string, unknown> => {
  const db = new Database(storeFiles(setup.home).memoryState, { readonly: true });
  try {
    return db.prepare('SELECT * FROM promotion_journal WHERE plan_id = ?').get(planId) as Record<string, unknown>;
  } finally {
    db.close();
  }
};

/**
 * promote after tampering: the plan voided with a reason matching `reason` — by this promote (exit
 * 5, the voided plan on stdout) or already as the host opened (a plan left applying is resumed
 * then; exit 5, the refusal naming the reason) — and nothing written anywhere. Through the shipped
 * bin, or (`inProcess`) through the same `main` in this process, which opens a local host of its
 * own after the tampering all the same: the anchor cases keep the bin, the column-by-column cases
 * (22 promotes, about 0.5 s of CPU each as a spawn) test what promote decides, not the process.
 */
async function promoteVoids(planId: string, reason: RegExp, what: string, inProcess = false): Promise<void> {
  const before = filesBelow(setup.repo);
  const args = ['memory', 'promote', planId, '--home', setup.home, '--json'];
  const run = await (inProcess ? runCliInProcess : runCli)(args, { cwd: setup.repo });
  assert.deepEqual(filesBelow(setup.outside), {}, `${what}: nothing written outside the repository`);
  assert.deepEqual(filesBelow(setup.repo), before, `${what}: nothing written in the repository`);
  assert.ok(!existsSync(join(setup.home, 'memory')), `${what}: nothing written in the user memory root`);
  assert.equal(run.code, 5, `${what}: exit 5, got ${run.code}: ${run.stdout} ${run.stderr}`);
  const said = run.stdout
    ? (json(run.stdout) as { status: string; voidReason: string })
    : { status: 'refused', voidReason: json(run.stderr).error.message as string };
  if (said.status === 'refused') assert.match(said.voidReason, /was voided .*nothing was written/, what);
  else assert.equal(said.status, 'voided', `${what}: voided`);
  assert.match(said.voidReason, reason, `${what}: the reason`);
  assert.ok(!said.voidReason.includes('\n'), `${what}: one line`);
}

const DAMAGED = /does not match what was approved/;

describe('a promotion plan tampered with in memory-state between approve and promote', () => {
  before(async () => {
    const home = tempHome('promote-tamper');
    const repo = gitRepo(home, 'repo');
    const outside = join(dirname(home), 'outside');
    mkdirSync(outside);
    queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    await c.flush(home);
    const extract = await runCli(['memory', 'extract', '--home', home, '--json'], { cwd: repo });
    assert.equal(extract.code, 0, extract.stderr);
    const review = json((await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo })).stdout);
    const [candidate] = review.candidates as Array<{ candidateId: string }>;
    assert.ok(candidate, 'a draft candidate');
    setup = { home, repo, outside, candidateId: candidate.candidateId };
  });

  it('an anchor pointed outside the repository: voided, nothing written there', async () => {
    const [plan] = await plans(1);
    tamper('UPDATE promotion_journal SET anchor = ? WHERE plan_id = ?', setup.outside, plan!.planId);
    await promoteVoids(plan!.planId, /anchor|worktree/, 'anchor');
  });

  /** Rewrites everything stored about a plan to agree with a new anchor, as a careful forger would. */
  function forgeAnchor(planId: string, planDigest: string, anchor: string): void {
    const row = journalRow(planId);
    const canonical = json(String(row['plan_canonical_json']));
    if ('anchorDigest' in canonical) canonical['anchorDigest'] = sha256Hex(anchor);
    const forgedJson = JSON.stringify(canonical);
    const forgedDigest = sha256Hex(forgedJson);
    tamper(
      'UPDATE promotion_journal SET anchor = ?, plan_canonical_json = ?, plan_digest = ? WHERE plan_id = ?',
      anchor,
      forgedJson,
      forgedDigest,
      planId,
    );
    tamper('UPDATE authorization_log SET plan_digest = ? WHERE plan_digest = ?', forgedDigest, planDigest);
  }

  it('an anchor forged with its plan digest and approval: the anchor re-derived from the repository binding voids it', async () => {
    const [plan] = await plans(1);
    forgeAnchor(plan!.planId, plan!.planDigest, setup.outside);
    await promoteVoids(
      plan!.planId,
      /anchor is not the worktree of the repository it was prepared for/,
      'forged anchor',
    );
    // Another git worktree is not this plan's either: its keys are not the plan's.
    const [again] = await plans(1);
    const elsewhere = gitRepo(setup.home, 'elsewhere');
    forgeAnchor(again!.planId, again!.planDigest, elsewhere);
    await promoteVoids(again!.planId, /anchor is not the worktree/, 'forged anchor, another repository');
    assert.ok(!existsSync(join(elsewhere, '.common-memory')), 'nothing written there');
  });

  it('a user-scope plan whose anchor is forged away from the data home: voided', async () => {
    const [plan] = await plans(1, true, 'user');
    forgeAnchor(plan!.planId, plan!.planDigest, setup.outside);
    await promoteVoids(plan!.planId, /anchor is not this data home/, 'forged user anchor');
  });

  it('every column that decides what promote writes: voided, nothing written', async () => {
    const other = 'f'.repeat(64);
    const cases: Array<{
      what: string;
      approve?: boolean;
      change: (planId: string) => string | void;
      reason?: RegExp;
    }> = [
      {
        what: 'repository_key',
        change: (id) => tamper(`UPDATE promotion_journal SET repository_key = ? WHERE plan_id = ?`, other, id),
      },
      {
        what: 'worktree_key',
        change: (id) => tamper(`UPDATE promotion_journal SET worktree_key = ? WHERE plan_id = ?`, other, id),
      },
      { what: 'scope', change: (id) => tamper(`UPDATE promotion_journal SET scope = 'user' WHERE plan_id = ?`, id) },
      {
        what: 'candidate_owner_json',
        change: (id) =>
          tamper(
            `UPDATE promotion_journal SET candidate_owner_json = ? WHERE plan_id = ?`,
            JSON.stringify({ repositoryKey: other, worktreeKey: other }),
            id,
          ),
      },
      {
        what: 'plan_canonical_json',
        change: (id) =>
          tamper(
            `UPDATE promotion_journal SET plan_canonical_json = replace(plan_canonical_json, '"project"', '"user"') WHERE plan_id = ?`,
            id,
          ),
      },
      {
        what: 'plan_digest',
        change: (id) => tamper(`UPDATE promotion_journal SET plan_digest = ? WHERE plan_id = ?`, '0'.repeat(64), id),
      },
      {
        what: 'candidate_ids_json',
        change: (id) =>
          tamper(
            `UPDATE promotion_journal SET candidate_ids_json = json_insert(candidate_ids_json, '$[#]', json_object('candidateId', 'cand-other', 'revision', 1)) WHERE plan_id = ?`,
            id,
          ),
      },
      {
        what: 'assessment_digest',
        reason: /confirmed or re-assessed|does not match what was approved/,
        change: (id) => tamper(`UPDATE promotion_journal SET assessment_digest = ? WHERE plan_id = ?`, other, id),
      },
      {
        what: 'policy_version',
        change: (id) =>
          tamper(`UPDATE promotion_journal SET policy_version = 'promotion-policy@0' WHERE plan_id = ?`, id),
      },
      {
        what: 'diff',
        change: (id) => tamper(`UPDATE promotion_journal SET diff = 'nothing to see here' WHERE plan_id = ?`, id),
      },
      {
        what: 'status (never approved, marked approved)',
        approve: false,
        reason: /no approval/,
        change: (id) => tamper(`UPDATE promotion_journal SET status = 'approved' WHERE plan_id = ?`, id),
      },
      {
        what: 'status (never approved, marked applying)',
        approve: false,
        reason: /no approval/,
        change: (id) => tamper(`UPDATE promotion_journal SET status = 'applying' WHERE plan_id = ?`, id),
      },
      {
        what: 'plan_id',
        change: (id) => {
          tamper(`UPDATE promotion_journal SET plan_id = ? WHERE plan_id = ?`, `${id}-x`, id);
          return `${id}-x`;
        },
      },
      {
        what: 'promotion_files.plan_id',
        change: (id) => tamper(`UPDATE promotion_files SET plan_id = ? WHERE plan_id = ?`, `${id}-elsewhere`, id),
      },
      {
        what: 'promotion_files.target_path',
        change: (id) =>
          tamper(`UPDATE promotion_files SET target_path = '../../../outside/x.md' WHERE plan_id = ?`, id),
      },
      {
        what: 'promotion_files.entry_id',
        change: (id) => tamper(`UPDATE promotion_files SET entry_id = 'm-other' WHERE plan_id = ?`, id),
      },
      {
        what: 'promotion_files.action',
        change: (id) => tamper(`UPDATE promotion_files SET action = 'update' WHERE plan_id = ?`, id),
      },
      {
        what: 'promotion_files.candidate_ids_json',
        change: (id) =>
          tamper(`UPDATE promotion_files SET candidate_ids_json = '["cand-other"]' WHERE plan_id = ?`, id),
      },
      {
        what: 'promotion_files.target_blob_hash',
        change: (id) => tamper(`UPDATE promotion_files SET target_blob_hash = ? WHERE plan_id = ?`, 'a'.repeat(40), id),
      },
      {
        what: 'promotion_files.sanitized_content',
        change: (id) =>
          tamper(
            `UPDATE promotion_files SET sanitized_content = CAST('---\nid: "m-x"\n---\nrm -rf\n' AS BLOB) WHERE plan_id = ?`,
            id,
          ),
      },
      {
        what: 'promotion_files.sanitized_digest',
        change: (id) => tamper(`UPDATE promotion_files SET sanitized_digest = ? WHERE plan_id = ?`, other, id),
      },
      {
        what: 'promotion_files.findings_json',
        change: (id) =>
          tamper(
            `UPDATE promotion_files SET findings_json = '[{"line":1,"column":1,"rule":"made-up","severity":"warn","excerpt":"x"}]' WHERE plan_id = ?`,
            id,
          ),
      },
    ];
    const approved = await plans(cases.filter((one) => one.approve !== false).length);
    const unapproved = await plans(cases.filter((one) => one.approve === false).length, false);
    for (const one of cases) {
      const plan = (one.approve === false ? unapproved : approved).shift()!;
      const planId = one.change(plan.planId) ?? plan.planId;
      await promoteVoids(planId, one.reason ?? DAMAGED, one.what, true);
    }
  });

  it('a diff changed before approval: approve voids the plan instead of approving what the person did not read', async () => {
    const [plan] = await plans(1, false);
    tamper(`UPDATE promotion_journal SET diff = 'a harmless-looking diff' WHERE plan_id = ?`, plan!.planId);
    const run = await runCli(
      ['memory', 'approve', plan!.planId, '--digest', plan!.planDigest, '--home', setup.home, '--json'],
      { cwd: setup.repo },
    );
    assert.equal(run.code, 5, run.stderr);
    assert.match(
      json(run.stderr).error.message,
      /voided and nothing was approved: .*does not match what was approved \(its diff is not the one approved\)/,
    );
    assert.equal(journalRow(plan!.planId)['status'], 'voided');
  });

  it('columns that record progress or time: promote writes exactly the approved bytes, inside the repository', async () => {
    const [plan] = await plans(1);
    const id = plan!.planId;
    tamper(
      `UPDATE promotion_journal SET void_reason = 'made up', created_at_ms = 1, updated_at_ms = 2 WHERE plan_id = ?`,
      id,
    );
    tamper(`UPDATE promotion_files SET state = 'written' WHERE plan_id = ?`, id);
    const run = await runCli(['memory', 'promote', id, '--home', setup.home, '--json'], { cwd: setup.repo });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(json(run.stdout).status, 'applied');
    const file = plan!.files[0]!;
    const bytes = readFileSync(join(setup.repo, '.common-memory', 'memory', file.path));
    assert.equal(sha256Hex(bytes), file.sanitizedContentDigest, 'the approved bytes');
    assert.deepEqual(filesBelow(setup.outside), {});
  });
});
