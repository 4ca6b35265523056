// The human gate through the real shipped bin, over a real git repository and candidates extracted
// from captured sessions: confirm, discard, prepare → approve → promote, the file in the worktree
// and in the approved projection; and every bad input of the gate refused with one line, its
// documented exit code and nothing written.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { MemoryReviewCandidate } from '../../source/protocol.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every file below `dir` with its bytes, for "nothing was written" comparisons. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else out[path] = entry.isSymbolicLink() ? '<link>' : readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return out;
}

async function candidatesIn(home: string, repo: string, said: string[]): Promise<MemoryReviewCandidate[]> {
  queueSession(home, repo, said);
  await c.flush(home);
  const extract = await runCli(['memory', 'extract', '--home', home, '--json'], { cwd: repo });
  assert.equal(extract.code, 0, extract.stderr);
  const review = await runCli(['memory', 'review', '--home', home, '--json'], { cwd: repo });
  assert.equal(review.code, 0, review.stderr);
  return json(review.stdout).candidates;
}

const cli = (home: string, cwd: string, ...args: string[]) => runCli([...args, '--home', home, '--json'], { cwd });

describe('memory confirm, discard, prepare, approve, promote', () => {
  it('promotes a reviewed candidate into the worktree: exact bytes, git sees the file, search and get find it', async () => {
    const home = tempHome('promote-cli');
    const repo = gitRepo(home, 'repo');
    const drafts = await candidatesIn(home, repo, [
      'Always use named exports in TypeScript modules.',
      'From now on, use pnpm instead of npm in this repo.',
    ]);
    const first = drafts.find((cand) => cand.content.includes('named exports'));
    const second = drafts.find((cand) => cand.content.includes('pnpm'));
    assert.ok(first && second, 'two draft candidates');

    const statement = first.statements[0]!.statementId;
    const confirm = await cli(home, repo, 'memory', 'confirm', first.candidateId, statement);
    assert.equal(confirm.code, 0, confirm.stderr);
    assert.equal(json(confirm.stdout).claimSupport, 'human-confirmed');
    assert.equal(
      json((await cli(home, repo, 'memory', 'confirm', first.candidateId, statement)).stdout).replayed,
      true,
    );

    const discard = await cli(home, repo, 'memory', 'discard', second.candidateId);
    assert.equal(discard.code, 0, discard.stderr);
    assert.equal(json(discard.stdout).status, 'discarded');
    const queue = json((await cli(home, repo, 'memory', 'review')).stdout).candidates;
    assert.deepEqual(
      queue.map((cand: { candidateId: string }) => cand.candidateId),
      [first.candidateId],
      'a discarded candidate leaves the queue',
    );

    const prepared = await cli(home, repo, 'memory', 'prepare', first.candidateId);
    assert.equal(prepared.code, 0, prepared.stderr);
    const plan = json(prepared.stdout);
    assert.equal(plan.status, 'generated');
    assert.equal(plan.files.length, 1);
    const [file] = plan.files;
    assert.equal(file.targetBlobHash, null, 'a new file');
    assert.match(file.path, /^work_method\/.+\.md$|^work_fact\/.+\.md$/);
    assert.match(plan.diff, /^--- \/dev\/null\n\+\+\+ b\//);
    assert.match(plan.diff, /named exports/);
    assert.match(plan.diff, /confirmed by a person/);
    const target = join(repo, '.common-memory', 'memory', file.path);
    assert.ok(!existsSync(target), 'prepare writes no file');

    const wrong = await cli(home, repo, 'memory', 'approve', plan.planId, '--digest', '0'.repeat(64));
    assert.equal(wrong.code, 5, wrong.stderr);
    assert.match(json(wrong.stderr).error.message, /is not plan .*'s .*nothing was approved/);
    const early = await cli(home, repo, 'memory', 'promote', plan.planId);
    assert.equal(early.code, 5, early.stderr);
    assert.match(json(early.stderr).error.message, /not approved yet/);
    assert.ok(!existsSync(target));

    const approve = await cli(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest);
    assert.equal(approve.code, 0, approve.stderr);
    assert.equal(json(approve.stdout).status, 'approved');
    const twice = await cli(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest);
    assert.equal(twice.code, 5);
    assert.match(json(twice.stderr).error.message, /already approved.*memory promote/);

    const promoted = await cli(home, repo, 'memory', 'promote', plan.planId);
    assert.equal(promoted.code, 0, promoted.stderr);
    const result = json(promoted.stdout);
    assert.equal(result.status, 'applied');
    assert.equal(result.files[0].state, 'written');
    assert.equal(result.sync.coverage, 'complete');
    const shown = json((await cli(home, repo, 'memory', 'plan', plan.planId)).stdout);
    assert.equal(shown.status, 'applied');
    const bytes = readFileSync(target);
    assert.match(bytes.toString('utf8'), /^---\nid: "m-[0-9a-f]{20}"\n/);
    assert.ok(bytes.toString('utf8').includes('named exports'));
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: repo,
      encoding: 'utf8',
    });
    assert.match(status, new RegExp(`\\?\\? \\.common-memory/memory/${file.path.replace('.', '\\.')}`));
    assert.equal(
      execFileSync('git', ['rev-list', '--all', '--count'], { cwd: repo, encoding: 'utf8' }).trim(),
      '0',
      'no commit was made',
    );

    const again = await cli(home, repo, 'memory', 'promote', plan.planId);
    assert.equal(again.code, 0, 'promoting an applied plan again answers as it is');
    assert.deepEqual(readFileSync(target), bytes, 'and writes nothing');

    const search = json((await cli(home, repo, 'memory', 'search', 'named exports')).stdout);
    assert.equal(search.results[0].entryId, file.entryId);
    const got = await cli(home, repo, 'get', file.entryId);
    assert.equal(got.code, 0, got.stderr);
    assert.deepEqual(json(got.stdout).sources, [{ scope: 'project', path: file.path }]);
    const memoryStatus = json((await cli(home, repo, 'memory', 'status')).stdout);
    assert.equal(memoryStatus.candidates.promoted, 1);
    assert.equal(memoryStatus.candidates.discarded, 1);
    assert.equal(memoryStatus.promotions.applied, 1);
    assert.deepEqual(json((await cli(home, repo, 'memory', 'review')).stdout).candidates, [], 'the queue is empty');
  });

  it('refuses bad input with one line, its exit code and nothing written', async () => {
    const home = tempHome('promote-bad');
    const repo = gitRepo(home, 'repo');
    const [cand] = await candidatesIn(home, repo, ['Always use named exports in TypeScript modules.']);
    assert.ok(cand, 'a draft candidate');
    const root = join(repo, '.common-memory', 'memory');
    const refused = async (expected: number, pattern: RegExp, ...args: string[]) => {
      const before = snapshot(repo);
      const run = await cli(home, repo, ...args);
      assert.equal(run.code, expected, `${args.join(' ')}: ${run.stderr}`);
      const message = json(run.stderr).error.message as string;
      assert.match(message, pattern);
      assert.ok(!message.includes('\n'), 'one line');
      assert.deepEqual(snapshot(repo), before, `${args.join(' ')} wrote nothing`);
      return message;
    };
    await refused(6, /No candidate "cand-nope"/, 'memory', 'prepare', 'cand-nope');
    await refused(6, /no statement "s-nope"/, 'memory', 'confirm', cand.candidateId, 's-nope');
    await refused(6, /No promotion plan "plan-nope"/, 'memory', 'approve', 'plan-nope', '--digest', 'x');
    await refused(6, /No promotion plan/, 'memory', 'promote', 'plan-nope');
    await refused(2, /--digest/, 'memory', 'approve', 'plan-x');
    await refused(2, /--scope must be project or user/, 'memory', 'prepare', cand.candidateId, '--scope', 'team');

    // A symbolic link on the path to the memory root: refused, nothing written outside.
    const outside = join(home, '..', 'outside');
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(repo, '.common-memory'), { recursive: true });
    symlinkSync(outside, root);
    await refused(2, /symbolic link.*nothing was prepared/, 'memory', 'prepare', cand.candidateId);
    assert.deepEqual(readdirSync(outside), []);
    rmSync(root);

    // A target edited between prepare and promote: the plan is voided, the edit kept.
    const plan = json((await cli(home, repo, 'memory', 'prepare', cand.candidateId)).stdout);
    assert.equal(
      json((await cli(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest)).stdout).status,
      'approved',
    );
    const target = join(root, plan.files[0].path);
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, 'written by hand meanwhile\n');
    const voided = await cli(home, repo, 'memory', 'promote', plan.planId);
    assert.equal(voided.code, 5, voided.stderr);
    assert.equal(json(voided.stdout).status, 'voided');
    assert.match(json(voided.stdout).voidReason, /changed since the plan was made/);
    assert.equal(readFileSync(target, 'utf8'), 'written by hand meanwhile\n', 'the edit is kept');
    await refused(5, /was voided .*run memory prepare again/, 'memory', 'promote', plan.planId);
    await refused(5, /was voided/, 'memory', 'approve', plan.planId, '--digest', plan.planDigest);
    rmSync(target);

    // A memory root on a read-only directory: one line, the plan waits for promote again.
    const again = json((await cli(home, repo, 'memory', 'prepare', cand.candidateId)).stdout);
    await cli(home, repo, 'memory', 'approve', again.planId, '--digest', again.planDigest);
    const directory = join(root, again.files[0].path, '..');
    mkdirSync(directory, { recursive: true });
    // Root ignores permission bits; the immutable attribute stops it too.
    const lock = (on: boolean) =>
      process.getuid?.() === 0
        ? execFileSync('chattr', [on ? '+i' : '-i', directory])
        : execFileSync('chmod', [on ? '0555' : '0755', directory]);
    lock(true);
    try {
      await refused(2, /read-only.*memory promote/, 'memory', 'promote', again.planId);
    } finally {
      lock(false);
    }
    const finished = await cli(home, repo, 'memory', 'promote', again.planId);
    assert.equal(finished.code, 0, finished.stderr);
    assert.equal(json(finished.stdout).status, 'applied');

    // A promoted candidate cannot be discarded, nor prepared again.
    await refused(5, /promoted; only draft and quarantined/, 'memory', 'discard', cand.candidateId);
    await refused(5, /is promoted; only draft candidates/, 'memory', 'prepare', cand.candidateId);
  });
});
