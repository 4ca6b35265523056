// What the secret lint reads: a text with its disguises taken off, and a map back to the text as
// written. A token can hide from a regex behind invisible characters, full-width letters, one
// character written as an escape, or a line break; the lint matches the normalised view and
// reports each finding at the original span, so masking the original by offset and length hides
// every character of the disguised secret (the invisible ones too). Base64 and hex segments that
// decode to text are decoded separately (`decodedSegments`) and linted as texts of their own.
//
// Pure and linear: one regex pass over the text for the view, one for each decoder, and every
// decoded segment is capped in size.

/** The transforms a finding can go through, in the order they are named. */
export const TRANSFORMS = [
  'nfkc',
  'zero-width',
  'wrapped',
  'html-entity',
  'url-escape',
  'json-escape',
  'base64',
  'hex',
] as const;
export type Transform = (typeof TRANSFORMS)[number];

const BIT: Record<Transform, number> = Object.fromEntries(
  TRANSFORMS.map((name, index) => [name, 1 << index]),
) as Record<Transform, number>;

/** The names of the transforms in a bit set, joined by `+` (`zero-width+wrapped`). */
export function transformNames(bits: number): string | undefined {
  const names = TRANSFORMS.filter((name) => (bits & BIT[name]) !== 0);
  return names.length === 0 ? undefined : names.join('+');
}

export function transformBit(name: Transform): number {
  return BIT[name];
}

/**
 * The pieces of a view, as parallel arrays (a text with many escapes has many pieces; objects would
 * cost a collection). Piece i: `outLength[i]` characters at `out[i]` that come from `srcLength[i]`
 * characters at `src[i]`. Identity pieces (`bits` 0) map character by character; a replaced piece
 * maps as a whole (any character of it stands for the whole source span). A deletion has outLength 0.
 */
export class Pieces {
  readonly out: number[] = [];
  readonly src: number[] = [];
  readonly outLength: number[] = [];
  readonly srcLength: number[] = [];
  readonly bits: number[] = [];
  push(out: number, src: number, outLength: number, srcLength: number, bits: number): void {
    this.out.push(out);
    this.src.push(src);
    this.outLength.push(outLength);
    this.srcLength.push(srcLength);
    this.bits.push(bits);
  }
  get length(): number {
    return this.out.length;
  }
}

export interface SourceSpan {
  start: number;
  end: number;
  /** Transforms (bit set) of the pieces the span crosses. */
  bits: number;
}

/** Maps ranges of a view back to the text it was made from. */
export class OffsetMap {
  readonly #pieces: Pieces;
  constructor(pieces: Pieces) {
    this.#pieces = pieces;
  }

  /** The last non-empty piece that starts at or before `out` (a deletion sits before the piece at its position). */
  #index(out: number): number {
    const starts = this.#pieces.out;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= out) low = mid;
      else high = mid - 1;
    }
    while (low > 0 && this.#pieces.outLength[low] === 0) low -= 1;
    return low;
  }

  /** The spans of the view that are not the text as written (replaced or deleted characters), in order. */
  changedSpans(): { start: number; end: number }[] {
    const { out, outLength, bits } = this.#pieces;
    const spans: { start: number; end: number }[] = [];
    for (let i = 0; i < out.length; i += 1)
      if (bits[i] !== 0) spans.push({ start: out[i]!, end: out[i]! + outLength[i]! });
    return spans;
  }

  /** The source span of view characters [start, end) (end > start), and the transforms it crossed. */
  toSource(start: number, end: number): SourceSpan {
    const p = this.#pieces;
    if (p.length === 0) return { start, end, bits: 0 };
    const first = this.#index(start);
    const last = this.#index(end - 1);
    const srcStart = p.bits[first] === 0 ? p.src[first]! + (start - p.out[first]!) : p.src[first]!;
    const srcEnd = p.bits[last] === 0 ? p.src[last]! + (end - 1 - p.out[last]!) + 1 : p.src[last]! + p.srcLength[last]!;
    let bits = 0;
    for (let i = first; i <= last; i += 1) {
      // A deletion counts only when it lies inside the span, not at its edge.
      if (p.outLength[i] === 0 && (p.out[i]! <= start || p.out[i]! >= end)) continue;
      bits |= p.bits[i]!;
    }
    return { start: srcStart, end: srcEnd, bits };
  }
}

export interface NormalisedText {
  text: string;
  /** Whether the view differs from the text at all. */
  changed: boolean;
  /** Whether a wrapped token was joined (otherwise the view is the same with or without joins). */
  joined: boolean;
  /** Every transform the view applied anywhere, joined by `+` (`zero-width` says invisible characters were there). */
  transforms?: string;
  map: OffsetMap;
}

