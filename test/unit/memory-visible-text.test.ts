// visibleText: every hidden character (zero-width, bidi control, tag character, variation
// selector, …) becomes a visible ⟨U+XXXX⟩ label, and every other character is kept as it was.
// Property-tested over seeded random strings that mix ordinary text of many scripts with hidden characters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointLabel, HIDDEN_CHAR, hasHiddenChars, visibleText } from '../../source/memory/visible-text.js';
import { seededRandom } from '../support/seeded-random.js';

const HIDDEN = [
  0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b,
  0x202c, 0x202d, 0x202e, 0x2060, 0x2061, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x3164, 0xfe00, 0xfe0f, 0xfeff,
  0xffa0, 0xfff9, 0xe0001, 0xe0020, 0xe0041, 0xe007f, 0xe0100, 0xe01ef,
];
const VISIBLE = [
  ...'abcXYZ 019 <>/\\-_.,;:!?"\'`~{}[]()\n\t',
  ...'éüñçßøåæ', // Latin
  ...'日本語中文한국어', // CJK
  ...'русскийελληνικά', // Cyrillic, Greek
  ...'עבריתالعربية', // right-to-left letters (visible; only the controls are hidden)
  ...'😀👍🏽❤🏴', // emoji (the joiners and selectors among them are hidden characters)
  '\u00a0', // no-break space: visible as a space
  '\u3000', // ideographic space
  '⟨',
  '⟩',
  'U',
  '+',
];

describe('visibleText', () => {
  it('labels every hidden character and keeps every other character (property, 2000 seeded cases)', () => {
    const next = seededRandom(20261202);
    for (let n = 0; n < 2000; n++) {
      const parts: Array<{ char: string; hidden: boolean }> = [];
      const length = Math.floor(next() * 40);
      for (let i = 0; i < length; i++) {
        const hidden = next() < 0.3;
        const char = hidden
          ? String.fromCodePoint(HIDDEN[Math.floor(next() * HIDDEN.length)]!)
          : VISIBLE[Math.floor(next() * VISIBLE.length)]!;
        parts.push({ char, hidden });
      }
      const text = parts.map((p) => p.char).join('');
      const expected = parts.map((p) => (p.hidden ? codePointLabel(p.char.codePointAt(0)!) : p.char)).join('');
      const shown = visibleText(text);
      assert.equal(shown, expected, JSON.stringify(text));
      assert.equal(hasHiddenChars(shown), false, 'nothing hidden is left');
      assert.equal(
        hasHiddenChars(text),
        parts.some((p) => p.hidden),
      );
      assert.equal(visibleText(shown), shown, 'labelling is idempotent');
    }
  });

  it('labels every format character (Unicode category Cf), whichever it is', () => {
    for (let cp = 0; cp <= 0xe01ef; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const char = String.fromCodePoint(cp);
      if (!/\p{Cf}/u.test(char)) continue;
      assert.equal(visibleText(`a${char}b`), `a${codePointLabel(cp)}b`, cp.toString(16));
    }
  });

  it('labels a lone surrogate, and writes labels with at least four upper-case hex digits', () => {
    assert.equal(visibleText('x\ud800y'), 'x⟨U+D800⟩y');
    assert.equal(codePointLabel(0xad), '⟨U+00AD⟩');
    assert.equal(codePointLabel(0xe0041), '⟨U+E0041⟩');
    assert.ok(HIDDEN_CHAR.test('\u200b'));
  });

  it('labels terminal controls (C0 but tab and line breaks, DEL, C1, a carriage return not before a line feed)', () => {
    // A candidate drafted from pasted coloured output, printed raw by `memory review`, would clear
    // the reviewer's screen or draw over what they read; a lone CR returns to the line's start.
    assert.equal(visibleText('ok\u001b[2J\u0007done'), 'ok⟨U+001B⟩[2J⟨U+0007⟩done');
    assert.equal(visibleText('safe\rrm -rf ~'), 'safe⟨U+000D⟩rm -rf ~');
    assert.equal(visibleText('a\u007fb\u009b31mc\u0085'), 'a⟨U+007F⟩b⟨U+009B⟩31mc⟨U+0085⟩');
    assert.equal(visibleText('line one\r\nline two\tend'), 'line one\r\nline two\tend', 'CRLF and tabs stay');
    for (let cp = 0; cp <= 0x9f; cp++) {
      if (cp >= 0x20 && cp < 0x7f) continue;
      const shown = visibleText(`a${String.fromCharCode(cp)}b`);
      const kept = cp === 0x09 || cp === 0x0a;
      assert.equal(shown, kept ? `a${String.fromCharCode(cp)}b` : `a${codePointLabel(cp)}b`, cp.toString(16));
      assert.equal(hasHiddenChars(`a${String.fromCharCode(cp)}b`), !kept, cp.toString(16));
    }
  });

  it('leaves ordinary text as it is', () => {
    for (const text of ['', 'plain ASCII\twith\nlines', 'naïve café — 日本語 — עברית', 'a < b > c & d'])
      assert.equal(visibleText(text), text);
  });
});
