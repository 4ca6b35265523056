// The command line read against the command table (commands.ts): which command, its positional
// words, its flags — and every flag that command does not take refused by name, before anything
// runs. Pure: no fs, no output.
import { CmError } from '../errors.js';
import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../limits.js';
import {
  type CommandSpec,
  commandSpec,
  FLAG_KINDS,
  type FlagName,
  type FlagValues,
  GLOBAL_FLAGS,
  GROUPS,
  kebab,
  subcommandsOf,
  TOP_WORDS,
} from './commands.js';
import { synopsis } from './help.js';
import { echoed, echoedWord as cut } from '../echo-text.js';
import { editDistance } from '../ground/edit-distance.js';

export type Parsed =
  /** A command to run (the TUI when its path is ""). */
  | { kind: 'run'; spec: CommandSpec; args: string[]; flags: FlagValues }
  /** --help: that command's (or group's, or the global) help. */
  | { kind: 'help'; spec?: CommandSpec; group?: string }
  | { kind: 'version' };

const BY_KEBAB = new Map<string, FlagName>((Object.keys(FLAG_KINDS) as FlagName[]).map((name) => [kebab(name), name]));

interface FlagWord {
  /** As typed, before any "=": what error messages quote. */
  typed: string;
  name: FlagName | undefined;
  value: string | boolean | undefined;
}

/** `argv` (after the program name) against the table; throws a usage error naming what is wrong. */
export function parseCommandLine(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags: FlagWord[] = [];
  let index = 0;
  for (; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') break; // everything after it is text
    if (word.startsWith('--')) {
      const equals = word.indexOf('=');
      const typed = equals < 0 ? word : word.slice(0, equals);
      const inline = equals < 0 ? undefined : word.slice(equals + 1);
      let name = BY_KEBAB.get(typed.slice(2));
      let negated = false;
      if (!name && typed.startsWith('--no-')) {
        const positive = BY_KEBAB.get(typed.slice(5));
        if (positive && FLAG_KINDS[positive].type === 'boolean') [name, negated] = [positive, true];
      }
      if (!name) {
        flags.push({ typed, name: undefined, value: inline });
        continue;
      }
      if (FLAG_KINDS[name].type === 'boolean') {
        flags.push({ typed, name, value: booleanValue(typed, inline, negated) });
        continue;
      }
      // A value flag takes the next word, unless it is another flag (then it was given no value).
      let value = inline;
      if (value === undefined) {
        const next = argv[index + 1];
        value = next === undefined || next.startsWith('--') ? '' : next;
        if (next !== undefined && !next.startsWith('--')) index++;
      }
      flags.push({ typed, name, value });
    } else if (/^-[A-Za-z]/.test(word)) {
      flags.push({ typed: word, name: undefined, value: undefined });
    } else {
      positional.push(word);
    }
  }
  positional.push(...argv.slice(index + 1));
  const asked = (name: FlagName) => flags.some((flag) => flag.name === name && flag.value === true);

  // The command: the first word, and for a group the second.
  const [first, second] = positional;
  let spec: CommandSpec | undefined;
  let group: string | undefined;
  let taken = 0;
  if (first === undefined) {
    spec = commandSpec('');
  } else if (GROUPS[first] !== undefined) {
    group = first;
    spec = second === undefined ? undefined : commandSpec(`${first} ${second}`);
    if (spec) taken = 2;
    else if (!asked('help')) {
      // `memory --nope`: the flag no command knows is named first, then the command missing.
      const unknown = second === undefined ? flags.find((flag) => !flag.name) : undefined;
      throw unknown ? unknownGroupFlag(unknown.typed, first) : unknownSubcommand(first, second);
    }
  } else {
    spec = commandSpec(first);
    if (!spec || spec.path.includes(' ')) throw unknownCommand(first);
    taken = 1;
  }
  // --help and --version answer anywhere on the line, before anything is checked or read.
  if (asked('help')) return spec && !(group && taken < 2) ? { kind: 'help', spec } : { kind: 'help', group };
  if (asked('version')) return { kind: 'version' };
  if (!spec) throw unknownSubcommand(group!, second);

  const values: FlagValues = {};
  const record = values as Record<string, string | boolean | string[] | undefined>;
  for (const flag of flags) {
    if (!flag.name) throw unknownFlag(flag.typed, spec);
    if (!(flag.name in spec.flags) && !(flag.name in GLOBAL_FLAGS)) throw notTaken(flag.typed, spec);
    if (flag.value === '') throw new CmError('usage', `${flag.typed} needs a value; nothing was done.`);
    const kind: { type: string; multiple?: boolean } = FLAG_KINDS[flag.name];
    if (kind.multiple) {
      const list = (record[flag.name] as string[] | undefined) ?? [];
      record[flag.name] = [...list, flag.value as string];
    } else if (record[flag.name] !== undefined && record[flag.name] !== flag.value) {
      throw new CmError('usage', `${flag.typed} is given twice with different values; give it once.`);
    } else {
      record[flag.name] = flag.value;
    }
  }
  const args = positional.slice(taken);
  if (args.length > maxArguments(spec)) throw tooManyArguments(spec, args);
  return { kind: 'run', spec, args, flags: values };
}

