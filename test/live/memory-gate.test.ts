// The human gate end to end, live. Real Claude Code 2.1.332 and real Codex 0.171.0 sessions in a
// temp git repository are captured through the installed hooks; the shipped TUI at 80×24 in tmux,
// by keyboard alone, shows the candidates its host extracted from them, prepares one, shows the
// diff, approves it with `a` and writes it; the Markdown file is in the repository. Then a new
// Claude Code session and a new Codex session in that repository get the entry at SessionStart (the
// fake model server's recorded request holds its text), and a Codex session in another repository
// does not. Then a Claude Code session that runs `memory refresh` after a second promotion gets the
// new selection with its next request, once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { byPrompt as messagesByPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { byPrompt as responsesByPrompt, startFakeResponsesServer } from '../support/fake-responses-server.js';
import { BIN, tempHome } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { createClaudeSandbox, createCodexSandbox, runClaude, runCodex, shellQuote } from './harness.js';
import { startTmux } from './tmux.js';

const home = tempHome('live-gate');
const hook = (client: 'codex' | 'claude') =>
  `${shellQuote(process.execPath)} ${shellQuote(BIN)} hook ${client} --home ${shellQuote(home)}`;
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** What the user says in the captured sessions: explicit durable statements the builtin runner drafts. */
const SAID = {
  claude: 'Always use named exports in TypeScript modules of this repository.',
  codex: 'From now on, use pnpm instead of npm in this repo.',
};

const posted = (requests: ReadonlyArray<{ method: string; path: string; body: unknown }>, path: string) =>
  requests.filter((r) => r.method === 'POST' && r.body !== null && r.path.startsWith(path));