// Zero-width, joiner, direction marks and embeddings/isolates, word joiner and invisible operators,
// BOM, soft hyphen, combining grapheme joiner, Arabic letter mark, Mongolian vowel separator, and the
// Unicode tag characters (U+E0000–U+E007F, a surrogate pair each). Nobody types them inside a token.
const INVISIBLE_CLASS = String.raw`\u00AD\u034F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF`;
const INVISIBLE = new RegExp(String.raw`^(?:[${INVISIBLE_CLASS}]|\uDB40[\uDC00-\uDC7F])$`);
const HAS_INVISIBLE = new RegExp(String.raw`[${INVISIBLE_CLASS}]|\uDB40[\uDC00-\uDC7F]`);

// Characters a token is made of; a line break between two runs of them may be a token wrapped.
// Passwords carry symbols too; quotes, brackets, commas and semicolons end a token.
const TOKEN_CHAR = /[A-Za-z0-9_+/=.!#$%&*?@^~|-]/;
/** A wrapped token: the runs either side of the break add up to at least this, one of them at least WRAP_SIDE. */
const WRAP_MIN = 16;
const WRAP_SIDE = 8;

const EVENTS = new RegExp(
  [
    // A string literal closed, concatenated on the next line and opened again: `"…"\n  + "…"` (or `.`, `&`, nothing).
    String.raw`(["'])[ \t]*[+.&]?[ \t]*\r?\n[ \t]*[+.&]?[ \t]*\1`,
    String.raw`[${INVISIBLE_CLASS}]|\uDB40[\uDC00-\uDC7F]`,
    String.raw`&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,9});`,
    String.raw`%[0-9A-Fa-f]{2}`,
    String.raw`\\u\{[0-9A-Fa-f]{1,6}\}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|\\\/`,
    // A line break with an optional trailing backslash before it and indentation or a quote/comment marker after.
    String.raw`\\?\r?\n[ \t]*(?:(?:>|\/\/|#|\*)[ \t]*)?`,
    String.raw`[^\x00-\x7F]+`,
  ].join('|'),
  'g',
);

// HTML's named entities that can stand for a character of a token or of its context.
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  equals: '=',
  lowbar: '_',
  hyphen: '-',
  dash: '-',
  period: '.',
  colon: ':',
  semi: ';',
  sol: '/',
  bsol: '\\',
  plus: '+',
  num: '#',
  excl: '!',
  commat: '@',
  percnt: '%',
  dollar: '$',
  ast: '*',
  quest: '?',
  comma: ',',
  lpar: '(',
  rpar: ')',
  tilde: '~',
  grave: '`',
  verbar: '|',
  lsqb: '[',
  rsqb: ']',
  lcub: '{',
  rcub: '}',
  shy: '\u00AD',
  zwsp: '\u200B',
  ZeroWidthSpace: '\u200B',
  zwj: '\u200D',
  zwnj: '\u200C',
  NewLine: '\n',
  Tab: '\t',
};

// Percent-escapes are decoded only for characters RFC 3986 calls unreserved: letters, digits and
// `-._~` never need escaping in a URL, so an escaped one is a disguise. (`%40` in a password stays.)
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/**
 * NFKC of one code point, kept only when it turns into a letter or digit (mathematical letters,
 * ligatures, superscripts) or it is a full-width form (U+FF01–U+FF5E, the ASCII shapes). Others
 * (an ellipsis becoming "...") change nothing a token is made of.
 */
function nfkcAscii(char: string): string | undefined {
  const code = char.codePointAt(0)!;
  if (code >= 0xff01 && code <= 0xff5e) return String.fromCharCode(code - 0xfee0);
  const normal = char.normalize('NFKC');
  return normal !== char && /^[A-Za-z0-9]+$/.test(normal) ? normal : undefined;
}

/**
 * The view of `text` the rules match: invisible characters removed, NFKC applied where it yields
 * ASCII, HTML entities, unreserved URL escapes and JS/JSON escapes decoded, and a token wrapped
 * over lines joined (a break between two runs of token characters long enough to be one token).
 */