/** How many positional words a command takes: its arguments' count, unbounded for text or a list. */
export function maxArguments(spec: CommandSpec): number {
  const words = spec.args.split(' ').filter(Boolean);
  const last = words.at(-1) ?? '';
  return spec.args.includes('...') || last === '<text>' || last === '<query>' ? Number.POSITIVE_INFINITY : words.length;
}

function tooManyArguments(spec: CommandSpec, args: string[]): CmError {
  const extra = JSON.stringify(args[maxArguments(spec)]!.slice(0, 80));
  const usage = ` usage: common-memory ${synopsis(spec)}`;
  return new CmError(
    'usage',
    spec.args === ''
      ? `\`${commandName(spec)}\` takes no arguments (${extra} is one); nothing was done.${usage}`
      : `\`${commandName(spec)}\` takes ${spec.args}, and ${extra} is one word too many; nothing was done.${usage}`,
  );
}

function booleanValue(typed: string, inline: string | undefined, negated: boolean): boolean {
  if (inline === undefined) return !negated;
  if (inline === 'true' || inline === 'false') return (inline === 'true') !== negated;
  throw new CmError('usage', `${typed} takes no value (or =true / =false), not ${echoed(inline)}.`);
}

/** How a command is named in messages: "log", "memory promote", "common-memory" for the TUI. */
export const commandName = (spec: CommandSpec): string => (spec.path === '' ? 'common-memory' : spec.path);

const helpHint = (spec: CommandSpec): string =>
  ` Run common-memory ${spec.path === '' ? '' : `${spec.path} `}--help for its options.`;

/** The flags a command takes, as typed: its own and the global ones. */
export const flagsOf = (spec: CommandSpec): string[] =>
  [...Object.keys(spec.flags), ...Object.keys(GLOBAL_FLAGS)].map((name) => `--${kebab(name)}`);

function unknownFlag(typed: string, spec: CommandSpec): CmError {
  const compared = /^-[^-]/.test(typed) ? `-${typed}` : typed;
  return new CmError('usage', `Unknown flag ${cut(typed)}.${didYouMean(compared, flagsOf(spec))}${helpHint(spec)}`);
}

/** A flag no command knows, after a group named without its command (`memory --nope`). */
function unknownGroupFlag(typed: string, group: string): CmError {
  const compared = /^-[^-]/.test(typed) ? `-${typed}` : typed;
  const known = Object.keys(GLOBAL_FLAGS).map((name) => `--${kebab(name)}`);
  return new CmError(
    'usage',
    `Unknown flag ${cut(typed)}.${didYouMean(compared, known)} Run common-memory ${group} --help for its commands.`,
  );
}

function notTaken(typed: string, spec: CommandSpec): CmError {
  const takes = Object.keys(spec.flags).map((name) => `--${kebab(name)}`);
  return new CmError(
    'usage',
    `\`${commandName(spec)}\` does not take ${cut(typed)}; nothing was done.${didYouMean(typed, takes)}${helpHint(spec)}`,
  );
}

function unknownCommand(word: string): CmError {
  return new CmError(
    'usage',
    `Unknown command ${echoed(word)}.${didYouMean(word, TOP_WORDS)} Run common-memory --help for the list.`,
  );
}

function unknownSubcommand(group: string, word: string | undefined): CmError {
  const subs = subcommandsOf(group).map((spec) => spec.path.slice(group.length + 1));
  const known = `${subs.slice(0, -1).join(', ')} or ${subs.at(-1)}`;
  return new CmError(
    'usage',
    word === undefined
      ? `${group} needs a command: ${known} (see common-memory ${group} --help).`
      : `Unknown ${group} command ${echoed(word)}.${didYouMean(word, subs)} Use ${known}.`,
  );
}

/**
 * " Did you mean X?" for the candidate nearest to what was typed, or "". A slip is at most a third
 * of the word's letters (dashes not counted; one at least): "--limt" is "--limit", "--nope" is not
 * "--home". Two letters swapped count as one slip.
 */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  const letters = typed.replace(/^-+/, '').length;
  return best && best.distance <= Math.max(1, Math.floor(letters / 3)) ? ` Did you mean ${best.candidate}?` : '';
}

/**
 * --limit of a page of a listing (sessions, log, timeline) or of results (search, memory search and
 * recall): checked here, before any store is opened, so the refusal names the value as typed.
 */
export function pageLimitFlag(text: string | undefined, max = PAGE_LIMIT_MAX): number | undefined {
  if (text === undefined) return undefined;
  const limit = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= PAGE_LIMIT_MIN && limit <= max))
    throw new CmError(
      'usage',
      `--limit must be a whole number from ${PAGE_LIMIT_MIN} to ${max}, not ${JSON.stringify(text)}.`,
    );
  return limit;
}

/** A digest a plan printed (--digest, --approve-plan, --approve-manifest): 64 hex digits, checked before any read. */
export function digestFlag(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9a-f]{64}$/.test(value))
    throw new CmError(
      'usage',
      `${flag} takes the 64-hex-digit digest that the plan printed, not ${JSON.stringify(value.slice(0, 80))}.`,
    );
  return value;
}
