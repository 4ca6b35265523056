// Runner input is linted before its plan is shown: through the shipped bin, a session in which the
// user typed two tokens is planned for a `command` runner that records its stdin. The plan (text
// and --json) lists each finding with its rule, turn and masked excerpt and says how many were
// replaced; the approved bytes carry `[secret:<rule>]` instead, so the token never reaches the
// runner; the runner's citation of the user's turn still works (the evidence ids are unchanged).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { plantedToken, queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const FAKE = new URL('../support/fake-command-runner.mjs', import.meta.url).pathname;

/** An AWS access key id in its documented shape: AKIA and 16 of A–Z, 2–7. */
const awsKeyId = () =>
  `AKIA${[...randomBytes(16)].map((byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[byte % 32]).join('')}`;

/** A piece of 8 characters of a secret, if `shown` holds one. */
function leaked(shown: string, secrets: readonly string[]): string | null {
  for (const secret of secrets)
    for (let i = 0; i + 8 <= secret.length; i++)
      if (shown.includes(secret.slice(i, i + 8))) return secret.slice(i, i + 8);
  return null;
}

describe('runner input lint', () => {
  it('the plan lists the findings masked, the approved bytes hold placeholders, the runner never gets the token', async () => {
    const home = tempHome('runner-secrets');
    const repo = gitRepo(home, 'repo');
    const record = join(home, 'record');
    const github = plantedToken();
    const aws = awsKeyId();
    const session = queueSession(home, repo, [
      'From now on, use pnpm instead of npm in this repo.',
      `The deploy uses ${github} and the key id ${aws} 🙂 for the bucket.`,
    ]);
    await c.flush(home);
    writeFileSync(
      join(home, 'runners.json'),
      JSON.stringify({
        profiles: [
          {
            name: 'ext',
            kind: 'command',
            argv: [process.execPath, FAKE, 'good', record],
            provider: 'test-provider',
            model: 'fake-model',
            endpoint: 'http://127.0.0.1:9/v1',
          },
        ],
      }),
    );
    const args = ['memory', 'extract', '--runner', 'ext', '--home', home, '--since', '2026-01-01'];

    const text = await runCli(args, { cwd: repo });
    assert.equal(text.code, 14, text.stderr);
    assert.equal(leaked(text.stdout + text.stderr, [github, aws]), null, text.stdout);
    // Wrapped to 80 columns: read as one text.
    const shown = text.stdout.replace(/\s+/g, ' ');
    assert.match(
      shown,
      /secret lint: 2 finding\(s\); 2 blocked secret\(s\) replaced by \[secret:<rule>\] before the digest/,
    );
    const secondTurn = session.turnKeys[1]!;
    // The position counts in the turn's text as the runner reads it (its marker and context lines included).
    assert.ok(
      new RegExp(
        `block github-token in turn ${secondTurn} \\d+:17 — ghp_…\\[40 chars\\] → \\[secret:github-token\\]`,
      ).test(shown),
      text.stdout,
    );
    assert.match(
      shown,
      /block aws-access-key-id in turn \S+ \d+:73 — AKIA…\[20 chars\] → \[secret:aws-access-key-id\]/,
    );

    const planned = await runCli([...args, '--json'], { cwd: repo });
    assert.equal(planned.code, 14);
    assert.equal(leaked(planned.stdout, [github, aws]), null);
    const plan = JSON.parse(planned.stdout).pendingPlan.plans[0];
    assert.equal(plan.secretsReplaced, 2);
    assert.deepEqual(
      plan.inputFindings.map((f: Record<string, unknown>) => [f.rule, f.severity, f.source, f.turn, f.replaced]),
      [
        ['github-token', 'block', 'transcript', secondTurn, true],
        ['aws-access-key-id', 'block', 'transcript', secondTurn, true],
      ],
    );
    assert.equal(existsSync(join(record, 'received.jsonl')), false, 'nothing was sent before the approval');

    const approved = await runCli([...args, '--json', '--approve-plan', plan.planDigest], { cwd: repo });
    assert.equal(approved.code, 14, `${approved.stderr} (the adjudication waits for its own approval)`);
    const report = JSON.parse(approved.stdout);
    assert.equal(report.candidates.created, 1, 'the runner cited the first turn: the evidence ids still hold');
    assert.deepEqual(report.failures, []);

    const received = readFileSync(join(record, 'received.jsonl'), 'utf8');
    assert.equal(leaked(received, [github, aws]), null, 'the runner never received the tokens');
    const sent = JSON.parse(JSON.parse(received.trim().split('\n')[0]!).text);
    assert.match(
      sent.chunk.transcript,
      /The deploy uses \[secret:github-token\] and the key id \[secret:aws-access-key-id\] 🙂/,
    );
    assert.equal(JSON.parse(received.trim().split('\n')[0]!).bytes, plan.bytesToSend, 'exactly the approved bytes');
  });
});
