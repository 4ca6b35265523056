// Text written in a cipher a reader undoes by hand — a letter shift (rot13, Caesar), words read
// backwards, Morse code, character escapes, character codes, digits for letters, pig latin — found by what it turns
// into, not by the words around it: a run whose letters, shifted or reversed, become a sentence's
// small words (the, to, of, de, und …) or the words notes to agents are made of, when the run itself
// has almost none of them, is a sentence in that cipher. Each reading keeps the span of the original
// it came from and is linted as text of its own (poison-lint.ts); `hiddenOrder` says when what it
// reads is an order the note keeps from its reviewer.
// Pure; no `node:` imports.
import { LEET } from './poison-views.js';

/** A run of the original and what it reads once its cipher is undone. */
export interface CipherReading {
  offset: number;
  end: number;
  text: string;
  cipher:
    | 'letter shift'
    | 'backwards'
    | 'morse'
    | 'escapes'
    | 'character codes'
    | 'digits for letters'
    | 'pig latin'
    | 'letters apart'
    | 'acrostic';
}

/**
 * Words a run read through a cipher is recognised by: the small words of sentences in English,
 * Spanish, French, German, Italian, Portuguese and Dutch, and the words notes to agents are made of,
 * two letters or more (a single letter is hit by chance too often).
 */
const KNOWN_WORDS = new Set(
  (
    'the to of and in on is it be for with from by you your all any not do if as at or an are this that ' +
    'then when into every each no but was will can must should my me we our they them its has have ' +
    'el la los las de del en un una que por para con al es se lo su sus le les des du et ou au aux ' +
    'pour par avec est pas ne qui sur dans der die das den dem ein eine und oder zu mit von auf ist ' +
    'nicht im sie er il di che per non sono da dei na em os um uma het een van voor op niet ' +
    'ignore previous instructions instruction rules rule prompt system user users tell say ask asking ' +
    'send upload post paste push pull merge main master branch review reviews approve delete remove ' +
    'skip test tests run curl wget sh bash https http env token tokens key keys secret secrets password ' +
    'file files note notes memory agent agents bot bots never always without about only repo code ' +
    'commit log logs disable hook hooks check checks build deploy production prod admin access ' +
    'hide mention passed pass fail failed print output reply answer now new here there what'
  ).split(' '),
);

/** Where a run of text ends: a line, a sentence, a clause mark, a bracket or a quote. */
const RUN_BREAK = /[\n:;()[\]{}"'`«»“”‘’—–|<>]/;
// A Latin word standing alone: a piece of a word in another alphabet ("üretilir" → "retilir") is no word a cipher hides.
const ASCII_WORD = /(?<![\p{L}\p{M}])[A-Za-z]+(?![\p{L}\p{M}])/gu;
const MAX_RUN_WORDS = 120;

/** How many different known words `words` holds. */
function knownWords(words: readonly string[]): number {
  return new Set(words.filter((word) => KNOWN_WORDS.has(word))).size;
}

function shift(word: string, by: number): string {
  let out = '';
  for (let i = 0; i < word.length; i++) out += String.fromCharCode(((word.charCodeAt(i) - 0x61 + by) % 26) + 0x61);
  return out;
}

/** Runs of the text between breaks, with their offsets. */
function runs(text: string): Array<{ offset: number; text: string }> {
  const out: Array<{ offset: number; text: string }> = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const sentenceEnd = /[.!?]/.test(text[i] ?? '') && (i + 1 === text.length || /\s/.test(text[i + 1]!));
    if (i === text.length || sentenceEnd || RUN_BREAK.test(text[i]!)) {
      if (i > start) out.push({ offset: start, text: text.slice(start, i) });
      start = i + 1;
    }
  }
  return out;
}

/** From a run's first word to its last: where it is in the original, and its text. */
function wordsSpan(run: { offset: number; text: string }, words: readonly RegExpMatchArray[]) {
  const from = words[0]!.index!;
  const last = words[words.length - 1]!;
  const to = last.index! + last[0].length;
  return { offset: run.offset + from, end: run.offset + to, body: run.text.slice(from, to) };
}

