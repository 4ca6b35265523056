// Retiring an approved entry (issue 29, item 3): `memory retire` prepares a promotion plan that
// removes the entry's file — its exact bytes and git blob recorded, a removal diff, a digest —
// approved and promoted like any plan. Through the real shipped bin, in a real git repository: a
// promote killed with kill -9 after the removal resumes and finishes; a file changed since the
// plan is kept (blob compare-and-swap); after promote `get` answers not found (exit 6) with no
// sync run; the user scope is retired from outside git; bad input is refused with what to do.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { git, gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

/** The text as words: its lines wrap at 80 columns wherever a phrase falls. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');
import { projectRoot, userRoot, writeEntry } from '../support/memory-files.js';

after(() => c.closeStores());

const LEGACY = join('work_method', 'legacy-config.md');
const KEPT = join('work_method', 'kept-rule.md');

function repository(home: string): string {
  const repo = gitRepo(home, 'repo');
  writeEntry(projectRoot(repo), 'legacy-config', 'Where configuration is loaded', 'Read `src/legacy/config.ts`.');
  writeEntry(projectRoot(repo), 'kept-rule', 'Keep reviews small', 'Keep each review under 400 lines.');
  git(repo, 'add', '--all');
  git(repo, 'commit', '-q', '-m', 'start');
  return repo;
}

interface PlanJson {
  planId: string;
  planDigest: string;
  status: string;
  scope: string;
  candidates: unknown[];
  diff: string;
  voidReason: string | null;
  files: Array<{ path: string; entryId: string; action: string; targetBlobHash: string; state: string; bytes: number }>;
  history?: string;
}

async function cli(home: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli([...args, '--home', home], { cwd, env });
}

/**
 * The same call in this process (support/cli-in-process.ts), through the same main and a local host
 * of its own, where the process is not what is tested: each spawn of the bin is 0.5–1.5 s of CPU.
 * The bin keeps the kill -9, the editor, one call of each command (sync, retire, approve, promote,
 * get, memory search) and one refusal of each exit code (6 and 2).
 */
async function inProcess(home: string, cwd: string, args: string[]) {
  return runCliInProcess([...args, '--home', home], { cwd });
}

async function retire(home: string, cwd: string, ...args: string[]): Promise<PlanJson> {
  const run = await inProcess(home, cwd, ['memory', 'retire', ...args, '--json']);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as PlanJson;
}

async function approve(home: string, cwd: string, plan: PlanJson, through = inProcess): Promise<void> {
  const run = await through(home, cwd, ['memory', 'approve', plan.planId, '--digest', plan.planDigest, '--json']);
  assert.equal(run.code, 0, run.stderr);
}

