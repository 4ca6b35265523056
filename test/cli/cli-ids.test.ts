// IDs as people type them, through the shipped bin: the short IDs the TUI shows (a candidate's or a
// plan's kind and eight hex digits) stand for the whole ID wherever a unique start of one would;
// an ID that names nothing is "not found" (exit 6) for every lookup, and the error says how long a
// start of an ID must be. The writes go through the bin; the lookups that only read (message,
// operation, session, memory review and plan) call the CLI in-process (support/cli-in-process.ts).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { idLabel } from '../../source/screens/memory/wrap-lines.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('IDs as typed', { timeout: 240_000 }, () => {
  it('message and operation IDs that name nothing are not found (exit 6), saying a start needs 4 characters', async () => {
    const home = tempHome('ids');
    assert.equal((await runCli(['note', 'one', '--operation-id', 'first-op', '--home', home])).code, 0);
    for (const args of [
      ['message', 'nope'],
      ['message', 'abc'],
      ['operation', 'nope'],
      ['operation', 'fir'],
    ]) {
      const result = await runCliInProcess([...args, '--home', home]);
      assert.equal(result.code, 6, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /4 characters or more/, args.join(' '));
      assert.equal(result.stderr.trim().split('\n').length, 1);
    }
    const session = await runCliInProcess(['session', 'abc', '--home', home]);
    assert.equal(session.code, 6);
    assert.match(session.stderr, /4 characters or more/);
  });

  it('the short candidate and plan IDs the TUI shows work in review, confirm, discard, prepare, approve and promote', async () => {
    const home = tempHome('short-ids');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, [
      'Always use named exports in TypeScript modules.',
      'From now on, use pnpm instead of npm in this repo.',
    ]);
    await c.flush(home);
    const cli = (...args: string[]) => runCli([...args, '--home', home, '--json'], { cwd: repo });
    const read = (...args: string[]) => runCliInProcess([...args, '--home', home, '--json'], { cwd: repo });
    assert.equal((await cli('memory', 'extract')).code, 0);
    const candidates = json((await read('memory', 'review')).stdout).candidates as Array<{
      candidateId: string;
      content: string;
      statements: Array<{ statementId: string }>;
    }>;
    const keep = candidates.find((cand) => cand.content.includes('named exports'))!;
    const drop = candidates.find((cand) => cand.content.includes('pnpm'))!;
    const short = idLabel(keep.candidateId);
    assert.match(short, /^cand-[0-9a-f]{8}$/, 'what the TUI shows');
    assert.notEqual(short, keep.candidateId);

    const confirm = await cli('memory', 'confirm', short, keep.statements[0]!.statementId);
    assert.equal(confirm.code, 0, confirm.stderr);
    assert.equal(json(confirm.stdout).candidateId, keep.candidateId);
    const discard = await cli('memory', 'discard', idLabel(drop.candidateId));
    assert.equal(discard.code, 0, discard.stderr);
    const prepared = await cli('memory', 'prepare', short);
    assert.equal(prepared.code, 0, prepared.stderr);
    const plan = json(prepared.stdout);
    const planShort = idLabel(plan.planId);
    assert.match(planShort, /^plan-[0-9a-f]{8}$/);
    assert.equal(json((await read('memory', 'plan', planShort)).stdout).planId, plan.planId);
    assert.equal((await cli('memory', 'approve', planShort, '--digest', plan.planDigest)).code, 0);
    const promoted = await cli('memory', 'promote', planShort);
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.ok(existsSync(join(repo, '.common-memory', 'memory', plan.files[0].path)));

    const unknown = await cli('memory', 'discard', 'cand-00000000');
    assert.equal(unknown.code, 6);
    assert.match(json(unknown.stderr).error.message, /4 characters or more/);
  });
});
