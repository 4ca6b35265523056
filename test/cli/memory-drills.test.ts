// kill -9 at each commit boundary of an extraction run (after a claim, after an extraction
// submission, after an adjudication): the next run resumes from what is committed and ends in
// the same state as a run that was never interrupted — nothing lost, nothing applied twice — and
// doctor finds memory-state consistent (doctor in-process: a read; the runs are the bin, killed).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import { runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import * as c from '../support/capture.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const SESSIONS = [
  [
    'Always use named exports in TypeScript modules.',
    'Can you run the tests?',
    'We never squash merge feature branches.',
  ],
  ['From now on, use pnpm instead of npm in this repo.', 'Always use named exports in TypeScript modules!'],
  ['Remember that the staging database is reset every Sunday night.', 'Thanks, that worked.'],
];

async function corpus(label: string): Promise<{ home: string; repo: string }> {
  const home = tempHome(label);
  const repo = join(dirname(home), 'repo');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  for (const prompts of SESSIONS) queueSession(home, repo, prompts);
  await c.flush(home);
  return { home, repo };
}

/** What a run leaves, independent of identities: each candidate's content, status and decision. */
function outcome(home: string): { candidates: string[]; submissions: number; tasks: string[] } {
  const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
  try {
    const candidates = (
      db
        .prepare(
          "SELECT json_extract(payload_json, '$.content') || ' | ' || status || ' | ' || coalesce(decision, '-') AS row FROM candidates",
        )
        .pluck()
        .all() as string[]
    ).sort();
    const submissions = db.prepare('SELECT count(*) FROM submissions').pluck().get() as number;
    const tasks = (db.prepare("SELECT kind || ' ' || status AS row FROM tasks").pluck().all() as string[]).sort();
    return { candidates, submissions, tasks };
  } finally {
    db.close();
  }
}

const extract = (home: string, repo: string, env: NodeJS.ProcessEnv = {}) =>
  runCli(['memory', 'extract', '--home', home, '--json'], {
    cwd: repo,
    env: { COMMON_MEMORY_AUTO_EXTRACT: 'off', ...env },
    timeoutMs: 60_000,
  });

describe('kill -9 during an extraction run', async () => {
  const clean = await corpus('drill-clean');
  const first = await extract(clean.home, clean.repo);
  assert.equal(first.code, 0, first.stderr);
  const expected = outcome(clean.home);

  it('the uninterrupted run: 6 candidates, the duplicates skipped, every task submitted once', () => {
    // 5 drafted by the rules and 1 by the repetition pass (named exports, said in two sessions); the
    // two restatements of it converge on one candidate.
    assert.equal(expected.candidates.length, 6, expected.candidates.join('\n'));
    assert.equal(expected.candidates.filter((row) => row.endsWith('superseded | skip')).length, 2);
    assert.ok(
      expected.tasks.every((row) => row.endsWith('submitted')),
      expected.tasks.join(', '),
    );
  });

  // The built-in runner claims and submits a run's extraction tasks in one commit each
  // (memoryClaimTasks, memorySubmitExtractions); its adjudication task is claimed alone.
  for (const boundary of [
    'memoryClaimTasks.afterCommit',
    'memorySubmitExtractions.afterCommit',
    'memoryClaimTask.afterCommit',
    'memorySubmitAdjudication.afterCommit',
  ]) {
    it(`killed at ${boundary}: the next run ends where an uninterrupted one does, and doctor is clean`, async () => {
      const { home, repo } = await corpus('drill-kill');
      const killed = await extract(home, repo, { COMMON_MEMORY_FAULTS: `${boundary}=kill` });
      assert.equal(killed.signal, 'SIGKILL', `the run died at ${boundary}: ${killed.stderr}`);
      const resumed = await extract(home, repo);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.deepEqual(outcome(home), expected);
      const again = await extract(home, repo);
      assert.equal(JSON.parse(again.stdout).candidates.created, 0, 'a third run creates nothing');
      const doctor = await runCliInProcess(['doctor', '--home', home, '--json']);
      assert.equal(doctor.code, 0, doctor.stdout);
    });
  }

  it('doctor finds a dedup pool out of step with its candidates (exit 9)', async () => {
    const { home, repo } = await corpus('drill-doctor');
    assert.equal((await extract(home, repo)).code, 0);
    const db = openDatabase(storeFiles(home).memoryState);
    db.prepare('DELETE FROM candidate_fts WHERE rowid = (SELECT min(rowid) FROM candidate_fts)').run();
    db.close();
    const doctor = await runCliInProcess(['doctor', '--home', home, '--json']);
    assert.equal(doctor.code, 9, doctor.stdout);
    assert.ok(JSON.parse(doctor.stdout).violations.some((v: { check: string }) => v.check === 'memory.fts'));
  });
});