describe('memory retire', () => {
  it('prepares a removal with the exact bytes and blob, resumes after kill -9, and the entry is gone from get and search', async () => {
    const home = tempHome('cm-retire');
    const repo = repository(home);
    assert.equal((await cli(home, repo, ['memory', 'sync', '--json'])).code, 0);
    const path = join(projectRoot(repo), LEGACY);
    const bytes = readFileSync(path);

    const text = await cli(home, repo, ['memory', 'retire', 'legacy-config']);
    assert.equal(text.code, 0, text.stderr);
    // Wider than 80 columns on one line: the entry and blob go under the file.
    assert.match(text.stdout, /remove work_method\/legacy-config\.md\n {4}\(entry legacy-config, blob [0-9a-f]{40}\)/);
    assert.match(text.stdout, /^\+\+\+ \/dev\/null$/m);
    assert.match(text.stdout, /^-Read `src\/legacy\/config\.ts`\.$/m, 'the removal diff shows every line going');
    assert.match(text.stdout, /^ {2}common-memory memory approve plan-[0-9a-f]+ --digest [0-9a-f]{64}$/m);
    assert.ok(existsSync(path), 'preparing removes nothing');

    const plan = await retire(home, repo, 'legacy-config');
    assert.equal(plan.status, 'generated');
    assert.equal(plan.scope, 'project');
    assert.deepEqual(plan.candidates, []);
    assert.equal(plan.files.length, 1);
    const [file] = plan.files;
    assert.equal(file!.action, 'remove');
    assert.equal(file!.entryId, 'legacy-config');
    assert.equal(file!.path, 'work_method/legacy-config.md');
    assert.equal(file!.bytes, bytes.length, 'the exact bytes are recorded');
    assert.equal(file!.targetBlobHash, git(repo, 'hash-object', path).trim(), "the file's git blob");

    // Not approved: promote refuses and removes nothing.
    const early = await inProcess(home, repo, ['memory', 'promote', plan.planId]);
    assert.equal(early.code, 5, early.stderr);
    assert.match(early.stderr, /not approved yet/);
    assert.ok(existsSync(path));

    await approve(home, repo, plan, cli);
    // kill -9 right after the file step: the file is gone, the journal still says applying.
    const killed = await cli(home, repo, ['memory', 'promote', plan.planId], {
      COMMON_MEMORY_FAULTS: 'promote.afterFile.1=kill',
    });
    assert.notEqual(killed.code, 0, 'the promote was killed');
    assert.ok(!existsSync(path), 'the removal happened before the kill');
    const resumed = await inProcess(home, repo, ['memory', 'promote', plan.planId, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const done = JSON.parse(resumed.stdout) as PlanJson;
    assert.equal(done.status, 'applied');
    assert.equal(done.files[0]!.state, 'skipped', 'resumed: the file was gone already, nothing removed twice');

    const got = await cli(home, repo, ['get', 'legacy-config', '--json']);
    assert.equal(got.code, 6, `${got.stdout}${got.stderr}`);
    assert.equal((await inProcess(home, repo, ['get', 'kept-rule', '--json'])).code, 0, 'the other entry stays');
    const search = await cli(home, repo, ['memory', 'search', 'configuration', '--json']);
    assert.deepEqual(JSON.parse(search.stdout).results, []);
    // git keeps the history: the removal is a change to commit, the old bytes are in HEAD.
    assert.match(git(repo, 'status', '--porcelain'), /^ D \.common-memory\/memory\/work_method\/legacy-config\.md$/m);
    assert.deepEqual(Buffer.from(git(repo, 'show', `HEAD:.common-memory/memory/${LEGACY}`)), bytes);
  });

  it('keeps a file that changed after the plan was made (blob compare-and-swap), and says so', async () => {
    const home = tempHome('cm-retire-cas');
    const repo = repository(home);
    const plan = await retire(home, repo, 'kept-rule');
    await approve(home, repo, plan);
    const path = join(projectRoot(repo), KEPT);
    appendFileSync(path, 'A line a teammate added.\n');
    const edited = readFileSync(path);
    const promoted = await inProcess(home, repo, ['memory', 'promote', plan.planId]);
    assert.equal(promoted.code, 5, promoted.stderr);
    assert.match(
      flat(promoted.stdout),
      /voided: work_method\/kept-rule\.md changed since the retirement plan was made, so it was not removed/,
    );
    assert.match(flat(promoted.stdout), /nothing was removed/);
    assert.deepEqual(readFileSync(path), edited, 'the edited file is kept byte for byte');
    const again = await inProcess(home, repo, ['memory', 'promote', plan.planId]);
    assert.equal(again.code, 5);
    assert.match(again.stderr, /was voided/);
    assert.equal((await inProcess(home, repo, ['get', 'kept-rule', '--json'])).code, 0);
  });

  it('retires a user-scope entry from outside any git worktree', async () => {
    const home = tempHome('cm-retire-user');
    mkdirSync(home, { recursive: true });
    writeEntry(userRoot(home), 'my-editor', 'My editor', 'I use two-space indents.');
    const outside = mkdtempSync(join(tmpdir(), 'cm-outside-'));
    // The user memory is in no git repository: the text says where the removed bytes stay instead.
    const text = await inProcess(home, outside, ['memory', 'retire', 'my-editor']);
    assert.equal(text.code, 0, text.stderr);
    assert.doesNotMatch(flat(text.stdout), /git keeps/);
    assert.match(
      flat(text.stdout),
      /the user memory is in no git repository: once removed, its text stays only in this plan/,
    );
    const plan = await retire(home, outside, 'my-editor');
    assert.equal(plan.scope, 'user');
    await approve(home, outside, plan);
    const promoted = await inProcess(home, outside, ['memory', 'promote', plan.planId, '--json']);
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.equal((JSON.parse(promoted.stdout) as PlanJson).files[0]!.state, 'removed');
    assert.ok(!existsSync(join(userRoot(home), 'work_method', 'my-editor.md')));
    assert.equal((await inProcess(home, outside, ['get', 'my-editor', '--json'])).code, 6);
  });

  it('a user-scope entry in a data home inside a git repository (a dotfiles repository) is not said to be in none', async () => {
    const dotfiles = tempHome('cm-retire-dotfiles');
    mkdirSync(dotfiles, { recursive: true });
    git(dotfiles, 'init', '-q');
    const home = join(dotfiles, '.common-memory');
    writeEntry(userRoot(home), 'my-editor', 'My editor', 'I use two-space indents.');
    writeEntry(userRoot(home), 'my-shell', 'My shell', 'I use zsh.');
    git(dotfiles, 'add', join('.common-memory', 'memory', 'work_method', 'my-editor.md'));
    git(dotfiles, 'commit', '-q', '-m', 'dotfiles');
    const outside = mkdtempSync(join(tmpdir(), 'cm-outside-'));
    const committed = await inProcess(home, outside, ['memory', 'retire', 'my-editor']);
    assert.equal(committed.code, 0, committed.stderr);
    assert.doesNotMatch(flat(committed.stdout), /in no git repository/);
    assert.match(flat(committed.stdout), /git keeps the file's history once the removal is committed/);
    assert.equal((await retire(home, outside, 'my-editor')).history, 'committed');
    const fresh = await inProcess(home, outside, ['memory', 'retire', 'my-shell']);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(flat(fresh.stdout), /the file was never committed: once removed, its text stays only in this plan/);
    assert.equal((await retire(home, outside, 'my-shell')).history, 'uncommitted');
  });

  it('says where the removed text stays: in git only for bytes a commit holds, else only in the plan', async () => {
    const home = tempHome('cm-retire-history');
    const repo = repository(home);
    // Committed as they are: git keeps them.
    const committed = await inProcess(home, repo, ['memory', 'retire', 'kept-rule']);
    assert.equal(committed.code, 0, committed.stderr);
    assert.match(flat(committed.stdout), /git keeps the file's history once the removal is committed/);
    assert.equal((await retire(home, repo, 'kept-rule')).history, 'committed');
    // Edited since the commit: git keeps only the committed version.
    appendFileSync(join(projectRoot(repo), KEPT), 'A line not committed yet.\n');
    const edited = await inProcess(home, repo, ['memory', 'retire', 'kept-rule']);
    assert.equal(edited.code, 0, edited.stderr);
    assert.match(
      flat(edited.stdout),
      /git keeps only its last committed version: the changes since stay only in this plan \(memory plan plan-[0-9a-f]+\)/,
    );
    assert.equal((await retire(home, repo, 'kept-rule')).history, 'changed');
    // Never committed: git has nothing of it.
    writeEntry(projectRoot(repo), 'fresh-rule', 'A fresh rule', 'Run the linter before pushing.');
    const fresh = await inProcess(home, repo, ['memory', 'retire', 'fresh-rule']);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.doesNotMatch(flat(fresh.stdout), /git keeps/);
    assert.match(
      flat(fresh.stdout),
      /the file was never committed: once removed, its text stays only in this plan \(memory plan plan-[0-9a-f]+\)/,
    );
    assert.equal((await retire(home, repo, 'fresh-rule')).history, 'uncommitted');
    // A repository with no commit at all: the same.
    const bare = gitRepo(home, 'empty-repo');
    writeEntry(projectRoot(bare), 'first-rule', 'A first rule', 'Write the tests first.');
    const first = await inProcess(home, bare, ['memory', 'retire', 'first-rule']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(flat(first.stdout), /the file was never committed/);
    // The user memory: in no repository.
    writeEntry(userRoot(home), 'my-editor', 'My editor', 'I use two-space indents.');
    assert.equal((await retire(home, repo, 'my-editor', '--scope', 'user')).history, 'none');
  });

  it('a scene or doctrine id is refused as not an entry, never "no file holds it" nor an editor opened', async () => {
    const home = tempHome('cm-retire-scene');
    const repo = repository(home);
    mkdirSync(join(projectRoot(repo), 'scenes'), { recursive: true });
    writeFileSync(
      join(projectRoot(repo), 'scenes', 'reviews.md'),
      '---\nscene: reviews\ntitle: Reviews\nentries: ["kept-rule"]\n---\nHow reviews go.\n',
    );
    assert.equal((await inProcess(home, repo, ['memory', 'sync', '--json'])).code, 0);
    const retired = await inProcess(home, repo, ['memory', 'retire', 'scene:reviews']);
    assert.equal(retired.code, 2, retired.stderr);
    assert.doesNotMatch(retired.stderr, /no file holds it/);
    assert.match(retired.stderr, /"scene:reviews" is a scene, not an entry: scenes change through consolidation/);
    // An editor that would fail the test if it ran: revise refuses before opening it.
    const revised = await cli(home, repo, ['memory', 'revise', 'scene:reviews'], { EDITOR: 'false', VISUAL: '' });
    assert.equal(revised.code, 2, revised.stderr);
    assert.match(revised.stderr, /"scene:reviews" is a scene, not an entry: scenes change through consolidation/);
    assert.doesNotMatch(revised.stderr, /type` must be one of|editor/);
    const doctrine = await inProcess(home, repo, ['memory', 'retire', 'doctrine:small-reviews']);
    assert.equal(doctrine.code, 2, doctrine.stderr);
    assert.match(doctrine.stderr, /"doctrine:small-reviews" is doctrine, not an entry/);
    assert.ok(existsSync(join(projectRoot(repo), 'scenes', 'reviews.md')));
  });

  it('refuses bad input with what to do, and its help fits 80 columns', async () => {
    const home = tempHome('cm-retire-bad');
    const repo = repository(home);
    const unknown = await cli(home, repo, ['memory', 'retire', 'no-such-entry']);
    assert.equal(unknown.code, 6);
    assert.match(unknown.stderr, /No approved entry "no-such-entry" in the project or the user memory root/);
    assert.match(unknown.stderr, /Nothing was prepared/);
    // An id of 100,000 characters is quoted back cut at 80 with its length, never whole.
    const huge = 'x'.repeat(100_000);
    // Longer than an entry id may be (api/proposal.ts entryIdText): no entry's, so a usage error.
    const tooLong = await inProcess(home, repo, ['memory', 'retire', huge]);
    assert.equal(tooLong.code, 2, tooLong.stderr.slice(0, 200));
    assert.match(tooLong.stderr, /at most 128 characters; this one has 100000\. .*Nothing was prepared/);
    assert.ok(tooLong.stderr.length < 600, `retire: ${tooLong.stderr.length} characters of stderr`);
    for (const args of [
      ['memory', 'patch', huge],
      ['memory', 'prepare', huge],
    ]) {
      const refused = await inProcess(home, repo, args);
      assert.equal(refused.code, 6, `${args[1]}: ${refused.stderr.slice(0, 200)}`);
      assert.match(refused.stderr, /"x{80}"… \(100000 characters\)/, args[1]);
      assert.ok(refused.stderr.length < 600, `${args[1]}: ${refused.stderr.length} characters of stderr`);
    }
    const approve = await inProcess(home, repo, ['memory', 'approve', huge]);
    assert.equal(approve.code, 2);
    assert.match(approve.stderr, /memory approve <plan-id> --digest <plan-digest>/);
    assert.ok(approve.stderr.length < 600, `approve: ${approve.stderr.length} characters of stderr`);

    // The file removed by hand (no sync since): the projection may still hold it, the files do not.
    assert.equal((await inProcess(home, repo, ['memory', 'sync', '--json'])).code, 0);
    rmSync(join(projectRoot(repo), LEGACY));
    const gone = await inProcess(home, repo, ['memory', 'retire', 'legacy-config']);
    assert.equal(gone.code, 6, gone.stderr);
    assert.match(gone.stderr, /no file holds it \(removed already/);

    const none = await cli(home, repo, ['memory', 'retire']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Name the approved entry to retire/);
    // An empty id (a variable that was not set) names no entry: the same usage, not "no file holds it".
    const empty = await inProcess(home, repo, ['memory', 'retire', '']);
    assert.equal(empty.code, 2, empty.stderr);
    assert.match(empty.stderr, /Name the approved entry to retire/);
    const two = await inProcess(home, repo, ['memory', 'retire', 'kept-rule', 'legacy-config']);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /"legacy-config" is one word too many; nothing was done/);
    const flag = await inProcess(home, repo, ['memory', 'retire', 'kept-rule', '--digest', 'abc']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /does not take --digest/);
    const scope = await inProcess(home, repo, ['memory', 'retire', 'kept-rule', '--scope', 'team']);
    assert.equal(scope.code, 2);
    assert.match(scope.stderr, /--scope must be project or user/);
    const outside = mkdtempSync(join(tmpdir(), 'cm-outside-'));
    const noProject = await inProcess(home, outside, ['memory', 'retire', 'kept-rule', '--scope', 'project']);
    assert.equal(noProject.code, 2);
    assert.match(noProject.stderr, /not inside a git worktree/);
    assert.ok(existsSync(join(projectRoot(repo), KEPT)), 'nothing refused removed anything');

    const help = await inProcess(home, repo, ['memory', 'retire', '--help']);
    assert.equal(help.code, 0);
    assert.match(flat(help.stdout), /memory retire <entry-id>/);
    for (const line of help.stdout.split('\n')) assert.ok(line.length <= 80, `over 80 columns: ${line}`);
  });
});
