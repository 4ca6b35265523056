// A hook payload's bytes as text without losing any of them. Decoding stdin as UTF-8 replaced each
// invalid byte by U+FFFD, so two session ids that differed only in such bytes became one session.
// Here an invalid byte becomes a lone surrogate U+DC80..U+DCFF (the "surrogateescape" of other
// languages), one per byte: JSON.parse keeps it, JSON.stringify writes it as `\udcXX`, so the inbox
// envelope keeps every byte (recoverable), and an identifier made of such text gets an identity of
// its own by its bytes (identityOf). Valid UTF-8 — every real host payload — is decoded as before.
import { isUtf8 } from 'node:buffer';
import { sha256Hex } from '../ground/digests.js';

/** Length of the valid UTF-8 sequence at `at` (1-4), or 0 when the byte there starts none. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const b0 = bytes[at]!;
  if (b0 < 0x80) return 1;
  const cont = (i: number, low = 0x80, high = 0xbf): boolean => {
    const b = bytes[at + i];
    return b !== undefined && b >= low && b <= high;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const low = b0 === 0xe0 ? 0xa0 : 0x80;
    const high = b0 === 0xed ? 0x9f : 0xbf; // no surrogates
    return cont(1, low, high) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const low = b0 === 0xf0 ? 0x90 : 0x80;
    const high = b0 === 0xf4 ? 0x8f : 0xbf; // nothing past U+10FFFF
    return cont(1, low, high) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** The bytes as text: UTF-8, with each byte that is not part of a valid sequence as U+DC00 + byte. */
export function decodeKeepingBytes(raw: Buffer): string {
  if (isUtf8(raw)) return raw.toString('utf8');
  let text = '';
  let run = 0;
  let at = 0;
  while (at < raw.length) {
    const length = sequenceLength(raw, at);
    if (length > 0) {
      at += length;
      continue;
    }
    text += raw.toString('utf8', run, at) + String.fromCharCode(0xdc00 + raw[at]!);
    at += 1;
    run = at;
  }
  return text + raw.toString('utf8', run);
}

/** A lone surrogate: in a `u` regular expression a pair is one code point, so only lone ones match. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The identity of an identifier from a payload: the text itself when it is well-formed (every real
 * id), else its bytes shown escaped (`\xFF` for an invalid byte) with the SHA-256 of those bytes,
 * so that two ids differing only in invalid bytes stay two ids. (An escape sequence `\udcXX` in
 * the JSON is read as that byte: it is no valid text either.)
 */
export function identityOf(text: string): string {
  if (!LONE_SURROGATE.test(text)) return text;
  const bytes: number[] = [];
  let shown = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xdc80 && unit <= 0xdcff) {
      bytes.push(unit - 0xdc00);
      shown += `\\x${(unit - 0xdc00).toString(16).toUpperCase()}`;
    } else if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      // A lone surrogate from a JSON escape: its WTF-8 bytes.
      bytes.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
      shown += `\\u${unit.toString(16).toUpperCase()}`;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
      shown += char;
    }
  }
  return `${shown} (bytes sha256:${sha256Hex(Uint8Array.from(bytes)).slice(0, 16)})`;
}
