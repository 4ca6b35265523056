// How many terminal columns text takes: wide East Asian characters and emoji take two, combining
// marks and joiners none. Counting code points instead puts the cursor of a CJK line off screen.
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const EMOJI = /\p{Extended_Pictographic}/u;
// Made at first use: ICU's segmenter costs milliseconds to build, and most text is printable ASCII,
// which needs none.
let segmenter: Intl.Segmenter | undefined;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns of one code point (a grapheme's first code point decides for the whole grapheme). */
export function codePointColumns(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (ZERO_WIDTH.test(char) || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  if (EMOJI.test(char) && code > 0xff) return 2;
  return isWide(code) ? 2 : 1;
}

export function textColumns(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let columns = 0;
  for (const { segment } of segmenter.segment(text)) {
    const first = String.fromCodePoint(segment.codePointAt(0) ?? 0);
    columns += segment.includes('\u200d') || /\ufe0f/.test(segment) ? 2 : codePointColumns(first);
  }
  return columns;
}

/** East Asian Wide and Fullwidth blocks (Unicode 15, the ranges terminals draw two columns wide). */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xa960 && code <= 0xa97f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
