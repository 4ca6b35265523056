// Hidden characters made visible: what a person reviews must be what a model reads. A zero-width
// space, a bidi override or a Unicode tag character shows as nothing (or reorders what is around
// it) on a terminal, yet a model reads it — so wherever memory text is shown for review (CLI,
// TUI, a plan's diff) or given to a session (the snapshot), each such character is written as
// `⟨U+XXXX⟩`. Pure and free of `node:` imports: the SessionStart hook imports it on its fast path.

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
const HIDDEN_CHARS = new RegExp(HIDDEN_CHAR.source, 'gu');

/** `⟨U+200B⟩`: at least four upper-case hex digits, as Unicode writes code points. */
export function codePointLabel(codePoint: number): string {
  return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** Printable ASCII, tabs and line breaks hold no hidden character: the common case costs one test. */
const PLAIN = /^[\t\n\r\u0020-\u007e]*$/;

/** The text with every hidden character replaced by its `⟨U+XXXX⟩` label; every other character kept as it is. */
export function visibleText(text: string): string {
  if (PLAIN.test(text)) return text;
  return text.replace(HIDDEN_CHARS, (char) => codePointLabel(char.codePointAt(0)!));
}

/**
 * The text for a terminal: visibleText, and control characters labelled too but tabs, line breaks
 * and a carriage return before one — a terminal acts on an escape or a lone carriage return
 * (colouring, concealing, overwriting) instead of showing it. For what a person reads, not the model.
 */
export function terminalText(text: string): string {
  if (PLAIN.test(text) && !text.includes('\r')) return text;
  return visibleText(text).replace(/\r(?!\n)|[^\P{Cc}\t\n\r]/gu, (char) => codePointLabel(char.codePointAt(0)!));
}

/** Whether the text holds a character visibleText would label. */
export function hasHiddenChars(text: string): boolean {
  return !PLAIN.test(text) && HIDDEN_CHAR.test(text);
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
