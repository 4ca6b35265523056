// Live, the whole loop through pi: the real pi 0.73.1 with the extension installed by
// `common-memory install pi`, against the fake model server. What the user told pi in one session
// is captured, extracted, reviewed, confirmed, prepared, approved and promoted into the repository;
// the next pi session's first request carries the promoted entry in its system prompt.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { textReply } from '../support/fake-openai-server.js';
import { withInstalledPi } from '../support/installed-pi.js';
import { runCli } from '../support/cli.js';
import { runPrint, systemPrompt } from '../support/pi-scenario.js';

const TIMEOUT_MS = 120_000;
// biome-ignore lint/suspicious/noExplicitAny: JSON answers of the CLI
const json = (text: string) => JSON.parse(text) as Record<string, any>;

test('live pi: an entry promoted from a pi session is in the system prompt of the next session’s first request', {
  timeout: TIMEOUT_MS,
}, async () => {
  const replies = [textReply('Noted, pnpm from now on.', 2), textReply('pnpm', 1)];
  await withInstalledPi(replies, TIMEOUT_MS, async ({ dir, home, env, server }) => {
    const repo = join(dir.cwd, 'repo');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const cli = async (...args: string[]) => {
      const result = await runCli([...args, '--home', home, '--json'], { cwd: repo });
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      return json(result.stdout);
    };
    const args = ['--no-session', '--no-tools'];
    const said = 'From now on, use pnpm instead of npm in this repo.';
    assert.equal((await runPrint(args, [said], { env, cwd: repo })).code, 0);
    const first = server.requests.filter((r) => r.method === 'POST');
    assert.equal(first.length, 1);
    assert.doesNotMatch(systemPrompt(first[0]!.body), /pnpm/, 'nothing approved yet');

    await cli('session-drain');
    const extracted = await cli('memory', 'extract');
    assert.equal(extracted['turns'], 1, JSON.stringify(extracted));
    const candidates = (await cli('memory', 'review'))['candidates'] as MemoryReviewCandidate[];
    const candidate = candidates.find((c) => c.content.includes('pnpm'));
    assert.ok(candidate, JSON.stringify(candidates));
    await cli('memory', 'confirm', candidate.candidateId, candidate.statements[0]!.statementId);
    const plan = await cli('memory', 'prepare', candidate.candidateId);
    await cli('memory', 'approve', plan['planId'], '--digest', plan['planDigest']);
    const promoted = await cli('memory', 'promote', plan['planId']);
    assert.equal(promoted['status'], 'applied', JSON.stringify(promoted));

    const before = server.requests.length;
    assert.equal((await runPrint(args, ['which package manager?'], { env, cwd: repo })).code, 0);
    const next = server.requests.slice(before).filter((r) => r.method === 'POST');
    assert.equal(next.length, 1);
    const prompt = systemPrompt(next[0]!.body);
    assert.match(prompt, /<common-memory-notes>/);
    assert.match(prompt, /Use pnpm instead of npm in this repo/);
    assert.match(prompt, new RegExp(promoted['files'][0]['entryId']));
  });
});
