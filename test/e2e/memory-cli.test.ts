// The memory commands: extract / review / status / recall / lint, scoped by the caller's git
// repository, with documented exit codes; a damaged memory-state fails only memory commands. The
// first walk-through, one call of each command and of each exit code, stdin, hosts and concurrent
// clients go through the real shipped bin. The other calls run the same main in this process
// (support/cli-in-process.ts): the reads (memory status, review, search, sessions; each a read-only
// connection or a host's API), the polls of a host's progress above all, and the writes after a
// command's first (each with a local host of its own, as the bin opens; a spawn of the bin is
// 0.5–1.5 s of CPU).
import assert from 'node:assert/strict';
import { undoImportsStep, undoSessionStartStep } from '../support/rewind-store.js';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { collect, gitRepo, runCli, startCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import * as c from '../support/capture.js';
import { plantedToken, queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

/** One session longer than one extraction may select: every tenth turn states a rule. */
const longSession = Array.from({ length: 250 }, (_, i) =>
  i % 10 === 0 ? `Always run the migration check before release ${i}.` : `Can you look at step ${i}?`,
);

function sealInstants(home: string): number[] {
  const db = c.readOnly(home);
  try {
    return db.prepare("SELECT recorded_at_ms FROM capture_turns WHERE state <> 'incomplete'").pluck().all() as number[];
  } finally {
    db.close();
  }
}

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('memory commands', () => {
  it('extract drafts candidates of the caller repository only; review lists them with evidence and masked findings; again creates nothing', async () => {
    const home = tempHome('memory-cli');
    const repo = gitRepo(home, 'repo');
    const other = gitRepo(home, 'other');
    const token = plantedToken();
    const mine = queueSession(home, repo, [
      'Always use named exports in TypeScript modules.',
      'Can you fix the build?',
      `Remember that the CI token is ${token} for uploads.`,
    ]);
    queueSession(home, other, ['From now on, use pnpm instead of npm in this repo.']);
    await c.flush(home);
    const first = await runCli(['memory', 'extract', '--home', home, '--json'], { cwd: repo });
    assert.equal(first.code, 0, first.stderr);
    const report = json(first.stdout);
    assert.equal(report.turns, 3, 'only the sessions of this repository');
    assert.equal(report.candidates.created, 2);
    assert.equal(report.candidates.quarantined, 1);
    assert.ok(!first.stdout.includes(token) && !first.stderr.includes(token));

    const listed = await runCli(['memory', 'review', '--home', home, '--json'], { cwd: join(repo) });
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(!listed.stdout.includes(token), 'review never prints the secret');
    const review = json(listed.stdout);
    assert.equal(review.scope, 'all');
    assert.equal(review.callerScope, 'project');
    assert.equal(review.total, 2);
    assert.ok(review.candidates.every((cand: { scope: string; repository: string }) => cand.scope === 'project'));
    assert.ok(review.candidates.every((cand: { repository: string }) => cand.repository === 'repo'));
    const byStatus = Object.fromEntries(review.candidates.map((cand: { status: string }) => [cand.status, cand]));
    assert.match(byStatus.draft.content, /named exports/);
    assert.deepEqual(
      byStatus.draft.statements[0].evidence.map((e: { turnKey: string }) => e.turnKey),
      [mine.turnKeys[0]],
    );
    assert.equal(byStatus.draft.statements[0].evidence[0].sessionKey, mine.sessionKey);
    assert.ok(['typed-fact', 'unverified'].includes(byStatus.draft.statements[0].claimSupport));
    assert.equal(byStatus.quarantined.findings[0].rule, 'github-token');
    assert.match(byStatus.quarantined.content, /ghp_…/);
    const text = await runCliInProcess(['memory', 'review', '--home', home], { cwd: repo });
    assert.ok(!text.stdout.includes(token));

    const elsewhere = json(
      (await runCliInProcess(['memory', 'review', '--home', home, '--json', '--scope', 'project'], { cwd: other }))
        .stdout,
    );
    assert.equal(elsewhere.candidates.length, 0, "another repository's own scope holds none of them");

    const again = json(
      (await runCliInProcess(['memory', 'extract', '--home', home, '--json', '--since', '2026-01-01'], { cwd: repo }))
        .stdout,
    );
    assert.equal(again.candidates.created, 0);
    assert.equal(again.tasks.created, 0);

    const status = await runCli(['memory', 'status', '--home', home, '--json']);
    assert.equal(status.code, 0, status.stderr);
    const s = json(status.stdout);
    assert.deepEqual([s.state, s.candidates.draft, s.candidates.quarantined, s.tasks.submitted], ['ready', 1, 1, 2]);
    assert.equal(s.lastRun.state, 'done');

    const recall = json(
      (await runCli(['memory', 'recall', 'named', 'exports', '--home', home, '--json'], { cwd: repo })).stdout,
    );
    assert.equal(recall.items.length, 1);
    assert.deepEqual(Object.keys(recall.items[0]).sort(), ['id', 'rank', 'sourceKind']);
    assert.match(recall.resultSetDigest, /^[0-9a-f]{64}$/);
  });

  it('bad windows and limits are usage errors (exit 2) that plan nothing; over 200 turns is exit 10', async () => {
    const home = tempHome('memory-cli-bad');
    const repo = gitRepo(home, 'repo');
    queueSession(
      home,
      repo,
      Array.from({ length: 201 }, (_, i) => `turn ${i}`),
    );
    await c.flush(home);
    for (const args of [
      ['--since', '2024-01-01', '--until', '2025-06-01'],
      ['--since', '2026-02-01', '--until', '2026-01-01'],
      ['--limit', '9'],
      ['--since', 'yesterday'],
    ]) {
      const bad = await runCliInProcess(['memory', 'extract', '--home', home, '--json', ...args], { cwd: repo });
      assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
    }
    const over = await runCli(['memory', 'extract', '--home', home, '--json'], { cwd: repo });
    assert.equal(over.code, 10, over.stderr);
    assert.match(json(over.stderr).error.message, /201 turns/);
    const s = json((await runCliInProcess(['memory', 'status', '--home', home, '--json'])).stdout);
    assert.equal(s.tasks.pending + s.tasks.submitted, 0);
    const retry = await runCli(['memory', 'retry', 'ext-none', '--home', home, '--json']);
    assert.equal(retry.code, 6, retry.stderr);
    assert.equal((await runCliInProcess(['memory', 'frobnicate', '--home', home])).code, 2);
  });

  it('what a run would refuse at once is refused before it starts: no "run … started", one line, no run recorded', async () => {
    const home = tempHome('memory-cli-refused');
    const repo = gitRepo(home, 'repo');
    for (const [args, said] of [
      [['--limit', '9'], /--limit must be a whole number from 1 to 8/],
      [['--since', '2026-02-01', '--until', '2026-01-01'], /window is empty or reversed/],
      [['--runner', 'nope'], /No runner named "nope"; available: builtin/],
    ] as const) {
      const bad = await runCliInProcess(['memory', 'extract', '--home', home, ...args], { cwd: repo });
      assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
      assert.doesNotMatch(bad.stderr, /started/, args.join(' '));
      assert.match(bad.stderr, said);
      assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
    }
    // Refused before the lease is taken: no run was made, nor a store or memory-state to hold one.
    assert.equal(existsSync(home), false, 'nothing was created');
    // After a run, --until alone before where it ended: refused before a second run starts.
    assert.equal((await runCliInProcess(['memory', 'extract', '--home', home], { cwd: repo })).code, 0);
    const ran = json((await runCliInProcess(['memory', 'status', '--home', home, '--json'])).stdout).lastRun;
    const early = await runCli(['memory', 'extract', '--home', home, '--until', '2026-01-01'], { cwd: repo });
    assert.equal(early.code, 2, early.stderr);
    assert.doesNotMatch(early.stderr, /started/);
    assert.match(early.stderr, /is not after the last run's end .*give --since too/);
    assert.equal(early.stderr.trim().split('\n').length, 1, early.stderr);
    const after = json((await runCliInProcess(['memory', 'status', '--home', home, '--json'])).stdout).lastRun;
    assert.deepEqual(after, ran, 'no second run was made');
  });

  it('a session of 250 turns sealed in one drain step is extracted completely by explicit windows, as the refusal says', async () => {
    const home = tempHome('memory-cli-long');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, longSession);
    await c.flush(home);
    assert.equal(new Set(sealInstants(home)).size, 250, 'every sealed turn has its own instant');
    const over = await runCliInProcess(['memory', 'extract', '--home', home, '--json'], { cwd: repo });
    assert.equal(over.code, 10, over.stderr);
    const message = json(over.stderr).error.message as string;
    const window =
      /--since (\S+) --until (\S+) for its first 200 turns, then --since (\S+) --until (\S+) for the rest/.exec(
        message,
      );
    assert.ok(window, message);
    assert.equal(window[2], window[3], 'the second part starts where the first ends');
    const parts = [
      ['--since', window[1]!, '--until', window[2]!],
      ['--since', window[3]!, '--until', window[4]!],
    ];
    const turns = [];
    for (const part of parts) {
      const extract = () => runCliInProcess(['memory', 'extract', '--home', home, '--json', ...part], { cwd: repo });
      let run = await extract();
      turns.push(json(run.stdout).turns);
      // A run works on a bounded number of tasks (exit 3: work remains); the same selection goes on.
      for (let rerun = 0; run.code === 3 && rerun < 20; rerun++) {
        run = await extract();
        assert.equal(json(run.stdout).tasks.created, 0, 'the same selection again plans nothing new');
      }
      assert.equal(run.code, 0, run.stderr);
      const again = json((await extract()).stdout);
      assert.deepEqual(
        [again.tasks.created, again.candidates.created],
        [0, 0],
        'a finished selection again creates nothing',
      );
    }
    assert.deepEqual(turns, [200, 50]);
    const s = json((await runCliInProcess(['memory', 'status', '--home', home, '--json'])).stdout);
    assert.equal(s.candidates.draft, 25, 'every tenth turn of the session is a rule');
  });

  it('lint: a blocking finding is exit 11 with its rule, position and a masked excerpt; clean text is 0; stdin works', async () => {
    const home = tempHome('memory-lint');
    mkdirSync(home, { recursive: true });
    const token = plantedToken();
    const file = join(dirname(home), 'notes.md');
    writeFileSync(file, `# notes\nthe token is ${token}\n`);
    const found = await runCli(['memory', 'lint', file, '--json']);
    assert.equal(found.code, 11, found.stderr);
    assert.ok(!found.stdout.includes(token));
    assert.deepEqual(
      json(found.stdout).findings.map((f: { path: string; line: number; column: number; rule: string }) => [
        f.path,
        f.line,
        f.column,
        f.rule,
      ]),
      [[file, 2, 14, 'github-token']],
    );
    const clean = await runCli(['memory', 'lint', '-', '--json'], {
      input: 'a 40-hex git sha 3b18e512dba79e4c8300dd08aeb37f8e728b8dad is fine',
    });
    assert.equal(clean.code, 0, clean.stdout);
    const missing = await runCliInProcess(['memory', 'lint', join(dirname(home), 'nope.md')]);
    assert.equal(missing.code, 6);
  });

  it('a damaged memory-state: memory commands exit 12 and say what to do; capture, notes and search keep working', async () => {
    const home = tempHome('memory-damaged');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    writeFileSync(storeFiles(home).memoryState, 'garbage'.repeat(2000), { mode: 0o600 });
    await c.flush(home);
    const status = await runCliInProcess(['memory', 'status', '--home', home, '--json']);
    assert.equal(status.code, 12, status.stdout);
    assert.match(json(status.stdout).reason, /moved aside/);
    const extract = await runCli(['memory', 'extract', '--home', home, '--json'], { cwd: repo });
    assert.equal(extract.code, 12, extract.stderr);
    assert.match(json(extract.stderr).error.message, /Capture and core.sqlite are not affected/);
    assert.equal((await runCli(['note', 'still here', '--home', home])).code, 0);
    const search = await runCliInProcess(['search', 'named', 'exports', '--home', home, '--json']);
    assert.equal(json(search.stdout).results.length, 1);
  });

  /** Two `memory extract` processes at once on one data home: through a running host, or each holding the lease. */
  async function concurrentExtract(withHost: boolean) {
    const home = tempHome(withHost ? 'memory-concurrent-host' : 'memory-concurrent');
    const repo = gitRepo(home, 'repo');
    for (let i = 0; i < 6; i++)
      queueSession(home, repo, [`Always use named exports in module ${i}.`, `We never squash merge branch ${i}.`]);
    await c.flush(home);
    const host = withHost ? startCli(['host', '--home', home], { env: { COMMON_MEMORY_AUTO_EXTRACT: 'off' } }) : null;
    try {
      const deadline = Date.now() + 20_000;
      while (host && !existsSync(storeFiles(home).hostInfo)) {
        if (Date.now() > deadline) throw new Error('the host did not start within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const [a, b] = await Promise.all([
        runCli(['memory', 'extract', '--home', home, '--json'], { cwd: repo }),
        runCli(['memory', 'extract', '--home', home, '--json'], { cwd: repo }),
      ]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      const ra = json(a.stdout);
      const rb = json(b.stdout);
      assert.equal(ra.tasks.submitted + rb.tasks.submitted, 6, 'each task submitted by exactly one run');
      assert.equal(ra.candidates.created + rb.candidates.created, 12);
      const s = json((await runCliInProcess(['memory', 'status', '--home', home, '--json'])).stdout);
      assert.equal(s.candidates.draft, 12);
      const { openDatabase } = await import('../../source/store/database.js');
      const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
      try {
        assert.equal(
          db.prepare("SELECT count(*) FROM tasks WHERE kind = 'extraction' AND lease_epoch <> 1").pluck().get(),
          0,
          'no task was claimed twice',
        );
        assert.equal(db.prepare("SELECT count(*) FROM tasks WHERE kind = 'extraction'").pluck().get(), 6);
        assert.equal(
          db.prepare('SELECT count(*) FROM submissions').pluck().get(),
          db.prepare("SELECT count(*) FROM tasks WHERE status = 'submitted'").pluck().get(),
          'one submission per submitted task',
        );
        assert.equal(
          db.prepare('SELECT count(DISTINCT content_digest) FROM candidates').pluck().get(),
          12,
          'nothing was created twice',
        );
      } finally {
        db.close();
      }
    } finally {
      host?.kill('SIGINT');
      if (host) await collect(host, undefined, 20_000).catch(() => undefined);
    }
  }
  it('two concurrent extract clients through one host never double-claim', () => concurrentExtract(true));

  it('two concurrent extract clients without a host (each holding the lease in turn) never double-claim', () =>
    concurrentExtract(false));
});

describe('automatic extraction in a host', () => {
  async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const memoryStatus = async (home: string) =>
    json((await runCliInProcess(['memory', 'status', '--home', home, '--json'])).stdout);

  it('a host extracts newly sealed turns by itself with the builtin runner; the setting turns it off', async () => {
    for (const setting of ['on', 'off']) {
      const home = tempHome(`memory-auto-${setting}`);
      const repo = gitRepo(home, 'repo');
      const host = startCli(['host', '--home', home], { env: { COMMON_MEMORY_AUTO_EXTRACT: setting } });
      try {
        await waitFor('the host to start', async () => (existsSync(storeFiles(home).hostInfo) ? true : undefined));
        queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
        const flushed = await runCliInProcess(['flush', '--home', home, '--json']);
        assert.equal(flushed.code, 0, flushed.stderr);
        if (setting === 'on') {
          const status = await waitFor('an automatic run to draft the candidate', async () => {
            const s = await memoryStatus(home);
            return s.candidates.draft === 1 && s.lastRun?.state === 'done' ? s : undefined;
          });
          assert.equal(status.autoExtract, true);
          assert.equal(status.lastRun.runner, 'builtin');
          const review = json(
            (await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo })).stdout,
          );
          assert.match(review.candidates[0].content, /named exports/);
        } else {
          // Two poll intervals and the grace later, nothing ran.
          await new Promise((resolve) => setTimeout(resolve, 6_000));
          const s = await memoryStatus(home);
          assert.equal(s.autoExtract, false);
          assert.equal(s.lastRun, null);
          assert.equal(s.candidates.draft, 0);
        }
      } finally {
        host.kill('SIGINT');
        await collect(host, undefined, 20_000).catch(() => undefined);
      }
    }
  });

  it('a host works a window of more than 8 chunks in further passes until no task is left', async () => {
    const home = tempHome('memory-auto-passes');
    const repo = gitRepo(home, 'repo');
    const prompts = Array.from({ length: 130 }, (_, i) =>
      i % 10 === 0 ? `Always run the migration check before release ${i}.` : `Can you look at step ${i}?`,
    );
    queueSession(home, repo, prompts);
    // Sealed without extracting (flush extracts too unless the setting is off): the host's passes are tested.
    const flushed = await runCliInProcess(['flush', '--home', home, '--json'], {
      env: { COMMON_MEMORY_AUTO_EXTRACT: 'off' },
    });
    assert.equal(flushed.code, 0, flushed.stderr);
    const host = startCli(['host', '--home', home], { env: { COMMON_MEMORY_AUTO_EXTRACT: 'on' } });
    try {
      const status = await waitFor('automatic passes to submit every task of the window', async () => {
        const s = await memoryStatus(home);
        return s.candidates.draft === 13 && s.tasks.pending === 0 && s.tasks.claimed === 0 ? s : undefined;
      });
      const chunks = status.chunks.pending + status.chunks.drafted + status.chunks.extracted;
      assert.ok(chunks > 8, `more than 8 chunks: ${JSON.stringify(status.chunks)}`);
      assert.ok(status.tasks.submitted > 8, `more than one run's 8 tasks: ${JSON.stringify(status.tasks)}`);
      assert.equal(status.tasks.waitingForRetry, 0);
    } finally {
      host.kill('SIGINT');
      await collect(host, undefined, 20_000).catch(() => undefined);
    }
  });

  async function autoExtractsLongSession(home: string, repo: string) {
    const host = startCli(['host', '--home', home], { env: { COMMON_MEMORY_AUTO_EXTRACT: 'on' } });
    try {
      // Until it serves (a migration may come first), the host holds the lease and a command is refused.
      await waitFor('the host to serve', async () => (existsSync(storeFiles(home).hostInfo) ? true : undefined));
      const status = await waitFor(
        'automatic passes to draft the 25 rules of the 250-turn session',
        async () => {
          const s = await memoryStatus(home);
          return s.candidates.draft === 25 && s.tasks.pending === 0 && s.tasks.claimed === 0 ? s : undefined;
        },
        120_000,
      );
      assert.equal(status.tasks.waitingForRetry, 0);
      const review = json(
        (await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo })).stdout,
      );
      const turnKeys = new Set(
        review.candidates.flatMap((cand: { statements: Array<{ evidence: Array<{ turnKey: string }> }> }) =>
          cand.statements.flatMap((statement) => statement.evidence.map((e) => e.turnKey)),
        ),
      );
      assert.equal(turnKeys.size, 25, 'the rules of the first 200 turns and of the last 50');
    } finally {
      host.kill('SIGINT');
      await collect(host, undefined, 20_000).catch(() => undefined);
    }
  }

  it('a host extracts a session of 250 turns sealed in one drain step through every pass', async () => {
    const home = tempHome('memory-auto-long');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, longSession);
    await c.flush(home);
    await autoExtractsLongSession(home, repo);
  });

  it('a store whose turns were sealed in one millisecond (before v7) is re-stamped and then extracted completely', async () => {
    const home = tempHome('memory-auto-collided');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, longSession);
    await c.flush(home);
    c.closeStores();
    const { openDatabase } = await import('../../source/store/database.js');
    const db = openDatabase(storeFiles(home).core);
    try {
      // What a v6 store holds after one drain step: one instant for every turn, no index on it (and
      // nothing of v8 or v10).
      undoSessionStartStep(db);
      undoImportsStep(db);
      db.exec('DROP INDEX capture_turns_by_recorded_at');
      db.prepare('UPDATE capture_turns SET recorded_at_ms = (SELECT min(recorded_at_ms) FROM capture_turns)').run();
      db.exec(
        "UPDATE session_search SET recorded_at_ms = (SELECT min(recorded_at_ms) FROM capture_turns) WHERE ref LIKE 'm:%'",
      );
      db.pragma('user_version = 6');
    } finally {
      db.close();
    }
    assert.equal(new Set(sealInstants(home)).size, 1);
    await autoExtractsLongSession(home, repo);
    const instants = sealInstants(home);
    assert.equal(new Set(instants).size, 250, 'the migration gave every turn its own instant');
    assert.equal(Math.max(...instants) - Math.min(...instants), 249, 'each 1 ms after the one before');
    const core = c.readOnly(home);
    try {
      const stale = core
        .prepare(
          `SELECT count(*) FROM session_search s JOIN capture_messages m ON 'm:' || m.message_id = s.ref
             JOIN capture_turns t ON t.turn_id = m.turn_id WHERE s.recorded_at_ms <> t.recorded_at_ms`,
        )
        .pluck()
        .get();
      assert.equal(stale, 0, 'search rows moved with their turns');
    } finally {
      core.close();
    }
  });

  it('without any host, flush drains and extracts: the candidate is in memory review, and flush says what it did', async () => {
    const home = tempHome('memory-flush-extracts');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    const waiting = await runCliInProcess(['sessions', '--home', home]);
    assert.equal(waiting.code, 0, waiting.stderr);
    assert.match(waiting.stdout, /1 captured event\(s\) wait to be processed/);
    assert.match(waiting.stdout, /common-memory flush/);
    assert.match(waiting.stdout, /common-memory service install/);
    const empty = await runCliInProcess(['memory', 'review', '--home', home], { cwd: repo });
    assert.match(empty.stdout, /wait to be processed[\s\S]*common-memory flush/);
    const flushed = await runCli(['flush', '--home', home, '--json'], { env: { COMMON_MEMORY_AUTO_EXTRACT: 'on' } });
    assert.equal(flushed.code, 0, flushed.stderr);
    const report = json(flushed.stdout);
    assert.equal(report.complete, true);
    assert.equal(report.extraction.state, 'done');
    assert.equal(report.extraction.candidates.created, 1);
    assert.ok(report.extraction.turns >= 1, JSON.stringify(report.extraction));
    const review = json((await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.equal(review.candidates.length, 1);
    assert.match(review.candidates[0].content, /named exports/);
    // Nothing waits any more; a second flush finds nothing new and drafts nothing twice.
    const quiet = await runCliInProcess(['sessions', '--home', home]);
    assert.doesNotMatch(quiet.stdout, /wait to be processed/);
    const again = await runCliInProcess(['flush', '--home', home], { env: { COMMON_MEMORY_AUTO_EXTRACT: 'on' } });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /extracted: 0 turn\(s\) in 0 run\(s\) → candidates: 0 new/);
    assert.match(again.stdout, /complete: everything settled is processed/);
  });

  it('a host extracts by itself the turns sealed before memory-state existed (the backlog of the last year)', async () => {
    const home = tempHome('memory-auto-backlog');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, ['From now on, use pnpm instead of npm in this repo.']);
    const flushed = await runCliInProcess(['flush', '--home', home, '--json'], {
      env: { COMMON_MEMORY_AUTO_EXTRACT: 'off' },
    });
    assert.equal(flushed.code, 0, flushed.stderr);
    assert.equal(json(flushed.stdout).extraction.state, 'off', 'sealed only: the backlog is left to the host');
    const host = startCli(['host', '--home', home], { env: { COMMON_MEMORY_AUTO_EXTRACT: 'on' } });
    try {
      const status = await waitFor('an automatic run to draft the backlog candidate', async () => {
        const s = await memoryStatus(home);
        return s.candidates.draft === 1 ? s : undefined;
      });
      assert.equal(status.lastRun.runner, 'builtin');
    } finally {
      host.kill('SIGINT');
      await collect(host, undefined, 20_000).catch(() => undefined);
    }
  });
});
