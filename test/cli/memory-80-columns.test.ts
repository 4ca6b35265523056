// The memory group's human output in an 80-column terminal, over a repository with a long name and
// entries with long titles: every line fits 80 columns but a path or id alone on its line (cut, it
// could not be copied), and each of them is there whole. Diffs and file texts are printed as the
// files hold them, so they are not measured. --json stays the document it was.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCliInProcess } from '../support/cli-in-process.js';
import { gitRepo, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { queueSession } from '../support/memory-corpus.js';
import { textColumns } from '../../source/text-columns.js';

after(() => c.closeStores());

const LONG_RULE = 'Never commit generated files under dist; the build writes them and CI checks they are absent.';
let home = '';
let repo = '';
let planId = '';

/** The text before a plan's diff (the diff is the files' text, printed as they hold it). */
const withoutDiff = (text: string): string => text.slice(0, text.search(/^--- /m));

/** The lines after the last line of a diff. */
const afterDiff = (text: string): string => text.slice(text.indexOf('\n', text.lastIndexOf('\n+') + 1) + 1);

const run = (...args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
// biome-ignore lint/suspicious/noExplicitAny: JSON answers of the CLI
type Answer = Record<string, any>;
const json = async (...args: string[]): Promise<Answer> => {
  const result = await run(...args, '--json');
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Answer;
};

/** Lines over 80 columns that are not one word (a path, an id) alone after their indent. */
function wide(text: string): string[] {
  return text.split('\n').filter((line) => textColumns(line) > 80 && !/^ *\S+$/.test(line));
}

before(async () => {
  home = tempHome('eighty');
  repo = gitRepo(home, 'a-repository-with-a-rather-long-name-for-checking-eighty-columns');
  queueSession(home, repo, [
    'Always use named exports in TypeScript modules.',
    'From now on, use pnpm instead of npm in this repo.',
    LONG_RULE,
  ]);
  await c.flush(home);
  await json('memory', 'extract');
  const candidates = (await json('memory', 'review')).candidates as { candidateId: string; content: string }[];
  for (const candidate of candidates) {
    const plan = await json('memory', 'prepare', candidate.candidateId);
    await json('memory', 'approve', plan.planId, '--digest', plan.planDigest);
    if (candidate.content.includes('generated files')) planId = plan.planId;
    else await json('memory', 'promote', plan.planId);
  }
  assert.ok(planId, 'the long rule has an approved plan');
});

describe('memory commands at 80 columns', () => {
  it('promote --dry-run: the header wraps, each file path whole on a line of its own', async () => {
    const shown = await run('memory', 'promote', planId, '--dry-run');
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(wide(shown.stdout), [], shown.stdout);
    const plan = await json('memory', 'plan', planId);
    for (const file of plan.files as { path: string }[])
      assert.ok(shown.stdout.includes(`.common-memory/memory/${file.path}`), shown.stdout);
    assert.match(
      shown.stdout.replace(/\s+/g, ' '),
      new RegExp(`Plan ${planId} would write 1 file, each only if its target still has the blob it had at prepare:`),
    );
    const dry = await json('memory', 'promote', planId, '--dry-run');
    assert.equal(dry.dryRun, true);
    assert.equal(dry.files[0].now, 'to-do');
  });

  it('search: an entry is its id, scope and title, its path whole on the next line', async () => {
    const found = await run('memory', 'search', 'named exports');
    assert.equal(found.code, 0, found.stderr);
    assert.deepEqual(wide(found.stdout), [], found.stdout);
    const result = await json('memory', 'search', 'named exports');
    const [hit] = result.results as { entryId: string; path: string; title: string }[];
    assert.ok(hit);
    const lines = found.stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith(hit.entryId));
    assert.match(lines[at]!, /project +Always use named exports in TypeScript modules\./);
    assert.equal(lines[at + 1], `  ${hit.path}`);
  });
  it('status, suggestions, review, plan, init and assemble fit too', async () => {
    const extra = (await run('memory', 'assemble', '--provider', 'claude', '--dry-run')).stdout;
    const skills = (await run('memory', 'assemble', '--skills', '--dry-run')).stdout;
    const shown = {
      status: (await run('memory', 'status')).stdout,
      suggestions: (await run('memory', 'suggestions')).stdout,
      review: (await run('memory', 'review')).stdout,
      plan: withoutDiff((await run('memory', 'plan', planId)).stdout),
      init: (await run('memory', 'init', '--dry-run')).stdout,
      assemble: afterDiff(extra),
      skills: afterDiff(skills),
    };
    for (const [name, text] of Object.entries(shown)) {
      assert.ok(text.trim().length > 0, name);
      assert.deepEqual(wide(text), [], `${name}:\n${text}`);
    }
    assert.ok(shown.init.includes(`${repo}/.common-memory/memory`), shown.init);
  });

  it('init --dry-run: the root path is copied without a sign stuck to it', async () => {
    const shown = await run('memory', 'init', '--dry-run');
    assert.equal(shown.code, 0, shown.stderr);
    assert.ok(shown.stdout.split('\n').includes(`${repo}/.common-memory/memory`), shown.stdout);
    // A short path shares its line: a space after it, not a ';' a copy would take with it.
    const user = await run('memory', 'init', '--scope', 'user', '--dry-run');
    assert.equal(user.code, 0, user.stderr);
    assert.match(user.stdout, new RegExp(`${home}/memory(\\s|$)`), user.stdout);
  });

  it('sync fits too', async () => {
    for (const args of [
      ['memory', 'sync'],
      ['memory', 'sync', '--dry-run'],
    ]) {
      const shown = await run(...args);
      assert.equal(shown.code, 0, shown.stderr);
      assert.deepEqual(wide(shown.stdout + shown.stderr), [], `${args.join(' ')}:\n${shown.stdout}${shown.stderr}`);
    }
  });

  it('prepare and retire: what to do next fits, the approve command whole on a line of its own', async () => {
    const review = await json('memory', 'review');
    const candidate = (review.candidates as { candidateId: string }[])[0]!;
    const entries = (await json('memory', 'search', 'named exports')).results as { entryId: string }[];
    for (const args of [
      ['memory', 'prepare', candidate.candidateId],
      ['memory', 'retire', entries[0]!.entryId],
    ]) {
      const shown = await run(...args);
      assert.equal(shown.code, 0, shown.stderr);
      const next = afterDiff(shown.stdout);
      const planId = /^plan (plan-\S+)/m.exec(shown.stdout)?.[1];
      const digest = /^digest (\S+)/m.exec(shown.stdout)?.[1];
      assert.ok(planId && digest, shown.stdout);
      const command = `  common-memory memory approve ${planId} --digest ${digest}`;
      assert.ok(next.split('\n').includes(command), `the command is whole on its own line:\n${next}`);
      assert.deepEqual(wide(next.replace(command, '')), [], `${args.join(' ')}:\n${next}`);
    }
  });

  it('approve and promote fit too', async () => {
    const candidates = (await json('memory', 'review')).candidates as { candidateId: string }[];
    const plan = await json('memory', 'prepare', candidates[0]!.candidateId);
    const approved = await run('memory', 'approve', plan.planId, '--digest', plan.planDigest);
    assert.equal(approved.code, 0, approved.stderr);
    assert.deepEqual(wide(approved.stdout), [], approved.stdout);
    assert.ok(approved.stdout.includes(`common-memory memory promote ${plan.planId}`), 'the command is whole');
    const promoted = await run('memory', 'promote', plan.planId);
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.deepEqual(wide(promoted.stdout), [], promoted.stdout);
    assert.ok(promoted.stdout.includes(`.common-memory/memory/${plan.files[0].path}`), promoted.stdout);
  });
});
