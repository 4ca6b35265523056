// Every command refuses the flags it does not take, prints its own help, and the writing commands'
// --dry-run writes nothing: through the shipped bin, driven by the command table itself.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  COMMAND_SPECS,
  type CommandSpec,
  FLAG_KINDS,
  type FlagName,
  GLOBAL_FLAGS,
  kebab,
} from '../../source/cli/commands.js';
import { commandHelp, globalHelp, groupHelp, synopsis } from '../../source/cli/help.js';
import { maxArguments } from '../../source/cli/parse.js';
import { storeFiles } from '../../source/home.js';
import { textColumns } from '../../source/text-columns.js';
import { ENTRY, writeEntry } from '../support/approved-repo.js';
import { lockDirectory } from '../support/memory-files.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Every file below `dir` with its size and mtime: "nothing was written" is this staying equal. A
 * SQLite reader of a WAL store may leave an empty -wal and its -shm index behind: no data.
 */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(join(dir, path));
        if (path.endsWith('-shm') || (path.endsWith('-wal') && stat.size === 0)) continue;
        out[path] = `${stat.size} ${stat.mtimeMs}`;
      }
    }
  };
  walk('');
  return out;
}

/** Words for a command's positional arguments, so that only the refused flag stops it. */
const argsFor = (spec: CommandSpec): string[] =>
  spec.args
    .split(' ')
    .filter((word) => word.startsWith('<') || word.includes('|'))
    .map((word) => (word.includes('codex') ? 'claude' : word.startsWith('[') ? '-' : 'x1234'));

/** A flag the command does not take (one that takes a value when there is one, to check its value is not taken as an argument). */
function flagNotTaken(spec: CommandSpec): string[] {
  const names = (Object.keys(FLAG_KINDS) as FlagName[]).filter(
    (name) => !(name in spec.flags) && !(name in GLOBAL_FLAGS),
  );
  const preferred = names.find((name) => name === 'dryRun') ?? names.find((name) => FLAG_KINDS[name].type === 'string');
  const name = preferred ?? names[0]!;
  return FLAG_KINDS[name].type === 'string' ? [`--${kebab(name)}`, 'v'] : [`--${kebab(name)}`];
}

