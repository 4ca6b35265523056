// What a regular expression's source says about every match it can make, read once so the poisoning
// lint can skip work that provably finds nothing (poison-lint.ts):
//
// - `keywords`: strings one of which every match holds (an alternation's literal words, a sequence's
//   literal run). A text that holds none of them has no match, so the pattern need not run — nor be
//   compiled, which is most of a short note's first lint.
// - `lineLocal`: no match can hold a line break, and nothing the pattern looks at around a match
//   (`\b`, lookarounds) can see past one, so the matches in a text are the matches in each of its
//   lines, and a line without a keyword has none.
//
// Conservative by construction: anything the reader does not know (a flag other than g, u, m, s, an
// escape it does not list, `i`'s case folding) yields no keywords and not line-local, and the
// pattern runs as before. Pure; no `node:` imports.

export interface RegexShape {
  /** Every match holds one of these (null: nothing proven). */
  keywords: string[] | null;
  /** No match holds `\n`, and `\n` and a text's edge look the same to every assertion. */
  lineLocal: boolean;
  /** The pattern has run (so is compiled), or its keywords were read often enough: mayMatch no longer reads them. */
  ran: boolean;
  /** How many texts mayMatch has read the keywords of. */
  checks: number;
}

/** A parsed node: what it can match exactly (a small finite set of strings, null: unknown) and what it must hold. */
interface Info {
  /** Every string the node can match, when that is a small finite set. */
  exact: readonly string[] | null;
  /** One of these is a substring of every match (null: none proven). */
  required: readonly string[] | null;
  /** Some match, or some assertion's look-around, can hold `\n`. */
  newline: boolean;
}

/** Largest exact set kept: beyond it, a node is read as unknown (still sound, only less precise). */
const MAX_EXACT = 48;

class Unsupported extends Error {}

/**
 * A run of characters none of which has a meaning of its own outside a class (in non-u patterns
 * `]`, `{`, `}` may be plain: atom() decides), read natively rather than one by one.
 */
const PLAIN_RUN = /[^\\^$.|?*+()[\]{}]+/y;

/** Characters that stand for themselves when escaped. */
const ESCAPED_PUNCTUATION = new Set([...'^$\\.*+?()[]{}|/-,:;=!<>\'"&#%@~`_ ']);

const ZERO_WIDTH: Info = { exact: [''], required: null, newline: false };
const UNKNOWN_CHAR = (newline: boolean): Info => ({ exact: null, required: null, newline });

/** The property names whose characters are letters, marks, numbers or dashes: none of them is `\n`. */
const NO_NEWLINE_PROPERTY = /^(?:L|Letter|M|Mark|N|Number|Nd|Lu|Ll|Pd|Han|Hiragana|Katakana|Hangul|Script=\w+|sc=\w+)$/;

type Strings = readonly string[];

function usable(set: Strings): Strings | null {
  return set.length > 0 && !set.includes('') ? set : null;
}

/** The better of two requirements: the one whose shortest keyword is longer (rarer), then the smaller. */
function better(a: Strings | null, b: Strings | null): Strings | null {
  if (a === null) return b;
  if (b === null) return a;
  const shortest = (s: Strings) => {
    let min = Infinity;
    for (const k of s) if (k.length < min) min = k.length;
    return min;
  };
  const [la, lb] = [shortest(a), shortest(b)];
  if (la !== lb) return la > lb ? a : b;
  return a.length <= b.length ? a : b;
}

function product(a: Strings, b: Strings): Strings | null {
  if (a.length * b.length > MAX_EXACT) return null;
  // One string each (the common case, a run of literal characters): joined without a loop.
  if (a.length === 1 && b.length === 1) return [a[0]! + b[0]!];
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(x + y);
  return out;
}

class Parser {
  private at = 0;
  /** The source, read by UTF-16 unit; a literal character is a code point under u (`char()`). */
  private readonly chars: string;
  /** `^` or `$` seen without the m flag: they match at a text's edge only, not a line's. */
  anchored = false;

