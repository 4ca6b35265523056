// Hooks that outlive their installation: a clone that moved, a Node that is gone, better-sqlite3
// built for another Node, a build that is missing. Each on a real copy of this installation in a
// temp dir (test/support/copied-install.ts), with the hook commands run as the clients run them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import { breakAbi, copyInstall, rebuildAbi } from '../support/copied-install.js';
import { runCli } from '../support/cli.js';

const clean = { COMMON_MEMORY_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '', PI_CODING_AGENT_DIR: '' };

const event = (name: string, session = 's-moved') =>
  JSON.stringify({ session_id: session, transcript_path: null, cwd: '/tmp', hook_event_name: name, source: 'startup' });

/** Runs one installed hook command the way Claude Code and Codex do: through the shell, the event on stdin. */
function runHookCommand(command: string, input: string) {
  return spawnSync('/bin/sh', ['-c', command], { input, encoding: 'utf8', timeout: 30_000 });
}

/** Runs `node <bin> …` of a given installation (the checkout's or a copy's). */
function runBin(bin: string, args: string[], input = '') {
  const result = spawnSync(process.execPath, [bin, ...args], {
    input,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...clean },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const sessionStart = (settingsPath: string): string =>
  JSON.parse(readFileSync(settingsPath, 'utf8')).hooks.SessionStart.at(-1).hooks[0].command;

const inboxEvents = (home: string): string[] => {
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    return (db.prepare('SELECT event FROM inbox ORDER BY rowid').all() as { event: string }[]).map((r) => r.event);
  } finally {
    db.close();
  }
};

const hookErrorLines = (home: string): Record<string, string>[] =>
  readFileSync(storeFiles(home).hookErrors, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('install repairs hooks that point at a moved clone or a missing Node', () => {
  it('a moved clone: the hooks fail, status names the missing shim and its repair, --dry-run shows why', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cm-moved-'));
    const home = join(root, 'home');
    const dirs = {
      claude: ['--claude-dir', join(root, 'claude')],
      codex: ['--codex-home', join(root, 'codex')],
      pi: ['--pi-dir', join(root, 'pi')],
    };
    try {
      const first = copyInstall(join(root, 'first', 'common-memory'));
      for (const [client, flags] of Object.entries(dirs)) {
        const installed = runBin(first.bin, ['install', client, ...flags, '--home', home]);
        assert.equal(installed.code, 0, installed.stderr);
      }
      const settings = join(root, 'claude', 'settings.json');
      assert.equal(runHookCommand(sessionStart(settings), event('SessionStart')).status, 0, 'the hook works in place');
      assert.deepEqual(inboxEvents(home), ['SessionStart']);

      // The user moves the clone.
      renameSync(join(root, 'first'), join(root, 'second'));
      const moved = { bin: join(root, 'second', 'common-memory', 'bin', 'common-memory.cjs') };
      const failed = runHookCommand(sessionStart(settings), event('SessionStart', 's-lost'));
      assert.notEqual(failed.status, 0, 'Node cannot even start the moved shim: the client reports the failure');
      assert.match(failed.stderr, /Cannot find module/);

      const allFlags = Object.values(dirs).flat();
      const status = runBin(moved.bin, ['status', ...allFlags, '--home', home, '--json']);
      assert.equal(status.code, 0, status.stderr);
      const broken = JSON.parse(status.stdout).brokenHooks as {
        client: string;
        reasons: { code: string; path: string }[];
        fix: string;
      }[];
      assert.deepEqual(
        broken.map((b) => [b.client, b.reasons.map((r) => r.code)]),
        [
          ['codex', ['shim_missing']],
          ['claude', ['shim_missing']],
          ['pi', ['shim_missing']],
        ],
      );
      assert.equal(broken[1]!.reasons[0]!.path, join(root, 'first', 'common-memory', 'bin', 'common-memory.cjs'));
      const text = runBin(moved.bin, ['status', ...allFlags, '--home', home]).stdout;
      assert.match(
        text,
        /warning: Claude Code's hooks in .*settings\.json cannot run: it runs .*first.*, which does not exist/,
      );
      assert.ok(text.includes(broken[1]!.fix), 'the repair command is printed');
      assert.match(
        broken[1]!.fix,
        /second\/common-memory\/bin\/common-memory\.cjs'? install claude --claude-dir .* --home /,
      );

      const before = readFileSync(settings, 'utf8');
      const dry = runBin(moved.bin, ['install', 'claude', ...dirs.claude, '--home', home, '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /Would update 9 hooks an earlier install wrote/);
      assert.match(dry.stdout, /Outdated: it runs \S+first\S+, which does not exist \(the clone or package was moved/);
      assert.equal(readFileSync(settings, 'utf8'), before, '--dry-run writes nothing');
      const dryJson = JSON.parse(
        runBin(moved.bin, ['install', 'claude', ...dirs.claude, '--home', home, '--dry-run', '--json']).stdout,
      );
      assert.deepEqual(
        dryJson.outdated.map((r: { code: string }) => r.code),
        ['shim_missing'],
      );
      assert.equal(dryJson.mcp.reasons[0].code, 'shim_missing', 'the MCP server entry names the moved shim too');

      // The command status printed repairs it; so does install for the other two.
      const repaired = spawnSync('/bin/sh', ['-c', broken[1]!.fix], {
        encoding: 'utf8',
        env: { ...process.env, ...clean },
      });
      assert.equal(repaired.status, 0, repaired.stderr);
      assert.match(repaired.stdout, /updated 9 hooks an earlier install wrote/);
      for (const client of ['codex', 'pi'] as const) {
        const fixed = runBin(moved.bin, ['install', client, ...dirs[client], '--home', home]);
        assert.equal(fixed.code, 0, fixed.stderr);
        assert.match(fixed.stdout, /Outdated: it (runs|loads) \S+first/);
      }
      assert.equal(runHookCommand(sessionStart(settings), event('SessionStart', 's-back')).status, 0);
      assert.deepEqual(inboxEvents(home), ['SessionStart', 'SessionStart'], 'captured again after the repair');
      const after = JSON.parse(runBin(moved.bin, ['status', ...allFlags, '--home', home, '--json']).stdout);
      assert.deepEqual(after.brokenHooks, []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a Node that is gone, or another Node: install says which and rewrites the hooks to its own', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cm-node-'));
    const dir = join(root, 'claude');
    const home = join(root, 'home');
    try {
      assert.equal((await runCli(['install', 'claude', '--claude-dir', dir, '--home', home], { env: clean })).code, 0);
      const settings = join(dir, 'settings.json');
      const value = JSON.parse(readFileSync(settings, 'utf8'));
      const gone = join(root, 'nvm', 'v20.1.0', 'bin', 'node');
      value.hooks.Stop[0].hooks[0].command = value.hooks.Stop[0].hooks[0].command.replace(process.execPath, gone);
      // Another Node that exists: a link to this one stands for it (a second Node is not installed here).
      const other = join(root, 'other-node');
      spawnSync('ln', ['-s', process.execPath, other]);
      value.hooks.SessionEnd[0].hooks[0].command = value.hooks.SessionEnd[0].hooks[0].command.replace(
        process.execPath,
        other,
      );
      writeFileSync(settings, `${JSON.stringify(value, null, 2)}\n`);

      // No store yet (the hooks never ran): status is "not found" and still names the broken hook.
      const status = await runCli(['status', '--claude-dir', dir, '--home', home], { env: clean });
      assert.equal(status.code, 6, status.stderr);
      assert.match(
        status.stderr,
        /Claude Code's hooks in \S+ cannot run: it runs \S+v20\.1\.0\/bin\/node, which no longer exists/,
      );
      const dry = await runCli(['install', 'claude', '--claude-dir', dir, '--home', home, '--dry-run', '--json'], {
        env: clean,
      });
      assert.equal(dry.code, 0, dry.stderr);
      const plan = JSON.parse(dry.stdout);
      assert.deepEqual(
        plan.outdated.map((r: { code: string; path: string }) => [r.code, r.path]),
        [
          ['node_missing', gone],
          ['node_other', other],
        ],
      );
      const fixed = await runCli(['install', 'claude', '--claude-dir', dir, '--home', home], { env: clean });
      assert.match(fixed.stdout, /Outdated: it runs \S+v20\.1\.0\/bin\/node, which no longer exists/);
      assert.match(fixed.stdout, /Outdated: it runs the Node at \S+other-node, not the one running this install/);
      const commands = JSON.stringify(JSON.parse(readFileSync(settings, 'utf8')).hooks);
      assert.ok(!commands.includes(gone) && !commands.includes(other), 'every hook runs this Node again');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a hook whose installation cannot run in its Node exits 0 and leaves the repair for status', () => {
  it('better-sqlite3 built for another Node: Node refuses the module, the hook exits 0, status names the rebuild', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cm-abi-'));
    const home = join(root, 'home');
    try {
      const copy = copyInstall(join(root, 'common-memory'));
      breakAbi(copy);
      // The double is Node's own refusal: loading the changed module throws the real error.
      assert.throws(
        () =>
          process.dlopen(
            { exports: {} },
            join(copy.dir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
          ),
        (error: NodeJS.ErrnoException) =>
          error.code === 'ERR_DLOPEN_FAILED' &&
          new RegExp(
            `NODE_MODULE_VERSION ${Number(process.versions.modules) + 1}\\. This version of Node\\.js requires\\s+NODE_MODULE_VERSION ${process.versions.modules}`,
          ).test(error.message),
      );
      // A store made by a working installation (the user's other Node): status reads it.
      assert.equal((await runCli(['note', 'before', '--home', home])).code, 0);

      const hook = runBin(copy.bin, ['hook', 'claude', '--home', home], event('SessionStart'));
      assert.equal(hook.code, 0, "the user's agent continues");
      assert.equal(hook.stdout, '', 'no context is given');
      const [line] = hookErrorLines(home);
      assert.equal(line!['code'], 'install_broken');
      assert.match(line!['message']!, /better-sqlite3 in \S+ was built for another Node \(NODE_MODULE_VERSION \d+\)/);
      assert.match(line!['fix']!, /npm rebuild better-sqlite3/);
      assert.ok(line!['fix']!.includes(copy.dir), 'the rebuild names the copy, not this checkout');
      assert.ok(existsSync(join(home, line!['quarantined']!)), 'the event is kept for the replay');

      const status = await runCli(['status', '--home', home]);
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /warning: hooks cannot run: better-sqlite3 .* To fix, rebuild it for this Node: cd /);
      const json = JSON.parse((await runCli(['status', '--home', home, '--json'])).stdout);
      assert.equal(json.host.lastHookError.code, 'install_broken');

      // The broken installation's own CLI says the same instead of blaming the data home.
      const cli = runBin(copy.bin, ['status', '--home', home]);
      assert.equal(cli.code, 1);
      assert.match(cli.stderr, /was built for another Node .* To fix, rebuild it for this Node/);

      // Rebuilt, the line status kept replays the event into its own activation.
      rebuildAbi(copy);
      const replay = spawnSync('/bin/sh', ['-c', line!['replay']!], { encoding: 'utf8' });
      assert.equal(replay.status, 0, replay.stderr);
      assert.deepEqual(inboxEvents(home), ['SessionStart']);
      const healed = JSON.parse((await runCli(['status', '--home', home, '--json'])).stdout);
      assert.deepEqual([healed.host.hookErrors, healed.host.lastHookError], [0, null]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a copy that is not built (dist/ missing): the hook exits 0 and records the build command; the CLI says so', () => {
    const root = mkdtempSync(join(tmpdir(), 'cm-unbuilt-'));
    const home = join(root, 'home');
    try {
      const copy = copyInstall(join(root, 'common-memory'));
      rmSync(join(copy.dir, 'dist'), { recursive: true });
      const hook = runBin(copy.bin, ['hook', 'codex', '--home', home], event('Stop'));
      assert.deepEqual([hook.code, hook.stdout], [0, '']);
      const [line] = hookErrorLines(home);
      assert.equal(line!['code'], 'install_broken');
      assert.match(line!['message']!, /is not built \(.*dist\/hook\.cjs is missing\); this event was not kept/);
      assert.equal(line!['fix'], `build it: cd ${copy.dir} && npm run build`);
      const cli = runBin(copy.bin, ['status', '--home', home]);
      assert.equal(cli.code, 1);
      assert.match(cli.stderr, /^common-memory: common-memory in \S+ is not built .* To fix, build it: cd /);
      assert.ok(!/\n\s+at /.test(cli.stderr), 'no stack trace');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  it('a copy missing only the memory lint (dist/file-lint.cjs): a changed memory file is never given unlinted, the snapshot says why, status names the build', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cm-no-lint-'));
    const home = join(root, 'home');
    try {
      const copy = copyInstall(join(root, 'common-memory'));
      const repo = join(root, 'repo');
      mkdirSync(join(repo, '.common-memory', 'memory', 'work_method'), { recursive: true });
      spawnSync('git', ['init', '-q', repo]);
      const entry = join(repo, '.common-memory', 'memory', 'work_method', 'pnpm.md');
      const write = (body: string) =>
        writeFileSync(entry, `---\nid: m-00000000000000000001\ntype: work_method\ntitle: "Use pnpm"\n---\n${body}\n`);
      const start = (session: string) =>
        runBin(
          copy.bin,
          ['hook', 'claude', '--home', home],
          JSON.stringify({
            session_id: session,
            transcript_path: null,
            cwd: repo,
            hook_event_name: 'SessionStart',
            source: 'startup',
          }),
        );
      write('Run pnpm install, never npm.');
      const first = start('s-lint-1');
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /Run pnpm install, never npm\./);

      rmSync(join(copy.dir, 'dist', 'file-lint.cjs'));
      write('Edited by hand: the lint must read this before any session does.');
      const second = start('s-lint-2');
      assert.equal(second.code, 0, second.stderr);
      assert.doesNotMatch(second.stdout, /Edited by hand/, 'the unlinted edit is never given');
      const context = JSON.parse(second.stdout).hookSpecificOutput.additionalContext as string;
      assert.match(context, /coverage: partial — .*memory lint .*cannot be loaded/);
      assert.doesNotMatch(context, /Require stack/);
      const line = hookErrorLines(home).find((l) => l['code'] === 'install_broken');
      assert.ok(line, JSON.stringify(hookErrorLines(home)));
      assert.match(line['message']!, /dist\/file-lint\.cjs is missing\)$/);
      assert.equal(line['fix'], `build it: cd ${copy.dir} && npm run build`);
      const status = await runCli(['status', '--home', home], { cwd: repo });
      assert.equal(status.stdout.split('To fix, build it').length, 2, `the repair is said once: ${status.stdout}`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  it('a copy missing only the poisoning lint (dist/poison-lint.cjs): reads still answer, a lint or a proposal says which build to run and stores nothing', () => {
    const root = mkdtempSync(join(tmpdir(), 'cm-no-poison-lint-'));
    const home = join(root, 'home');
    try {
      const copy = copyInstall(join(root, 'common-memory'));
      const note = runBin(copy.bin, ['note', 'a note before the lint went missing', '--home', home]);
      assert.equal(note.code, 0, note.stderr);
      rmSync(join(copy.dir, 'dist', 'poison-lint.cjs'));

      // Nothing a read does needs the lint: the bundles load it only for a text to lint.
      const sessions = runBin(copy.bin, ['sessions', '--json', '--home', home]);
      assert.equal(sessions.code, 0, sessions.stderr);
      const review = runBin(copy.bin, ['memory', 'review', '--json', '--home', home]);
      assert.equal(review.code, 0, review.stderr);

      const text = join(root, 'note.md');
      writeFileSync(text, 'Run pnpm install, never npm.\n');
      const lint = runBin(copy.bin, ['memory', 'lint', text]);
      assert.equal(lint.code, 1);
      assert.match(
        lint.stderr,
        /^common-memory: the poisoning lint cannot be loaded: common-memory in \S+ is not built \(\S+dist\/poison-lint\.cjs is missing\)\. To fix, build it: cd /,
      );
      assert.ok(!/\n\s+at /.test(lint.stderr), 'no stack trace');
      assert.doesNotMatch(lint.stdout, /no secrets or poisoning found/, 'an unlinted text is never called clean');

      // An agent's proposal through the MCP server: refused with the same repair, and nothing is stored.
      const repo = join(root, 'repo');
      spawnSync('git', ['init', '-q', repo]);
      const exchange = [
        {
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
        },
        { method: 'notifications/initialized' },
        {
          id: 2,
          method: 'tools/call',
          params: {
            name: 'memory_propose',
            arguments: { title: 'Use pnpm', content: 'Run pnpm install, never npm.', type: 'work_method' },
          },
        },
      ];
      const mcp = spawnSync(process.execPath, [copy.bin, 'mcp', '--home', home], {
        cwd: repo,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, ...clean },
        input: exchange.map((message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join(''),
      });
      const call = mcp.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .find((reply) => reply.id === 2);
      assert.equal(call?.result?.isError, true, mcp.stdout);
      assert.equal(call.result.structuredContent.error.code, 'install_broken');
      assert.match(call.result.structuredContent.error.message, /poison-lint\.cjs is missing\)\. To fix, build it/);
      const after = runBin(copy.bin, ['memory', 'review', '--json', '--home', home]);
      assert.equal(after.code, 0, after.stderr);
      assert.deepEqual(JSON.parse(after.stdout).candidates, [], 'no candidate stored unlinted');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