export function normaliseText(text: string, options: { joinWrapped?: boolean } = {}): NormalisedText {
  const joinWrapped = options.joinWrapped ?? true;
  const pieces = new Pieces();
  const parts: string[] = [];
  let out = 0;
  let copied = 0;
  let changed = false;
  let joined = false;
  let applied = 0;
  // Length of the run of token characters at the end of the view so far (for wrapped tokens).
  let tail = 0;
  const copy = (until: number) => {
    if (until <= copied) return;
    const chunk = text.slice(copied, until);
    pieces.push(out, copied, chunk.length, chunk.length, 0);
    parts.push(chunk);
    out += chunk.length;
    tail = trailingRun(chunk, tail);
    copied = until;
  };
  const replace = (src: number, srcLength: number, value: string, bits: number) => {
    pieces.push(out, src, value.length, srcLength, bits);
    applied |= bits;
    parts.push(value);
    out += value.length;
    tail = value.length === 0 ? tail : trailingRun(value, tail);
    copied = src + srcLength;
    changed = true;
  };
  EVENTS.lastIndex = 0;
  for (let match = EVENTS.exec(text); match !== null; match = EVENTS.exec(text)) {
    const at = match.index;
    const raw = match[0];
    const first = raw.charCodeAt(0);
    copy(at);
    // A line break, or a string literal concatenated over one (`"…"\n  + "…"`): joined only when it
    // splits what looks like one token.
    const breaks = raw === '\n' || first === 0x0a || first === 0x0d || (first === 0x5c && /^\\\r?\n/.test(raw));
    if (breaks || ((first === 0x22 || first === 0x27) && raw.length > 1)) {
      const head = joinWrapped ? leadingRun(text, at + raw.length) : 0;
      const joins =
        tail > 0 &&
        head > 0 &&
        tail + head >= WRAP_MIN &&
        Math.max(tail, head) >= WRAP_SIDE &&
        !wordLike(trailingText(text, at) + text.slice(at + raw.length, at + raw.length + head));
      if (joins) {
        replace(at, raw.length, '', BIT.wrapped);
        joined = true;
      } else {
        copy(at + raw.length);
        tail = 0;
      }
      continue;
    }
    if (first === 0x26) {
      // &…;
      const decoded = decodeEntity(raw);
      if (decoded === undefined) copy(at + raw.length);
      else replace(at, raw.length, ...settle(decoded, BIT['html-entity']));
      continue;
    }
    if (first === 0x25) {
      // %XX
      const decoded = String.fromCharCode(Number.parseInt(raw.slice(1), 16));
      if (UNRESERVED.test(decoded)) replace(at, raw.length, decoded, BIT['url-escape']);
      else copy(at + raw.length);
      continue;
    }
    if (first === 0x5c) {
      // \uXXXX, \u{X…}, \xXX, \/
      const decoded = decodeEscape(raw);
      if (decoded === undefined) copy(at + raw.length);
      else replace(at, raw.length, ...settle(decoded, BIT['json-escape']));
      continue;
    }
    // Non-ASCII: invisible characters go, characters whose NFKC is ASCII become it, the rest stay.
    if (!HAS_INVISIBLE.test(raw) && raw.normalize('NFKC') === raw) {
      copy(at + raw.length);
      continue;
    }
    let offset = at;
    for (const char of raw) {
      if (INVISIBLE.test(char)) replace(offset, char.length, '', BIT['zero-width']);
      else {
        const normal = nfkcAscii(char);
        if (normal === undefined) copy(offset + char.length);
        else replace(offset, char.length, normal, BIT.nfkc);
      }
      offset += char.length;
    }
  }
  copy(text.length);
  return changed
    ? { text: parts.join(''), changed, joined, transforms: transformNames(applied), map: new OffsetMap(pieces) }
    : { text, changed, joined, map: new OffsetMap(new Pieces()) };
}

/** A decoded character goes through the same cleaning as a typed one: invisible → removed, full-width → ASCII. */
function settle(decoded: string, bits: number): [string, number] {
  if (INVISIBLE.test(decoded)) return ['', bits | BIT['zero-width']];
  const normal = decoded.length <= 2 ? nfkcAscii(decoded) : undefined;
  return normal === undefined ? [decoded, bits] : [normal, bits | BIT.nfkc];
}

function decodeEntity(raw: string): string | undefined {
  const body = raw.slice(1, -1);
  if (body.startsWith('#')) {
    const code =
      body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return validCodePoint(code) ? String.fromCodePoint(code) : undefined;
  }
  return NAMED_ENTITIES[body];
}

function decodeEscape(raw: string): string | undefined {
  if (raw === '\\/') return '/';
  const hex = raw.startsWith('\\u{') ? raw.slice(3, -1) : raw.slice(2);
  const code = Number.parseInt(hex, 16);
  if (!validCodePoint(code)) return undefined;
  // A lone surrogate (`\uD83D`) is one UTF-16 unit of a pair: kept as that unit, so two escapes make the pair.
  return raw.startsWith('\\u{') ? String.fromCodePoint(code) : String.fromCharCode(code);
}

const validCodePoint = (code: number) => Number.isInteger(code) && code >= 0 && code <= 0x10ffff;

function trailingRun(chunk: string, before: number): number {
  let run = 0;
  for (let i = chunk.length - 1; i >= 0; i -= 1) {
    if (!TOKEN_CHAR.test(chunk[i]!)) return run;
    run += 1;
  }
  return run + before;
}

