// The text as the poisoning lint reads it (poison-lint.ts): a normalised view — NFKC, lower case,
// Latin look-alikes folded, dashes as `-`, hidden characters and emphasis marks removed, whitespace
// collapsed — and the same with disguises undone (escapes decoded, letters spelt apart joined,
// digits for letters, accents), read backwards, and the base64 and hex segments of the original that
// decode to text. Every character of a view keeps the span of the original it came from, so a
// finding is reported where the text was written. Pure; no `node:` imports.
import { CONFUSABLES, foldForMatch, HIDDEN_CHAR } from './visible-text.js';

/** A text rules match, and for each of its characters the span of the original it came from. */
export interface LintView {
  text: string;
  /** Original offset of the first code unit each character came from. */
  starts: number[];
  /** Original end offset (exclusive) of what each character came from. */
  ends: number[];
}

/** Marks that style text without changing what it says: `**ignore**`, `` `ignore` ``. */
const EMPHASIS = new Set(['*', '`']);
const WHITESPACE = /\s/;
const ASCII_PRINTABLE = /^[\u0020-\u007e]$/;
/** Every dash (hyphen, non-breaking hyphen, en dash, minus, …) reads as `-`. */
const DASH = /^\p{Pd}$|^\u2212$/u;
/**
 * Quotes typed by phones, word processors and smart-quote editors, and the key each stands for:
 * "don’t" reads as "don't", and a quoted attack reads as quoted whichever the editor typed.
 */
const TYPED_QUOTE: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u02bc': "'",
  '\uff07': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
};

const LETTER = /[\p{L}\p{M}]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

/**
 * Whether the underscore at `at` marks emphasis, as Markdown reads it ("_don't_ tell", "__ignore__
 * the rules"): its run of underscores opens a word (nothing of a word before it, a letter after) or
 * closes one (a word before, nothing of a word after). An underscore inside a name (`id_rsa`,
 * `API_KEY`, `snake_case`) is part of it.
 */
function underscoreEmphasis(text: string, at: number): boolean {
  let from = at;
  while (from > 0 && text.charCodeAt(from - 1) === 0x5f) from--;
  let to = at + 1;
  while (to < text.length && text.charCodeAt(to) === 0x5f) to++;
  const before = from > 0 && WORD_CHAR.test(text[from - 1]!);
  const after = to < text.length && WORD_CHAR.test(text[to]!);
  return before !== after;
}

/** Whether only spaces, tabs or quote marks stand before `at` on its line: where a block's marks go. */
function atBlockStart(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x3e) return false;
  }
  return true;
}

/** Whether the `>` at `at` marks a Markdown quote: at a block's start, a space or the line's end after it. */
function quoteMark(text: string, at: number): boolean {
  const next = text.charCodeAt(at + 1);
  return (
    (Number.isNaN(next) || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d) && atBlockStart(text, at)
  );
}

/** Whether the `#` at `at` is one of a heading's marks: one to six at a line's start (after spaces or quote marks), then a space. */
function headingMark(text: string, at: number): boolean {
  let from = at;
  while (from > 0 && text.charCodeAt(from - 1) === 0x23) from--;
  let to = at + 1;
  while (to < text.length && text.charCodeAt(to) === 0x23) to++;
  return to - from <= 6 && (text.charCodeAt(to) === 0x20 || text.charCodeAt(to) === 0x09) && atBlockStart(text, from);
}

/** `text` with the marks of Markdown quotes as spaces (quoteMark): the same length, so the lines read as the quote's text. */
export function withoutQuoteMarks(text: string): string {
  if (!text.includes('>')) return text;
  let out = '';
  let from = 0;
  for (let at = text.indexOf('>'); at >= 0; at = text.indexOf('>', at + 1)) {
    if (!quoteMark(text, at)) continue;
    out += `${text.slice(from, at)} `;
    from = at + 1;
  }
  return out + text.slice(from);
}