it('captured sessions → TUI review, prepare, diff, approve with a key → the file → the next sessions get it', {
  timeout: 600_000,
}, async () => {
  const anthropic = await startFakeAnthropicServer({ script: messagesByPrompt([], { type: 'text', text: 'ok' }) });
  cleanups.push(() => anthropic.close());
  const responses = await startFakeResponsesServer({ script: responsesByPrompt([], { type: 'text', text: 'ok' }) });
  cleanups.push(() => responses.close());
  const claude = await createClaudeSandbox({ baseUrl: anthropic.baseUrl, hookCommand: hook('claude') });
  cleanups.push(() => claude.cleanup());
  const codex = await createCodexSandbox({ baseUrl: responses.baseUrl, hookCommand: hook('codex') });
  cleanups.push(() => codex.cleanup());
  // Repository A is Claude's project directory; Codex runs there too. B is Codex's own directory.
  const repoA = claude.cwd;
  const repoB = codex.cwd;
  for (const repo of [repoA, repoB]) execFileSync('git', ['init', '-q'], { cwd: repo });
  const codexInA = { ...codex, cwd: repoA };

  // 1. Real sessions, captured by the hooks.
  const said = await runClaude(claude, { prompt: SAID.claude });
  assert.equal(said.exitCode, 0, said.stderr);
  const saidCodex = await runCodex(codexInA, { prompt: SAID.codex });
  assert.equal(saidCodex.exitCode, 0, saidCodex.stderr);

  // 2. The TUI alone: its host drains the hooks' inbox and extracts (builtin runner) by itself.
  const dir = mkdtempSync(join(tmpdir(), 'cm-gate-tmux-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const term = startTmux({
    dir,
    cwd: repoA,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: claude.home,
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
    },
    command: [process.execPath, BIN, '--home', home],
    columns: 80,
    rows: 24,
  });
  cleanups.push(() => term.close());
  await term.waitFor('the first frame', (s) => s.includes('Dashboard'), 60_000);
  term.press('7');
  await term.waitFor('the Memory screen', (s) => /\[Review\]/.test(s), 30_000);
  // Extraction runs on the host's runners thread: r reads the queue again until both are there.
  let tries = 0;
  await term.waitFor(
    'both captured statements as draft candidates',
    (s) => {
      if (/named exports/.test(s) && /pnpm/.test(s)) return true;
      if (++tries % 20 === 0) term.press('r');
      return false;
    },
    120_000,
  );
  // Select the named-exports candidate (the selected row starts with ›).
  for (let i = 0; i < 6; i++) {
    const selected =
      term
        .screen()
        .split('\n')
        .find((line) => line.startsWith('›')) ?? '';
    if (/named exports/.test(selected)) break;
    term.press('Down');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  assert.match(
    term
      .screen()
      .split('\n')
      .find((line) => line.startsWith('›')) ?? '',
    /named exports/,
  );
  term.press('p');
  await term.waitFor('Prepare & promote with the chosen candidate', (s) => /\[Prepare & promote\]/.test(s));
  term.press('Enter');
  const plan = await term.waitFor('the plan and its diff', (s) => /^\+.*named exports/m.test(s), 30_000);
  assert.match(plan, /new file/);
  assert.match(plan, /not approved/);
  assert.deepEqual(markdownFiles(repoA), [], 'nothing written before approval');
  term.press('a');
  const result = await term.waitFor('the promotion result', (s) => /Promoted: plan \S+ applied/.test(s), 60_000);
  assert.match(result, /Approved memory: 1 entry · generation \d+ · coverage complete/);
  term.press('q');
  await term.waitFor('the TUI to quit', () => !term.alive(), 30_000).catch(() => term.press('y'));

  // 3. The file is in the repository, for the user to commit.
  const files = markdownFiles(repoA);
  assert.equal(files.length, 1, `one entry file: ${files.join(', ')}`);
  const text = readFileSync(join(projectRoot(repoA), files[0]!), 'utf8');
  assert.match(text, /named exports/);
  assert.match(execFileSync('git', ['status', '--porcelain'], { cwd: repoA, encoding: 'utf8' }), /\.common-memory/);

  // 4. New sessions in A get it at SessionStart; a session in B does not.
  let before = anthropic.requests.length;
  const nextClaude = await runClaude(claude, { prompt: 'What should I keep in mind here?' });
  assert.equal(nextClaude.exitCode, 0, nextClaude.stderr);
  const claudeFirst = JSON.stringify(posted(anthropic.requests.slice(before), '/v1/messages')[0]?.body ?? null);
  assert.match(claudeFirst, /common-memory-notes/);
  assert.match(claudeFirst, /named exports/);
  before = responses.requests.length;
  const nextCodex = await runCodex(codexInA, { prompt: 'What should I keep in mind here?' });
  assert.equal(nextCodex.exitCode, 0, nextCodex.stderr);
  const codexFirst = JSON.stringify(posted(responses.requests.slice(before), '/')[0]?.body ?? null);
  assert.match(codexFirst, /named exports/);
  before = responses.requests.length;
  const elsewhere = await runCodex(codex, { prompt: 'What should I keep in mind here?' });
  assert.equal(elsewhere.exitCode, 0, elsewhere.stderr);
  const otherFirst = JSON.stringify(posted(responses.requests.slice(before), '/')[0]?.body ?? null);
  assert.notEqual(otherFirst, 'null', 'the session in B asked the model');
  assert.doesNotMatch(otherFirst, /named exports/);

  // 5. Refresh, live, in one Claude Code process (a new process reads memory at its start anyway):
  // after its SessionStart a second entry is approved (a hand-written file, synced: the same
  // projection a promotion ends with) and `memory refresh` runs in its shell tool; the request after
  // that tool result carries the new selection, and the request after the next tool call adds
  // nothing more.
  const MARK = 'quokka-refresh-rule';
  const staged = mkdtempSync(join(tmpdir(), 'cm-gate-staged-'));
  cleanups.push(() => rmSync(staged, { recursive: true, force: true }));
  writeEntry(staged, 'refresh-rule', `Follow ${MARK}`, `The rule is ${MARK}.`, { priority: 95 });
  const cm = `${shellQuote(process.execPath)} ${shellQuote(BIN)}`;
  const approveAndRefresh = [
    `mkdir -p ${shellQuote(join(projectRoot(repoA), 'work_method'))}`,
    `cp ${shellQuote(join(staged, 'work_method', 'refresh-rule.md'))} ${shellQuote(join(projectRoot(repoA), 'work_method'))}/`,
    `${cm} memory sync --home ${shellQuote(home)} >/dev/null`,
    `${cm} memory refresh --home ${shellQuote(home)}`,
  ].join(' && ');
  const refreshServer = await startFakeAnthropicServer({
    script: messagesByPrompt(
      [
        {
          match: 'USE_BASH',
          reply: {
            type: 'tool',
            name: 'Bash',
            input: { command: approveAndRefresh, description: 'approve and refresh' },
            then: { type: 'bash', command: 'echo again', then: 'Done.' },
          },
        },
      ],
      { type: 'text', text: 'ok' },
    ),
  });
  cleanups.push(() => refreshServer.close());
  const refreshing = await createClaudeSandbox({ baseUrl: refreshServer.baseUrl, hookCommand: hook('claude') });
  cleanups.push(() => refreshing.cleanup());
  const run = await runClaude(
    { ...refreshing, cwd: repoA },
    { prompt: 'USE_BASH approve the rule and refresh', allowedTools: ['Bash'] },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  const bodies = posted(refreshServer.requests, '/v1/messages')
    .map((r) => JSON.stringify(r.body))
    .filter((body) => body.includes('USE_BASH'));
  const count = (body: string) => body.split(MARK).length - 1;
  assert.ok(bodies.length >= 3, `the prompt, the refresh's result, the echo's result: ${bodies.length} requests`);
  assert.equal(count(bodies[0]!), 0, 'not at SessionStart: the rule did not exist yet');
  assert.match(bodies[0]!, /named exports/, 'the session started with the first entry');
  const delivered = count(bodies[1]!);
  const lastMessages = (body: string) =>
    JSON.stringify((JSON.parse(body) as { messages?: unknown[] }).messages?.slice(-2) ?? null).slice(0, 4000);
  assert.ok(delivered > 0, `the request after the refresh carries the new selection: ${lastMessages(bodies[1]!)}`);
  assert.equal(count(bodies.at(-1)!), delivered, 'later requests carry it no second time');
});

function markdownFiles(repo: string): string[] {
  const root = projectRoot(repo);
  try {
    return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.md'));
  } catch {
    return [];
  }
}
