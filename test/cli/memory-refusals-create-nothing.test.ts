// A memory command that writes and is given what it refuses (an unknown task, runner, session or
// entry; a window over the maximum; project memory outside a git worktree) says so and changes
// nothing: it is refused before the command takes the lease, whose memory threads would create
// memory-state.sqlite. Where memory-state exists, the same input gets the same answer, and what is
// known (a task, a session) still reaches the command.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import * as c from '../support/capture.js';
import { type CliResult, gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const TIMEOUT = { timeout: 120_000 };

/** A directory in no git repository (consolidate --scope project is refused there). */
const outsideGit = (): string => mkdtempSync(join(tmpdir(), 'cm-refusals-cwd-'));

/**
 * The data home's files, less SQLite's -wal and -shm beside a database already there: a read-only
 * look at core.sqlite (as `session <key>` and `sessions` make) leaves them, and they hold no data.
 */
const listing = (home: string): string[] => {
  const names = readdirSync(home).sort();
  return names.filter((name) => {
    const sidecar = /^(.+\.sqlite)-(?:wal|shm)$/.exec(name);
    return !sidecar || !names.includes(sidecar[1]!);
  });
};

/** A day `days` ago, as --since takes it. */
const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

interface Refusal {
  args: string[];
  code: number;
  message: RegExp;
}

/** The refusals, each with its exit code and message; `where` is the memory root retire looked in. */
const refusals = (where: string): Refusal[] => [
  {
    args: ['memory', 'retire', 'abcdef'],
    code: 6,
    message: new RegExp(
      `^common-memory: No approved entry "abcdef" in the ${where} memory root: .* Nothing was prepared\\.$`,
    ),
  },
  { args: ['memory', 'retry', 'abcdef'], code: 6, message: /^common-memory: No memory task abcdef\.$/ },
  {
    args: ['memory', 'reverify-runner', '--runner', 'nope'],
    code: 2,
    message:
      /^common-memory: No runner named "nope"; available: builtin \(profiles are in runners\.json in the data home\)\.$/,
  },
  {
    args: ['memory', 'reverify-runner', '--runner', 'builtin'],
    code: 2,
    message: /^common-memory: The builtin runner is offline and needs no probe; name a profile of runners\.json\.$/,
  },
  {
    args: ['memory', 'extract', '--session', 'abcdef'],
    code: 6,
    message:
      /^common-memory: No captured session abcdef: give the whole key or a unique start of it \(4 characters or more\); "common-memory sessions" lists them\. Nothing was extracted\.$/,
  },
  {
    args: ['memory', 'extract', '--runner', 'nope'],
    code: 2,
    message: /^common-memory: No runner named "nope"; available: builtin \(profiles/,
  },
  {
    args: ['memory', 'extract', '--since', '2020-01-01', '--until', '2026-01-01'],
    code: 2,
    message:
      /^common-memory: The window covers 2192\.0 days, over the 366-day maximum; split it into shorter windows\.$/,
  },
  {
    args: ['memory', 'extract', '--limit', '99'],
    code: 2,
    message: /^common-memory: --limit must be a whole number from 1 to 8 \(tasks per run\), not "99"\.$/,
  },
  {
    args: ['memory', 'consolidate', '--scope', 'project'],
    code: 2,
    message:
      /^common-memory: \S+ is not inside a git worktree: there is no project memory here\. Run it in the repository, or use --scope user\.$/,
  },
];

function assertRefused(result: CliResult, refusal: Refusal): void {
  const what = refusal.args.join(' ');
  assert.equal(result.code, refusal.code, `${what}: ${result.stderr}`);
  assert.match(result.stderr.trim(), refusal.message, what);
  assert.equal(result.stdout, '', what);
}

describe('memory refusals on a home with no memory-state create nothing', TIMEOUT, () => {
  // One home holding only a note (core.sqlite, no memory-state), copied for each refusal: a refusal
  // that created memory-state would hide the next one's.
  let noted = '';
  before(async () => {
    noted = tempHome('refusals-noted');
    assert.equal((await runCli(['note', 'hello', '--home', noted])).code, 0);
    const files = listing(noted);
    assert.ok(files.includes('core.sqlite') && !files.includes('memory-state.sqlite'), files.join(', '));
  });
  const copyOfNoted = (): string => {
    const home = tempHome('refusals');
    cpSync(noted, home, { recursive: true });
    return home;
  };

  for (const refusal of refusals('user'))
    it(`${refusal.args.join(' ')} keeps its exit code and message, and the data home holds the same files after`, async () => {
      const home = copyOfNoted();
      const was = listing(home);
      assertRefused(await runCliInProcess([...refusal.args, '--home', home], { cwd: outsideGit() }), refusal);
      assert.deepEqual(listing(home), was, 'the data home changed');
    });

  for (const [args, code, errorCode] of [
    [['memory', 'retry', 'abcdef'], 6, 'not_found'],
    [['memory', 'extract', '--session', 'abcdef'], 6, 'not_found'],
    [['memory', 'consolidate', '--scope', 'project'], 2, 'usage'],
  ] as const)
    it(`${args.join(' ')} through the shipped bin too, --json naming the error`, async () => {
      const home = copyOfNoted();
      const was = listing(home);
      const cwd = outsideGit();
      const text = await runCli([...args, '--home', home], { cwd });
      assert.equal(text.code, code, text.stderr);
      assert.equal(listing(home).includes('memory-state.sqlite'), false, 'memory-state was created');
      const json = await runCli([...args, '--json', '--home', home], { cwd });
      assert.equal(json.code, code, json.stderr);
      assert.equal(JSON.parse(json.stderr).error.code, errorCode);
      assert.deepEqual(listing(home), was, 'the data home changed');
    });

  it('on a home with no store at all, a retry and a session refused create no data home', async () => {
    const home = tempHome('refusals-no-store');
    const cwd = outsideGit();
    for (const refusal of refusals('user').filter((r) => r.args[1] === 'retry' || r.args[2] === '--session')) {
      assertRefused(await runCliInProcess([...refusal.args, '--home', home], { cwd }), refusal);
    }
    assert.deepEqual(readdirSync(join(home, '..')), [], 'nothing was created');
  });
});

describe('the same refusals where memory-state exists', TIMEOUT, () => {
  it('give the same answers; a known task and a known session still reach the command', async () => {
    const home = tempHome('refusals-state');
    const repo = gitRepo(home, 'repo');
    const { sessionKey } = queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    await c.flush(home);
    const since = daysAgo(30);
    const run = await runCli(['memory', 'extract', '--session', sessionKey, '--since', since, '--home', home], {
      cwd: repo,
    });
    assert.equal(run.code, 0, run.stderr);
    const state = openDatabase(storeFiles(home).memoryState, { readonly: true });
    const taskId = state
      .prepare("SELECT task_id FROM tasks WHERE status = 'submitted' LIMIT 1")
      .pluck()
      .get() as string;
    state.close();
    assert.ok(taskId, 'the run submitted a task');

    const cwd = outsideGit();
    for (const refusal of refusals('user'))
      assertRefused(await runCliInProcess([...refusal.args, '--home', home], { cwd }), refusal);
    // In the repository, retire looks in its memory root, then the user's.
    const [retire] = refusals('project or the user');
    assertRefused(await runCliInProcess([...retire!.args, '--home', home], { cwd: repo }), retire!);

    // A task memory-state holds goes on to the writer, which says why it is not retried.
    const known = await runCliInProcess(['memory', 'retry', taskId, '--home', home], { cwd });
    assert.equal(known.code, 5, known.stderr);
    assert.match(known.stderr, new RegExp(`Task ${taskId} is submitted; only a pending task waits for a retry\\.`));
    // The last run's end is read from memory-state: an --until before it, without --since, is refused as before.
    const early = await runCliInProcess(['memory', 'extract', '--until', since, '--home', home], { cwd: repo });
    assert.equal(early.code, 2, early.stderr);
    assert.match(early.stderr, /--until .* is not after the last run's end .*: give --since too\./);
    // A unique start of the session's key still selects it.
    const again = await runCliInProcess(
      ['memory', 'extract', '--session', sessionKey.slice(0, -2), '--since', since, '--json', '--home', home],
      { cwd: repo },
    );
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).turns, 1);
  });
});

// The CLI's checks stand in front of the host's: with them taken out of the picture (the API called
// directly, as a client that checks nothing first would), the host refuses the same input alike.
describe('the host refuses the same input on its own', TIMEOUT, () => {
  it('through the application API, each with its code and message', async () => {
    const home = tempHome('refusals-host');
    assert.equal((await runCli(['note', 'hello', '--home', home])).code, 0);
    const cwd = outsideGit();
    await c.withLocalHost(home, async (app) => {
      const refused = (code: string, message: RegExp) => (error: unknown) => {
        assert.equal((error as { code?: string }).code, code, String(error));
        assert.match((error as Error).message, message);
        return true;
      };
      await assert.rejects(
        app.memoryRetire({ entryId: 'abcdef', cwd }),
        refused('not_found', /^No approved entry "abcdef"/),
      );
      await assert.rejects(app.memoryRetry({ taskId: 'abcdef' }), refused('not_found', /^No memory task abcdef\.$/));
      await assert.rejects(app.memoryReverifyRunner({ runner: 'nope' }), refused('usage', /^No runner named "nope"/));
      await assert.rejects(
        app.memoryReverifyRunner({ runner: 'builtin' }),
        refused('usage', /is offline and needs no probe/),
      );
      await assert.rejects(
        app.memoryExtractStart({ cwd, sessions: ['abcdef'] }),
        refused('not_found', /^No captured session abcdef: .* Nothing was extracted\.$/),
      );
      await assert.rejects(
        app.memoryExtractStart({ cwd, runner: 'nope' }),
        refused('usage', /^No runner named "nope"/),
      );
      await assert.rejects(
        app.memoryExtractStart({ cwd, since: '2020-01-01', until: '2026-01-01' }),
        refused('usage', /over the 366-day maximum/),
      );
      await assert.rejects(
        app.memoryConsolidate({ scope: 'project', cwd }),
        refused('usage', /is not inside a git worktree: there is no project memory here/),
      );
    });
  });
});
