// Disguised secrets through the real entry points: a token proposed over MCP (`memory_propose`)
// wrapped over two lines, with a zero-width space or a soft hyphen inside, in full-width letters,
// with one character as an HTML entity or a URL escape, or as base64 of its KEY=value line, is
// quarantined at propose; `memory prepare` refuses it (exit 11) and writes nothing; neither the
// review, the refusal, `memory search` nor the SessionStart snapshot ever carries it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { syncedRepo } from '../support/approved-repo.js';
import * as c from '../support/capture.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli } from '../support/cli.js';
import { McpTestClient } from '../support/mcp-client.js';
import { projectRoot } from '../support/memory-files.js';
import { expandTemplate } from '../support/secret-corpus.js';

after(() => c.closeStores());

const githubToken = (seed: string) => expandTemplate(seed, '{{cat:gh:p_}}{{rand:base62:36}}');
const fullWidth = (text: string) =>
  [...text].map((ch) => (ch >= '!' && ch <= '~' ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch)).join('');

/** Each disguise of a token, as a note would carry it. */
const DISGUISES: Array<{ name: string; token: string; text: (token: string) => string }> = [
  {
    name: 'wrapped over two lines',
    token: githubToken('gate-wrap'),
    text: (t) => `Deploy with GITHUB_TOKEN=${t.slice(0, 20)}\n    ${t.slice(20)}\nthen tag the release.`,
  },
  {
    name: 'a zero-width space inside',
    token: githubToken('gate-zw'),
    text: (t) => `Deploy with ${t.slice(0, 12)}\u200b${t.slice(12)} as the token.`,
  },
  {
    name: 'a soft hyphen inside',
    token: githubToken('gate-shy'),
    text: (t) => `Deploy with ${t.slice(0, 18)}\u00ad${t.slice(18)} as the token.`,
  },
  { name: 'full-width letters', token: githubToken('gate-fw'), text: (t) => `The CI token is ${fullWidth(t)}.` },
  {
    name: 'one character as an HTML entity',
    token: githubToken('gate-entity'),
    text: (t) => `<p>token: ${t.slice(0, 15)}&#${t.charCodeAt(15)};${t.slice(16)}</p>`,
  },
  {
    name: 'one character as a URL escape',
    token: githubToken('gate-url'),
    text: (t) =>
      `Callback https://example.test/cb?t=${t.slice(0, 20)}%${t.charCodeAt(20).toString(16).toUpperCase()}${t.slice(21)}&x=1`,
  },
  {
    name: 'base64 of its KEY=value line',
    token: githubToken('gate-b64'),
    text: (t) => `apiVersion: v1\nkind: Secret\ndata:\n  env: ${Buffer.from(`GITHUB_TOKEN=${t}`).toString('base64')}\n`,
  },
];

/** Every file under the project memory root with its bytes. */
function rootFiles(repo: string): Record<string, string> {
  const root = projectRoot(repo);
  const out: Record<string, string> = {};
  for (const path of readdirSync(root, { recursive: true }).map(String).sort()) {
    try {
      out[path] = readFileSync(join(root, path), 'utf8');
    } catch {
      out[path] = '<dir>';
    }
  }
  return out;
}

/** Whether `text` carries the token or 10 characters of its body in a row. */
const carries = (text: string, token: string) => text.includes(token) || text.includes(token.slice(4, 14));

describe('disguised secrets at the gate', () => {
  it('memory_propose quarantines each disguise; prepare refuses it with exit 11; nothing reaches a file, search or the snapshot', async () => {
    const { home, repo } = await syncedRepo('secret-gate');
    const before = rootFiles(repo);
    const client = await McpTestClient.start(home, repo);
    const proposed: Array<{ name: string; token: string; candidateId: string }> = [];
    try {
      for (const disguise of DISGUISES) {
        const result = await client.call('memory_propose', {
          title: `Release (${disguise.name})`,
          content: disguise.text(disguise.token),
          type: 'work_fact',
          appliesWhen: 'releasing',
        });
        assert.equal(result.isError, undefined, JSON.stringify(result));
        const { candidateId, status, blockedBy } = result.structuredContent;
        assert.equal(status, 'quarantined', `${disguise.name}: ${JSON.stringify(result.structuredContent)}`);
        assert.ok(blockedBy.includes('github-token'), `${disguise.name}: ${JSON.stringify(blockedBy)}`);
        assert.equal(carries(JSON.stringify(result), disguise.token), false, disguise.name);
        proposed.push({ name: disguise.name, token: disguise.token, candidateId });
      }
    } finally {
      assert.equal(await client.close(), 0);
    }

    const review = await runCli(['memory', 'review', '--home', home, '--json'], { cwd: repo });
    const reviewText = await runCliInProcess(['memory', 'review', '--home', home], { cwd: repo });
    const reviewed = JSON.parse(review.stdout).candidates as Array<{
      candidateId: string;
      findings: Array<{ rule: string; transform?: string }>;
    }>;
    // The first refusal through the shipped bin (its exit code is the process's); the others through
    // the same main in this process, which opens its own local host as the bin does: what is tested
    // is the gate's refusal of each disguise, and a spawn is about 0.5 s of CPU.
    let first = true;
    for (const { name, token, candidateId } of proposed) {
      // The excerpt is the decoded token's start ("ghp_…"), which the text as shown does not hold
      // (base64, full-width, an escape): the finding says through what it was seen.
      const finding = reviewed
        .find((candidate) => candidate.candidateId === candidateId)
        ?.findings.find((f) => f.rule === 'github-token');
      assert.ok(finding?.transform, `${name}: ${JSON.stringify(finding)}`);
      assert.ok(
        reviewText.stdout.includes(`block github-token (through ${finding.transform})`),
        `${name}: the review text names ${finding.transform}`,
      );
      assert.equal(carries(review.stdout, token), false, `review --json shows ${name} masked`);
      assert.equal(carries(reviewText.stdout, token), false, `review shows ${name} masked`);
      const args = ['memory', 'prepare', candidateId, '--home', home];
      const prepare = await (first ? runCli : runCliInProcess)(args, { cwd: repo });
      first = false;
      assert.equal(prepare.code, 11, `${name}: ${prepare.stdout}${prepare.stderr}`);
      // The refusal names the finding's rule and position (masked), as exit 11 promises.
      assert.match(prepare.stderr, /quarantined: github-token at content \d+:\d+ \(.+\): a secret/, name);
      assert.equal(carries(prepare.stdout + prepare.stderr, token), false, name);
    }
    assert.deepEqual(rootFiles(repo), before, 'no memory file was written');

    const search = await runCliInProcess(['memory', 'search', 'release', 'token', '--home', home, '--json'], {
      cwd: repo,
    });
    const run = await c.hookBin(
      home,
      'codex',
      c.payloadFor(c.hookFiles('codex', 'b')[0]!, null, { cwd: repo, session_id: 'disguise', source: 'startup' }),
      'disguise',
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /use-pnpm/, 'the snapshot was given (with the approved entry only)');
    for (const { name, token } of proposed) {
      assert.equal(carries(search.stdout, token), false, `search never finds ${name}`);
      assert.equal(carries(run.stdout, token), false, `the snapshot never carries ${name}`);
    }
  });
});
