// The help texts, made from the command table (commands.ts) and wrapped to the terminal: the
// global help lists every command with its summary; `<command> --help` prints that command's
// usage, what it does and each of its flags; `memory --help` / `agent --help` list the group.
import { textColumns } from '../text-columns.js';
import { wrapText } from '../text-wrap.js';
import {
  COMMAND_SPECS,
  type CommandSpec,
  type FlagHelp,
  type FlagName,
  GLOBAL_FLAGS,
  GROUPS,
  kebab,
  subcommandsOf,
} from './commands.js';

export const DEFAULT_HELP_WIDTH = 80;

/** The width help is wrapped to: the terminal's, or 80 when stdout is not one. */
export const helpWidth = (): number => process.stdout.columns || DEFAULT_HELP_WIDTH;

const EXIT_CODES: ReadonlyArray<readonly [number, string]> = [
  [0, 'ok'],
  [1, 'internal error'],
  [2, 'usage or invalid input'],
  [3, 'incomplete'],
  [4, 'store already open'],
  [5, 'conflict'],
  [6, 'not found'],
  [7, 'store unavailable'],
  [8, 'host unreachable (or none running)'],
  [9, 'inconsistent store'],
  [10, 'over a limit'],
  [11, 'blocking secret or poisoning found'],
  [12, 'memory-state unavailable'],
  [13, 'agent not running'],
  [14, "authorisation needed (a runner's plan awaits --approve-plan)"],
  [15, 'runner refused (its probe failed, its client is missing or of another version)'],
  [130, 'interrupted (Ctrl+C)'],
];

/** "--limit N" or "--follow". */
const flagWords = (name: string, help: FlagHelp): string =>
  typeof help === 'string' ? `--${kebab(name)}` : `--${kebab(name)} ${help[0]}`;

/** The command's synopsis: its words, its arguments and each flag in brackets. */
export function synopsis(spec: CommandSpec): string {
  return [spec.path, spec.args, ...bracketed(spec)].filter(Boolean).join(' ');
}

/** "[--limit N]" for each flag, "--digest D" for one it requires: wrapping never breaks one. */
const bracketed = (spec: CommandSpec): string[] =>
  Object.entries(spec.flags).map(([name, help]) =>
    spec.required?.includes(name as FlagName) ? flagWords(name, help) : `[${flagWords(name, help)}]`,
  );

/**
 * A term and its description: the description starts in column `column` beside a term that
 * leaves room for it, else on the next line; both wrap within `width`.
 */
function described(
  term: string,
  text: string,
  width: number,
  indent: number,
  column: number,
  keep: readonly string[] = [],
): string[] {
  const pad = ' '.repeat(indent);
  const termLines = wrapText(term, width - 2, pad, keep).map((line, index) => (index === 0 ? line : `  ${line}`));
  const at = width - column >= 30 ? column : indent + 4;
  const textLines = wrapText(text, width, ' '.repeat(at));
  const last = termLines.at(-1)!;
  if (textColumns(last) + 2 <= at) {
    termLines[termLines.length - 1] = last + textLines[0]!.slice(textColumns(last));
    return [...termLines, ...textLines.slice(1)];
  }
  return [...termLines, ...textLines];
}

function section(title: string, lines: string[]): string[] {
  return ['', `  ${title}`, ...lines];
}

const flagLines = (flags: Readonly<Record<string, FlagHelp>>, width: number): string[] =>
  Object.entries(flags).flatMap(([name, help]) =>
    described(flagWords(name, help), typeof help === 'string' ? help : help[1], width, 4, 24),
  );

/** The global help's usage lines, each with what it does: the TUI, a command, a command's help. */
const globalUsage = (): ReadonlyArray<readonly [usage: string, text: string]> => [
  [`common-memory ${synopsis(COMMAND_SPECS[0]).trim()}`, COMMAND_SPECS[0].summary],
  ['common-memory <command> [options]', 'one of the commands below'],
  ['common-memory <command> --help', "that command's usage and options"],
];

