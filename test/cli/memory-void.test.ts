// A person withdraws a plan not yet written (`memory void`): a generated or an approved plan is
// voided and can no longer be approved or promoted, its candidates stay queued; a plan already
// applied is refused and keeps its status. One call through the bin for its exit code and streams;
// the rest in-process through the same main.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCliInProcess } from '../support/cli-in-process.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

// biome-ignore lint/suspicious/noExplicitAny: the CLI's JSON, read field by field
type Json = Record<string, any>;
const json = (text: string) => JSON.parse(text) as Json;
const run = (home: string, cwd: string, ...args: string[]) =>
  runCliInProcess([...args, '--home', home, '--json'], { cwd });

async function preparedPlan(home: string, repo: string, said: string): Promise<Json> {
  queueSession(home, repo, [said]);
  await c.flush(home);
  assert.equal((await run(home, repo, 'memory', 'extract')).code, 0);
  const [candidate] = json((await run(home, repo, 'memory', 'review')).stdout).candidates;
  assert.ok(candidate, 'a draft candidate');
  const prepared = await run(home, repo, 'memory', 'prepare', candidate.candidateId);
  assert.equal(prepared.code, 0, prepared.stderr);
  return json(prepared.stdout);
}

describe('memory void', () => {
  it('voids a generated plan: approve and promote then refuse it, its candidate stays queued, a second void changes nothing', async () => {
    const home = tempHome('void-generated');
    const repo = gitRepo(home, 'repo');
    const plan = await preparedPlan(home, repo, 'Always use named exports in TypeScript modules.');

    const voided = await runCli(['memory', 'void', plan.planId, '--home', home], { cwd: repo });
    assert.equal(voided.code, 0, voided.stderr);
    assert.match(voided.stdout, /is voided: nothing was written/);
    assert.match(voided.stdout, /Its 1 candidate stays in the review queue/);
    assert.ok(
      voided.stdout.split('\n').every((line) => line.length <= 80),
      voided.stdout,
    );

    const shown = json((await run(home, repo, 'memory', 'plan', plan.planId)).stdout);
    assert.equal(shown.status, 'voided');
    assert.match(shown.voidReason, /withdrawn by a person/);

    const approve = await run(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest);
    assert.equal(approve.code, 5, approve.stderr);
    assert.match(approve.stderr, /voided \(withdrawn by a person/);
    const promote = await run(home, repo, 'memory', 'promote', plan.planId);
    assert.equal(promote.code, 5, promote.stderr);
    assert.equal(existsSync(join(repo, '.common-memory', 'memory')), false, 'nothing written');

    const queue = json((await run(home, repo, 'memory', 'review')).stdout).candidates;
    assert.deepEqual(
      queue.map((cand: { candidateId: string }) => cand.candidateId),
      plan.candidates.map((cand: { candidateId: string }) => cand.candidateId),
    );

    const again = await run(home, repo, 'memory', 'void', plan.planId);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(json(again.stdout).alreadyVoided, true);
    assert.equal(json(again.stdout).voidReason, shown.voidReason, 'the first reason stays');

    // The candidate prepares again into a fresh plan.
    const fresh = await run(home, repo, 'memory', 'prepare', plan.candidates[0].candidateId);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.notEqual(json(fresh.stdout).planId, plan.planId);
  });

  it('voids an approved plan before it is written; refuses an applied one and leaves it applied', async () => {
    const home = tempHome('void-approved');
    const repo = gitRepo(home, 'repo');
    const plan = await preparedPlan(home, repo, 'From now on, use pnpm instead of npm in this repo.');
    assert.equal((await run(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest)).code, 0);
    const voided = await run(home, repo, 'memory', 'void', plan.planId);
    assert.equal(voided.code, 0, voided.stderr);
    assert.equal(json(voided.stdout).status, 'voided');
    assert.equal(json(voided.stdout).alreadyVoided, false);
    assert.notEqual((await run(home, repo, 'memory', 'promote', plan.planId)).code, 0);

    const second = json((await run(home, repo, 'memory', 'prepare', plan.candidates[0].candidateId)).stdout);
    assert.equal((await run(home, repo, 'memory', 'approve', second.planId, '--digest', second.planDigest)).code, 0);
    assert.equal((await run(home, repo, 'memory', 'promote', second.planId)).code, 0);
    const refused = await run(home, repo, 'memory', 'void', second.planId);
    assert.equal(refused.code, 5, refused.stderr);
    assert.equal(json(refused.stderr).error.code, 'operation_conflict');
    assert.match(json(refused.stderr).error.message, /already applied/);
    assert.equal(json((await run(home, repo, 'memory', 'plan', second.planId)).stdout).status, 'applied');
  });

  it('refuses a missing id, an unknown plan and a flag it does not take, changing nothing', async () => {
    const home = tempHome('void-bad');
    const repo = gitRepo(home, 'repo');
    const missing = await run(home, repo, 'memory', 'void');
    assert.equal(missing.code, 2);
    assert.match(json(missing.stderr).error.message, /memory void <plan-id>/);
    const unknown = await run(home, repo, 'memory', 'void', 'no-such-plan');
    assert.equal(unknown.code, 6);
    assert.match(json(unknown.stderr).error.message, /no-such-plan/);
    const flag = await run(home, repo, 'memory', 'void', 'x', '--digest', 'abc');
    assert.equal(flag.code, 2);
    assert.match(json(flag.stderr).error.message, /--digest/);
  });
});
