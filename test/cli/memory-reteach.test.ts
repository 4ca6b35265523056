// Re-teach counted from real captured sessions (issue 29, item 4): two Claude Code 2.1.332 sessions
// (the recorded transcript and hook payloads of fixtures/claude/*/01-plain, with the user's prompt
// replaced) go through the real shipped hook, the drain and `memory extract`. The first teaches a
// rule, which a person promotes; the second, later, gives the entry in its SessionStart snapshot and
// the user says the rule again. Extraction's dedup finds the repeat: the entry's re-teach count goes
// from 0 to 1, and stays 1 when extraction runs again over the same turns. The counts reach
// `memory status --json`, `get --json` and `memory suggestions`; a damaged count table reads
// `unavailable`, never 0.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURE_SESSION = 'e062eced-7d52-4151-9c22-ecd2fb939260';
const RULE = 'Always write commit messages in the imperative mood in this repository.';

/**
 * One real Claude Code session of one prompt, `prompt` in place of the recorded "hello", under its
 * own session id: its transcript copied into the home's transcript directory, then every recorded
 * hook event through the real bin. Returns the SessionStart hook's additional context.
 */
async function claudeSession(home: string, repo: string, session: string, prompt: string): Promise<string> {
  const fixture = c.claudeTranscriptFixture('01-plain');
  const said = JSON.stringify(prompt).slice(1, -1);
  const text = readFileSync(fixture, 'utf8')
    .split(FIXTURE_SESSION)
    .join(session)
    .split('"content":"hello"')
    .join(`"content":"${said}"`);
  const dir = c.transcriptDir(home);
  mkdirSync(dir, { recursive: true });
  const transcript = join(dir, `${session}.jsonl`);
  writeFileSync(transcript, text);
  assert.notEqual(basename(transcript), basename(fixture));
  let context = '';
  for (const file of c.hookFiles('claude', '01-plain')) {
    const overrides: Record<string, unknown> = { session_id: session, cwd: repo };
    if (file.endsWith('UserPromptSubmit.json')) overrides['prompt'] = prompt;
    const run = await c.hookBin(home, 'claude', c.payloadFor(file, transcript, overrides), `claude-${session}`);
    assert.equal(run.code, 0, `${basename(file)}: ${run.stderr}`);
    if (file.endsWith('SessionStart.json') && run.stdout !== '')
      context = (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
        .additionalContext;
  }
  return context;
}

async function cli(home: string, repo: string, ...args: string[]) {
  const run = await runCli([...args, '--home', home], { cwd: repo });
  assert.ok(run.code === 0 || run.code === 3, `${args.join(' ')}: exit ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run;
}

/**
 * The same call in this process (support/cli-in-process.ts): the reads (`memory review`, `get`) and
 * the promotion that only sets up the approved entry, each a spawn of the bin (about half a second
 * of CPU) before. The hooks, every extraction, `memory status` (a write in a worktree) and one
 * `get` stay with the bin.
 */
async function inProcess(home: string, repo: string, ...args: string[]) {
  const run = await runCliInProcess([...args, '--home', home], { cwd: repo });
  assert.ok(run.code === 0 || run.code === 3, `${args.join(' ')}: exit ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run;
}

/** Drains the captured events, then extracts every sealed turn of the year with the builtin runner. */
async function extract(home: string, repo: string) {
  await c.drain(home);
  return json((await cli(home, repo, 'memory', 'extract', '--since', '2026-01-01', '--json')).stdout);
}

const reteachRows = (home: string) => {
  const db = new Database(storeFiles(home).memoryState, { readonly: true });
  try {
    return db.prepare('SELECT entry_id, session_key, turn_key FROM entry_reteach').all() as Array<{
      entry_id: string;
      session_key: string;
      turn_key: string;
    }>;
  } finally {
    db.close();
  }
};

describe('re-teach events from real captured sessions', () => {
  it('a later session that says an approved entry again counts one re-teach, once, however often extraction runs', async () => {
    const home = tempHome('reteach');
    const repo = gitRepo(home, 'repo');

    // Session 1 teaches the rule; a person promotes the candidate extraction drafts.
    await claudeSession(home, repo, '11111111-1111-4111-8111-111111111111', RULE);
    await extract(home, repo);
    const review = json((await inProcess(home, repo, 'memory', 'review', '--json')).stdout);
    const taught = review.candidates.find((cand: { content: string }) => cand.content.includes('imperative mood'));
    assert.ok(taught, `extraction drafted the rule: ${JSON.stringify(review.candidates)}`);
    const plan = json((await inProcess(home, repo, 'memory', 'prepare', taught.candidateId, '--json')).stdout);
    await inProcess(home, repo, 'memory', 'approve', plan.planId, '--digest', plan.planDigest);
    await inProcess(home, repo, 'memory', 'promote', plan.planId);
    const entryId = plan.files[0].entryId as string;

    const before = json((await inProcess(home, repo, 'get', entryId, '--json')).stdout);
    assert.deepEqual([before.usage.state, before.usage.reteach], ['counted', 0]);
    // Extraction of the teaching session again is the entry's own source: no re-teach.
    await extract(home, repo);
    assert.deepEqual(reteachRows(home), []);

    // Session 2, later: the entry is given at its start, and the user says the rule again.
    const given = await claudeSession(home, repo, '22222222-2222-4222-8222-222222222222', RULE);
    assert.ok(given.includes(`[${entryId}]`), `the snapshot gives the entry:\n${given}`);
    await extract(home, repo);
    const rows = reteachRows(home);
    assert.equal(rows.length, 1, JSON.stringify(rows));
    assert.equal(rows[0]!.entry_id, entryId);

    const after1 = json((await inProcess(home, repo, 'get', entryId, '--json')).stdout);
    assert.equal(after1.usage.reteach, 1);
    assert.ok(after1.usage.lastReteachAt, 'the event has its time');

    // Extraction again over the same turns, then once more: still one event for that turn.
    await extract(home, repo);
    await extract(home, repo);
    assert.equal(reteachRows(home).length, 1);

    const status = json((await cli(home, repo, 'memory', 'status', '--json')).stdout);
    assert.equal(status.usage.state, 'counted');
    assert.equal(status.usage.totals.reteach, 1);
    assert.equal(status.usage.totals.given, 1);
    assert.deepEqual(
      status.usage.topRetaught.project.map((row: { entryId: string; reteach: number }) => [row.entryId, row.reteach]),
      [[entryId, 1]],
    );
    // Status (holding the lease in a worktree) folded in the snapshot given to session 2.
    const after2 = json((await inProcess(home, repo, 'get', entryId, '--json')).stdout);
    assert.deepEqual([after2.usage.given, after2.usage.reteach], [1, 1]);
    const text = await cli(home, repo, 'memory', 'status');
    // Wrapped to 80 columns: read as one text.
    assert.match(
      text.stdout.replace(/\s+/g, ' '),
      new RegExp(`re-taught ×1 \\(project\\) ${entryId} .*consider a better title`),
    );

    // Session 3 says the rule again and more: the candidate stays in review, saying what it re-teaches.
    await claudeSession(
      home,
      repo,
      '33333333-3333-4333-8333-333333333333',
      `${RULE.slice(0, -1)} and keep the subject line short.`,
    );
    await extract(home, repo);
    const reviewed = json((await inProcess(home, repo, 'memory', 'review', '--json')).stdout);
    const longer = reviewed.candidates.find((cand: { content: string }) => cand.content.includes('subject line'));
    assert.ok(longer, JSON.stringify(reviewed.candidates));
    assert.deepEqual(longer.reteaches, [entryId]);
    const reviewText = await inProcess(home, repo, 'memory', 'review');
    assert.ok(
      // Wrapped to 80 columns: read as one text.
      reviewText.stdout
        .replace(/\s+/g, ' ')
        .includes(`re-teaches ${entryId}: consider a better title, appliesWhen or priority`),
      reviewText.stdout,
    );
    assert.equal(reteachRows(home).length, 2, 'a second turn, a second event');

    // A damaged count table: the counts say unavailable, never 0.
    const db = new Database(storeFiles(home).memoryState);
    db.exec('DROP TABLE entry_reteach');
    db.close();
    const damaged = json((await inProcess(home, repo, 'get', entryId, '--json')).stdout);
    assert.equal(damaged.usage.state, 'unavailable');
    assert.equal(damaged.usage.reteach, null);
    assert.match(damaged.usage.reason, /entry_reteach/);
    const damagedStatus = json((await runCli(['memory', 'status', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.equal(damagedStatus.usage.state, 'unavailable');
    assert.equal(damagedStatus.usage.totals, null);
    const getText = await runCli(['get', entryId, '--home', home], { cwd: repo });
    assert.match(getText.stdout, /usage: unavailable — /);
  });
});
