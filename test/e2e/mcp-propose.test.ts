// `memory_propose` through the real `common-memory mcp` over stdio: a proposal becomes a draft
// candidate of the caller's repository whose source is the proposing conversation (the client and
// its conversation digest, never a file), shown so in `memory review`; secret lint quarantines a
// proposal with a blocking finding; the same proposal twice is one candidate; bad input is a
// structured error that creates nothing; with a host running, the proposal goes through its writer.
// `memory review`, a read, is called in-process (support/cli-in-process.ts); prepare, which takes
// the lease, is the bin.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../source/ground/digests.js';
import { MCP_PROPOSAL_MAX_BYTES } from '../../source/limits.js';
import { syncedRepo } from '../support/approved-repo.js';
import { runCli, startHost, stopHost } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { McpTestClient } from '../support/mcp-client.js';
import { plantedToken } from '../support/memory-corpus.js';

const PROPOSAL = {
  title: 'Run tests with node --test',
  content: 'The user said: run the tests with node --test, never with jest.',
  type: 'work_method',
  appliesWhen: 'running tests',
};

const CLAUDE = { name: 'claude-code', version: '2.1.332' };

async function review(home: string, repo: string) {
  const result = await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as { candidates: Array<Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Every file under the memory roots and the repository's git status: a proposal changes none of them. */
function files(home: string, repo: string): string {
  const list = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort().join('\n');
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: repo,
    encoding: 'utf8',
  });
  return `${list(join(repo, '.common-memory'))}\n${list(join(home, 'memory'))}\n${status}`;
}