/**
 * A run is read through a cipher when it has four words or more, at most one of them a known word,
 * and the cipher turns at least a third of them, and two more than it had, into different known words.
 */
function shiftedOrReversed(run: { offset: number; text: string }): CipherReading | null {
  const matches = [...run.text.matchAll(ASCII_WORD)];
  // A sentence in a cipher is a short run; a long one (a minified line, a word list) is not tried
  // 25 ways.
  if (matches.length < 4 || matches.length > MAX_RUN_WORDS) return null;
  const words = matches.map((m) => m[0].toLowerCase());
  const plain = knownWords(words);
  if (plain > 1) return null;
  const needed = Math.max(plain + 2, Math.ceil(words.length / 3));
  const { body, ...span } = wordsSpan(run, matches);
  let best = { by: 0, count: 0 };
  for (let by = 1; by < 26; by++) {
    const count = knownWords(words.map((word) => shift(word, by)));
    if (count > best.count) best = { by, count };
  }
  if (best.count >= needed)
    return {
      ...span,
      cipher: 'letter shift',
      text: body.replace(/[A-Za-z]/g, (c) => shift(c.toLowerCase(), best.by)),
    };
  const backwards = [...body].reverse().join('').toLowerCase();
  if (knownWords(backwards.match(ASCII_WORD) ?? []) >= needed) return { ...span, cipher: 'backwards', text: backwards };
  return null;
}

const MORSE: Record<string, string> = {
  '.-': 'a',
  '-...': 'b',
  '-.-.': 'c',
  '-..': 'd',
  '.': 'e',
  '..-.': 'f',
  '--.': 'g',
  '....': 'h',
  '..': 'i',
  '.---': 'j',
  '-.-': 'k',
  '.-..': 'l',
  '--': 'm',
  '-.': 'n',
  '---': 'o',
  '.--.': 'p',
  '--.-': 'q',
  '.-.': 'r',
  '...': 's',
  '-': 't',
  '..-': 'u',
  '...-': 'v',
  '.--': 'w',
  '-..-': 'x',
  '-.--': 'y',
  '--..': 'z',
  '-----': '0',
  '.----': '1',
  '..---': '2',
  '...--': '3',
  '....-': '4',
  '.....': '5',
  '-....': '6',
  '--...': '7',
  '---..': '8',
  '----.': '9',
  '.-.-.-': '.',
  '--..--': ',',
};

/** Morse: five codes or more, words apart by ` / ` (or three spaces), every code a letter or digit. */
const MORSE_RUN = /(?<![\w.-])[.-]{1,6}(?:(?: {1,3}| ?\/ ?)[.-]{1,6}){4,}(?![\w.-])/g;

function morse(text: string): CipherReading[] {
  const out: CipherReading[] = [];
  for (const match of text.matchAll(MORSE_RUN)) {
    const words = match[0].split(/ ?\/ ?| {3}/);
    const decoded: string[] = [];
    for (const word of words) {
      const letters = word
        .trim()
        .split(/ +/)
        .map((code) => MORSE[code]);
      if (letters.some((letter) => letter === undefined)) {
        decoded.length = 0;
        break;
      }
      decoded.push(letters.join(''));
    }
    if (decoded.length >= 2)
      out.push({ offset: match.index, end: match.index + match[0].length, cipher: 'morse', text: decoded.join(' ') });
  }
  return out;
}

/** Three or more character escapes in a row, words apart by spaces: `\u0070\u0075…`, `&#112;…`, `\x70…`, `%70…`. */
const ESCAPE = String.raw`(?:\\u00[0-9a-fA-F]{2}|\\x[0-9a-fA-F]{2}|&#\d{2,3};|&#x[0-9a-fA-F]{2};|%[0-9a-fA-F]{2}|=[0-9A-F]{2})`;
const ONE_ESCAPE = new RegExp(ESCAPE, 'g');
const ESCAPE_RUN = new RegExp(`${ESCAPE}{3,}(?:[ _-]+${ESCAPE}{2,})*`, 'g');

