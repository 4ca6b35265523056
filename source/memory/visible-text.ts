// Hidden characters made visible: what a person reviews must be what a model reads. A zero-width
// space, a bidi override or a Unicode tag character shows as nothing (or reorders what is around
// it) on a terminal, yet a model reads it — so wherever memory text is shown for review (CLI,
// TUI, a plan's diff) or given to a session (the snapshot), each such character is written as
// `⟨U+XXXX⟩`. Pure and free of `node:` imports: the SessionStart hook imports it on its fast path.
import { TERMINAL_CONTROL } from '../terminal-controls.js';

/**
 * Characters that render as nothing or change how the text around them is ordered or drawn:
 * format characters (Cf: zero-width space/joiners, word joiner, soft hyphen, BOM, bidi embeddings,
 * overrides, isolates and marks, tag characters, interlinear annotations), variation selectors,
 * the combining grapheme joiner, Hangul and Khmer fillers and Mongolian selectors, and lone
 * surrogates (a broken pair shows as nothing or a box, never as what it hides).
 */
// Built from a string: the class holds combining marks (the grapheme joiner, variation selectors)
// on their own, which is the point, and a literal would read as a misleading class to the linter.
export const HIDDEN_CHAR = new RegExp(
  '[\\p{Cf}\\p{Cs}\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u3164\\uFE00-\\uFE0F\\uFFA0\\u{E0100}-\\u{E01EF}]',
  'u',
);

/** `⟨U+200B⟩`: at least four upper-case hex digits, as Unicode writes code points. */
export function codePointLabel(codePoint: number): string {
  return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * Terminal controls are labelled where text is shown too (not a poisoning finding: the lint's
 * HIDDEN_CHAR leaves them out): a text pasted with colours would otherwise act on the reviewer's
 * terminal instead of being read.
 */
const SHOWN_AS_LABEL = new RegExp(`${HIDDEN_CHAR.source}|${TERMINAL_CONTROL.source}`, 'gu');

/** Printable ASCII, tabs and line breaks hold no hidden character: the common case costs one test. */
const PLAIN = /^(?:[\t\n\u0020-\u007e]|\r\n)*$/;

/** The text with every hidden character and terminal control replaced by its `⟨U+XXXX⟩` label; every other character kept as it is. */
export function visibleText(text: string): string {
  if (PLAIN.test(text)) return text;
  return text.replace(SHOWN_AS_LABEL, (char) => codePointLabel(char.codePointAt(0)!));
}

/** Whether the text holds a character visibleText would label. */
export function hasHiddenChars(text: string): boolean {
  return !PLAIN.test(text) && (HIDDEN_CHAR.test(text) || TERMINAL_CONTROL.test(text));
}

/**
 * Latin look-alikes NFKC keeps apart: Cyrillic and Greek letters drawn like Latin ones ("іgnore"
 * with a Cyrillic і). Folded only where text is matched against a pattern, never where it is shown.
 */
export const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ɡ: 'g',
  ı: 'i',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
};

/** One character as patterns see it: its NFKC form, lower case, Latin look-alikes folded. */
export function foldForMatch(char: string): string {
  if (char.length === 1 && char.charCodeAt(0) < 0x80) return char.toLowerCase();
  return [...char.normalize('NFKC').toLowerCase()].map((c) => CONFUSABLES[c] ?? c).join('');
}