/** Up to 32 token characters of the text as written just before `at`. */
function trailingText(text: string, at: number): string {
  let from = at;
  while (from > 0 && at - from < 32 && TOKEN_CHAR.test(text[from - 1]!)) from -= 1;
  return text.slice(from, at);
}

/**
 * Words and names (`explains` + `common-memory`, `sh` + `COMMON_MEMORY_HOME`) are prose or code
 * broken at a line end, not a token: runs of lower-case letters (capitalised or not) and upper-case
 * acronyms cover nearly all their letters and digits. A random token's pieces do not.
 */
function wordLike(run: string): boolean {
  const alnum = run.replace(/[^A-Za-z0-9]/g, '').length;
  if (alnum === 0) return true;
  const words = run.match(/[A-Z]?[a-z]{2,}|[A-Z]{2,}(?![a-z])/g) ?? [];
  return words.join('').length / alnum >= 0.85;
}

function leadingRun(text: string, from: number): number {
  let run = 0;
  // Capped: the length only has to reach WRAP_MIN.
  while (run < WRAP_MIN && from + run < text.length && TOKEN_CHAR.test(text[from + run]!)) run += 1;
  return run;
}

export interface DecodedSegment {
  /** The decoded text (one character per decoded byte). */
  text: string;
  transform: 'base64' | 'hex';
  /** The segment's span in the text it was found in. */
  start: number;
  end: number;
  /** The span of encoded characters that carry decoded characters [from, to). */
  encodedSpan(from: number, to: number): { start: number; end: number };
}

/** Encoded segments longer than this are not decoded (a blob, not a line of configuration). */
export const DECODE_MAX_CHARS = 16 * 1024;
/** Shortest segment decoded: 12 bytes of base64, 8 of hex. */
const BASE64_MIN = 16;
const HEX_MIN = 16;

const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}/g;
const HEX_RUN = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])/g;

/** Bytes that are text: printable ASCII and whitespace, at least 95% of them, and no NUL. */
function isText(bytes: Buffer): boolean {
  if (bytes.length < 8) return false;
  let printable = 0;
  for (const byte of bytes) {
    if (byte === 0) return false;
    if ((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x09 || byte === 0x0d) printable += 1;
  }
  return printable / bytes.length >= 0.95;
}

/** A quick look at the first bytes: random data fails within a few characters. */
function startsAsText(bytes: Buffer): boolean {
  const n = Math.min(bytes.length, 24);
  for (let i = 0; i < n; i += 1) {
    const byte = bytes[i]!;
    if (!((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x09 || byte === 0x0d)) return false;
  }
  return true;
}

/** Base64 and hex segments of `text` that decode to text, in order of position. */
export function decodedSegments(text: string): DecodedSegment[] {
  const segments: DecodedSegment[] = [];
  for (const match of text.matchAll(BASE64_RUN)) {
    const run = match[0];
    if (run.length < BASE64_MIN || run.length > DECODE_MAX_CHARS) continue;
    // Hex is also base64's alphabet; the hex decoder has it.
    if (/^[0-9A-Fa-f]+$/.test(run)) continue;
    const body = run.replace(/=+$/, '');
    const usable = body.length - (body.length % 4 === 1 ? 1 : 0);
    const probe = Buffer.from(body.slice(0, 32), 'base64');
    if (!startsAsText(probe)) continue;
    const bytes = Buffer.from(body.slice(0, usable), 'base64');
    if (!isText(bytes)) continue;
    const start = match.index;
    segments.push({
      text: bytes.toString('latin1'),
      transform: 'base64',
      start,
      end: start + run.length,
      // Byte i is carried by base64 characters ⌊i/3⌋·4 … ⌊i/3⌋·4+3.
      encodedSpan: (from, to) => ({
        start: start + Math.floor(from / 3) * 4,
        end: start + Math.min(run.length, Math.ceil(to / 3) * 4),
      }),
    });
  }
  for (const match of text.matchAll(HEX_RUN)) {
    const run = match[0];
    if (run.length < HEX_MIN || run.length > DECODE_MAX_CHARS) continue;
    const probe = Buffer.from(run.slice(0, 48), 'hex');
    if (!startsAsText(probe)) continue;
    const bytes = Buffer.from(run, 'hex');
    if (!isText(bytes)) continue;
    const start = match.index;
    segments.push({
      text: bytes.toString('latin1'),
      transform: 'hex',
      start,
      end: start + run.length,
      encodedSpan: (from, to) => ({ start: start + from * 2, end: start + to * 2 }),
    });
  }
  return segments.sort((a, b) => a.start - b.start);
}