describe('the command table', { timeout: 600_000 }, () => {
  it('every command refuses a flag it does not take: exit 2, one line naming the command, nothing done', async () => {
    for (const spec of COMMAND_SPECS) {
      if (spec.path === 'hook') continue; // the shim sends hook events to the hook's own fast path
      const home = tempHome('flags');
      const flag = flagNotTaken(spec);
      const words = [...spec.path.split(' ').filter(Boolean), ...argsFor(spec), ...flag];
      const result = await runCliInProcess([...words, '--home', home], { cwd: dirname(home) });
      const shown = spec.path === '' ? 'common-memory' : spec.path;
      assert.equal(result.code, 2, `${words.join(' ')}: ${result.stderr}`);
      assert.equal(
        result.stderr,
        `common-memory: \`${shown}\` does not take ${flag[0]}; nothing was done.${
          result.stderr.includes('Did you mean')
            ? result.stderr.slice(result.stderr.indexOf(' Did you mean'), result.stderr.indexOf(' Run'))
            : ''
        } Run common-memory ${spec.path === '' ? '' : `${spec.path} `}--help for its options.\n`,
        words.join(' '),
      );
      assert.equal(result.stdout, '');
      assert.equal(existsSync(home), false, `${words.join(' ')} created the data home`);
      assert.deepEqual(readdirSync(dirname(home)), [], `${words.join(' ')} wrote beside it`);
    }
  });

  it('the refusal names the command and, with --json, is one JSON object on stderr', async () => {
    const result = await runCliInProcess(['memory', 'approve', 'p-1', '--dry-run', '--json']);
    assert.equal(result.code, 2);
    assert.deepEqual(JSON.parse(result.stderr), {
      error: {
        code: 'usage',
        message:
          '`memory approve` does not take --dry-run; nothing was done. Run common-memory memory approve --help for its options.',
      },
    });
    const typo = await runCliInProcess(['memory', 'review', '--scpoe', 'user']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /Unknown flag --scpoe\. Did you mean --scope\?/);
    const other = await runCliInProcess(['sessions', '--limt', '3']);
    assert.match(other.stderr, /Did you mean --limit\?/, "did-you-mean among the command's own flags");
    // What was typed is quoted back cut short with its length, never whole (a paste by mistake).
    const pasted = 'q'.repeat(3000);
    for (const args of [[pasted], ['memory', pasted], ['log', `--${pasted}`], ['log', `-${pasted}`]]) {
      const long = await runCliInProcess(args);
      assert.equal(long.code, 2);
      assert.ok(long.stderr.length < 400, `${args[0]!.slice(0, 10)}: ${long.stderr.length} characters`);
      assert.match(long.stderr, /… \(300\d characters\)/);
    }
    const extra = await runCliInProcess(['doctor', 'now']);
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /`doctor` takes no arguments \("now" is one\)/);
  });

  it('every memory command under --json: a flag it does not take, or no argument it needs, is a JSON usage error naming it', async () => {
    const home = tempHome('memory-json-refusals');
    const repo = gitRepo(home, 'repo');
    const run = (args: string[]) => runCliInProcess([...args, '--json', '--home', home], { cwd: repo });
    for (const spec of COMMAND_SPECS.filter((each) => each.path.startsWith('memory '))) {
      const words = spec.path.split(' ');
      const flag = flagNotTaken(spec);
      const refused = await run([...words, ...argsFor(spec), ...flag]);
      assert.equal(refused.code, 2, `${spec.path} ${flag[0]}: ${refused.stderr}`);
      assert.equal(refused.stdout, '');
      assert.equal(json(refused.stderr).error.code, 'usage');
      assert.ok(json(refused.stderr).error.message.includes(`does not take ${flag[0]}`), refused.stderr);
      // Its arguments or a flag it needs left out: the refusal names the command or the flag.
      const required = ((spec as CommandSpec).required ?? []).map((name) => `--${kebab(name)}`);
      if (!spec.args.startsWith('<') && required.length === 0) continue;
      const missing = await run(spec.args.startsWith('<') ? words : [...words, ...argsFor(spec)]);
      assert.equal(missing.code, 2, `${spec.path} with nothing: ${missing.stderr}`);
      assert.equal(missing.stdout, '');
      const error = json(missing.stderr).error as { code: string; message: string };
      assert.equal(error.code, 'usage', spec.path);
      assert.ok(
        error.message.includes(spec.path) && required.every((name) => error.message.includes(name)),
        `${spec.path}: ${error.message}`,
      );
    }
    // A value a flag cannot take is named before any id is looked up: an unknown id is not the mistake.
    for (const [args, named] of [
      [['memory', 'prepare', 'c-zzzz', '--scope', 'bogus'], /--scope must be project or user, not "bogus"/],
      [['memory', 'prepare', 'con-zzzz', '--scope', 'bogus'], /--scope must be project or user, not "bogus"/],
      [['memory', 'prepare', 'con-zzzz', '--operations', 'x'], /--operations takes operation numbers .*\(not "x"\)/],
      [['memory', 'retire', 'e-zzzz', '--scope', 'bogus'], /--scope must be project or user, not "bogus"/],
      [
        ['memory', 'assemble', '--provider', 'emacs'],
        /--provider must be claude \(CLAUDE\.md\) or codex \(AGENTS\.md\), not "emacs"/,
      ],
    ] as const) {
      const result = await run([...args]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(json(result.stderr).error.message, named, args.join(' '));
    }
  });

  it('--json gives JSON on stderr for every refusal: the TUI without a terminal, and --json=true', async () => {
    const tui = await runCliInProcess(['--json']);
    assert.equal(tui.code, 2);
    assert.equal(tui.stdout, '');
    const refused = JSON.parse(tui.stderr) as { error: { code: string; message: string } };
    assert.equal(refused.error.code, 'usage');
    assert.match(refused.error.message, /needs a terminal.*common-memory --help/);
    for (const args of [
      ['--json=true', 'frobnicate'],
      ['frobnicate', '--json=true'],
    ]) {
      const result = await runCliInProcess(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(JSON.parse(result.stderr).error.code, 'usage', `${args.join(' ')}: ${result.stderr}`);
    }
    const version = await runCliInProcess(['status', '--version', '--json']);
    assert.equal(version.code, 0);
    assert.match((JSON.parse(version.stdout) as { version: string }).version, /^\d+\.\d+\.\d+/);
    assert.match((await runCliInProcess(['--version'])).stdout, /^\d+\.\d+\.\d+\n$/, 'text without --json');
    const off = await runCliInProcess(['frobnicate', '--json=false']);
    assert.match(off.stderr, /^common-memory: Unknown command/, '--json=false is text');
  });

  it('<command> --help prints that command: usage, summary, its flags; no line wider than 80', async () => {
    for (const spec of COMMAND_SPECS) {
      if (spec.path === '') continue;
      const result = await runCliInProcess([...spec.path.split(' '), '--help', '--home', tempHome('help')]);
      assert.equal(result.code, 0, `${spec.path}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`\\$ common-memory ${spec.path.replace(/[|]/g, '\\|')}\\b`));
      assert.ok(result.stdout.includes(spec.summary.slice(1, 20)), `${spec.path}: its summary`);
      for (const name of Object.keys(spec.flags))
        assert.ok(result.stdout.includes(`--${kebab(name)}`), `${spec.path} --${name}`);
      assert.ok(!result.stdout.includes('Exit codes'), `${spec.path} --help printed the global help`);
      const wide = result.stdout.split('\n').filter((line) => textColumns(line) > 80);
      assert.deepEqual(wide, [], `${spec.path} --help`);
    }
    for (const args of [['--help'], ['memory', '--help'], ['agent', '--help']]) {
      const result = await runCliInProcess(args);
      assert.equal(result.code, 0);
      const wide = result.stdout.split('\n').filter((line) => textColumns(line) > 80);
      assert.deepEqual(wide, [], args.join(' '));
    }
    assert.match((await runCliInProcess(['memory', '--help'])).stdout, /memory promote <plan-id>/);
    // Through the shipped bin too: its shim sends `hook --help` to this help, not to the hook's fast path.
    const hookHelp = await runCli(['hook', '--help']);
    assert.equal(hookHelp.code, 0, hookHelp.stderr);
    assert.match(hookHelp.stdout, /\$ common-memory hook\b/);
  });

  it('--help with --json is one JSON object on stdout: the command, its usage, its flags and the help text; exit 0', async () => {
    const { description } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      description: string;
    };
    const flagNames = (flags: { flag: string }[]) => flags.map((flag) => flag.flag);
    for (const spec of COMMAND_SPECS) {
      const words = [...spec.path.split(' ').filter(Boolean), '--help', '--json'];
      const result = await runCliInProcess(words);
      assert.equal(result.code, 0, `${words.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, '');
      assert.equal(result.stdout.split('\n').length, 2, `${words.join(' ')}: one line`);
      const help = json(result.stdout);
      assert.equal(help.command, spec.path);
      assert.equal(help.help, commandHelp(spec, description, 80), `${words.join(' ')}: the text help, at 80 columns`);
      if (spec.path === '') continue;
      assert.deepEqual(help.usage, [`common-memory ${synopsis(spec)}`]);
      assert.equal(help.arguments, spec.args);
      assert.equal(help.summary, spec.summary);
      assert.deepEqual(
        flagNames(help.flags),
        Object.keys(spec.flags).map((name) => `--${kebab(name)}`),
      );
      for (const flag of help.flags as { flag: string; help: string; required: boolean }[]) {
        assert.ok(flag.help.length > 0, `${spec.path} ${flag.flag}: its help`);
        const name: FlagName = (Object.keys(spec.flags) as FlagName[]).find((key) => `--${kebab(key)}` === flag.flag)!;
        assert.equal(flag.required, ((spec as CommandSpec).required ?? []).includes(name), `${spec.path} ${flag.flag}`);
      }
      assert.deepEqual(flagNames(help.globalFlags), ['--home', '--json', '--help', '--version']);
    }
    const approve = json((await runCliInProcess(['memory', 'approve', '--help', '--json'])).stdout);
    assert.deepEqual(approve.flags, [
      { flag: '--digest', value: 'D', help: 'the digest memory prepare printed (required)', required: true },
    ]);

    const global = await runCliInProcess(['--help', '--json']);
    assert.equal(global.code, 0, global.stderr);
    const all = json(global.stdout);
    assert.equal(all.command, '');
    assert.equal(all.description, description);
    assert.equal(all.help, globalHelp(description, 80));
    assert.ok(all.usage.includes('common-memory <command> --help'), all.usage.join('; '));
    assert.deepEqual(
      all.commands.map((command: { command: string }) => command.command),
      COMMAND_SPECS.filter((spec) => spec.path !== '').map((spec) => spec.path),
    );
    assert.deepEqual(all.exitCodes[0], { code: 0, meaning: 'ok' });
    assert.ok(all.exitCodes.some((exit: { code: number }) => exit.code === 130));

    // A group, with or without a subcommand it does not have: the group's list.
    for (const args of [
      ['memory', '--help', '--json'],
      ['--json', 'memory', 'nope', '--help'],
      ['memory', '--json=true', '--help'],
    ]) {
      const result = await runCliInProcess(args);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      const group = json(result.stdout);
      assert.equal(group.command, 'memory', args.join(' '));
      assert.deepEqual(group.usage, ['common-memory memory <command> [options]']);
      assert.equal(group.help, groupHelp('memory', 80));
      assert.ok(
        group.commands.some(
          (command: { command: string; usage: string }) =>
            command.command === 'memory promote' && command.usage === 'memory promote <plan-id> [options]',
        ),
      );
    }
    const text = await runCliInProcess(['memory', 'promote', '--help', '--json=false']);
    assert.match(text.stdout, /^\n {2}Usage\n/, '--json=false is the text');
    // Through the shipped bin: `hook --help --json` reaches this help, not the hook's fast path.
    const hook = await runCli(['hook', '--help', '--json']);
    assert.equal(hook.code, 0, hook.stderr);
    assert.equal(json(hook.stdout).command, 'hook');
  });

  it('help wraps to the width it is given', () => {
    for (const width of [40, 60, 80, 120]) {
      const texts = [globalHelp('Durable memory.', width), groupHelp('memory', width)];
      for (const spec of COMMAND_SPECS) texts.push(commandHelp(spec, 'Durable memory.', width));
      for (const text of texts) {
        const wide = text.split('\n').filter((line) => textColumns(line) > width);
        assert.deepEqual(wide, [], `at ${width}`);
      }
    }
  });

  it('docs/commands.md lists every command with every flag it takes', () => {
    const readme = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Commands'), readme.indexOf('### Reading history'));
    const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---'));
    /** The commands a row names: each code span of its first cell, word by word, `a\|b` either. */
    const named = (row: string): string[][][] =>
      [...row.split(' | ')[0]!.matchAll(/`([^`]*)`/g)].map((span) =>
        span[1]!
          .split(/\s+/)
          .filter((word) => word !== '' && !/^[[<(]/.test(word))
          .map((word) => word.split('\\|')),
      );
    for (const spec of COMMAND_SPECS) {
      const words = spec.path.split(' ');
      const mine = rows.filter((row) =>
        spec.path === ''
          ? row.startsWith('| *(none)*')
          : named(row).some((span) => words.every((word, index) => span[index]?.includes(word))),
      );
      assert.ok(mine.length > 0, `docs/commands.md has no row for ${spec.path || '(none)'}`);
      for (const name of Object.keys(spec.flags))
        assert.ok(
          mine.some((row) => row.includes(`--${kebab(name)}`)),
          `docs/commands.md's row for ${spec.path || '(none)'} lacks --${kebab(name)}`,
        );
    }
  });

  it("docs/commands.md's rows name no flag a command they name does not take", () => {
    const doc = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Commands'), doc.indexOf('### Reading history'));
    const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---'));
    for (const row of rows) {
      for (const span of row.split(' | ')[0]!.matchAll(/`([^`]*)`/g)) {
        const words = span[1]!
          .split(/\s+/)
          .filter((word) => word !== '' && !/^[[<(-]/.test(word))
          .map((word) => word.split('\\|'));
        // Each command the span names, one alternative of each word at a time (`install\|uninstall`).
        const specs = COMMAND_SPECS.filter(
          (spec) => spec.path !== '' && spec.path.split(' ').every((word, index) => words[index]?.includes(word)),
        );
        const flags = [...span[1]!.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!);
        for (const spec of specs)
          for (const flag of flags)
            assert.ok(
              Object.keys(spec.flags).some((name) => kebab(name) === flag),
              `docs/commands.md gives ${spec.path} --${flag}, which it does not take: ${span[1]}`,
            );
      }
    }
  });

  it('a command takes as many arguments as its usage names', () => {
    assert.equal(maxArguments(COMMAND_SPECS.find((spec) => spec.path === 'memory promote')!), 1);
    assert.equal(maxArguments(COMMAND_SPECS.find((spec) => spec.path === 'memory lint')!), Number.POSITIVE_INFINITY);
    assert.equal(maxArguments(COMMAND_SPECS.find((spec) => spec.path === 'note')!), Number.POSITIVE_INFINITY);
  });
});

describe('--dry-run writes nothing', { timeout: 300_000 }, () => {
  it('memory init --dry-run says where the root would go and creates nothing', async () => {
    const home = tempHome('init-dry');
    const repo = gitRepo(home, 'repo');
    const result = await runCli(['memory', 'init', '--dry-run', '--home', home, '--json'], { cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    const answer = json(result.stdout);
    assert.equal(answer.dryRun, true);
    assert.equal(answer.readmeWritten, false);
    assert.match(answer.path, /\.common-memory\/memory$/);
    assert.equal(existsSync(join(repo, '.common-memory')), false, 'no memory root');
    const user = await runCli(['memory', 'init', '--scope', 'user', '--dry-run', '--home', home]);
    assert.equal(user.code, 0, user.stderr);
    assert.match(user.stdout, /Dry run — nothing was written/);
    assert.equal(existsSync(home), false, 'not even the data home');
    const real = await runCli(['memory', 'init', '--home', home], { cwd: repo });
    assert.equal(real.code, 0, real.stderr);
    assert.ok(existsSync(join(repo, '.common-memory', 'memory', 'README.md')));
  });

  it('memory init where the root cannot be written: exit 7 (a file it must write is not writable), one line', async () => {
    const home = tempHome('init-locked');
    const repo = gitRepo(home, 'repo');
    const parent = join(repo, '.common-memory');
    mkdirSync(parent);
    lockDirectory(parent, true);
    try {
      const refused = await runCliInProcess(['memory', 'init', '--home', home, '--json'], { cwd: repo });
      assert.equal(refused.code, 7, refused.stderr);
      const error = json(refused.stderr).error as { code: string; message: string };
      assert.equal(error.code, 'permission_denied');
      assert.match(error.message, /permission denied .*make it writable.*nothing was written/);
    } finally {
      lockDirectory(parent, false);
    }
    assert.deepEqual(readdirSync(parent), []);
  });

  it('memory sync --dry-run scans and says what would change; the projection stays', async () => {
    const home = tempHome('sync-dry');
    const repo = gitRepo(home, 'repo');
    writeEntry(
      join(repo, '.common-memory', 'memory'),
      'work_method/use-pnpm.md',
      ENTRY('use-pnpm', 'Use pnpm, not npm', 'Install with pnpm install.'),
    );
    const first = await runCli(['memory', 'sync', '--dry-run', '--home', home, '--json'], { cwd: repo });
    assert.equal(first.code, 0, first.stderr);
    const answer = json(first.stdout);
    assert.equal(answer.dryRun, true);
    const project = answer.scopes.find((s: { scope: string }) => s.scope === 'project');
    assert.equal(project.entries, 1, 'the scan found the entry');
    assert.equal(project.outcome, 'replaced', 'and would replace the empty projection');
    assert.equal(existsSync(storeFiles(home).memoryState), false, 'memory-state was not created');
    assert.equal((await runCli(['memory', 'sync', '--home', home], { cwd: repo })).code, 0);
    const before = tree(home);
    const again = json((await runCli(['memory', 'sync', '--dry-run', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.equal(again.scopes.find((s: { scope: string }) => s.scope === 'project').outcome, 'unchanged');
    writeEntry(
      join(repo, '.common-memory', 'memory'),
      'work_method/named-exports.md',
      ENTRY('named-exports', 'Prefer named exports', 'Use named exports.'),
    );
    const changed = await runCli(['memory', 'sync', '--dry-run', '--home', home], { cwd: repo });
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, /Dry run — nothing was stored/);
    assert.match(changed.stdout, /project: would replace 1 entry with 2/);
    assert.deepEqual(tree(home), before, 'the data home is as it was');
    // The dry run stored nothing (the tree above); the next read follows the files and stores it.
    const search = json((await runCli(['memory', 'search', 'named', '--home', home, '--json'], { cwd: repo })).stdout);
    assert.deepEqual(
      search.results.map((r: { entryId: string }) => r.entryId),
      ['named-exports'],
    );
    assert.notDeepEqual(tree(home), before, 'the read stored it');
  });

  it('memory sync --dry-run with no entries in the files and none stored says there is nothing to sync', async () => {
    const home = tempHome('sync-nothing');
    const repo = gitRepo(home, 'repo');
    const text = await runCliInProcess(['memory', 'sync', '--dry-run', '--home', home], { cwd: repo });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Dry run — nothing was stored\. Nothing to sync: /);
    assert.match(text.stdout, /^project: nothing to sync \(no entries in its memory files, none stored\)$/m);
    assert.match(text.stdout, /^user: nothing to sync \(no entries in its memory files, none stored\)$/m);
    assert.doesNotMatch(text.stdout, /would replace/);
    assert.match(text.stdout, /memory review/, 'where entries come from');
    assert.equal(existsSync(home), false, 'the dry run created no data home');
    // --json says what a sync would do, and the sync then does just that: a first, empty generation.
    const dry = json(
      (await runCliInProcess(['memory', 'sync', '--dry-run', '--home', home, '--json'], { cwd: repo })).stdout,
    );
    assert.equal(dry.entries, 0);
    const real = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: repo });
    assert.equal(real.code, 0, real.stderr);
    for (const scope of json(real.stdout).scopes as { scope: string; outcome: string; generation: number }[]) {
      const predicted = dry.scopes.find((s: { scope: string }) => s.scope === scope.scope);
      assert.deepEqual(
        { outcome: predicted.outcome, generation: predicted.generation, entries: predicted.entries },
        { outcome: scope.outcome, generation: scope.generation, entries: 0 },
        scope.scope,
      );
      assert.deepEqual(predicted.current, { generation: 0, entries: 0 });
    }
    // Synced once, still empty: unchanged, as before.
    const again = await runCliInProcess(['memory', 'sync', '--dry-run', '--home', home], { cwd: repo });
    assert.match(again.stdout, /^project: unchanged \(0 entries, generation 1\)$/m);
    assert.doesNotMatch(again.stdout, /Nothing to sync/);
  });

  /** A repository whose one session said a rule, drained and extracted once; `cli` runs a command there with --json. */
  async function extracted(name: string) {
    const home = tempHome(name);
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    await c.flush(home);
    const cli = (...args: string[]) => runCli([...args, '--home', home, '--json'], { cwd: repo });
    assert.equal((await cli('memory', 'extract')).code, 0);
    return { home, repo, cli };
  }

  it('memory extract --until alone, before where the last run ended, is refused naming --since', async () => {
    const { cli } = await extracted('extract-until');
    // The default start is where the last run ended: after 2026-01-01 it would leave one millisecond.
    const early = await cli('memory', 'extract', '--until', '2026-01-01');
    assert.equal(early.code, 2, early.stderr);
    const message = json(early.stderr).error.message as string;
    assert.match(message, /--until 2026-01-01T00:00:00\.000Z is not after the last run's end/);
    assert.match(message, /give --since too/);
    // Given whole, the window is taken as given.
    const given = await cli('memory', 'extract', '--since', '2025-12-01', '--until', '2026-01-01');
    assert.equal(given.code, 0, given.stderr);
    assert.equal(json(given.stdout).window.since, '2025-12-01T00:00:00.000Z');
  });

  it('memory promote --dry-run names the files it would write and writes none', async () => {
    const { home, repo, cli } = await extracted('promote-dry');
    const [candidate] = json((await cli('memory', 'review')).stdout).candidates;
    const plan = json((await cli('memory', 'prepare', candidate.candidateId)).stdout);
    const early = await cli('memory', 'promote', plan.planId, '--dry-run');
    assert.equal(early.code, 5, 'a plan not approved yet is refused as promote would');
    assert.match(json(early.stderr).error.message, /not approved yet/);
    assert.equal((await cli('memory', 'approve', plan.planId, '--digest', plan.planDigest)).code, 0);
    const before = tree(home);
    const dry = await cli('memory', 'promote', plan.planId, '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    const answer = json(dry.stdout);
    assert.equal(answer.dryRun, true);
    assert.equal(answer.status, 'approved');
    assert.deepEqual(
      answer.files.map((f: { path: string }) => f.path),
      plan.files.map((f: { path: string }) => f.path),
    );
    const text = await runCli(['memory', 'promote', plan.planId, '--dry-run', '--home', home], { cwd: repo });
    assert.match(text.stdout, /Dry run — nothing was written\. Plan \S+ would write 1 file/);
    assert.equal(existsSync(join(repo, '.common-memory')), false, 'no file in the worktree');
    assert.deepEqual(tree(home), before, 'the data home is as it was');
    assert.equal(json((await cli('memory', 'plan', plan.planId)).stdout).status, 'approved', 'still approved');
    const real = await cli('memory', 'promote', plan.planId);
    assert.equal(real.code, 0, real.stderr);
    assert.ok(existsSync(join(repo, '.common-memory', 'memory', plan.files[0].path)));
  });
});