  constructor(
    source: string,
    private readonly unicode: boolean,
    private readonly multiline: boolean,
    private readonly dotAll: boolean,
  ) {
    this.chars = source;
  }

  parse(): Info {
    const info = this.disjunction();
    if (this.at !== this.chars.length) throw new Unsupported('trailing');
    return info;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.at + offset];
  }

  /** The next character, consumed: with u a code point, without it a UTF-16 unit (as the engine reads it). */
  private char(): string | undefined {
    if (this.at >= this.chars.length) return undefined;
    const c = this.unicode ? String.fromCodePoint(this.chars.codePointAt(this.at)!) : this.chars[this.at]!;
    this.at += c.length;
    return c;
  }

  private disjunction(): Info {
    const alternatives = [this.alternative()];
    while (this.peek() === '|') {
      this.at++;
      alternatives.push(this.alternative());
    }
    if (alternatives.length === 1) return alternatives[0]!;
    let exact: string[] | null = [];
    let required: string[] | null = [];
    let newline = false;
    for (const alt of alternatives) {
      newline ||= alt.newline;
      if (exact !== null && alt.exact !== null) {
        exact.push(...alt.exact);
        if (exact.length > MAX_EXACT) exact = null;
      } else exact = null;
      // Every alternative must bring a requirement of its own; one that can match anything voids it.
      const own = alt.exact !== null ? usable(alt.exact) : alt.required;
      if (required !== null && own !== null) required.push(...own);
      else required = null;
    }
    return { exact, required: exact !== null ? null : required, newline };
  }

  private alternative(): Info {
    const items: Info[] = [];
    while (this.at < this.chars.length && this.peek() !== '|' && this.peek() !== ')') {
      // Most of a pattern is plain words: read as one string, not one node a character.
      const literal = this.literalRun();
      items.push(literal === '' ? this.term() : { exact: [literal], required: null, newline: literal.includes('\n') });
    }
    // Runs of exact items multiply out into literal strings; any run, or any item's own requirement, is one.
    let required: Strings | null = null;
    let newline = false;
    let run: Strings | null = [''];
    // Whether the run is the whole alternative (no unknown item, no run restarted): then it is exact.
    let whole = true;
    for (const item of items) {
      newline ||= item.newline;
      if (item.exact !== null) {
        const joined: Strings | null = run === null ? null : product(run, item.exact);
        if (joined === null) {
          // Too many strings to join: the run so far is a requirement of its own, and a new one starts.
          if (run !== null) required = better(required, usable(run));
          run = item.exact;
          whole = false;
        } else run = joined;
      } else {
        if (run !== null) required = better(required, usable(run));
        required = better(required, item.required);
        run = null;
        whole = false;
      }
    }
    if (whole) return { exact: run, required: null, newline };
    if (run !== null) required = better(required, usable(run));
    return { exact: null, required, newline };
  }

  /** Plain characters up to the next special one; the last is left to term() when a quantifier follows it. */
  private literalRun(): string {
    PLAIN_RUN.lastIndex = this.at;
    const run = PLAIN_RUN.exec(this.chars);
    if (run === null) return '';
    let end = this.at + run[0].length;
    const next = this.chars[end];
    if (next === '*' || next === '+' || next === '?' || next === '{') {
      // The quantifier binds the last character (a code point under u: both halves of a pair).
      const low = this.chars.charCodeAt(end - 1);
      const pair = this.unicode && low >= 0xdc00 && low <= 0xdfff && end - 2 >= this.at;
      end -= pair && this.chars.charCodeAt(end - 2) >= 0xd800 && this.chars.charCodeAt(end - 2) <= 0xdbff ? 2 : 1;
    }
    const literal = this.chars.slice(this.at, end);
    this.at = end;
    return literal;
  }

  private term(): Info {
    const atom = this.atom();
    const quantifier = this.quantifier();
    if (quantifier === null) return atom;
    const { min, max } = quantifier;
    if (min === 0) return { exact: null, required: null, newline: atom.newline };
    if (min === 1 && max === 1) return atom;
    return { exact: null, required: atom.exact !== null ? usable(atom.exact) : atom.required, newline: atom.newline };
  }

  private quantifier(): { min: number; max: number } | null {
    const c = this.peek();
    let q: { min: number; max: number } | null = null;
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    else if (c === '{') {
      const rest = this.chars.slice(this.at, this.at + 24);
      const m = /^\{(\d+)(,(\d*))?\}/.exec(rest);
      if (m === null) {
        if (this.unicode) throw new Unsupported('brace');
        return null;
      }
      q = { min: Number(m[1]), max: m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]) };
      this.at += m[0].length - 1;
    }
    if (q === null) return null;
    this.at++;
    if (this.peek() === '?') this.at++;
    return q;
  }

  private atom(): Info {
    const c = this.char();
    if (c === undefined) throw new Unsupported('end');
    if (c === '^' || c === '$') {
      if (!this.multiline) this.anchored = true;
      return ZERO_WIDTH;
    }
    if (c === '.') return UNKNOWN_CHAR(this.dotAll);
    if (c === '[') return this.characterClass();
    if (c === '(') return this.group();
    if (c === '\\') return this.escape();
    if (c === ')' || c === '*' || c === '+' || c === '?') throw new Unsupported(c);
    if ((c === ']' || c === '{' || c === '}') && this.unicode) throw new Unsupported(c);
    return { exact: [c], required: null, newline: c === '\n' };
  }

  private group(): Info {
    let kind: 'capture' | 'plain' | 'look' = 'capture';
    if (this.peek() === '?') {
      const next = this.peek(1);
      if (next === ':') {
        kind = 'plain';
        this.at += 2;
      } else if (next === '=' || next === '!') {
        kind = 'look';
        this.at += 2;
      } else if (next === '<' && (this.peek(2) === '=' || this.peek(2) === '!')) {
        kind = 'look';
        this.at += 3;
      } else if (next === '<') {
        // A named group: skip its name.
        const close = this.chars.indexOf('>', this.at);
        if (close < 0) throw new Unsupported('name');
        this.at = close + 1;
      } else throw new Unsupported('group');
    }
    const inner = this.disjunction();
    if (this.chars[this.at++] !== ')') throw new Unsupported('unclosed');
    // A look-around matches nothing itself, but what it reads must not reach past a line either.
    return kind === 'look' ? { exact: [''], required: null, newline: inner.newline } : inner;
  }

  /** An escape outside a class. */
  private escape(): Info {
    const c = this.chars[this.at++];
    if (c === undefined) throw new Unsupported('escape');
    if (c === 'b' || c === 'B') return ZERO_WIDTH;
    const single = this.escapedChar(c);
    if (single !== null) return { exact: [single], required: null, newline: single === '\n' };
    const set = this.classEscape(c);
    if (set !== null) return UNKNOWN_CHAR(set !== 'no');
    throw new Unsupported(`\\${c}`);
  }

  /**
   * A class escape (`\d`, `\s`, `\p{L}` …): whether it holds `\n` — 'yes', 'no' or 'maybe'
   * (null: not a class escape).
   */
  private classEscape(c: string): 'yes' | 'no' | 'maybe' | null {
    if (c === 'd' || c === 'w' || c === 'S') return 'no';
    if (c === 's' || c === 'D' || c === 'W') return 'yes';
    if ((c === 'p' || c === 'P') && this.unicode) {
      if (this.peek() !== '{') throw new Unsupported('property');
      const close = this.chars.indexOf('}', this.at);
      if (close < 0) throw new Unsupported('property');
      const name = this.chars.slice(this.at + 1, close);
      this.at = close + 1;
      const known = NO_NEWLINE_PROPERTY.test(name);
      if (c === 'p') return known ? 'no' : 'maybe';
      return known ? 'yes' : 'maybe';
    }
    return null;
  }

  /** A single character an escape stands for (null: not one). */
  private escapedChar(c: string): string | null {
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v' };
    if (simple[c] !== undefined) return simple[c]!;
    if (c === '0' && !/[0-9]/.test(this.peek() ?? '')) return '\0';
    if (c === 'x') {
      const hex = this.chars.slice(this.at, this.at + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new Unsupported('\\x');
      this.at += 2;
      return String.fromCharCode(Number.parseInt(hex, 16));
    }
    if (c === 'u') {
      if (this.peek() === '{' && this.unicode) {
        const close = this.chars.indexOf('}', this.at);
        const hex = this.chars.slice(this.at + 1, close);
        if (close < 0 || !/^[0-9a-fA-F]{1,6}$/.test(hex)) throw new Unsupported('\\u{}');
        this.at = close + 1;
        return String.fromCodePoint(Number.parseInt(hex, 16));
      }
      const hex = this.chars.slice(this.at, this.at + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Unsupported('\\u');
      this.at += 4;
      // A surrogate pair written as two escapes is one character under u: not read here.
      const code = Number.parseInt(hex, 16);
      if (code >= 0xd800 && code <= 0xdfff) throw new Unsupported('surrogate');
      return String.fromCharCode(code);
    }
    // Escaped punctuation stands for itself; a letter or digit not listed above is read as unknown.
    if (ESCAPED_PUNCTUATION.has(c)) return c;
    return null;
  }

  /** `[…]` — its characters when it is a short list of them, and whether it can match `\n`. */
  private characterClass(): Info {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.at++;
    }
    const chars = new Set<string>();
    let exactable = true;
    let holdsNewline = 'no' as 'yes' | 'no' | 'maybe';
    const hold = (h: 'yes' | 'no' | 'maybe') => {
      if (h === 'yes') holdsNewline = 'yes';
      else if (h === 'maybe' && holdsNewline === 'no') holdsNewline = 'maybe';
    };
    /** One class atom: a character, or null for a class escape (already counted). */
    const classAtom = (): string | null => {
      const c = this.char();
      if (c === undefined) throw new Unsupported('class');
      if (c !== '\\') return c;
      const e = this.chars[this.at++];
      if (e === undefined) throw new Unsupported('class escape');
      if (e === 'b') return '\b';
      if (e === '-') return '-';
      const set = this.classEscape(e);
      if (set !== null) {
        hold(set);
        exactable = false;
        return null;
      }
      const single = this.escapedChar(e);
      if (single === null) throw new Unsupported(`[\\${e}]`);
      return single;
    };
    while (this.peek() !== ']') {
      if (this.at >= this.chars.length) throw new Unsupported('class');
      const from = classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.at++;
        const to = classAtom();
        if (from === null || to === null) throw new Unsupported('range');
        const [a, b] = [from.codePointAt(0)!, to.codePointAt(0)!];
        if (a <= 0x0a && b >= 0x0a) hold('yes');
        exactable = false;
        continue;
      }
      if (from === null) continue;
      if (from === '\n') hold('yes');
      chars.add(from);
    }
    this.at++;
    const newline = negated ? holdsNewline !== 'yes' : holdsNewline !== 'no';
    if (negated || !exactable || chars.size === 0 || chars.size > 8) return UNKNOWN_CHAR(newline);
    return { exact: [...chars], required: null, newline };
  }
}