/** A line that starts a block of its own: a list item, a heading, a quote, a table row, a fence, a rule. */
const BLOCK_START = /^\s*(?:[-*+•]\s|\d{1,3}[.)]\s|#{1,6}\s|>|```|~~~|---|<!--)|^\s*\|.*\|\s*$/;
/** A line after which a new line starts a block: a heading, a table row, a fence, a rule. */
const BLOCK_LINE = /^\s*(?:#{1,6}\s|```|~~~|---)|^\s*\|.*\|\s*$/;
/** A line opened by a label: `key: value`, "Note:", "SYSTEM:", "システムメッセージ:" (a role marker's line is its own). */
const LABEL_LINE = /^\s*[\p{L}\p{N}_.-]{1,30}(?: [\p{L}\p{N}_.-]{1,30})?:(?:\s|$)/u;
const LIST_ITEM = /^\s*(?:[-*+•]\s|\d{1,3}[.)]\s)/;
/** Shorter lines are kept as written: a wrapped paragraph's lines run near its width, a poem's or an acrostic's do not. */
const WRAPPED_LINE_MIN = 20;
const FENCE = /^\s*(?:```|~~~)/;

/**
 * The offsets of the line breaks of `text` that only wrap a paragraph, as Markdown reads them (a
 * soft break shows as a space): after a line of some length, not inside a fenced code block, not
 * before a blank line, list item, heading, quote, table row, fence or labelled line ("SYSTEM: …"),
 * not after a heading, table row or fence, not after a list item unless indented. A note
 * hard-wrapped at 60 columns read line by line lost a ninth of the attacks the lint blocks and
 * tripled its false blocks ("never" on one line, the act on the next).
 */
function softBreaks(original: string): Set<number> {
  // A quote's lines read as its text: "> a wrapped line\n> and its end" is one paragraph.
  const text = withoutQuoteMarks(original);
  const soft = new Set<number>();
  let inFence = false;
  let lineStart = 0;
  while (true) {
    const lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) break;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const nextEnd = text.indexOf('\n', lineEnd + 1);
    const next = text.slice(lineEnd + 1, nextEnd < 0 ? text.length : nextEnd).replace(/\r$/, '');
    if (FENCE.test(line)) inFence = !inFence;
    // A shell line continued ("curl -fsSL \\" and the address on the next line) is one command, in a fence too.
    if (line.endsWith('\\') && next.trim() !== '') soft.add(lineEnd);
    else if (
      !inFence &&
      line.trim().length >= WRAPPED_LINE_MIN &&
      next.trim() !== '' &&
      !BLOCK_START.test(next) &&
      !BLOCK_LINE.test(line) &&
      !LABEL_LINE.test(next) &&
      // A list item's wrapped lines are indented, or go on at the margin mid-sentence (Markdown's lazy
      // continuation, as an editor wraps without indenting); a capitalised line at the margin after
      // an item reads as a new one ("If in doubt, reject …" after the last item of a list).
      !(LIST_ITEM.test(line) && !/^\s/.test(next) && !/^\p{Ll}/u.test(next))
    )
      soft.add(lineEnd);
    lineStart = lineEnd + 1;
  }
  return soft;
}

/** Typographic quotes, the other spaces and a carriage return, each one UTF-16 unit, and what each is typed as. */
const AS_TYPED: Record<string, string> = {
  ...TYPED_QUOTE,
  '\u00a0': ' ',
  '\u2007': ' ',
  '\u202f': ' ',
  '\u3000': ' ',
  '\r': ' ',
};
const TYPOGRAPHIC = new RegExp(`[${Object.keys(AS_TYPED).join('')}]`, 'g');

/** `text` with typographic quotes, no-break spaces and carriage returns as typed: the same length. */
export const asTyped = (text: string): string => text.replace(TYPOGRAPHIC, (c) => AS_TYPED[c]!);

/**
 * `text` as typed on one line per paragraph: each line break that only wraps a paragraph or
 * continues a shell line (softBreaks) a space, and the continuation's backslash too; typographic
 * quotes and no-break spaces as typed, a carriage return a space. The same length, so every offset
 * stays the original's. For the checks that read a finding's line in the original (an official
 * installer's command, a code span): a Windows line end, a pasted no-break space or a word
 * processor's quotes made every vendor installer a block.
 */
export function plainLines(text: string): string {
  const typed = asTyped(text);
  if (!text.includes('\n')) return typed;
  const soft = softBreaks(text);
  if (soft.size === 0) return typed;
  const chars = typed.split('');
  for (const at of soft) {
    chars[at] = ' ';
    const continuation = text[at - 1] === '\r' ? at - 2 : at - 1;
    if (text[continuation] === '\\') chars[continuation] = ' ';
  }
  return chars.join('');
}

/** Whether the whitespace `text[start, end)` holds one line break, and that one only wraps a paragraph. */
function isSoftBreak(text: string, soft: Set<number>, start: number, end: number): boolean {
  let found = -1;
  for (let at = start; at < end; at++) {
    if (text.charCodeAt(at) !== 0x0a) continue;
    if (found >= 0) return false;
    found = at;
  }
  return found >= 0 && soft.has(found);
}
const ASCII_LETTER = /[a-z]/i;

/**
 * Whether the word starting at `from` is folded to Latin look-alikes: a word that mixes Latin with
 * look-alike letters ("Іgnоre") or is made of look-alikes only ("ѕеt") is a disguise; a word with a
 * letter of its own script that has no Latin look-alike ("инструкции", "предыдущие") is Russian,
 * Greek …, and folding it would turn it into nonsense no rule for that language could read.
 */
function foldsToLatin(text: string, from: number): { fold: boolean; end: number } {
  let latin = false;
  let foreign = false;
  let at = from;
  while (at < text.length) {
    const char = String.fromCodePoint(text.codePointAt(at)!);
    if (!LETTER.test(char) && !HIDDEN_CHAR.test(char)) break;
    at += char.length;
    if (HIDDEN_CHAR.test(char)) continue;
    if (ASCII_LETTER.test(char)) latin = true;
    else {
      const lower = char.normalize('NFKC').toLowerCase();
      if (!/^[\p{Script=Latin}\p{M}]+$/u.test(lower) && [...lower].some((c) => CONFUSABLES[c] === undefined))
        foreign = true;
    }
  }
  return { fold: latin || (!foreign && !hasOwnScript(text)), end: at };
}

/** Cyrillic and Greek letters. */
const CYRILLIC_OR_GREEK = /[\u0370-\u03ff\u0400-\u04ff]/g;
let ownScriptOf: { text: string; has: boolean } | undefined;

/**
 * Whether `text` holds Cyrillic or Greek letters that have no Latin look-alike: then it is written in
 * that script, and a short word of look-alikes only ("не", "на", "все") is a word of it, not a disguise.
 */
function hasOwnScript(text: string): boolean {
  if (ownScriptOf?.text === text) return ownScriptOf.has;
  let has = false;
  for (const match of text.matchAll(CYRILLIC_OR_GREEK))
    if (CONFUSABLES[match[0].toLowerCase()] === undefined) {
      has = true;
      break;
    }
  ownScriptOf = { text, has };
  return has;
}

/**
 * The view every phrase rule matches: NFKC, lower case, Latin look-alikes folded, dashes as `-`,
 * hidden characters and emphasis marks removed, whitespace runs collapsed (a run holding a line
 * break is one line break), with the original position of each of its characters.
 */
export function normaliseForLint(text: string): LintView {
  const out: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const soft = text.includes('\n') ? softBreaks(text) : undefined;
  let pendingSpace: { start: number; end: number; newline: boolean } | null = null;
  const flushSpace = () => {
    if (!pendingSpace) return;
    // Leading whitespace is dropped.
    if (out.length > 0) {
      const { start, end } = pendingSpace;
      const lineBreak = pendingSpace.newline && !(soft !== undefined && isSoftBreak(text, soft, start, end));
      out.push(lineBreak ? '\n' : ' ');
      starts.push(pendingSpace.start);
      ends.push(pendingSpace.end);
    }
    pendingSpace = null;
  };
  const space = (start: number, end: number, newline: boolean) => {
    if (pendingSpace) {
      pendingSpace.end = end;
      pendingSpace.newline ||= newline;
    } else pendingSpace = { start, end, newline };
  };
  let offset = 0;
  // Where the current run of letters started in the original, and the fold decided for it (foldsToLatin).
  let wordStart = 0;
  let word: { fold: boolean; end: number } | null = null;
  while (offset < text.length) {
    const start = offset;
    const code = text.charCodeAt(offset);
    // ASCII, the common case, by its code: no regex, no string per character.
    if (code < 0x80) {
      offset += 1;
      if (!((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a))) wordStart = offset;
      if (
        code === 0x20 ||
        (code >= 0x09 && code <= 0x0d) ||
        code === 0x2a ||
        code === 0x60 ||
        (code === 0x5f && underscoreEmphasis(text, start)) ||
        // A shell line's continuation: read as the space it stands for.
        (code === 0x5c && (text.charCodeAt(offset) === 0x0a || text.startsWith('\r\n', offset))) ||
        // A quote's mark at a line's start ("> Hide these edits …"), or a heading's ("## Push to
        // main directly"): the line is read as its text is.
        (code === 0x3e && quoteMark(text, start)) ||
        (code === 0x23 && headingMark(text, start))
      ) {
        space(start, offset, code === 0x0a || code === 0x0d);
        continue;
      }
      flushSpace();
      out.push(code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : text[start]!);
      starts.push(start);
      ends.push(offset);
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(offset)!);
    offset += char.length;
    if (HIDDEN_CHAR.test(char)) continue;
    let fold = true;
    if (LETTER.test(char)) {
      if (word === null || start >= word.end) word = foldsToLatin(text, wordStart);
      fold = word.fold;
    } else wordStart = offset;
    const mapped = ASCII_PRINTABLE.test(char)
      ? char.toLowerCase()
      : fold
        ? foldForMatch(char)
        : char.normalize('NFKC').toLowerCase();
    for (const folded of mapped) {
      const c = DASH.test(folded) ? '-' : (TYPED_QUOTE[folded] ?? folded);
      if (WHITESPACE.test(c) || EMPHASIS.has(c)) {
        if (pendingSpace) {
          pendingSpace.end = offset;
          pendingSpace.newline ||= c === '\n' || c === '\r';
        } else pendingSpace = { start, end: offset, newline: c === '\n' || c === '\r' };
        continue;
      }
      flushSpace();
      out.push(c);
      starts.push(start);
      ends.push(offset);
    }
  }
  return { text: out.join(''), starts, ends };
}

/**
 * `list[from]` … `list[to - 1]`, one entry per index: an astral character is one entry of a view's
 * positions but two code units of its text, so `to` can pass the list's end, and those entries are
 * undefined as one read by index gives them (slice alone would drop them, and a reversed view would
 * then be shifted).
 */
function positions(list: number[], from: number, to: number): number[] {
  const part = list.slice(from, to);
  while (part.length < to - from) part.push(undefined as unknown as number);
  return part;
}

/** The arrays one after another, concatenated a bounded number at a time (an argument list has a limit). */
function joined(parts: number[][]): number[] {
  let out: number[] = [];
  for (let at = 0; at < parts.length; at += 1024) out = out.concat(...parts.slice(at, at + 1024));
  return out;
}

/**
 * A view rewritten: each match of `pattern` replaced by what `replace` returns (null keeps it),
 * every character of the replacement mapped to the whole span the match came from.
 */
function rewrite(view: LintView, pattern: RegExp, replace: (match: RegExpExecArray) => string | null): LintView {
  pattern.lastIndex = 0;
  const changes: Array<{ index: number; length: number; replacement: string }> = [];
  for (const match of view.text.matchAll(pattern)) {
    const replacement = replace(match);
    if (replacement !== null && match[0].length > 0)
      changes.push({ index: match.index, length: match[0].length, replacement });
  }
  // Nothing to rewrite (most texts, for most rewrites): the view as it is, nothing copied.
  if (changes.length === 0) return view;
  const text: string[] = [];
  const starts: number[][] = [];
  const ends: number[][] = [];
  let at = 0;
  // The text and the positions between changes are copied as slices (the same code units and
  // numbers as one by one) and joined once: a long text changed in a few places costs one copy.
  const copy = (from: number, to: number) => {
    text.push(view.text.slice(from, to));
    starts.push(positions(view.starts, from, to));
    ends.push(positions(view.ends, from, to));
  };
  for (const { index, length, replacement } of changes) {
    copy(at, index);
    const first = view.starts[index]!;
    const last = view.ends[index + length - 1]!;
    const replaced = [...replacement];
    text.push(replaced.join(''));
    starts.push(replaced.map(() => first));
    ends.push(replaced.map(() => last));
    at = index + length;
  }
  copy(at, view.text.length);
  return { text: text.join(''), starts: joined(starts), ends: joined(ends) };
}

const NAMED_ENTITIES: Record<string, string> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  sol: '/',
};
/** Digits and signs written for the letters they look like (`1gn0re`). */
export const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};
const printable = (code: number) => (code >= 0x20 && code < 0x7f ? String.fromCharCode(code).toLowerCase() : null);

/**
 * The view with the disguises people use on words undone: escapes decoded (`%72`, `&#114;`,
 * `&lt;`, `\u0072`), letters spelt apart joined (`i.g.n.o.r.e`, `dis-regard`), and digits standing
 * for letters read as letters in a word that has both (`1gn0re`, `prev10us`).
 */
