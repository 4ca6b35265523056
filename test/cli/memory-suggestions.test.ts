// Retirement suggestions (issue 29, item 5) through the real CLI: entries whose anchors are stale,
// and entries neither read by an agent (the read ledger) nor re-taught in N days, each with its
// reason; nothing is retired. Counting younger than N days names no entry as unused. Bad input
// exits 2 with what to type; a damaged memory-state says unavailable, never an empty list as fact.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import { ledgerSessionStart, ledgerTurn, openLedger, recordRootRead } from '../../source/store/ledger/ledger.js';
import { syncedRepo } from '../support/approved-repo.js';
import { runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { McpTestClient } from '../support/mcp-client.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DAY = 86_400_000;

/**
 * `memory suggestions --json`: the file's first call through the shipped bin (its exit code is the
 * process's), the others through the same main in this process; what they return is what is tested.
 */
let firstSuggestions = true;
async function suggestions(home: string, repo: string, ...args: string[]) {
  const run = await (firstSuggestions ? runCli : runCliInProcess)(
    ['memory', 'suggestions', ...args, '--home', home, '--json'],
    { cwd: repo },
  );
  firstSuggestions = false;
  assert.equal(run.code, 0, run.stderr);
  return json(run.stdout);
}

const listed = (
  result: Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
) =>
  Object.fromEntries(
    (result.suggestions as Array<{ entryId: string; reasons: Array<{ kind: string }> }>).map((s) => [
      s.entryId,
      s.reasons.map((r) => r.kind).join('+'),
    ]),
  );

/** Counting began `days` ago, as if memory-state had been migrated then. */
function countingBegan(home: string, days: number): void {
  const db = new Database(storeFiles(home).memoryState);
  db.prepare("UPDATE memory_state_meta SET value = ? WHERE key = 'usage_since'").run(
    new Date(Date.now() - days * DAY).toISOString(),
  );
  db.close();
}

describe('memory suggestions', () => {
  it('lists stale entries and entries unused for N days with their reasons; a read by an agent keeps an entry off', async () => {
    const { home, repo } = await syncedRepo('suggest');
    writeEntry(
      projectRoot(repo),
      'legacy-config',
      'Where configuration is loaded',
      'It lives in `src/gone/config.ts`.',
    );
    writeEntry(projectRoot(repo), 'fresh-rule', 'Small reviews', 'Keep each review under 400 lines.');
    const sync = await runCli(['memory', 'sync', '--home', home], { cwd: repo });
    assert.equal(sync.code, 0, sync.stderr);

    // Counting began just now: only the stale entry is named, and the answer says when unused ones can be.
    const young = await suggestions(home, repo);
    assert.equal(young.state, 'ready');
    assert.equal(young.anchors, 'verified');
    assert.deepEqual(listed(young), { 'legacy-config': 'stale' });
    assert.match(young.suggestions[0].reasons[0].text, /^stale: `src\/gone\/config\.ts` does not exist/);
    assert.ok(young.unusedFrom, 'counting is younger than 90 days');

    countingBegan(home, 200);
    const old = await suggestions(home, repo);
    assert.equal(old.unusedFrom, null);
    // Entries with no `created` are as old as the counting; those created three days ago are not unused yet.
    assert.deepEqual(listed(old), { 'legacy-config': 'stale', 'use-pnpm': 'unused', 'named-exports': 'unused' });
    const pnpm = old.suggestions.find((s: { entryId: string }) => s.entryId === 'use-pnpm');
    assert.match(
      pnpm.reasons[0].text,
      /^never read by an agent nor re-taught since counting began \(\d{4}-\d\d-\d\d\); given 0 times$/,
    );
    assert.deepEqual([pnpm.usage.state, pnpm.usage.read, pnpm.usage.reteach], ['counted', 0, 0]);

    const shorter = await suggestions(home, repo, '--days', '2');
    assert.equal(shorter.days, 2);
    assert.deepEqual(listed(shorter), {
      'legacy-config': 'stale+unused',
      'use-pnpm': 'unused',
      'named-exports': 'unused',
      'fresh-rule': 'unused',
    });

    // The root agent of a conversation reads use-pnpm with memory_get (what the PostToolUse hook records).
    const ledger = openLedger(storeFiles(home).ledger);
    const now = Date.now();
    ledgerSessionStart(ledger, 'claude', 'conversation-1', 'startup', now);
    ledgerTurn(ledger, 'claude', 'conversation-1', 'turn-1', now);
    const read = recordRootRead(
      ledger,
      'claude',
      'conversation-1',
      'turn-1',
      {
        entryId: 'use-pnpm',
        contentDigest: 'a'.repeat(64),
        title: 'Use pnpm, not npm',
        appliesWhen: null,
        sources: [],
      },
      now,
    );
    ledger.close();
    assert.equal(read.outcome, 'recorded');
    const after = await suggestions(home, repo);
    assert.deepEqual(listed(after), { 'legacy-config': 'stale', 'named-exports': 'unused' });
    const get = json((await runCli(['get', 'use-pnpm', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.equal(get.usage.read, 1, 'the read was counted once');
    // MCP memory_get carries the same counts.
    const mcp = await McpTestClient.start(home, repo);
    try {
      const got = await mcp.call('memory_get', { id: 'use-pnpm' });
      assert.deepEqual([got.structuredContent.usage.state, got.structuredContent.usage.read], ['counted', 1]);
    } finally {
      assert.equal(await mcp.close(), 0);
    }
    await suggestions(home, repo);
    const again = json((await runCliInProcess(['get', 'use-pnpm', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.equal(again.usage.read, 1, 'collecting again adds nothing');

    const text = await runCliInProcess(['memory', 'suggestions', '--home', home], { cwd: repo });
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^retirement suggestions \(stale, or not read nor re-taught in 90 days\): 2\nnothing is retired without your approval/,
    );
    assert.match(text.stdout, /\nlegacy-config \(project\) "Where configuration is loaded"\n {2}stale: /);
    // Nothing was retired: every entry is still there.
    const status = json(
      (await runCli(['memory', 'search', 'configuration', '--home', home, '--json'], { cwd: repo })).stdout,
    );
    assert.ok(status.results.some((r: { entryId: string }) => r.entryId === 'legacy-config'));
  });

  it('refuses bad --days and unknown flags with exit 2 and what to type; --help fits 80 columns', async () => {
    const home = tempHome('suggest-bad');
    let first = true;
    for (const [args, pattern] of [
      [['--days', '0'], /--days must be a whole number of days from 1 to 3650, not "0"/],
      [['--days', 'abc'], /--days must be a whole number of days from 1 to 3650, not "abc"/],
      [['--days', '2.5'], /not "2\.5"/],
      [['--days', '-3'], /--days/],
      [['--days', '99999'], /not "99999"/],
      [['--dayz', '3'], /--dayz/],
      [['--limit', '3'], /--limit/],
      [['extra'], /usage: common-memory memory suggestions \[--days N\]/],
    ] as const) {
      // The first refusal through the bin (exit 2 is the process's), the others in-process.
      const run = await (first ? runCli : runCliInProcess)(['memory', 'suggestions', ...args, '--home', home]);
      first = false;
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, pattern, args.join(' '));
    }
    const help = await runCli(['memory', 'suggestions', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--days N/);
    for (const line of help.stdout.split('\n')) assert.ok(line.length <= 80, `over 80 columns: ${line}`);
  });

  it('a damaged memory-state: suggestions and the counts say unavailable (exit 12), never an empty list as fact', async () => {
    const { home, repo } = await syncedRepo('suggest-damaged');
    for (const suffix of ['-wal', '-shm']) rmSync(`${storeFiles(home).memoryState}${suffix}`, { force: true });
    writeFileSync(storeFiles(home).memoryState, 'this is not a database, it is text'.repeat(200));
    const run = await runCli(['memory', 'suggestions', '--home', home, '--json'], { cwd: repo });
    assert.equal(run.code, 12, run.stderr);
    const result = json(run.stdout);
    assert.equal(result.state, 'unavailable');
    assert.ok(result.reason);
    const status = await runCli(['memory', 'status', '--home', home, '--json'], { cwd: repo });
    assert.equal(json(status.stdout).usage.state, 'unavailable');
    assert.equal(json(status.stdout).usage.totals, null);
  });
});
