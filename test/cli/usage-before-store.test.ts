// A usage error is said before anything about the store: on a data home with no store yet, every
// command of the table (commands.ts) refuses a flag it does not know, one it does not take, a bad
// value of each flag that has a malformed value, and a missing argument with exit 2 — not "no store
// yet" (exit 6) — and names the flag, the value or the command, in text and in JSON on stderr.
// The sweep is built from the table, so a new command or flag is swept too; a value flag with no
// malformed value (a path, a name looked up in the store) is listed as such, with its reason.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { COMMAND_SPECS, type CommandSpec, FLAG_KINDS, type FlagName, kebab } from '../../source/cli/commands.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli, tempHome } from '../support/cli.js';

/** A malformed value of each flag that has one, refused before the store is looked at. */
const BAD_VALUE: Partial<Record<FlagName, string>> = {
  limit: '0',
  since: 'yesterday',
  until: 'yesterday',
  client: 'vim',
  scope: 'team',
  days: '0',
  port: '99999',
  digest: 'xyz',
  approvePlan: 'xyz',
  approveManifest: 'xyz',
  provider: 'vim',
  operations: 'x',
  afterRecovery: 'x!',
  recover: 'x!',
  operationId: '!bad',
  model: 'x',
  runner: 'no-such-runner',
};

/** Value flags with no malformed value: any text is one, or it is looked up (a key, a file, a name). */
const ANY_VALUE: Partial<Record<FlagName, string>> = {
  home: 'a directory',
  agent: 'looked up among the agents',
  cursorFile: 'a path',
  codexHome: 'a path',
  claudeDir: 'a path',
  piDir: 'a path',
  piConfig: 'a path',
  afterSession: 'looked up among the sessions',
  query: 'any text',
  session: 'looked up among the sessions',
  instance: 'a host instance, replayed as given',
  quarantined: 'a path',
  repository: 'a path',
  file: 'a path',
  after: 'a key or a cursor: log and timeline take a number, memory review a cursor (both below)',
};

/** Positional words that satisfy a command's arguments, so that the flag is what is refused. */
function argumentsOf(spec: CommandSpec): string[] {
  if (spec.args.includes('codex|')) return ['codex'];
  if (spec.args.includes('claude|')) return ['claude'];
  if (spec.path === 'memory prepare') return ['con-x'];
  return spec.args
    .split(' ')
    .filter((word) => word.startsWith('<'))
    .map(() => 'x');
}

/** What the command needs beside the flag under test (a required flag). */
const REQUIRED_BESIDE: Partial<Record<string, string[]>> = {
  'memory approve': ['--digest', 'a'.repeat(64)],
  'memory reverify-runner': ['--runner', 'no-such-runner'],
  'memory assemble': ['--provider', 'claude'],
};

