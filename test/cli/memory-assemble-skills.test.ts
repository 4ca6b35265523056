// `memory assemble --skills` over real git repositories and real files: the dry run's diff, the
// folders written for both clients, a second run that changes nothing, an entry revised and
// retired, folders the user wrote or edited left byte for byte, and bad input. A dry run, a refusal
// (exit 2), `memory sync` and `memory status` go through the shipped bin; the other calls run the
// same main in this process (support/cli-in-process.ts), each spawn of the bin being 0.5–1.5 s of
// CPU.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git, gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, userRoot, writeEntry, writeLegacyConfigRepository } from '../support/memory-files.js';

type Answer = {
  scope: string;
  methods: number;
  dryRun: boolean;
  targets: Array<{
    provider: string;
    directory: string;
    skills: Array<{ name: string; action: string; sources: string[] }>;
    unchanged: Array<{ name: string }>;
    kept: Array<{ name: string; reason: string }>;
    renamed: Array<{ wanted: string; name: string; heldBy: string }>;
    diff: string;
  }>;
};

/** The user's HOME beside the data home, and no CLAUDE_CONFIG_DIR. */
const userEnv = (home: string) => ({ HOME: join(home, '..', 'user-home'), CLAUDE_CONFIG_DIR: '' });
const assemble = (home: string, cwd: string, ...args: string[]) =>
  runCliInProcess(['memory', 'assemble', '--skills', ...args, '--home', home], { cwd, env: userEnv(home) });
/** The same through the shipped bin. */
const assembleBin = (home: string, cwd: string, ...args: string[]) =>
  runCli(['memory', 'assemble', '--skills', ...args, '--home', home], {
    cwd,
    env: { ...process.env, ...userEnv(home) },
  });
const answer = (stdout: string) => JSON.parse(stdout) as Answer;
const tree = (dir: string): string[] =>
  existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).map(String).sort() : [];

