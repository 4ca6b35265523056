// `memory review` across scopes and in pages: the user scope's and every repository's candidates,
// each with its scope; a --scope filter; a keyset cursor that visits every candidate exactly once
// while the queue stays as it is; bad flags are usage errors (exit 2) that read nothing.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text);

interface Listed {
  candidateId: string;
  scope: 'project' | 'user';
  repository: string | null;
  content: string;
}

describe('memory review across scopes', () => {
  it('lists every scope with the scope of each, filters by --scope, pages with a total and a cursor', async () => {
    const home = tempHome('memory-review');
    const alpha = gitRepo(home, 'alpha');
    const beta = gitRepo(home, 'beta');
    const outside = join(dirname(home), 'not-a-repository');
    mkdirSync(outside);
    queueSession(home, alpha, [
      'Always use named exports in TypeScript modules.',
      'From now on, use pnpm instead of npm in this repo.',
      'Never commit generated files under dist/.',
    ]);
    queueSession(home, beta, ['Always run the linter before pushing.']);
    queueSession(home, null, ['I prefer early returns over nested ifs.']);
    await c.flush(home);
    for (const cwd of [alpha, beta, outside]) {
      const run = await runCli(['memory', 'extract', '--home', home, '--json'], { cwd });
      assert.equal(run.code, 0, run.stderr);
    }

    const review = (cwd: string, ...flags: string[]) => runCli(['memory', 'review', '--home', home, ...flags], { cwd });
    const all = json((await review(alpha, '--json')).stdout);
    assert.equal(all.scope, 'all');
    assert.equal(all.callerScope, 'project');
    assert.equal(all.total, 5);
    assert.equal(all.nextAfter, null);
    const where = (rows: Listed[]) => rows.map((row) => `${row.scope}:${row.repository}`).sort();
    assert.deepEqual(where(all.candidates), [
      'project:alpha',
      'project:alpha',
      'project:alpha',
      'project:beta',
      'user:null',
    ]);
    assert.ok(!JSON.stringify(all).includes(dirname(home)), 'no path leaves memory-state');

    const user = json((await review(alpha, '--json', '--scope', 'user')).stdout);
    assert.deepEqual(
      user.candidates.map((row: Listed) => row.content),
      ['I prefer early returns over nested ifs.'],
    );
    assert.equal(user.total, 1);
    const project = json((await review(beta, '--json', '--scope', 'project')).stdout);
    assert.deepEqual(where(project.candidates), ['project:beta']);

    // Pages of 2: every candidate once, newest first, the same total on every page.
    const seen: Listed[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const flags = ['--json', '--limit', '2', ...(cursor ? ['--after', cursor] : [])];
      const page = json((await review(alpha, ...flags)).stdout);
      assert.equal(page.total, 5);
      assert.ok(page.candidates.length <= 2);
      seen.push(...page.candidates);
      cursor = page.nextAfter;
      pages += 1;
      assert.ok(pages <= 3, 'the cursor ends');
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen.map((row) => row.candidateId),
      all.candidates.map((row: Listed) => row.candidateId),
    );

    const text = await review(alpha, '--limit', '2');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /\(project beta\)/);
    assert.match(text.stdout, /2 shown of 5 candidate\(s\) in any scope, newest first\./);
    // Wrapped to 80 columns, each command to copy whole on one line (the next page's on its own).
    assert.match(text.stdout, /Older ones:\n {2}common-memory memory review --after \d+\.\S+$/m);
    const said = text.stdout.replace(/\s+/g, ' ');
    // The next step, and where it acts: each candidate's own repository, from any directory (it
    // said to run them in the repository shown, which they never needed).
    assert.match(
      said,
      / Promote one: common-memory memory prepare <candidate> \(the file it would write, to approve\); drop one: common-memory memory discard <candidate>\. /,
    );
    assert.match(said, /act on each candidate's own repository \(or the user scope\), from any directory/);
    assert.doesNotMatch(text.stdout, /act on the scope they run in/);
    const userText = await review(outside, '--scope', 'user');
    assert.match(userText.stdout, /\(user scope\)/);
    assert.match(userText.stdout, /1 shown of 1 candidate\(s\) in the user scope/);
  });

  it('a bad scope, limit or cursor, and --scope project outside git, are usage errors (exit 2)', async () => {
    const home = tempHome('memory-review-bad');
    const repo = gitRepo(home, 'repo');
    const outside = join(dirname(home), 'plain');
    mkdirSync(outside);
    queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    await c.flush(home);
    const review = (cwd: string, ...flags: string[]) => runCli(['memory', 'review', '--home', home, ...flags], { cwd });
    const cases: Array<[string, string[], RegExp]> = [
      [repo, ['--scope', 'everything'], /--scope must be all, user or project/],
      [repo, ['--limit', '0'], /--limit must be a whole number from 1 to 200/],
      [repo, ['--limit', '201'], /--limit must be a whole number from 1 to 200/],
      [repo, ['--limit', 'ten'], /--limit must be a whole number from 1 to 200/],
      [repo, ['--after', 'yesterday'], /is not a review cursor; give the nextAfter of the previous page/],
      [repo, ['--after', "1.x' OR 1=1 --"], /is not a review cursor/],
      [outside, ['--scope', 'project'], /not inside a git worktree.*--scope user or all/],
      [repo, ['extra'], /usage: common-memory memory review/],
    ];
    for (const [cwd, flags, message] of cases) {
      const result = await review(cwd, ...flags);
      assert.equal(result.code, 2, `${flags.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, flags.join(' '));
      assert.equal(result.stderr.trim().split('\n').length, 1, 'one line');
    }
  });
});