/** The global help: every command with its one line, the global options and the exit codes. */
export function globalHelp(description: string, width = helpWidth()): string {
  const tui = COMMAND_SPECS[0];
  const lines = [
    ...wrapText(description, width, '  '),
    ...section(
      'Usage',
      globalUsage().flatMap(([usage, text]) => described(`$ ${usage}`, text, width, 4, 41, bracketed(tui))),
    ),
    ...section(
      'Commands',
      COMMAND_SPECS.filter((spec) => spec.path !== '').flatMap((spec) =>
        described(usageLine(spec), spec.summary, width, 4, 41),
      ),
    ),
    ...section('Global options', flagLines(GLOBAL_FLAGS, width)),
    ...section(
      'Exit codes',
      EXIT_CODES.flatMap(([code, meaning]) => described(String(code), meaning, width, 4, 10)),
    ),
  ];
  return `\n${lines.join('\n')}\n`;
}

/** A command in the global list: its words and arguments, and "[options]" when it takes flags. */
const usageLine = (spec: CommandSpec): string =>
  [spec.path, spec.args, Object.keys(spec.flags).length > 0 ? '[options]' : ''].filter(Boolean).join(' ');

/** One command's help: usage, what it does, its flags, the global ones. */
export function commandHelp(spec: CommandSpec, description: string, width = helpWidth()): string {
  if (spec.path === '') return globalHelp(description, width);
  const lines = [
    ...section(
      'Usage',
      wrapText(`$ common-memory ${synopsis(spec)}`, width - 2, '    ', bracketed(spec)).map((l, i) =>
        i ? `  ${l}` : l,
      ),
    ),
    '',
    ...wrapText(`${capital(spec.summary)}.${spec.details ? ` ${spec.details}` : ''}`, width, '  '),
    ...(Object.keys(spec.flags).length > 0 ? section('Options', flagLines(spec.flags, width)) : []),
    ...section('Global options', flagLines(GLOBAL_FLAGS, width)),
  ];
  return `${lines.join('\n')}\n`;
}

/** `memory --help`: the group's commands. */
export function groupHelp(group: string, width = helpWidth()): string {
  const lines = [
    ...section('Usage', wrapText(`$ common-memory ${group} <command> [options]`, width, '    ')),
    '',
    ...wrapText(`${capital(GROUPS[group] ?? group)}.`, width, '  '),
    ...section(
      'Commands',
      subcommandsOf(group).flatMap((spec) => described(usageLine(spec), spec.summary, width, 4, 41)),
    ),
    '',
    ...wrapText(`common-memory ${group} <command> --help prints that command's options.`, width, '  '),
  ];
  return `${lines.join('\n')}\n`;
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** A flag as --help --json gives it: what is typed, its value's name (null for a switch), what it does. */
const flagData = (flags: Readonly<Record<string, FlagHelp>>, required: readonly string[] = []) =>
  Object.entries(flags).map(([name, help]) => ({
    flag: `--${kebab(name)}`,
    value: typeof help === 'string' ? null : help[0],
    help: typeof help === 'string' ? help : help[1],
    required: required.includes(name),
  }));

/** A command in a list, as --help --json gives it: its path, its line in the list and its summary. */
const listed = (spec: CommandSpec) => ({ command: spec.path, usage: usageLine(spec), summary: spec.summary });

/**
 * --help under --json: one object with what the text help says, as data (from the same table), and
 * the text itself at 80 columns. `command` is the command's words; "" for the global help.
 */
export function helpData(asked: { spec?: CommandSpec; group?: string }, description: string): Record<string, unknown> {
  const width = DEFAULT_HELP_WIDTH;
  const { spec, group = '' } = asked;
  if (spec && spec.path !== '')
    return {
      command: spec.path,
      usage: [`common-memory ${synopsis(spec)}`],
      arguments: spec.args,
      summary: spec.summary,
      ...(spec.details ? { details: spec.details } : {}),
      flags: flagData(spec.flags, spec.required),
      globalFlags: flagData(GLOBAL_FLAGS),
      help: commandHelp(spec, description, width),
    };
  if (spec || group === '')
    return {
      command: '',
      description,
      usage: globalUsage().map(([usage]) => usage),
      commands: COMMAND_SPECS.filter((each) => each.path !== '').map(listed),
      globalFlags: flagData(GLOBAL_FLAGS),
      exitCodes: EXIT_CODES.map(([code, meaning]) => ({ code, meaning })),
      help: globalHelp(description, width),
    };
  return {
    command: group,
    usage: [`common-memory ${group} <command> [options]`],
    summary: GROUPS[group] ?? group,
    commands: subcommandsOf(group).map(listed),
    help: groupHelp(group, width),
  };
}
