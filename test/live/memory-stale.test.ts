// A stale entry at session start, live (issue 29): in a real git repository an approved entry names
// a file and a package script; both are removed and the removal committed while the host runs (it
// sees the commit and verifies again). The real Claude Code 2.1.332 then starts a session there
// with common-memory's SessionStart hook in its settings: the model's first recorded request (the
// fake server's) no longer carries the entry's claim, carries the one-line notice that it may be
// stale, and still carries the entry that names nothing. The same session before the removal
// carried the claim: the assertion can fail.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import { byPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { BIN, git, runCli, startHost, stopHost, tempHome, waitFor } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { createClaudeSandbox, runClaude, shellQuote } from './harness.js';
import { locateClients } from './clients.js';
import { startTmux } from './tmux.js';

const home = tempHome('live-stale');
const hook = `${shellQuote(process.execPath)} ${shellQuote(BIN)} hook claude --home ${shellQuote(home)}`;
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The first test's sandbox and server, its repository left with the stale entry: the interactive test starts there. */
let world: {
  sandbox: Awaited<ReturnType<typeof createClaudeSandbox>>;
  server: Awaited<ReturnType<typeof startFakeAnthropicServer>>;
} | null = null;

/** Words only the stale entry's body holds, and only the kept entry's. */
const STALE_MARK = 'marmoset-legacy-loader';
const KEPT_MARK = 'pangolin-review-size';
const NOTICE = '(may be stale, not given: legacy-config — `src/legacy/config.ts` no longer exists (and 1 more))';

function verdictOf(entryId: string): string | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Database(storeFiles(home).memoryState, { readonly: true, fileMustExist: true });
    return db.prepare('SELECT verdict FROM entry_anchors WHERE entry_id = ?').pluck().get(entryId) as
      | string
      | undefined;
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

const firstRequest = (requests: ReadonlyArray<{ method: string; path: string; body: unknown }>): string => {
  const posted = requests.filter((r) => r.method === 'POST' && r.body !== null && r.path.startsWith('/v1/messages'));
  assert.ok(posted.length > 0, 'the client asked the model');
  return JSON.stringify(posted[0]!.body);
};

describe('a stale entry at session start with the real Claude Code', () => {
  it("after the entry's file and script are removed and committed, the first request carries the notice, not the claim", async () => {
    const server = await startFakeAnthropicServer({ script: byPrompt([], { type: 'text', text: 'ok' }) });
    cleanups.push(() => server.close());
    {
      const sandbox = await createClaudeSandbox({ baseUrl: server.baseUrl, hookCommand: hook });
      cleanups.push(() => sandbox.cleanup());
      const repo = sandbox.cwd;
      git(repo, 'init', '-q');
      mkdirSync(join(repo, 'src', 'legacy'), { recursive: true });
      writeFileSync(join(repo, 'src', 'legacy', 'config.ts'), 'export function loadConfig() {}\n');
      writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: { 'lint:legacy': 'true', test: 'true' } }));
      writeEntry(
        projectRoot(repo),
        'legacy-config',
        'Where configuration is loaded',
        `Configuration is loaded by \`src/legacy/config.ts\` (${STALE_MARK}); run \`pnpm run lint:legacy\` after editing it.`,
        { priority: 80 },
      );
      writeEntry(projectRoot(repo), 'kept-rule', 'Keep reviews small', `Keep each review small (${KEPT_MARK}).`, {
        priority: 60,
      });
      git(repo, 'add', '--all');
      git(repo, 'commit', '-q', '-m', 'start');
      const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo });
      assert.equal(synced.code, 0, synced.stderr);
      assert.deepEqual(JSON.parse(synced.stdout).anchors, { state: 'verified', entries: 2, stale: 0, reason: null });

      let before = server.requests.length;
      const fresh = await runClaude(sandbox, { prompt: 'Where is configuration loaded?' });
      assert.equal(fresh.exitCode, 0, fresh.stderr);
      const given = firstRequest(server.requests.slice(before));
      assert.match(given, new RegExp(STALE_MARK), 'before the removal the entry is given');
      assert.match(given, new RegExp(KEPT_MARK));

      // The host watches the worktree's git directory: the commit is seen and verified, no command run.
      const { child } = await startHost(home, {}, repo);
      try {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        rmSync(join(repo, 'src', 'legacy', 'config.ts'));
        writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: { test: 'true' } }));
        git(repo, 'add', '--all');
        git(repo, 'commit', '-q', '-m', 'drop the legacy loader');
        await waitFor(
          'the host to verify after the commit',
          () => verdictOf('legacy-config') === 'stale' || undefined,
          30_000,
        );
      } finally {
        await stopHost(child);
      }

      before = server.requests.length;
      const stale = await runClaude(sandbox, { prompt: 'Where is configuration loaded now?' });
      assert.equal(stale.exitCode, 0, stale.stderr);
      const request = firstRequest(server.requests.slice(before));
      assert.doesNotMatch(request, new RegExp(STALE_MARK), 'the stale claim is not given');
      assert.ok(request.includes(NOTICE), `the one-line notice is given:\n${request.slice(0, 4000)}`);
      assert.match(request, new RegExp(KEPT_MARK), 'the entry that names nothing is still given');
      process.stdout.write(`# first request after the removal carries: ${NOTICE}\n`);
      world = { sandbox, server };
    }
  });

  it('interactive Claude Code in a real terminal: the request with the first prompt carries the notice, not the claim', {
    timeout: 180_000,
  }, async () => {
    assert.ok(world, 'the first test left the repository with its stale entry');
    const { sandbox, server } = world;
    const dir = mkdtempSync(join(tmpdir(), 'cm-tmux-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const term = startTmux({
      dir,
      cwd: sandbox.cwd,
      env: { ...sandbox.env, TERM: 'xterm-256color' },
      command: [locateClients().claudeBinary],
    });
    cleanups.push(() => term.close());
    const ready = (screen: string): boolean => /^❯/m.test(screen) && /shift\+tab to cycle/.test(screen);
    await term.waitFor('the prompt box', ready, 60_000);
    const before = server.requests.length;
    const prompt = 'Which file loads the configuration here?';
    term.type(prompt);
    term.press('Enter');
    await term.waitFor('the answer', (screen) => /\bok\b/.test(screen.split(prompt)[1] ?? ''), 60_000);
    const asked = server.requests
      .slice(before)
      .filter(
        (r) => r.method === 'POST' && r.path.startsWith('/v1/messages') && JSON.stringify(r.body).includes(prompt),
      );
    assert.ok(asked.length > 0, 'the prompt reached the model');
    const request = JSON.stringify(asked[0]!.body);
    assert.doesNotMatch(request, new RegExp(STALE_MARK), 'the stale claim is not given');
    assert.ok(request.includes(NOTICE), `the one-line notice is given:\n${request.slice(0, 4000)}`);
    assert.match(request, new RegExp(KEPT_MARK));
  });
});