describe('memory_propose', () => {
  it('makes a draft candidate sourced from the conversation; review shows who proposed it; no file changes', async () => {
    const { home, repo } = await syncedRepo('propose');
    const before = files(home, repo);
    const client = await McpTestClient.start(home, repo, {
      clientInfo: CLAUDE,
      env: { CLAUDE_CODE_SESSION_ID: 'session-1234' },
    });
    try {
      const proposed = await client.call('memory_propose', PROPOSAL);
      assert.equal(proposed.isError, undefined, JSON.stringify(proposed));
      const { candidateId, status, created, blockedBy } = proposed.structuredContent;
      assert.deepEqual([status, created, blockedBy], ['draft', true, []]);
      assert.match(candidateId, /^cand-[0-9a-f]{24}$/);

      const again = await client.call('memory_propose', PROPOSAL);
      assert.deepEqual(again.structuredContent, { candidateId, status: 'draft', created: false, blockedBy: [] });

      const listed = await review(home, repo);
      assert.equal(listed.candidates.length, 1);
      const [candidate] = listed.candidates;
      assert.equal(candidate!.candidateId, candidateId);
      assert.equal(candidate!.status, 'draft');
      // The review names the repository it will be promoted into (the TUI said "repository (unknown)").
      assert.deepEqual([candidate!.scope, candidate!.repository], ['project', basename(repo)]);
      assert.equal(candidate!.title, PROPOSAL.title);
      assert.equal(candidate!.content, PROPOSAL.content);
      assert.deepEqual(candidate!.origin, {
        kind: 'proposal',
        client: 'claude-code',
        clientVersion: '2.1.332',
        conversation: sha256Hex('claude-code\0session-1234'),
      });
      assert.equal(candidate!.statements.length, 1);
      assert.equal(candidate!.statements[0].claimSupport, 'unverified');
      assert.deepEqual(candidate!.statements[0].evidence, []);
      assert.doesNotMatch(JSON.stringify(listed), /session-1234/, 'the conversation id is kept only as a digest');

      const text = await runCliInProcess(['memory', 'review', '--home', home], { cwd: repo });
      // Wrapped to 80 columns: read as one text.
      assert.match(
        text.stdout.replace(/\s+/g, ' '),
        /proposed by claude-code 2\.1\.332 \(memory_propose\) in conversation [0-9a-f]{12}/,
      );
      assert.equal(files(home, repo), before, 'a proposal writes no memory file');

      // It is a candidate like any other: a person can prepare it, and the plan's entry carries its title.
      const plan = await runCli(['memory', 'prepare', candidateId, '--home', home, '--json'], { cwd: repo });
      assert.equal(plan.code, 0, plan.stderr);
      const planned = JSON.parse(plan.stdout) as { files: Array<{ path: string }>; diff: string };
      assert.deepEqual(
        planned.files.map((f) => f.path),
        ['work_method/run-tests-with-node-test.md'],
      );
      assert.match(planned.diff, /title: "Run tests with node --test"/);
    } finally {
      assert.equal(await client.close(), 0);
    }
  });

  it('a blocking secret quarantines the proposal; review shows it masked', async () => {
    const { home, repo } = await syncedRepo('propose-secret');
    const token = plantedToken();
    const client = await McpTestClient.start(home, repo);
    try {
      const proposed = await client.call('memory_propose', { ...PROPOSAL, content: `Deploy with token ${token}.` });
      assert.equal(proposed.structuredContent.status, 'quarantined');
      assert.deepEqual(proposed.structuredContent.blockedBy, ['github-token']);
      assert.doesNotMatch(JSON.stringify(proposed), new RegExp(token));
      const listed = await review(home, repo);
      const [candidate] = listed.candidates;
      assert.equal(candidate!.status, 'quarantined');
      assert.deepEqual(candidate!.origin, { kind: 'proposal', client: 'test', clientVersion: '0', conversation: null });
      assert.doesNotMatch(JSON.stringify(listed), new RegExp(token));
      assert.match(candidate!.content, /ghp_…/);
      const plan = await runCli(['memory', 'prepare', candidate!.candidateId, '--home', home], { cwd: repo });
      assert.notEqual(plan.code, 0, 'a quarantined proposal is never prepared');
    } finally {
      await client.close();
    }
  });

  it('bad input is a structured error and creates nothing', async () => {
    const { home, repo } = await syncedRepo('propose-bad');
    const client = await McpTestClient.start(home, repo);
    try {
      const cases: Array<[object, RegExp]> = [
        [{ ...PROPOSAL, file: 'work_method/x.md' }, /file/],
        [{ ...PROPOSAL, type: 'preference' }, /type/],
        [{ ...PROPOSAL, title: '' }, /title/],
        [{ title: PROPOSAL.title, type: PROPOSAL.type }, /content/],
        // Under the character cap, over the byte cap: 'é' is two bytes of UTF-8.
        [{ ...PROPOSAL, content: 'é'.repeat(MCP_PROPOSAL_MAX_BYTES / 2 + 1) }, /"content" is over 4096 bytes/],
        [{ ...PROPOSAL, content: 'x'.repeat(MCP_PROPOSAL_MAX_BYTES + 1) }, /content/],
        [{ ...PROPOSAL, title: 't'.repeat(513) }, /title/],
        [{ ...PROPOSAL, appliesWhen: 42 }, /appliesWhen/],
      ];
      for (const [args, message] of cases) {
        const result = await client.call('memory_propose', args);
        assert.equal(result.isError, true, JSON.stringify(args).slice(0, 100));
        assert.equal(result.structuredContent.error.code, 'invalid_input');
        assert.match(result.structuredContent.error.message, message);
        assert.match(result.structuredContent.error.message, /Nothing was read or changed/);
      }
      assert.deepEqual((await review(home, repo)).candidates, []);
    } finally {
      await client.close();
    }
  });

  it('with a host running, the proposal goes through its writer (no second lease)', async () => {
    const { home, repo } = await syncedRepo('propose-host');
    const host = await startHost(home);
    const client = await McpTestClient.start(home, repo);
    try {
      const proposed = await client.call('memory_propose', PROPOSAL);
      assert.equal(proposed.isError, undefined, `${JSON.stringify(proposed)}\n${client.stderr}`);
      assert.equal(proposed.structuredContent.status, 'draft');
      const listed = await review(home, repo);
      assert.deepEqual(
        listed.candidates.map((c) => c.candidateId),
        [proposed.structuredContent.candidateId],
      );
    } finally {
      await client.close();
      assert.equal(await stopHost(host.child), 0);
    }
  });
});

describe('memory_propose called in parallel', () => {
  it('several proposals at once from one server (no host) each become a candidate: the server takes the lease for one at a time', async () => {
    const { home, repo } = await syncedRepo('propose-parallel');
    const client = await McpTestClient.start(home, repo, { clientInfo: CLAUDE });
    try {
      const topics = ['pnpm for installs', 'node --test for tests', 'biome for formatting', 'esbuild for bundles'];
      // The server answers them one after another, so the last waits for the three before it:
      // its bound is four calls' (one call's bound is what a single proposal is allowed).
      const replies = await Promise.all(
        topics.map((topic) =>
          client.call(
            'memory_propose',
            { title: `Use ${topic}`, content: `Use ${topic} here.`, type: 'work_method' },
            topics.length * 15_000,
          ),
        ),
      );
      for (const reply of replies) assert.equal(reply.isError, undefined, JSON.stringify(reply));
      assert.equal(new Set(replies.map((reply) => reply.structuredContent.candidateId)).size, topics.length);
      assert.equal((await review(home, repo)).candidates.length, topics.length);
    } finally {
      await client.close();
    }
  });
});