/** Shapes by pattern object: the lint's patterns are module constants, read once each. */
const shapes = new WeakMap<RegExp, RegexShape>();

/** What `pattern`'s source proves about its matches (read once per pattern). */
export function regexShape(pattern: RegExp): RegexShape {
  let shape = shapes.get(pattern);
  if (shape === undefined) {
    shape = readShape(pattern.source, pattern.flags);
    shapes.set(pattern, shape);
  }
  return shape;
}

function readShape(source: string, flags: string): RegexShape {
  // i folds case (Kelvin sign, long s …): literal words would no longer be the text's own.
  if (!/^[gums]*$/.test(flags)) return { keywords: null, lineLocal: false, ran: false, checks: 0 };
  try {
    const parser = new Parser(source, flags.includes('u'), flags.includes('m'), flags.includes('s'));
    const info = parser.parse();
    const keywords = info.exact !== null ? usable(info.exact) : info.required;
    return {
      keywords: keywords === null ? null : [...new Set(keywords)],
      lineLocal: !info.newline && !parser.anchored,
      ran: false,
      checks: 0,
    };
  } catch (error) {
    if (error instanceof Unsupported) return { keywords: null, lineLocal: false, ran: false, checks: 0 };
    throw error;
  }
}

/**
 * How many characters a keyword check may read (keywords × text length) before it costs more than
 * running the pattern would: a long text with many keywords absent is read once per keyword.
 */
