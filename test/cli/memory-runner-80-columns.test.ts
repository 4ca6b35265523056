// `memory extract` and `memory consolidate` in an 80-column terminal, with an external runner whose
// endpoint is long and a repository with a long name: the plan, the report and the progress lines
// fit 80 columns, a label stays on the line of what it labels (sha256 and its hash, manifest and
// its digest), and the command that approves the plan stands whole on a line of its own (longer
// than 80 columns: cut, it could not be copied). --json is the document it was.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { fakeRunnerProfile } from '../support/fake-runner-profile.js';
import { queueSession } from '../support/memory-corpus.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { textColumns } from '../../source/text-columns.js';

after(() => c.closeStores());

const APPROVE =
  /^Approve exactly these bytes:\n {2}(common-memory memory \w+ <same options> --approve-plan [0-9a-f]{64})$/m;

/** Lines over 80 columns but the approving command alone on its line. */
const wide = (text: string): string[] =>
  text
    .split('\n')
    .filter(
      (line) =>
        textColumns(line) > 80 &&
        !/^ {2}common-memory memory \w+ <same options> --approve-plan [0-9a-f]{64}$/.test(line),
    );

/** A plan's and its manifest's fields as --json prints them. */
type Fields = Record<string, string | number>;

/** What a plan shows with its label, each on one line. */
function assertLabelled(text: string, plan: Fields, manifest: Fields): void {
  for (const phrase of [
    `(sha256 ${String(plan.runnerInputDigest).slice(0, 16)}…)`,
    `plan ${plan.planDigest}`,
    `manifest ${manifest.manifestDigest}`,
    `endpoint ${plan.endpoint}`,
    `${plan.bytesToSend} bytes`,
  ])
    assert.ok(
      text.split('\n').some((line) => line.includes(phrase)),
      `${phrase} on one line:\n${text}`,
    );
}

let home = '';
let repo = '';
const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });

before(async () => {
  home = tempHome('runner-eighty');
  repo = gitRepo(home, 'a-repository-with-a-rather-long-name-for-checking-eighty-columns');
  queueSession(home, repo, ['From now on, use pnpm instead of npm in this repo.']);
  await c.flush(home);
  const endpoint = 'https://api.example-provider.com/v1/chat/completions';
  const profile = fakeRunnerProfile('good', join(home, 'record'), { endpoint });
  writeFileSync(join(home, 'runners.json'), JSON.stringify({ profiles: [profile] }));
});

describe('runner plans at 80 columns', () => {
  it('memory extract --runner: the plan fits, each label with its value, the approving command whole', async () => {
    const args = ['memory', 'extract', '--runner', 'ext', '--since', '2026-01-01'];
    const shown = await cli(...args);
    assert.equal(shown.code, 14, shown.stderr);
    assert.deepEqual(wide(shown.stdout + shown.stderr), [], shown.stdout + shown.stderr);
    const pending = JSON.parse((await cli(...args, '--json')).stdout).pendingPlan;
    assertLabelled(shown.stdout, pending.plans[0], pending.manifest);
    assert.equal(
      APPROVE.exec(shown.stdout)?.[1],
      `common-memory memory extract <same options> --approve-plan ${pending.plans[0].planDigest}`,
    );
    assert.match(shown.stderr.replace(/\s+/g, ' '), /memory extract: run run-[0-9a-f-]{36} started \(no host runs/);

    const mismatch = await cli(...args, '--approve-plan', 'f'.repeat(64));
    assert.equal(mismatch.code, 14);
    assert.deepEqual(wide(mismatch.stdout), [], mismatch.stdout);
    assert.ok(mismatch.stdout.split('\n').includes(`  you gave ${'f'.repeat(64)}`), mismatch.stdout);
  });

  it('memory extract: its report fits, a count with its words', async () => {
    const shown = await cli('memory', 'extract', '--since', '2026-01-01');
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(wide(shown.stdout + shown.stderr), [], shown.stdout + shown.stderr);
    assert.match(shown.stdout, /^candidates: \d+ drafted, \d+ stored, \d+ skipped as duplicates, /m);
    assert.match(shown.stdout, /^ {2}\d+ quarantined \(a secret or an instruction to the model found\)$/m);
  });

  it('memory consolidate --runner: the plan fits, the approving command whole', async () => {
    const root = projectRoot(repo);
    writeEntry(root, 'unit-tests', 'Run the unit tests with vitest', 'Use `pnpm vitest run` for the unit suite.');
    writeEntry(root, 'ci-lint', 'CI lints before the tests', 'CI runs `pnpm biome check` before the unit tests.');
    const shown = await cli('memory', 'consolidate', '--runner', 'ext');
    assert.equal(shown.code, 14, shown.stderr);
    assert.deepEqual(wide(shown.stdout), [], shown.stdout);
    const pending = JSON.parse((await cli('memory', 'consolidate', '--runner', 'ext', '--json')).stdout).pendingPlan;
    assertLabelled(shown.stdout, pending.plans[0], pending.manifest);
    assert.equal(
      APPROVE.exec(shown.stdout)?.[1],
      `common-memory memory consolidate <same options> --approve-plan ${pending.plans[0].planDigest}`,
    );

    // Its patch, then the same entries again: each line fits, the prepare command whole on its line.
    const digest = String(pending.plans[0].planDigest);
    const accepted = await cli('memory', 'consolidate', '--runner', 'ext', '--approve-plan', digest);
    const again = await cli('memory', 'consolidate', '--runner', 'ext', '--approve-plan', digest);
    for (const run of [accepted, again]) {
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(wide(run.stdout), [], run.stdout);
      assert.match(run.stdout, /^ {4}common-memory memory prepare con-[0-9a-f]{24} \[--operations 1,3\]$/m);
    }
    assert.match(again.stdout, /unchanged since\s+consolidation con-[0-9a-f]{24};/);

    // memory review lists the patch alone (no candidate waits): its lines fit too.
    const review = await cli('memory', 'review');
    assert.equal(review.code, 0, review.stderr);
    assert.deepEqual(wide(review.stdout), [], review.stdout);
    assert.match(review.stdout, /^ {4}common-memory memory prepare con-[0-9a-f]{24} \[--operations 1,3\]$/m);

    // memory patch: the patch's lines and its status fit; the files' texts are printed as they are.
    const taskId = /con-[0-9a-f]{24}/.exec(review.stdout)![0];
    await cli('memory', 'prepare', taskId);
    const patch = await cli('memory', 'patch', taskId);
    assert.equal(patch.code, 0, patch.stderr);
    const head = patch.stdout.slice(0, patch.stdout.indexOf('\n\n'));
    assert.deepEqual(wide(head), [], patch.stdout);
    assert.match(head, /\(common-memory memory plan plan-[0-9a-f]+\); out of memory review$/m);
  });
});
