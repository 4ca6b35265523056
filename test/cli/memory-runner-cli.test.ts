// External runners: a profile of runners.json stops `memory extract` at its plan (exit 14) until the
// digest approves it; the approved run drafts candidates; status shows the runners and what was
// sent today; bad profiles, names, digests and budgets are one clear line with their exit code, and
// nothing is sent. One call of each command and one of each exit code (14, 2, 10, 15) go through
// the shipped bin; the others call the same main in this process (support/cli-in-process.ts), each
// spawn of the bin being 0.5–1.5 s of CPU.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import * as c from '../support/capture.js';
import { queueSession } from '../support/memory-corpus.js';
import { fakeRunnerProfile } from '../support/fake-runner-profile.js';

after(() => c.closeStores());

import { FAKE_RUNNER as FAKE } from '../support/fake-runner-profile.js';
const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function profiles(home: string, record: string, extra: Record<string, unknown> = {}) {
  writeFileSync(join(home, 'runners.json'), JSON.stringify({ profiles: [fakeRunnerProfile('good', record, extra)] }));
}

describe('memory extract --runner', () => {
  it('exit 14 with the plan until approved by digest; then candidates; status shows what was sent', async () => {
    const home = tempHome('runner-cli');
    const repo = gitRepo(home, 'repo');
    const record = join(home, 'record');
    queueSession(home, repo, ['From now on, use pnpm instead of npm in this repo.']);
    await c.flush(home);
    profiles(home, record);
    const args = ['memory', 'extract', '--runner', 'ext', '--home', home, '--since', '2026-01-01'];
    const text = await runCli(args, { cwd: repo });
    assert.equal(text.code, 14, text.stderr);
    assert.match(text.stdout, /The ext runner sends these bytes off this machine; nothing was sent yet\./);
    assert.match(text.stdout, /provider test-provider, model fake-model, endpoint http:\/\/127\.0\.0\.1:9\/v1/);
    assert.match(
      text.stdout,
      /^Approve exactly these bytes:\n {2}common-memory memory extract <same options> --approve-plan [0-9a-f]{64}$/m,
    );
    const planned = await runCliInProcess([...args, '--json'], { cwd: repo });
    assert.equal(planned.code, 14);
    const pending = json(planned.stdout).pendingPlan;
    assert.equal(existsSync(join(record, 'received.jsonl')), false, 'nothing was sent');

    const mismatch = await runCliInProcess([...args, '--approve-plan', 'f'.repeat(64)], { cwd: repo });
    assert.equal(mismatch.code, 14);
    // Wrapped to 80 columns: read as one text; the digest given on a line of its own.
    assert.match(
      mismatch.stdout.replace(/\s+/g, ' '),
      /does not match what the ext runner would send now; nothing was sent/,
    );
    assert.match(mismatch.stdout, new RegExp(`^ {2}you gave ${'f'.repeat(64)}$`, 'm'));

    const approved = await runCliInProcess([...args, '--json', '--approve-plan', pending.plans[0].planDigest], {
      cwd: repo,
    });
    assert.equal(approved.code, 14, 'the adjudication plan awaits its own approval');
    const report = json(approved.stdout);
    assert.equal(report.candidates.created, 1);
    assert.equal(report.pendingPlan.plans[0].taskKind, 'adjudication');

    const status = json((await runCli(['memory', 'status', '--home', home, '--json'])).stdout);
    const ext = status.runners.find((runner: { name: string }) => runner.name === 'ext');
    assert.equal(ext.sentToday, pending.plans[0].bytesToSend);
    assert.equal(status.spend.bytesSent, pending.plans[0].bytesToSend);
    const statusText = (await runCliInProcess(['memory', 'status', '--home', home])).stdout;
    // Wrapped to 80 columns: read as one text.
    assert.match(
      statusText.replace(/\s+/g, ' '),
      /runner ext: test-provider fake-model at http:\/\/127\.0\.0\.1:9\/v1; sent today \d+ of 1048576 bytes/,
    );
  });

  it('bad input: a shell string, an unknown runner, a malformed digest, a budget — one line, its exit code, nothing sent', async () => {
    const home = tempHome('runner-cli-bad');
    const repo = gitRepo(home, 'repo');
    const record = join(home, 'record');
    queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    await c.flush(home);
    const args = ['memory', 'extract', '--home', home, '--since', '2026-01-01'];
    writeFileSync(
      join(home, 'runners.json'),
      JSON.stringify({
        profiles: [{ name: 'ext', kind: 'command', argv: 'node x.js | sh', provider: 'p', model: 'm', endpoint: 'e' }],
      }),
    );
    const shell = await runCli([...args, '--runner', 'ext'], { cwd: repo });
    assert.equal(shell.code, 2);
    assert.match(
      shell.stderr,
      /Runner profile "ext": argv is a shell string; give the program and its arguments as a list of words/,
    );
    profiles(home, record);
    const unknown = await runCliInProcess([...args, '--runner', 'nope'], { cwd: repo });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /No runner named "nope"; available: builtin, ext/);
    const malformed = await runCliInProcess([...args, '--runner', 'ext', '--approve-plan', 'abc'], { cwd: repo });
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /--approve-plan takes the 64-hex-digit digest that the plan printed/);
    profiles(home, record, { budget: { runBytes: 10, dayBytes: 100 } });
    const budget = await runCli([...args, '--runner', 'ext'], { cwd: repo });
    assert.equal(budget.code, 10);
    assert.match(budget.stderr, /over its run budget of 10; nothing was sent/);
    assert.equal(existsSync(join(record, 'received.jsonl')), false, 'nothing was sent');
    // A permissive runner fails the conformance probe by what it did, before any of the user's bytes.
    profiles(home, record, { argv: [process.execPath, FAKE, 'permissive', record] });
    const permissive = await runCli([...args, '--runner', 'ext'], { cwd: repo });
    assert.equal(permissive.code, 15);
    assert.match(
      permissive.stderr,
      /The ext runner failed its conformance probe \(conformance-probe@1\) at "shell": it ran a command/,
    );
    assert.match(
      permissive.stderr,
      /Nothing of yours was sent; restrict the profile .*memory reverify-runner --runner ext/,
    );
    // A runner that cannot start did nothing to restrict: the fix is its argv.
    profiles(home, record, { argv: [join(home, 'no-such-runner')] });
    const missing = await runCliInProcess([...args, '--runner', 'ext'], { cwd: repo });
    assert.equal(missing.code, 15);
    assert.match(missing.stderr, /at "runner": runner-spawn-failed: cannot start .*no-such-runner/);
    assert.doesNotMatch(missing.stderr, /restrict/);
    assert.match(
      missing.stderr,
      /Nothing of yours was sent; make the profile's argv in runners\.json run .*memory reverify-runner --runner ext/,
    );
    const again = await runCli(['memory', 'reverify-runner', '--runner', 'ext', '--home', home]);
    assert.equal(again.code, 15);
    profiles(home, record);
    const reverified = await runCliInProcess([
      'memory',
      'reverify-runner',
      '--runner',
      'ext',
      '--home',
      home,
      '--json',
    ]);
    assert.equal(reverified.code, 0, reverified.stderr);
    assert.deepEqual(JSON.parse(reverified.stdout), {
      runner: 'ext',
      passed: true,
      cached: false,
      probeVersion: 'conformance-probe@1',
    });
    assert.equal(existsSync(join(record, 'received.jsonl')), false, 'nothing was sent');
    // A broken runners.json never stops the builtin runner.
    writeFileSync(join(home, 'runners.json'), '{broken');
    assert.equal((await runCliInProcess(args, { cwd: repo })).code, 0);
  });

  it('a codex or claude client missing or of another version: exit 15 naming the fix, nothing sent', async () => {
    const home = tempHome('runner-cli-client');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    await c.flush(home);
    const args = ['memory', 'extract', '--home', home, '--since', '2026-01-01'];
    // A stand-in client that only says its version (and records that anything else was asked of it).
    const called = join(home, 'client-called');
    const fake = join(home, 'old-codex');
    writeFileSync(fake, `#!/bin/sh\n[ "$1" = --version ] && echo "codex-cli 0.170.0" && exit 0\ntouch '${called}'\n`);
    chmodSync(fake, 0o755);
    const client = (kind: string, binary: string) =>
      writeFileSync(
        join(home, 'runners.json'),
        JSON.stringify({
          profiles: [
            {
              name: 'cx',
              kind,
              binary,
              version: kind === 'codex' ? '0.171.0' : '2.1.332',
              apiKeyEnv: 'EXAMPLE_KEY',
              provider: 'p',
              model: 'm',
              endpoint: 'http://127.0.0.1:9/v1',
            },
          ],
        }),
      );
    client('codex', join(home, 'no-such-codex'));
    const missing = await runCliInProcess([...args, '--runner', 'cx'], { cwd: repo });
    assert.equal(missing.code, 15, missing.stderr);
    assert.match(
      missing.stderr,
      /The cx runner's client .*no-such-codex cannot be run \(ENOENT\); install @openai\/codex@0\.171\.0 or fix "binary"/,
    );
    client('codex', fake);
    const other = await runCliInProcess([...args, '--runner', 'cx', '--json'], { cwd: repo });
    assert.equal(other.code, 15, other.stderr);
    assert.match(other.stderr, /The cx runner's client is version 0\.170\.0, not 0\.171\.0 as its profile says/);
    client('claude', fake);
    const claude = await runCliInProcess(['memory', 'reverify-runner', '--runner', 'cx', '--home', home]);
    assert.equal(claude.code, 15, claude.stderr);
    assert.match(claude.stderr, /is version 0\.170\.0, not 2\.1\.332/);
    assert.equal(existsSync(called), false, 'the client was never run beyond --version');
    // Neither a key variable nor the login: the profile is refused before anything runs.
    writeFileSync(
      join(home, 'runners.json'),
      JSON.stringify({
        profiles: [
          { name: 'cx', kind: 'claude', binary: fake, version: '2.1.332', provider: 'p', model: 'm', endpoint: 'e' },
        ],
      }),
    );
    const keyless = await runCliInProcess([...args, '--runner', 'cx'], { cwd: repo });
    assert.equal(keyless.code, 2, keyless.stderr);
    assert.match(
      keyless.stderr,
      /Runner profile "cx": apiKeyEnv \(the variable holding the key\) or "login": true is needed/,
    );
  });
});