const KEYWORD_CHECK_BUDGET = 1 << 21;

/** A text this long, of many lines, is read by line for a line-local pattern (poison-lint.ts). */
export const LONG_TEXT = 4096;

/** Texts whose keywords mayMatch reads for a pattern that has not run: past them its compiling is paid once and is cheap. */
const MAX_CHECKS = 16;

/**
 * Whether `text` may hold a match of `pattern`: false only when it holds none of the pattern's
 * keywords. Asked only until the pattern first runs, for at most MAX_CHECKS texts: what the check
 * spares is the pattern's compiling (most of a process's first lint of a short note); a compiled
 * pattern runs about as fast as its keywords are read, and on a long text with many keywords absent
 * (KEYWORD_CHECK_BUDGET) far faster.
 */
export function mayMatch(pattern: RegExp, text: string): boolean {
  const shape = regexShape(pattern);
  const { keywords } = shape;
  if (shape.ran || keywords === null || keywords.length * text.length > KEYWORD_CHECK_BUDGET) return true;
  const may = keywords.some((keyword) => text.includes(keyword));
  if (may || ++shape.checks >= MAX_CHECKS) shape.ran = true;
  return may;
}

/**
 * Which of several keyword lists have a keyword in a text, read in one pass (Aho–Corasick over code
 * units): the structural rules ask it once per clause of a long text for all their lists at once
 * (poison-structure.ts), where one `includes` per keyword would read the clause hundreds of times.
 * Keywords are non-empty (an empty one would be found in every text but the empty one).
 */
