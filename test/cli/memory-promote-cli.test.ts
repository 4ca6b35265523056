// The human gate over a real git repository and candidates extracted from captured sessions:
// confirm, discard, prepare → approve → promote, the file in the worktree and in the approved
// projection; and every bad input of the gate refused with one line, its documented exit code and
// nothing written. The walk-through's first call of each command, a voided promote and two
// promotes at once go through the real shipped bin; the rest call the same main in this process.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { queueSession } from '../support/memory-corpus.js';
import { filesBelow } from '../support/file-tree.js';
import { lockDirectory } from '../support/memory-files.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function candidatesIn(home: string, repo: string, said: string[]): Promise<MemoryReviewCandidate[]> {
  queueSession(home, repo, said);
  await c.flush(home);
  // The candidates are what these tests start from: extracted in-process (the extraction through the
  // bin is test/e2e/memory-cli.test.ts's), a spawn less (about 0.6 s of CPU) per repository.
  const extract = await runCliInProcess(['memory', 'extract', '--home', home, '--json'], { cwd: repo });
  assert.equal(extract.code, 0, extract.stderr);
  const review = await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo });
  assert.equal(review.code, 0, review.stderr);
  return json(review.stdout).candidates;
}

const cli = (home: string, cwd: string, ...args: string[]) => runCli([...args, '--home', home, '--json'], { cwd });
/** A read (review, plan, search, get): in-process, the bin's own process is not what these tests are about. */
const read = (home: string, cwd: string, ...args: string[]) =>
  runCliInProcess([...args, '--home', home, '--json'], { cwd });
/**
 * A write that only makes the state a test starts from (a plan prepared, approved), and the calls
 * after each command's first through the bin (refusals, replays, the walk-through from another
 * directory): in-process too, through the same main and a local host of its own (each spawn of the
 * bin is 0.5–1.5 s of CPU).
 */