interface Case {
  argv: string[];
  /** What the message must name: the flag, the value or the command. */
  names: RegExp;
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function sweep(): Case[] {
  const cases: Case[] = [];
  for (const spec of COMMAND_SPECS as readonly CommandSpec[]) {
    const words = spec.path === '' ? [] : spec.path.split(' ');
    const args = argumentsOf(spec);
    const beside = REQUIRED_BESIDE[spec.path] ?? [];
    cases.push({ argv: [...words, ...args, ...beside, '--nope'], names: /--nope/ });
    const notTaken = (['reveal', 'follow'] as const).find((name) => !(name in spec.flags))!;
    cases.push({ argv: [...words, ...args, ...beside, `--${kebab(notTaken)}`], names: new RegExp(`--${notTaken}`) });
    for (const name of Object.keys(spec.flags) as FlagName[]) {
      if (FLAG_KINDS[name].type !== 'string') continue;
      const bad = BAD_VALUE[name];
      if (bad === undefined) continue;
      const flag = `--${kebab(name)}`;
      const rest = beside[0] === flag ? [] : beside;
      cases.push({
        argv: [...words, ...args, ...rest, flag, bad],
        names: new RegExp(`${literal(flag)}|${literal(JSON.stringify(bad))}`),
      });
    }
    if (spec.args !== '' && !spec.args.startsWith('['))
      cases.push({ argv: [...words, ...beside], names: new RegExp(literal(words.at(-1) ?? '')) });
    for (const name of spec.required ?? [])
      cases.push({ argv: [...words, ...args], names: new RegExp(literal(`--${kebab(name)}`)) });
  }
  cases.push(
    { argv: ['log', '--after', 'x'], names: /--after/ },
    { argv: ['timeline', '--after', 'x'], names: /--after/ },
    { argv: ['memory', 'review', '--after', 'x!'], names: /"x!"/ },
    { argv: ['memory', 'assemble'], names: /--provider/ },
    { argv: ['memory', 'assemble', '--skills', '--scope', 'team'], names: /--scope/ },
    { argv: ['memory', 'prepare', 'x', '--operations', '1'], names: /--operations/ },
    { argv: ['search', 'x', '--since', '2026-08-02', '--until', '2026-08-01'], names: /--since/ },
    { argv: ['abandon', '!bad'], names: /"!bad"/ },
    { argv: ['memory', '--nope'], names: /--nope/ },
    { argv: ['agent', '--nope'], names: /--nope/ },
    { argv: ['service', '--nope'], names: /--nope/ },
  );
  return cases;
}

describe('a usage error is said before the store is looked at', () => {
  it('every value flag of the table has a malformed value to sweep, or is listed as taking any', () => {
    for (const name of Object.keys(FLAG_KINDS) as FlagName[]) {
      if (FLAG_KINDS[name].type !== 'string') continue;
      assert.ok(
        (BAD_VALUE[name] === undefined) !== (ANY_VALUE[name] === undefined),
        `--${kebab(name)}: in BAD_VALUE or ANY_VALUE, once`,
      );
    }
  });

  it('every command, on a data home with no store: exit 2 naming what is wrong, text and JSON, nothing created', async () => {
    const home = tempHome('usage-first');
    // Whatever a case would touch, were it not refused, is in the test's own directories.
    const here = dirname(home);
    const env = {
      COMMON_MEMORY_HOME: undefined,
      HOME: here,
      CODEX_HOME: join(here, 'codex'),
      CLAUDE_CONFIG_DIR: join(here, 'claude'),
      PI_CODING_AGENT_DIR: join(here, 'pi'),
    };
    const wrong: string[] = [];
    const cases = sweep();
    assert.ok(cases.length > 150, `the sweep covers the table (${cases.length} cases)`);
    for (const { argv, names } of cases) {
      for (const json of [false, true]) {
        const line = [...argv, '--home', home, ...(json ? ['--json'] : [])];
        const run = await runCliInProcess(line, { env, cwd: here });
        const shown = `${argv.join(' ')}${json ? ' --json' : ''}`;
        if (run.code !== 2) {
          wrong.push(`${shown}: exit ${run.code}: ${run.stderr.trim().slice(0, 160)}`);
          continue;
        }
        let message = run.stderr;
        if (json) {
          const error = (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
          message = error.message;
          if (!['usage', 'invalid_cursor', 'invalid_input'].includes(error.code))
            wrong.push(`${shown}: code ${error.code}`);
        } else if (!run.stderr.startsWith('common-memory: ')) {
          wrong.push(`${shown}: not a message of common-memory: ${run.stderr.slice(0, 80)}`);
        }
        if (!names.test(message)) wrong.push(`${shown}: does not name ${names}: ${message.trim().slice(0, 160)}`);
        if (run.stdout !== '') wrong.push(`${shown}: wrote to stdout`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(!existsSync(home), 'no data home was created');
  });

  it('a name no agent can have: agent create refuses it, naming the rule, and creates no data home', async () => {
    const home = tempHome('usage-first-agent');
    for (const name of ['bad name!', '.hidden', 'x'.repeat(65)]) {
      const run = await runCliInProcess(['agent', 'create', name, '--home', home], { cwd: dirname(home) });
      assert.equal(run.code, 2, `${name}: ${run.stderr}`);
      assert.match(run.stderr, /Agent name .* is not valid: 1–64 letters, digits, "\.", "_" or "-"\./);
    }
    assert.ok(!existsSync(home), 'no data home was created');
  });

  it('through the bin: the exit code is 2 and the JSON error is on stderr', async () => {
    const home = tempHome('usage-first-bin');
    for (const argv of [
      ['search', 'x', '--limit', '0'],
      ['sessions', '--client', 'vim'],
      ['memory', '--nope'],
      ['memory', 'approve', 'x', '--digest', 'xyz'],
    ]) {
      const run = await runCli([...argv, '--home', home, '--json'], { cwd: dirname(home) });
      assert.equal(run.code, 2, `${argv.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      assert.equal((JSON.parse(run.stderr) as { error: { code: string } }).error.code, 'usage', argv.join(' '));
    }
    assert.ok(!existsSync(home), 'no data home was created');
  });
});
