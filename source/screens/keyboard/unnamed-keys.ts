// Escape sequences that Ink 6's key parser reads as Ctrl held on a key it has no name for. Its
// useInput then calls `.startsWith` on the missing name and throws out of stdin's 'readable'
// handler, which ends the process: the TUI, and the in-process host with its agents, unstopped.
// A terminal sends such sequences for keys no screen uses (Ctrl+F1 in xterm is `\e[1;5P`), and a
// paste carries them (a line copied from a coloured log holds `\e[31m`, read as modifier 31).
// They are dropped before any listener sees them: they are never a key the TUI could act on.
import type { EventEmitter } from 'node:events';

// Ink's parse-keypress, as its sequences are read when nothing before matched: the function-key
// pattern, the modifier's Ctrl bit (4), and the codes its table names.
// biome-ignore lint/suspicious/noControlCharactersInRegex: an escape sequence is what this matches
const FN_KEY = /^(?:\x1b+)(O|N|\[|\[\[)(?:(\d+)(?:;(\d+))?([~^$])|(?:1;)?(\d+)?([a-zA-Z]))/;
// Kitty keyboard protocol sequences are read by another branch of the parser, before FN_KEY.
// biome-ignore lint/suspicious/noControlCharactersInRegex: an escape sequence is what this matches
const KITTY = /^\x1b\[(?:\d+(?:;\d+(?::\d+)?(?:;[\d:]+)?)?u|\d+;\d+:\d+[A-Za-z~])$/;
const NAMED_CODES = new Set([
  ...['OP', 'OQ', 'OR', 'OS', '[11~', '[12~', '[13~', '[14~', '[[A', '[[B', '[[C', '[[D', '[[E'],
  ...['[15~', '[17~', '[18~', '[19~', '[20~', '[21~', '[23~', '[24~'],
  ...['[A', '[B', '[C', '[D', '[E', '[F', '[H', 'OA', 'OB', 'OC', 'OD', 'OE', 'OF', 'OH'],
  ...['[1~', '[2~', '[3~', '[4~', '[5~', '[6~', '[[5~', '[[6~', '[7~', '[8~'],
  ...['[a', '[b', '[c', '[d', '[e', '[2$', '[3$', '[5$', '[6$', '[7$', '[8$'],
  ...['Oa', 'Ob', 'Oc', 'Od', 'Oe', '[2^', '[3^', '[5^', '[6^', '[7^', '[8^', '[Z'],
]);

/** Whether Ink would read `input` (one input event) as Ctrl with no key name, and throw. */
export function isUnnamedCtrlSequence(input: string): boolean {
  if (KITTY.test(input)) return false;
  const parts = FN_KEY.exec(input);
  if (!parts) return false;
  const code = [parts[1], parts[2], parts[4], parts[6]].filter(Boolean).join('');
  const modifier = Number(parts[3] || parts[5] || 1) - 1;
  return (modifier & 4) !== 0 && !NAMED_CODES.has(code);
}

const filtered = new WeakSet<EventEmitter>();

/** Makes Ink's input emitter (useStdin's internal_eventEmitter) drop those sequences; once per emitter. */
export function dropUnnamedCtrlSequences(events: EventEmitter): void {
  if (filtered.has(events)) return;
  filtered.add(events);
  const emit = events.emit.bind(events);
  events.emit = (name: string | symbol, ...args: unknown[]): boolean =>
    name === 'input' && typeof args[0] === 'string' && isUnnamedCtrlSequence(args[0]) ? false : emit(name, ...args);
}