describe('memory assemble --skills', { timeout: 300_000 }, () => {
  it('writes one managed skill per approved method for both clients, and keeps every folder not its own', async () => {
    const home = tempHome('skills');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'm-build', 'Build with make', 'Run make -j4 at the root.', {
      appliesWhen: 'building this repository',
    });
    writeEntry(projectRoot(repo), 'm-test', 'Run the tests', 'Run npm test.', { appliesWhen: null });
    writeEntry(projectRoot(repo), 'f-node', 'Node 20', 'The project runs on Node 20.', { type: 'work_fact' });
    // The user's own skill, under the name the first method would take, with a script beside it.
    const mine = join(repo, '.claude', 'skills', 'build-with-make');
    mkdirSync(join(mine, 'scripts'), { recursive: true });
    writeFileSync(join(mine, 'SKILL.md'), '---\nname: build-with-make\ndescription: mine\n---\nMine.\n');
    writeFileSync(join(mine, 'scripts', 'go.sh'), 'echo mine\n');

    const dry = await assembleBin(home, repo, '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^\+\+\+ b\/\.claude\/skills\/build-with-make-m-build\/SKILL\.md$/m);
    assert.match(dry.stdout, /^\+\+\+ b\/\.agents\/skills\/build-with-make\/SKILL\.md$/m);
    assert.match(dry.stdout, /^\+description: "Build with make\. Use when building this repository\."$/m);
    assert.match(dry.stdout, /the name build-with-make is held by a skill of yours/);
    assert.match(dry.stdout, /2 would be created/);
    assert.deepEqual(tree(join(repo, '.agents')), [], '--dry-run writes nothing');
    assert.deepEqual(tree(join(repo, '.claude', 'skills')), [
      'build-with-make',
      'build-with-make/SKILL.md',
      'build-with-make/scripts',
      'build-with-make/scripts/go.sh',
    ]);

    const wrote = await assemble(home, repo, '--json');
    assert.equal(wrote.code, 0, wrote.stderr);
    const first = answer(wrote.stdout);
    assert.equal(first.scope, 'project');
    assert.equal(first.methods, 2, 'the fact is not a method');
    assert.deepEqual(
      first.targets.map((t) => [t.provider, t.directory, t.skills.map((s) => `${s.action} ${s.name}`)]),
      [
        ['claude', '.claude/skills', ['create build-with-make-m-build', 'create run-the-tests']],
        ['codex', '.agents/skills', ['create build-with-make', 'create run-the-tests']],
      ],
    );
    assert.equal(
      readFileSync(join(mine, 'SKILL.md'), 'utf8'),
      '---\nname: build-with-make\ndescription: mine\n---\nMine.\n',
    );
    assert.equal(readFileSync(join(mine, 'scripts', 'go.sh'), 'utf8'), 'echo mine\n');
    const written = readFileSync(join(repo, '.agents', 'skills', 'run-the-tests', 'SKILL.md'), 'utf8');
    assert.match(
      written,
      /^---\nname: "run-the-tests"\ndescription: "Run the tests\."\nmetadata: \{"managed-by":"common-memory"/,
    );
    assert.ok(!written.includes(home), 'no path of this machine in a committed file');

    const again = await assemble(home, repo, '--json');
    assert.deepEqual(
      answer(again.stdout).targets.map((t) => [t.skills.length, t.unchanged.length]),
      [
        [0, 2],
        [0, 2],
      ],
    );

    // Revised: the skill is rewritten in place. Edited by hand: left as it is, said so.
    writeEntry(projectRoot(repo), 'm-test', 'Run the tests', 'Run npm test -- --watch=false.', { appliesWhen: null });
    const handEdited = join(repo, '.claude', 'skills', 'run-the-tests', 'SKILL.md');
    writeFileSync(handEdited, `${readFileSync(handEdited, 'utf8')}My own line.\n`);
    const edited = readFileSync(handEdited, 'utf8');
    const revised = await assemble(home, repo);
    assert.equal(revised.code, 0, revised.stderr);
    assert.match(revised.stdout, /^\+Run npm test -- --watch=false\.$/m);
    assert.match(revised.stdout, /run-the-tests: edited by hand since common-memory wrote it; left as it is/);
    assert.equal(readFileSync(handEdited, 'utf8'), edited);
    assert.match(readFileSync(join(repo, '.agents', 'skills', 'run-the-tests', 'SKILL.md'), 'utf8'), /watch=false/);

    // Retired: gone from .agents/skills (folder and all); a file the user added keeps its folder.
    writeFileSync(join(repo, '.agents', 'skills', 'build-with-make', 'notes.txt'), 'added by me\n');
    rmSync(join(projectRoot(repo), 'work_method', 'm-build.md'));
    rmSync(join(projectRoot(repo), 'work_method', 'm-test.md'));
    const retired = await assemble(home, repo, '--json');
    assert.equal(retired.code, 0, retired.stderr);
    const [claude, codex] = answer(retired.stdout).targets;
    assert.deepEqual(
      claude!.skills.map((s) => `${s.action} ${s.name}`),
      ['remove build-with-make-m-build'],
    );
    assert.deepEqual(
      claude!.kept.map((k) => `${k.name} ${k.reason}`),
      ['run-the-tests edited'],
    );
    assert.deepEqual(
      codex!.kept.map((k) => `${k.name} ${k.reason}`),
      ['build-with-make other-files'],
    );
    assert.deepEqual(tree(join(repo, '.agents', 'skills')), ['build-with-make', 'build-with-make/notes.txt']);
    assert.deepEqual(tree(join(repo, '.claude', 'skills')), [
      'build-with-make',
      'build-with-make/SKILL.md',
      'build-with-make/scripts',
      'build-with-make/scripts/go.sh',
      'run-the-tests',
      'run-the-tests/SKILL.md',
    ]);
  });

  it('--scope user writes the user methods into ~/.claude/skills and ~/.agents/skills', async () => {
    const home = tempHome('skills-user');
    const outside = join(home, '..', 'plain');
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(home, '..', 'user-home'), { recursive: true });
    writeEntry(userRoot(home), 'm-exports', 'Prefer named exports', 'Use named exports.');
    const refused = await assembleBin(home, outside);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /not in a git worktree.*--scope user/s);
    const wrote = await assemble(home, outside, '--scope', 'user', '--json');
    assert.equal(wrote.code, 0, wrote.stderr);
    const userHome = join(home, '..', 'user-home');
    assert.deepEqual(tree(join(userHome, '.claude', 'skills')), [
      'prefer-named-exports',
      'prefer-named-exports/SKILL.md',
    ]);
    assert.deepEqual(tree(join(userHome, '.agents', 'skills')), [
      'prefer-named-exports',
      'prefer-named-exports/SKILL.md',
    ]);
    assert.match(readFileSync(join(userHome, '.claude/skills/prefer-named-exports/SKILL.md'), 'utf8'), /user memory/);
  });

  it('refuses bad input with exit 2 and a linked skills directory, writing nothing; a hand-written secret is never a skill', async () => {
    const home = tempHome('skills-bad');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'm-1', 'Deploy', 'Run the deploy script.');
    for (const [args, pattern] of [
      [['--provider', 'pi'], /--provider must be claude .* or codex/],
      [['--scope', 'team'], /--scope must be project .* or user/],
      [['--skill'], /--skill/],
      [['extra'], /usage: common-memory memory assemble/],
    ] as const) {
      const run = await assemble(home, repo, ...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, pattern);
    }
    const scopeAlone = await runCliInProcess(
      ['memory', 'assemble', '--provider', 'claude', '--scope', 'user', '--home', home],
      { cwd: repo },
    );
    assert.equal(scopeAlone.code, 2);
    assert.match(scopeAlone.stderr, /--scope goes with --skills/);
    const json = await runCliInProcess(
      ['memory', 'assemble', '--skills', '--provider', 'pi', '--home', home, '--json'],
      { cwd: repo },
    );
    assert.equal(json.code, 2);
    assert.equal((JSON.parse(json.stderr) as { error: { code: string } }).error.code, 'usage');
    assert.deepEqual(tree(join(repo, '.claude')), []);

    // A method written by hand with a secret: the projection leaves its file out (the memory lint
    // blocks it), so no skill carries it. The skill plan's own refusal (exit 11) is the second
    // layer, tested alone in test/unit/skill-plan.test.ts.
    writeEntry(projectRoot(repo), 'm-2', 'Call the API', 'Use the key AKIAIOSFODNN7ABCDEFG with the aws cli.');
    const secret = await assemble(home, repo, '--json');
    assert.equal(secret.code, 0, secret.stderr);
    assert.ok(!secret.stderr.includes('AKIAIOSFODNN7ABCDEFG') && !secret.stdout.includes('AKIAIOSFODNN7ABCDEFG'));
    const written = tree(join(repo, '.claude'));
    assert.ok(written.length > 0, 'the other method is written');
    assert.ok(!written.some((path) => path.includes('call-the-api')), written.join(', '));
    for (const path of written.filter((p) => p.endsWith('.md')))
      assert.ok(!readFileSync(join(repo, '.claude', path), 'utf8').includes('AKIAIOSFODNN7ABCDEFG'));
    rmSync(join(projectRoot(repo), 'work_method', 'm-2.md'));
    rmSync(join(repo, '.claude'), { recursive: true });
    rmSync(join(repo, '.agents'), { recursive: true, force: true });

    const elsewhere = join(home, '..', 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(join(repo, '.claude'), { recursive: true });
    symlinkSync(elsewhere, join(repo, '.claude', 'skills'));
    const linked = await assemble(home, repo, '--provider', 'claude');
    assert.equal(linked.code, 2, linked.stderr);
    assert.match(linked.stderr, /symbolic link/);
    assert.deepEqual(tree(elsewhere), [], 'nothing written through the link');
  });

  it('a link in the skills directory holds its name and is never followed; --provider picks one client', async () => {
    const home = tempHome('skills-link');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'm-1', 'Deploy', 'Run the deploy script.');
    const target = join(home, '..', 'linked-target');
    mkdirSync(target, { recursive: true });
    mkdirSync(join(repo, '.claude', 'skills'), { recursive: true });
    symlinkSync(target, join(repo, '.claude', 'skills', 'deploy'));
    const run = await assemble(home, repo, '--provider', 'claude', '--json');
    assert.equal(run.code, 0, run.stderr);
    const [claude] = answer(run.stdout).targets;
    assert.deepEqual(
      claude!.skills.map((one) => one.name),
      ['deploy-m-1'],
    );
    assert.equal(answer(run.stdout).targets.length, 1, 'only the client asked for');
    assert.deepEqual(tree(target), [], 'nothing written through the link');
    assert.equal(existsSync(join(repo, '.agents')), false);
  });

  it('leaves out a method this machine verified stale, and removes its skill, until it is fresh again', async () => {
    const home = tempHome('skills-stale');
    const repo = gitRepo(home, 'repo');
    writeLegacyConfigRepository(repo, (...args) => git(repo, ...args), {
      legacyId: 'm-legacy',
      legacyTitle: 'Edit the legacy loader',
      keptId: 'm-small',
    });
    assert.equal((await runCli(['memory', 'sync', '--home', home], { cwd: repo })).code, 0);
    const verified = await runCli(['memory', 'status', '--home', home], { cwd: repo });
    assert.equal(verified.code, 0, verified.stderr);
    const fresh = answer((await assemble(home, repo, '--provider', 'codex', '--json')).stdout);
    assert.deepEqual(
      fresh.targets[0]!.skills.map((one) => one.name),
      ['edit-the-legacy-loader', 'keep-reviews-small'],
    );

    rmSync(join(repo, 'src', 'legacy', 'config.ts'));
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: {} }));
    git(repo, 'add', '--all');
    git(repo, 'commit', '-q', '-m', 'drop the legacy loader');
    const status = await runCli(['memory', 'status', '--home', home], { cwd: repo });
    assert.match(status.stdout, /stale entries: 1 project/);
    const run = await assemble(home, repo, '--provider', 'codex');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /left out m-legacy: stale \(/);
    assert.match(run.stdout, /1 removed/);
    assert.deepEqual(tree(join(repo, '.agents', 'skills')), ['keep-reviews-small', 'keep-reviews-small/SKILL.md']);
  });

  it('the text diff shows a terminal control of an entry as ⟨U+001B⟩, never writing it to the terminal', async () => {
    const home = tempHome('skills-controls');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'm-colour', 'Colour \u001b[31m red', 'Print \u001b[2J to clear.');
    const run = await assemble(home, repo, '--dry-run', '--provider', 'claude');
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /\u001b/);
    assert.match(run.stdout, /^\+# Colour ⟨U\+001B⟩\[31m red$/m);
    // --json keeps the bytes.
    const json = await assemble(home, repo, '--dry-run', '--provider', 'claude', '--json');
    assert.match(answer(json.stdout).targets[0]!.diff, /\u001b\[2J/);
  });

  it('--help fits 80 columns and names --skills and --scope', async () => {
    const help = await runCliInProcess(['memory', 'assemble', '--help'], { env: { COLUMNS: '80' } });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /--skills/);
    assert.match(help.stdout, /--scope/);
    for (const line of help.stdout.split('\n')) assert.ok([...line].length <= 80, line);
  });
});