export class KeywordLists {
  /** Per state: the state each next code unit leads to. State 0 is the root. */
  private readonly next: Array<Map<number, number>> = [new Map()];
  /** Per state: the state of its longest proper suffix that is also a state. */
  private readonly fail: number[] = [0];
  /** Per state: the lists one of whose keywords ends here (its suffixes' included). */
  private readonly out: number[][] = [[]];
  readonly size: number;

  constructor(lists: ReadonlyArray<readonly string[]>) {
    this.size = lists.length;
    lists.forEach((list, index) => {
      for (const keyword of list) {
        let state = 0;
        for (let i = 0; i < keyword.length; i++) {
          const code = keyword.charCodeAt(i);
          let to = this.next[state]!.get(code);
          if (to === undefined) {
            to = this.next.length;
            this.next.push(new Map());
            this.fail.push(0);
            this.out.push([]);
            this.next[state]!.set(code, to);
          }
          state = to;
        }
        if (!this.out[state]!.includes(index)) this.out[state]!.push(index);
      }
    });
    // Breadth first, so a state's suffix (shorter) is complete before the state is.
    const queue = [...this.next[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      for (const [code, to] of this.next[state]!) {
        let suffix = this.fail[state]!;
        while (suffix !== 0 && !this.next[suffix]!.has(code)) suffix = this.fail[suffix]!;
        this.fail[to] = this.next[suffix]!.get(code) ?? 0;
        for (const index of this.out[this.fail[to]!]!) if (!this.out[to]!.includes(index)) this.out[to]!.push(index);
        queue.push(to);
      }
    }
  }

  /** For each list, by index: 1 when `text` holds one of its keywords, else 0. */
  present(text: string): Uint8Array {
    const found = new Uint8Array(this.size);
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      let to = this.next[state]!.get(code);
      while (to === undefined && state !== 0) {
        state = this.fail[state]!;
        to = this.next[state]!.get(code);
      }
      state = to ?? 0;
      for (const index of this.out[state]!) found[index] = 1;
    }
    return found;
  }
}