const given = read;

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
      json((await given(home, repo, 'memory', 'confirm', first.candidateId, statement)).stdout).replayed,
      true,
    );

    const discard = await cli(home, repo, 'memory', 'discard', second.candidateId);
    assert.equal(discard.code, 0, discard.stderr);
    assert.equal(json(discard.stdout).status, 'discarded');
    const queue = json((await read(home, repo, 'memory', 'review')).stdout).candidates;
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

    const wrong = await given(home, repo, 'memory', 'approve', plan.planId, '--digest', '0'.repeat(64));
    assert.equal(wrong.code, 5, wrong.stderr);
    assert.match(json(wrong.stderr).error.message, /is not plan .*'s.*nothing was approved/);
    // The refusal sends the person to the diff; it never hands over the digest to copy unread.
    assert.ok(!wrong.stderr.includes(plan.planDigest), wrong.stderr);
    assert.match(json(wrong.stderr).error.message, new RegExp(`memory plan ${plan.planId}`));
    const early = await given(home, repo, 'memory', 'promote', plan.planId);
    assert.equal(early.code, 5, early.stderr);
    assert.match(json(early.stderr).error.message, /not approved yet/);
    assert.ok(!existsSync(target));

    const approve = await cli(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest);
    assert.equal(approve.code, 0, approve.stderr);
    assert.equal(json(approve.stdout).status, 'approved');
    const twice = await given(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest);
    assert.equal(twice.code, 5);
    assert.match(json(twice.stderr).error.message, /already approved.*memory promote/);

    const promoted = await cli(home, repo, 'memory', 'promote', plan.planId);
    assert.equal(promoted.code, 0, promoted.stderr);
    const result = json(promoted.stdout);
    assert.equal(result.status, 'applied');
    assert.equal(result.files[0].state, 'written');
    assert.equal(result.sync.coverage, 'complete');
    const shown = json((await read(home, repo, 'memory', 'plan', plan.planId)).stdout);
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

    const again = await given(home, repo, 'memory', 'promote', plan.planId);
    assert.equal(again.code, 0, 'promoting an applied plan again answers as it is');
    assert.deepEqual(readFileSync(target), bytes, 'and writes nothing');

    const search = json((await read(home, repo, 'memory', 'search', 'named exports')).stdout);
    assert.equal(search.results[0].entryId, file.entryId);
    const got = await read(home, repo, 'get', file.entryId);
    assert.equal(got.code, 0, got.stderr);
    assert.deepEqual(json(got.stdout).sources, [{ scope: 'project', path: file.path }]);
    const memoryStatus = json((await cli(home, repo, 'memory', 'status')).stdout);
    assert.equal(memoryStatus.candidates.promoted, 1);
    assert.equal(memoryStatus.candidates.discarded, 1);
    assert.equal(memoryStatus.promotions.applied, 1);
    assert.deepEqual(json((await read(home, repo, 'memory', 'review')).stdout).candidates, [], 'the queue is empty');
  });

  it("acts on a candidate's own repository from any directory; refuses when that worktree is gone", async () => {
    const home = tempHome('promote-inbox');
    const repoA = gitRepo(home, 'repo-a');
    const repoB = gitRepo(home, 'repo-b');
    // The review lists every scope, in its own order: each candidate is found by what it says.
    const saying = (candidates: MemoryReviewCandidate[], words: string) =>
      candidates.find((candidate) => candidate.content.includes(words));
    const inA = await candidatesIn(home, repoA, [
      'Always use named exports in TypeScript modules.',
      'From now on, use pnpm instead of npm in this repo.',
    ]);
    const [a1, a2] = [saying(inA, 'named exports'), saying(inA, 'pnpm')];
    const b1 = saying(await candidatesIn(home, repoB, ['Never commit generated files under dist.']), 'dist');
    assert.ok(a1 && a2 && b1, 'candidates in both repositories');
    assert.equal(a1.repository, 'repo-a');
    assert.equal(b1.repository, 'repo-b');

    // From repository B: confirm, prepare, approve and promote A's candidate — into A.
    const statement = a1.statements[0]!.statementId;
    const confirm = await given(home, repoB, 'memory', 'confirm', a1.candidateId, statement);
    assert.equal(confirm.code, 0, confirm.stderr);
    const prepared = await given(home, repoB, 'memory', 'prepare', a1.candidateId);
    assert.equal(prepared.code, 0, prepared.stderr);
    const plan = json(prepared.stdout);
    assert.equal(plan.scope, 'project');
    const approve = await given(home, repoB, 'memory', 'approve', plan.planId, '--digest', plan.planDigest);
    assert.equal(approve.code, 0, approve.stderr);
    const promoted = await given(home, repoB, 'memory', 'promote', plan.planId);
    assert.equal(promoted.code, 0, promoted.stderr);
    const path = plan.files[0].path as string;
    assert.match(readFileSync(join(repoA, '.common-memory', 'memory', path), 'utf8'), /named exports/);
    assert.ok(!existsSync(join(repoB, '.common-memory')), "nothing is written into the caller's repository");
    // A's session start and search find it; B's do not.
    assert.equal(json((await read(home, repoA, 'memory', 'search', 'named exports')).stdout).results.length, 1);
    assert.equal(json((await read(home, repoB, 'memory', 'search', 'named exports')).stdout).results.length, 0);

    // From a directory outside git as well: discard works on A's candidate.
    const plain = join(home, '..', 'plain');
    mkdirSync(plain, { recursive: true });
    assert.equal((await given(home, plain, 'memory', 'discard', a2.candidateId)).code, 0);

    // One plan, one repository.
    const [a3] = await candidatesIn(home, repoA, ['Always run the linter before pushing a branch.']);
    assert.ok(a3);
    const mixed = await given(home, plain, 'memory', 'prepare', a3.candidateId, b1.candidateId);
    assert.equal(mixed.code, 2, mixed.stderr);
    assert.match(json(mixed.stderr).error.message, /belong to different repositories.*Nothing was prepared/);

    // A's worktree gone: refused with where it was, nothing prepared; the user scope still takes it.
    rmSync(repoA, { recursive: true, force: true });
    const gone = await given(home, repoB, 'memory', 'prepare', a3.candidateId);
    assert.equal(gone.code, 6, gone.stderr);
    const message = json(gone.stderr).error.message as string;
    assert.ok(message.includes(repoA), message);
    assert.match(message, /is gone.*nothing was prepared.*--scope user/);
    assert.ok(!existsSync(join(repoB, '.common-memory')));
    const toUser = await given(home, repoB, 'memory', 'prepare', a3.candidateId, '--scope', 'user');
    assert.equal(toUser.code, 0, toUser.stderr);
    assert.equal(json(toUser.stdout).scope, 'user');
  });

  it('refuses bad input with one line, its exit code and nothing written', async () => {
    const home = tempHome('promote-bad');
    const repo = gitRepo(home, 'repo');
    const [cand] = await candidatesIn(home, repo, ['Always use named exports in TypeScript modules.']);
    assert.ok(cand, 'a draft candidate');
    const root = join(repo, '.common-memory', 'memory');
    const refused = async (expected: number, pattern: RegExp, ...args: string[]) => {
      const before = filesBelow(repo);
      const run = await given(home, repo, ...args);
      assert.equal(run.code, expected, `${args.join(' ')}: ${run.stderr}`);
      const message = json(run.stderr).error.message as string;
      assert.match(message, pattern);
      assert.ok(!message.includes('\n'), 'one line');
      assert.deepEqual(filesBelow(repo), before, `${args.join(' ')} wrote nothing`);
      return message;
    };
    await refused(6, /No candidate "cand-nope"/, 'memory', 'prepare', 'cand-nope');
    await refused(6, /no statement "s-nope"/, 'memory', 'confirm', cand.candidateId, 's-nope');
    // A statement left out is the usage's to say, whatever the candidate named.
    await refused(2, /Give the candidate and the statement/, 'memory', 'confirm', 'cand-nope');
    await refused(6, /No promotion plan "plan-nope"/, 'memory', 'approve', 'plan-nope', '--digest', 'a'.repeat(64));
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
    const plan = json((await given(home, repo, 'memory', 'prepare', cand.candidateId)).stdout);
    assert.equal(
      json((await given(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest)).stdout).status,
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
    const again = json((await given(home, repo, 'memory', 'prepare', cand.candidateId)).stdout);
    await given(home, repo, 'memory', 'approve', again.planId, '--digest', again.planDigest);
    const directory = join(root, again.files[0].path, '..');
    mkdirSync(directory, { recursive: true });
    lockDirectory(directory, true);
    try {
      // A file it must write is not writable: exit 7, as exit-codes.md says.
      await refused(7, /read-only.*memory promote/, 'memory', 'promote', again.planId);
    } finally {
      lockDirectory(directory, false);
    }
    const finished = await given(home, repo, 'memory', 'promote', again.planId);
    assert.equal(finished.code, 0, finished.stderr);
    assert.equal(json(finished.stdout).status, 'applied');

    // A promoted candidate cannot be discarded, nor prepared again.
    const entryId = plan.files[0].entryId as string;
    const discard = await refused(5, /promoted; only draft and quarantined/, 'memory', 'discard', cand.candidateId);
    // Its entry is retired or revised through a plan like any change, never by deleting the file by hand.
    assert.ok(discard.includes(`memory retire ${entryId}`) && discard.includes(`memory revise ${entryId}`), discard);
    assert.doesNotMatch(discard, /delete or edit it/);
    await refused(5, /is promoted; only draft candidates/, 'memory', 'prepare', cand.candidateId);
  });

  it('of two promotes of one plan at once, the second says the plan was already promoted, never "written"', async () => {
    const home = tempHome('promote-race');
    const repo = gitRepo(home, 'repo');
    const [cand] = await candidatesIn(home, repo, ['Always use named exports in TypeScript modules.']);
    assert.ok(cand, 'a draft candidate');
    const plan = json((await given(home, repo, 'memory', 'prepare', cand.candidateId)).stdout);
    assert.equal((await given(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest)).code, 0);
    const runs = await Promise.all([
      cli(home, repo, 'memory', 'promote', plan.planId),
      cli(home, repo, 'memory', 'promote', plan.planId),
    ]);
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const results = runs.map((run) => json(run.stdout));
    assert.deepEqual(
      results.map((result) => result.alreadyApplied).sort(),
      [false, true],
      'one run applied the plan, the other found it applied',
    );
    // Once applied, every promote again finds it so: in text, nothing is said to be written.
    const again = await runCliInProcess(['memory', 'promote', plan.planId, '--home', home], { cwd: repo });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`^plan ${plan.planId} was already promoted; this run wrote nothing`, 'm'));
    assert.doesNotMatch(again.stdout, /written|removed/);
    assert.equal(json((await given(home, repo, 'memory', 'promote', plan.planId)).stdout).alreadyApplied, true);
  });

  it('a second plan of a candidate another plan promoted says nothing is left to prepare, never "prepare again"', async () => {
    const home = tempHome('promote-twice');
    const repo = gitRepo(home, 'repo');
    const [cand] = await candidatesIn(home, repo, ['Always use named exports in TypeScript modules.']);
    assert.ok(cand, 'a draft candidate');
    const first = json((await given(home, repo, 'memory', 'prepare', cand.candidateId)).stdout);
    const second = json((await given(home, repo, 'memory', 'prepare', cand.candidateId)).stdout);
    assert.notEqual(first.planId, second.planId);
    assert.equal((await given(home, repo, 'memory', 'approve', first.planId, '--digest', first.planDigest)).code, 0);
    const promoted = await runCliInProcess(['memory', 'promote', first.planId, '--home', home], { cwd: repo });
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.match(promoted.stdout, /^approved memory: generation \d+, coverage complete, 1 entry$/m);
    const synced = await runCli(['memory', 'sync', '--home', home], { cwd: repo });
    assert.match(synced.stdout, /^approved memory: generation \d+, coverage complete, 1 entry \(project: /m);

    const approve = await given(home, repo, 'memory', 'approve', second.planId, '--digest', second.planDigest);
    assert.equal(approve.code, 5, approve.stderr);
    const refused = json(approve.stderr).error.message as string;
    assert.match(refused, /is promoted now.*nothing is left to prepare/);
    assert.doesNotMatch(refused, /prepare again/i);
    const promote = await given(home, repo, 'memory', 'promote', second.planId);
    assert.equal(promote.code, 5, promote.stderr);
    assert.match(json(promote.stderr).error.message, /was voided \(.*is promoted now.*nothing is left to prepare\)/);
    assert.doesNotMatch(promote.stderr, /prepare again/i);
    const text = await runCliInProcess(
      ['memory', 'approve', first.planId, '--digest', first.planDigest, '--home', home],
      { cwd: repo },
    );
    assert.equal(text.code, 5);
    assert.match(text.stderr, /Plan plan-\S+ is already applied/);
  });
});
