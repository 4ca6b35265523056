// Approved work methods as skills the real clients load: `memory assemble --skills` writes a
// project's approved method into .claude/skills (Claude Code 2.1.332) and .agents/skills (Codex
// 0.171.0) of a real git repository, beside a skill the user wrote; the real client then lists it
// (Claude Code's stream-json init `skills`, Codex's `## Skills` list) and its first model request,
// as the fake server records it, carries the skill's description. After the entry is retired, the
// next assemble removes the skill and the client no longer lists it; the user's skill stays, byte
// for byte. Claude Code also gets a user-scope method from its config dir's skills folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../support/cli.js';
import { byPrompt as messagesByPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { byPrompt as responsesByPrompt, startFakeResponsesServer } from '../support/fake-responses-server.js';
import { projectRoot, userRoot, writeEntry } from '../support/memory-files.js';
import { createClaudeSandbox, runClaude } from './claude.js';
import { createCodexSandbox, runCodex } from './codex.js';
import { FAKE_TEXT_ANSWER } from './scenarios.js';

const TITLE = 'Run the release checklist';
const APPLIES = 'cutting a release of this repository';
const NAME = 'run-the-release-checklist';
const DESCRIPTION = `${TITLE}. Use when ${APPLIES}.`;
const USER_SKILL = '---\nname: my-notes\ndescription: My own notes, written by hand.\n---\nKeep these.\n';

/** The repository: one approved method, one fact (not a skill), and a skill the user wrote. */
function repository(cwd: string, userSkills: string): void {
  execFileSync('git', ['init', '-q'], { cwd });
  writeEntry(projectRoot(cwd), 'm-release', TITLE, 'Tag the commit, then run npm publish.', { appliesWhen: APPLIES });
  writeEntry(projectRoot(cwd), 'f-node', 'The project runs on Node 20', 'Node 20.', { type: 'work_fact' });
  mkdirSync(join(cwd, userSkills, 'my-notes'), { recursive: true });
  writeFileSync(join(cwd, userSkills, 'my-notes', 'SKILL.md'), USER_SKILL);
}

async function assemble(home: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = await runCli(['memory', 'assemble', '--skills', ...args, '--home', home, '--json'], {
    cwd,
    env: { ...process.env, ...env },
  });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as {
    targets: Array<{ directory: string; skills: Array<{ name: string; action: string }> }>;
  };
}

/** The text of every POST the fake server received, in order. */
const bodies = (requests: ReadonlyArray<{ method: string; body: unknown }>): string[] =>
  requests.filter((r) => r.method === 'POST' && r.body !== null).map((r) => JSON.stringify(r.body));

describe('memory assemble --skills with the real clients', { timeout: 300_000 }, () => {
  it('Claude Code lists the managed skill and its request carries the description; retired, it is gone', async () => {
    const server = await startFakeAnthropicServer({
      script: messagesByPrompt([], { type: 'text', text: FAKE_TEXT_ANSWER }),
    });
    const sandbox = await createClaudeSandbox({ baseUrl: server.baseUrl });
    try {
      const home = join(sandbox.root, 'cm-home');
      repository(sandbox.cwd, '.claude/skills');
      writeEntry(userRoot(home), 'm-mine', 'Prefer named exports', 'Use named exports.', {
        appliesWhen: 'writing TypeScript modules',
      });
      const env = { HOME: sandbox.home, CLAUDE_CONFIG_DIR: sandbox.configDir };
      const wrote = await assemble(home, sandbox.cwd, ['--provider', 'claude'], env);
      assert.deepEqual(wrote.targets[0]!.skills, [{ name: NAME, action: 'create', sources: ['m-release'] }]);
      const user = await assemble(home, sandbox.cwd, ['--provider', 'claude', '--scope', 'user'], env);
      assert.deepEqual(
        user.targets[0]!.skills.map((s) => s.name),
        ['prefer-named-exports'],
      );
      assert.equal(user.targets[0]!.directory, join(sandbox.configDir, 'skills'));

      const run = await runClaude(sandbox, { prompt: 'Say hello' });
      assert.equal(run.exitCode, 0, run.stderr);
      const init = run.events.find((e) => e['type'] === 'system' && e['subtype'] === 'init');
      const listed = init?.['skills'] as string[] | undefined;
      assert.ok(listed?.includes(NAME), `Claude Code lists ${NAME}: ${JSON.stringify(listed)}`);
      assert.ok(listed?.includes('prefer-named-exports'), 'and the user-scope skill');
      assert.ok(listed?.includes('my-notes'), "and the user's own skill");
      const first = bodies(server.requests)[0]!;
      assert.ok(first.includes(`- ${NAME}: ${DESCRIPTION}`), 'the request lists the skill with its description');
      assert.ok(first.includes('- prefer-named-exports: Prefer named exports. Use when writing TypeScript modules.'));
      assert.ok(!first.includes('The project runs on Node 20'), 'a fact is not a skill');

      // Retired: the entry's file is gone, so is its skill; the user's skill is byte for byte the same.
      rmSync(join(projectRoot(sandbox.cwd), 'work_method', 'm-release.md'));
      const removed = await assemble(home, sandbox.cwd, ['--provider', 'claude'], env);
      assert.deepEqual(removed.targets[0]!.skills, [{ name: NAME, action: 'remove', sources: ['m-release'] }]);
      assert.equal(readFileSync(join(sandbox.cwd, '.claude/skills/my-notes/SKILL.md'), 'utf8'), USER_SKILL);
      const seen = server.requests.length;
      const again = await runClaude(sandbox, { prompt: 'Say hello' });
      assert.equal(again.exitCode, 0, again.stderr);
      const later = again.events.find((e) => e['type'] === 'system' && e['subtype'] === 'init');
      const listedLater = (later?.['skills'] as string[] | undefined) ?? [];
      assert.ok(listedLater.includes('my-notes'), `the user's skill is still listed: ${JSON.stringify(listedLater)}`);
      assert.ok(!listedLater.includes(NAME), 'the retired skill is no longer listed');
      assert.ok(!bodies(server.requests.slice(seen))[0]!.includes(DESCRIPTION));
    } finally {
      await sandbox.cleanup();
      await server.close();
    }
  });

  it('Codex lists the managed skill in its request and loads it without a warning; retired, it is gone', async () => {
    const server = await startFakeResponsesServer({
      script: responsesByPrompt([], { type: 'text', text: FAKE_TEXT_ANSWER }),
    });
    const sandbox = await createCodexSandbox({ baseUrl: server.baseUrl });
    try {
      const home = join(sandbox.root, 'cm-home');
      repository(sandbox.cwd, '.agents/skills');
      const env = { HOME: sandbox.home };
      const wrote = await assemble(home, sandbox.cwd, ['--provider', 'codex'], env);
      assert.equal(wrote.targets[0]!.directory, '.agents/skills');
      assert.deepEqual(wrote.targets[0]!.skills, [{ name: NAME, action: 'create', sources: ['m-release'] }]);

      const run = await runCodex(sandbox, { prompt: 'Say hello' });
      assert.equal(run.exitCode, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /failed to load skill/, 'Codex loads every skill there, ours included');
      const first = bodies(server.requests)[0]!;
      assert.match(
        first,
        new RegExp(`- ${NAME}: ${DESCRIPTION.replace(/\./g, '\\.')} \\(file: r\\d+/${NAME}/SKILL\\.md\\)`),
        'the request lists the skill with its description',
      );
      assert.ok(first.includes('- my-notes: My own notes, written by hand.'));

      rmSync(join(projectRoot(sandbox.cwd), 'work_method', 'm-release.md'));
      const removed = await assemble(home, sandbox.cwd, ['--provider', 'codex'], env);
      assert.deepEqual(removed.targets[0]!.skills, [{ name: NAME, action: 'remove', sources: ['m-release'] }]);
      const seen = server.requests.length;
      const again = await runCodex(sandbox, { prompt: 'Say hello' });
      assert.equal(again.exitCode, 0, again.stderr);
      const later = bodies(server.requests.slice(seen))[0]!;
      assert.ok(!later.includes(DESCRIPTION), 'the retired skill is no longer listed');
      assert.ok(later.includes('- my-notes: My own notes, written by hand.'));
      assert.equal(readFileSync(join(sandbox.cwd, '.agents/skills/my-notes/SKILL.md'), 'utf8'), USER_SKILL);
    } finally {
      await sandbox.cleanup();
      await server.close();
    }
  });
});