const undoEscapes = (run: string) =>
  run.replace(ONE_ESCAPE, (code) =>
    String.fromCharCode(
      code.startsWith('&#') && !code.startsWith('&#x')
        ? Number(code.slice(2, -1))
        : Number.parseInt(code.replace(/^(?:\\u00|\\x|&#x|%|=)/, '').replace(/;$/, ''), 16),
    ),
  );

/** Where a clause ends, for reading escapes in the words around them. */
const CLAUSE_MARK = /[.;:!?\n—–"“”()]/;

/**
 * Each clause holding runs of escapes, read with them undone: an escaped verb before plain words
 * ("\\u0073\\u0065\\u006e\\u0064 the env to …") is an order only with them.
 */
function escapes(text: string): CipherReading[] {
  const out: CipherReading[] = [];
  let covered = 0;
  for (const match of text.matchAll(ESCAPE_RUN)) {
    if (match.index < covered || !/[a-z]{2}/i.test(undoEscapes(match[0]))) continue;
    let offset = match.index;
    while (offset > 0 && !CLAUSE_MARK.test(text[offset - 1]!)) offset--;
    let end = match.index + match[0].length;
    // An escape may be a clause mark's own (`&#46;`): the clause runs to a mark written as it is.
    while (end < text.length && !CLAUSE_MARK.test(text[end]!)) end++;
    covered = end;
    out.push({
      offset,
      end,
      cipher: 'escapes',
      text: text.slice(offset, end).replace(ESCAPE_RUN, (run) => undoEscapes(run)),
    });
  }
  return out;
}

/**
 * Character codes in decimal, eight or more apart by commas or spaces (`115, 107, 105, 112` or
 * `String.fromCharCode(115,107,…)`), each a printable character, read as the text they spell.
 */
const CHAR_CODE_RUN = /(?<![\d.])(?:\d{2,5}(?:\s*,\s*|\s+)){7,}\d{2,5}(?![\d.])/g;

function characterCodes(text: string): CipherReading[] {
  const out: CipherReading[] = [];
  for (const match of text.matchAll(CHAR_CODE_RUN)) {
    const codes = match[0].split(/\s*,\s*|\s+/).map(Number);
    // Printable only (a space, ASCII, or a letter of another script): numbers of data mostly are not.
    if (!codes.every((code) => code === 32 || (code > 32 && code < 127) || (code >= 0xa0 && code <= 0xffff))) continue;
    const spelt = String.fromCharCode(...codes);
    // Two words of two letters or more, found without backtracking over a long run of letters.
    if (/\p{L}\p{L}\s+\p{L}\p{L}/u.test(spelt))
      out.push({ offset: match.index, end: match.index + match[0].length, cipher: 'character codes', text: spelt });
  }
  return out;
}

/**
 * A word of pig latin read back ("ushpay" is "push", "ignoreway" is "ignore"): the consonants moved
 * to the end put back in front, the known word preferred where the count of them is unclear.
 */
function fromPigLatin(word: string): string | null {
  if (word.length < 4 || !word.endsWith('ay')) return null;
  const stem = word.slice(0, -2);
  const readings: string[] = [];
  if (/^[aeiou]/.test(stem) && /[wyh]$/.test(stem)) readings.push(stem.slice(0, -1));
  for (let k = 1; k <= 3 && k < stem.length; k++)
    if (/^[^aeiou]+$/.test(stem.slice(-k))) readings.push(stem.slice(-k) + stem.slice(0, -k));
  return readings.find((reading) => KNOWN_WORDS.has(reading)) ?? readings[0] ?? null;
}

/** A run of pig latin: half its words or more, and three or more, end in "ay" and read back to known words. */
function pigLatin(run: { offset: number; text: string }): CipherReading | null {
  const matches = [...run.text.matchAll(ASCII_WORD)];
  const words = matches.map((m) => m[0].toLowerCase());
  const pig = words.filter((word) => fromPigLatin(word) !== null).length;
  if (pig < 3 || pig * 2 < words.length) return null;
  const read = words.map((word) => fromPigLatin(word) ?? word);
  if (knownWords(read) < knownWords(words) + 2) return null;
  const { body, ...span } = wordsSpan(run, matches);
  return {
    ...span,
    cipher: 'pig latin',
    text: body.replace(/[A-Za-z]+/g, (word) => fromPigLatin(word.toLowerCase()) ?? word),
  };
}

/** Words with digits or signs for letters (`pu5h`, `7h3`), read with them undone when two or more become known words. */
function digitsForLetters(run: { offset: number; text: string }): CipherReading | null {
  const tokens = [...run.text.matchAll(/[A-Za-z0-9@$]+/g)];
  let mixed = 0;
  let known = 0;
  // Different words of letters and digits that read as known words: a number alone ("15" for "is") or
  // a bucket scheme (`s3` for "se", twice) in a cron line or a command is no evidence of a cipher.
  const knownMixed = new Set<string>();
  for (const token of tokens) {
    if (!/[013457@$]/.test(token[0])) continue;
    const letters = /[a-z]/i.test(token[0]);
    if (letters) mixed++;
    const read = token[0].toLowerCase().replace(/[013457@$]/g, (c) => LEET[c]!);
    if (KNOWN_WORDS.has(read)) {
      known++;
      if (letters) knownMixed.add(read);
    }
  }
  if (mixed < 2 || known < 2 || knownMixed.size < 2) return null;
  const { body, ...span } = wordsSpan(run, tokens);
  return {
    ...span,
    cipher: 'digits for letters',
    text: body
      .toLowerCase()
      .replace(/[a-z0-9@$]+/g, (token) =>
        /[a-z]|^[013457]{1,2}$/.test(token) ? token.replace(/[013457@$]/g, (c) => LEET[c]!) : token,
      ),
  };
}

/**
 * Letters spelt apart, words apart by a wider gap: "l.i.k.e t.h.i.s", "o r   t h i s". (The
 * lint's own view joins letters spelt apart, but reads no word breaks into them.)
 */
const LETTERS_APART = [
  /(?<![\p{L}\p{N}.·-])\p{L}(?:[.·-]\p{L})+(?:\s+\p{L}(?:[.·-]\p{L})*)+(?![\p{L}\p{N}])/gu,
  /(?<![\p{L}\p{N}])\p{L}(?: \p{L})+(?: {2,}\p{L}(?: \p{L})*)+(?![\p{L}\p{N}])/gu,
];

function lettersApart(text: string): CipherReading[] {
  const out: CipherReading[] = [];
  for (const pattern of LETTERS_APART)
    for (const match of text.matchAll(pattern)) {
      const gap = pattern === LETTERS_APART[0] ? /\s+/ : / {2,}/;
      const words = match[0].split(gap).map((word) => word.replace(/[\s.·-]/g, '').toLowerCase());
      if (words.length >= 3 && knownWords(words) >= 2)
        out.push({
          offset: match.index,
          end: match.index + match[0].length,
          cipher: 'letters apart',
          text: words.join(' '),
        });
    }
  return out;
}

/** A note that says its message is in the first letters or words of its lines or words. */
const ACROSTIC =
  /\b(?:first|initial|opening)\s+(letter|character|word)s?\b(?:\s+of\s+(?:each|every|the)\s+(line|word|item|bullet|row)s?\b)?|\bacrostic\b/i;
/** How many lines after the pointer an acrostic is read from, and how many words it may make. */
const ACROSTIC_LINES = 24;
const ACROSTIC_WORDS = 12;
/** Where a group of first letters ends: a blank line between lines, a mark between words. */
const WORD_GROUP_END = /[,.;:()[\]\-–—>=!?"“”]+/;

/**
 * An acrostic the note itself points to ("take the first word of each line", "read the first
 * letters"): the first letters or words of the lines after it (a blank line ends a word), or of the
 * words after it (a mark ends a word), read as text.
 */
function acrostic(text: string): CipherReading | null {
  const said = ACROSTIC.exec(text);
  if (!said) return null;
  const from = said.index + said[0].length;
  const rest = text.slice(from);
  // An acrostic is short and right after the words that point to it: a few lines, one paragraph.
  const lines = rest.split('\n').slice(1, 1 + ACROSTIC_LINES);
  const byLines = said[2] === undefined ? lines.filter((line) => line.trim() !== '').length >= 3 : said[2] !== 'word';
  const firstWord = (part: string) => /[\p{L}\p{N}]+/u.exec(part)?.[0] ?? '';
  let read: string;
  if (byLines) {
    const heads = lines.map((line) => firstWord(line.replace(/^\s*(?:[-*•+]|\d+[.)])\s+/, '')));
    read =
      said[1] === 'word'
        ? heads.filter((head) => head !== '').join(' ')
        : heads
            .map((head) => head.slice(0, 1) || ' ')
            .join('')
            .trim()
            .split(/\s+/)
            .join(' ');
  } else {
    read = rest
      .split(/\n\s*\n/)[0]!
      .split(WORD_GROUP_END)
      .map((group) => [...group.matchAll(/[\p{L}\p{N}]+/gu)].map((word) => word[0].slice(0, 1)).join(''))
      .filter((word) => word !== '')
      .join(' ');
  }
  read = read.toLowerCase();
  const words = read.split(' ').length;
  return words >= 2 && words <= ACROSTIC_WORDS
    ? { offset: said.index, end: text.length, cipher: 'acrostic', text: read }
    : null;
}

/** Every run of `text` written in a cipher this module reads, with what it reads. */
export function cipherReadings(text: string): CipherReading[] {
  const out: CipherReading[] = [];
  for (const run of runs(text)) {
    const reading = shiftedOrReversed(run) ?? digitsForLetters(run) ?? pigLatin(run);
    if (reading) out.push(reading);
  }
  if (text.includes('.-') || text.includes('-.') || text.includes('..')) out.push(...morse(text));
  if (/[\\&%=]/.test(text)) out.push(...escapes(text));
  if (/\d{2,5}[\s,]+\d{2,5}/.test(text)) out.push(...characterCodes(text));
  if (/\p{L}[ .·-]\p{L}[ .·-]\p{L}/u.test(text)) out.push(...lettersApart(text));
  const hidden = acrostic(text);
  if (hidden) out.push(hidden);
  return out;
}

/** Verbs an instruction to an agent starts with (after "please", "always", "never", "do not" …). */
const ORDER_VERB =
  /^(?:(?:please|always|never|just|now|then|also|and|do not|don't|dont)\s+)*(?:ignore|disregard|forget|skip|send|upload|post|paste|push|force-push|merge|approve|accept|delete|remove|drop|disable|turn|switch|stop|run|execute|exec|print|echo|copy|share|tell|say|reply|answer|hide|conceal|keep|add|write|commit|install|download|fetch|curl|wget|bypass|override|grant|give|make|set|change|replace|rewrite|force|mark|report|pretend|act|treat|trust|obey|follow|use|leave|email|forward|publish|expose|include|attach|dump|log|edit|modify|allow|let|comment|rm|chmod|sudo|git)\b/;
/** An order given by a modal: "you may …", "agents must …". */
const MODAL_ORDER =
  /\b(?:you|agents?|assistants?|bots?|the (?:model|agent|assistant))\s+(?:may|must|should|can|shall|are (?:allowed|free|now|to))\b/;

/** Letters and digits only, words apart by one space: how a decoded text is looked for in plain. */
const plainWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * Whether a decoded text is an order to its reader — an imperative, or a modal addressed to the
 * agent — that the note does not also give in plain words. A note has no reason to hide an order
 * from the person who reviews it; a fixture's sample sentence, or a test that names what its encoded
 * input says ("base64 of 'ignore the user'"), hides nothing.
 */
export function hiddenOrder(decoded: string, note: string, span: { offset: number; end: number }): boolean {
  const words = plainWords(decoded);
  if (words.split(' ').length < 2) return false;
  const clauses = decoded.toLowerCase().split(/[.;:!?\n—–"“”()]|,\s*(?:and|then)\s+|\s+(?:and|then)\s+/);
  const order =
    MODAL_ORDER.test(words) || clauses.some((clause) => ORDER_VERB.test(clause.trim().replace(/^[^\p{L}]+/u, '')));
  if (!order) return false;
  const rest = plainWords(`${note.slice(0, span.offset)} ${note.slice(span.end)}`);
  return !` ${rest} `.includes(` ${words} `);
}