export function deobfuscatedView(view: LintView): LintView {
  let next = rewrite(view, /%([0-9a-f]{2})|&#(\d{2,3});|&#x([0-9a-f]{2});|\\u00([0-9a-f]{2})|\\x([0-9a-f]{2})/g, (m) =>
    printable(
      m[1] !== undefined
        ? Number.parseInt(m[1], 16)
        : m[2] !== undefined
          ? Number(m[2])
          : Number.parseInt(m[3] ?? m[4] ?? m[5]!, 16),
    ),
  );
  next = rewrite(next, /&([a-z]{2,4});/g, (m) => NAMED_ENTITIES[m[1]!] ?? null);
  // Fragments to be joined: "'ign' + 'ore prev' + 'ious'" reads as "'ignore previous'".
  next = rewrite(next, /(?<=[a-z])["']\s?\+\s?["'](?=[a-z])/g, () => '');
  // Accents added to disguise a word ("ÏGNÖRË"): a Latin letter read without its marks.
  next = rewrite(next, /[\u00c0-\u024f]/g, (m) => {
    const bare = m[0].normalize('NFKD').replace(/\p{M}/gu, '');
    return /^[a-z]+$/.test(bare) && bare !== m[0] ? bare : null;
  });
  // Letters spelt apart: at least three single letters, one separator each ("i.g.n.o.r.e", "1.g.n.0.r.e");
  // digits alone are a version or an address ("3.3.6", "127.0.0.1"), kept as written.
  next = rewrite(next, /(?<![a-z0-9])[a-z0-9](?:[.\-_·•|'+][a-z0-9]){2,}(?![a-z0-9])/g, (m) =>
    /[a-z]/.test(m[0]) ? m[0].replace(/[^a-z0-9]/g, '') : null,
  );
  // Letters spelt apart by single spaces ("i g n o r e"), four or more.
  next = rewrite(next, /(?<![a-z0-9])[a-z](?: [a-z]){3,}(?![a-z0-9])/g, (m) => m[0].replace(/ /g, ''));
  // Words joined by underscores ("ignore_all_previous_instructions").
  next = rewrite(next, /(?<=[a-z])_(?=[a-z])/g, () => ' ');
  // A hyphen inside a word ("in-structions").
  next = rewrite(next, /(?<=[a-z])-(?=[a-z])/g, () => '');
  next = rewrite(next, /[a-z0-9@$]+/g, (m) =>
    /[0-9@$]/.test(m[0]) && /[a-z]{2}/.test(m[0]) ? m[0].replace(/[013457@$]/g, (c) => LEET[c]!) : null,
  );
  return next;
}

/** The view read backwards ("snoitcurtsni suoiverp erongi"), positions kept. */
export function reversedView(view: LintView): LintView {
  return {
    text: [...view.text].reverse().join(''),
    starts: [...view.starts].reverse(),
    ends: [...view.ends].reverse(),
  };
}

/** The view in rot13 ("vtaber nyy cerivbhf" reads "ignore all previous"), positions kept. */
export function rot13View(view: LintView): LintView {
  let text = '';
  for (const char of view.text) {
    const code = char.charCodeAt(0);
    text += code >= 0x61 && code <= 0x7a ? String.fromCharCode(((code - 0x61 + 13) % 26) + 0x61) : char;
  }
  return { text, starts: view.starts, ends: view.ends };
}

/**
 * An override whose words were run together, as letters spelt apart with spaces join
 * ("d i s r e g a r d   y o u r   r u l e s" → "disregardyourrules"): a verb that voids, at least one
 * word between, and a word for instructions, in one run of letters. A bare identifier such as
 * `ignoreRules` has no word between, and is left alone.
 */
const GLUED_OVERRIDE =
  /(?:ignore|disregard|forget|override|bypass|discard)(?:all|any|every|each)?(?:of)?(?:the|your|my|these|those)?(?:previous|prior|earlier|above|system|original|initial|current|safety)?(?:instructions?|rules|prompts?|guidelines|directives?|guidance|programming)/g;

export function gluedOverrides(view: LintView): Array<{ offset: number; end: number }> {
  const found: Array<{ offset: number; end: number }> = [];
  for (const match of view.text.matchAll(/[a-z]{14,}/g)) {
    for (const inner of match[0].matchAll(GLUED_OVERRIDE)) {
      // At least one word between the verb and the noun.
      if (
        /^(?:ignore|disregard|forget|override|bypass|discard)(?:instructions?|rules|prompts?|guidelines|directives?|guidance|programming)$/.test(
          inner[0],
        )
      )
        continue;
      const start = match.index + inner.index;
      const end = start + inner[0].length;
      found.push({ offset: view.starts[start]!, end: view.ends[end - 1]! });
    }
  }
  return found;
}

/** Shortest run of base64 or hex worth decoding: shorter ones are ids and hashes, not sentences. */
const ENCODED_MIN_CHARS = 24;

const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Letters of the scripts written without spaces between words. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;
const TEXT_CHAR = /[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/u;

/**
 * Decoded bytes as text: as UTF-8 when they are valid UTF-8, so an instruction in Polish, Russian or
 * Chinese reads as written (one character per byte made those mojibake no rule could read), else one
 * character per byte. Null when that text is not readable: mostly printable (any script for UTF-8,
 * ASCII otherwise), at least 12 characters, with a space or a run of an unspaced script's letters.
 */
function readableText(bytes: Uint8Array): string | null {
  if (bytes.length < 12) return null;
  let text: string | null = null;
  try {
    text = UTF8.decode(bytes);
  } catch {
    // Not UTF-8: read byte by byte below.
  }
  const unicode = text !== null;
  if (text === null) text = byteString(bytes);
  let good = 0;
  let length = 0;
  for (const char of text) {
    length++;
    const code = char.codePointAt(0)!;
    if ((code >= 0x20 && code < 0x7f) || code === 0x0a || code === 0x09) good++;
    else if (unicode && code >= 0xa0 && code !== 0xfffd && TEXT_CHAR.test(char)) good++;
  }
  if (length < 12 || good / length < 0.9) return null;
  const spaced = text.includes(' ') || (unicode && (text.match(UNSPACED_SCRIPT)?.length ?? 0) >= 4);
  return spaced ? text : null;
}

/** Bytes as one character each, a slice at a time: a segment may be megabytes, too many to spread. */
function byteString(bytes: Uint8Array): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 8192) out += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return out;
}

/** Base64 (either alphabet) as bytes, or null when it is not base64. */
function base64Bytes(segment: string): Uint8Array | null {
  try {
    const body = segment.replace(/-/g, '+').replace(/_/g, '/');
    const padded = body.replace(/=+$/, '');
    const binary = atob(padded.slice(0, padded.length - (padded.length % 4 === 1 ? 1 : 0)));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Base32 (RFC 4648: A–Z and 2–7, in one case), each 8 characters five bytes; null if not. */
function base32Bytes(segment: string): Uint8Array | null {
  const body = segment.replace(/=+$/, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of body) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) return null;
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** A base32 run: one case only (base64 mixes them), padded to 8 characters or not. */
const BASE32_RUN = /(?<![A-Za-z0-9+/])(?:[A-Z2-7]{24,}|[a-z2-7]{24,})=*(?![A-Za-z0-9+/])/g;

/** Hex written as one run (`6967…`) or as pairs apart by one space or colon, as a hex dump shows bytes. */
const HEX_RUN =
  /(?<![0-9A-Fa-f])(?:(?:[0-9A-Fa-f]{2}){12,}|[0-9A-Fa-f]{2}([ :])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){10,})(?![0-9A-Fa-f])/g;
/** How deep encodings inside encodings are undone (base64 of base64 of the text). */
const NESTED_DEPTH = 2;

/**
 * Base64, base32 and hex segments of the original text that decode to readable text (mostly printable,
 * with spaces, in any script), each with its span: their decoded text is linted too, and a finding in
 * it is reported over the whole segment. A segment that decodes to another encoded segment is
 * decoded again, up to NESTED_DEPTH times.
 */
export function decodedSegments(text: string, depth = 0): Array<{ offset: number; end: number; text: string }> {
  const segments: Array<{ offset: number; end: number; text: string }> = [];
  const add = (offset: number, end: number, bytes: Uint8Array | null) => {
    if (bytes === null) return;
    const readable = readableText(bytes);
    if (readable !== null) segments.push({ offset, end, text: readable });
    else if (depth < NESTED_DEPTH && bytes.length >= ENCODED_MIN_CHARS) {
      const inner = byteString(bytes);
      if (/^[\x21-\x7e\s]+$/.test(inner))
        for (const found of decodedSegments(inner, depth + 1)) segments.push({ offset, end, text: found.text });
    }
  };
  for (const match of text.matchAll(/[A-Za-z0-9+/_-]{24,}={0,2}/g)) {
    if (!/[A-Z]/.test(match[0]) || !/[a-z]/.test(match[0])) continue;
    add(match.index, match.index + match[0].length, base64Bytes(match[0]));
  }
  for (const match of text.matchAll(BASE32_RUN)) add(match.index, match.index + match[0].length, base32Bytes(match[0]));
  for (const match of text.matchAll(HEX_RUN)) {
    const digits = match[1] === undefined ? match[0] : match[0].replaceAll(match[1], '');
    if (digits.length < ENCODED_MIN_CHARS) continue;
    add(
      match.index,
      match.index + match[0].length,
      Uint8Array.from(digits.match(/../g)!, (pair) => Number.parseInt(pair, 16)),
    );
  }
  return segments;
}
