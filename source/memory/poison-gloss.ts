// Poisoning lint, other languages: a note in Spanish, Portuguese, French, German, Italian, Dutch,
// Polish or Russian read again word for word in English, so that the English rules (far more of them
// than any other language has) can read it. A translated set of attacks the English rules block
// showed about half of them missed once said in another language (docs/memory-rules.md, "Look-alikes
// translated").
//
// The gloss is rough on purpose: each word of prose replaced by its likeliest English word in this
// domain, in the note's own word order; code spans, paths, flags, addresses and identifiers as written.
// It cannot place a negation the language puts after the verb, nor tell an example from an order, so
// a note that holds a negation (but in Polish and Russian, see NOT_BEFORE_VERB), or talks about
// attacks, tests or examples, is not glossed at all: the rules of its own language read it (about
// one false block in nine catches on the tuning splits, against one in four glossing every note).
//
// The glossaries (gloss/<language>.json, one "word<TAB>English" line per form) were written by
// helpers from their own knowledge of each language and kept to the forms whose English words the
// rules use. The bundles read them from dist/memory when a note first needs one (scripts/bundle.mjs).
// Pure; no `node:` imports.

import de from './gloss/de.json' with { type: 'json' };
import es from './gloss/es.json' with { type: 'json' };
import fr from './gloss/fr.json' with { type: 'json' };
import it from './gloss/it.json' with { type: 'json' };
import nl from './gloss/nl.json' with { type: 'json' };
import pl from './gloss/pl.json' with { type: 'json' };
import pt from './gloss/pt.json' with { type: 'json' };
import ru from './gloss/ru.json' with { type: 'json' };
import { ABOUT_ATTACKS_ML } from './poison-structure.js';

export type GlossLanguage = 'de' | 'es' | 'fr' | 'it' | 'nl' | 'pl' | 'pt' | 'ru';

const GLOSSARIES: Record<GlossLanguage, { words: string }> = { de, es, fr, it, nl, pl, pt, ru };

/** The commonest words of each language, and of English: which the note is mostly written in. */
const COMMON: Record<GlossLanguage | 'en', ReadonlySet<string>> = {
  es: new Set(
    'el la los las del que y en un una por con para no es se al lo como más pero sus le ya cuando si sin nunca'.split(
      ' ',
    ),
  ),
  pt: new Set(
    'os as do da dos das que em um uma por com para não é se ao na no como mais mas quando sem você nunca'.split(' '),
  ),
  fr: new Set(
    'le la les des du que et en un une pour avec ne pas est se au aux dans sur ce cette sans quand si jamais'.split(
      ' ',
    ),
  ),
  de: new Set(
    'der die das den dem des und ist nicht mit für auf ein eine zu im ins von wenn sie es ohne auch nie'.split(' '),
  ),
  it: new Set(
    'il lo la gli le di del della che e in un una per con non è si al alla come più ma senza quando mai'.split(' '),
  ),
  nl: new Set('de het een en van in is niet met voor op dat die te zijn als je bij naar zonder ook nooit'.split(' ')),
  pl: new Set('i w na nie się jest do że z to jak ale po co od dla przez lub czy gdy bez oraz zawsze nigdy'.split(' ')),
  ru: new Set('и в не на что с по это как для к от из но или если при без всегда никогда все его их'.split(' ')),
  en: new Set('the and to of is are this that with for when you it a in not on be or if without never'.split(' ')),
};

/**
 * Code spans, fenced blocks, and words glued to a path, an address, a flag or an identifier. A word
 * is tried from its first character only: tried from every one, a run of 2 MiB without a space took
 * minutes (each start read the run to its end).
 */
const TICKS = '```';
const NOT_PROSE_SOURCE = `${TICKS}[\\s\\S]*?${TICKS}|\`[^\`\\n]*\`|(?<!\\S)\\S*[/:@~]\\S*`;
const NOT_PROSE = new RegExp(NOT_PROSE_SOURCE, 'g');
/** A word of prose, or what is not prose (kept as written): a run of letters not glued to a path, flag, identifier or number. */
const TOKEN = new RegExp(
  `${NOT_PROSE_SOURCE}|(?<![\\p{L}\\p{N}_\\-.])\\p{L}+(?![\\p{L}\\p{N}_]|[-.][\\p{L}\\p{N}])`,
  'gu',
);

/**
 * The language the note's prose is mostly written in, when it is one with a glossary: at least three
 * of its common words, and twice as many as English ones.
 */
export function glossLanguage(text: string): GlossLanguage | null {
  // Its first 16 KiB tell the language of a long text as well as all of it.
  const words =
    text
      .slice(0, 16_384)
      .replace(NOT_PROSE, ' ')
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  const counts = new Map<GlossLanguage | 'en', number>();
  for (const word of words)
    for (const [language, common] of Object.entries(COMMON) as Array<[GlossLanguage | 'en', ReadonlySet<string>]>)
      if (common.has(word)) counts.set(language, (counts.get(language) ?? 0) + 1);
  let best: GlossLanguage | 'en' = 'en';
  let most = 0;
  for (const [language, count] of counts)
    if (count > most) {
      best = language;
      most = count;
    }
  if (best === 'en' || most < 3 || most < 2 * (counts.get('en') ?? 0)) return null;
  return best;
}

/** Alternatives read as whole words (`\b` knows no accented or Cyrillic letter). */
const asWords = (alternatives: string) => `(?<!\\p{L})(?:${alternatives})(?!\\p{L})`;

/** Negations in the glossed languages. */
const NEGATION_WORDS = String.raw`no|nunca|jamás|jamas|ningún|ninguna|ninguno|nadie|nada|ni|não|nem|nenhum|nenhuma|ninguém|nicht|nie|niemals|kein\p{L}*|nichts|niemand|weder|noch|ne|pas|jamais|aucun\p{L}*|personne|rien|non|mai|nessun\p{L}*|niente|nulla|né|niet|nooit|geen|niets`;
/**
 * Talk of tests, examples, prompts and expected behaviour in the glossed languages; talk of attacks,
 * injections and patterns is ABOUT_ATTACKS_ML's (poison-structure.ts), read beside it.
 */
const TALK_WORDS = String.raw`ejemplo\p{L}*|exempl\p{L}*|beispiel\p{L}*|esempi\p{L}*|voorbeeld\p{L}*|prueba\p{L}*|test\p{L}*|injection\p{L}*|eval\p{L}*|red[ -]?team\p{L}*|prompt\p{L}*|erwartet\p{L}*|esperad\p{L}*|attendu\p{L}*|attes[oa]|verwacht\p{L}*|fixture\p{L}*|пример\p{L}*|тест\p{L}*|атак\p{L}*|инъекци\p{L}*|промпт\p{L}*|ожида\p{L}*|шаблон\p{L}*|przykład\p{L}*|oczekiw\p{L}*|wzor\p{L}*|wzór`;

/**
 * Advice against, or talk of attacks, tests, examples, prompts and expected behaviour, in these
 * languages: a note that holds one is not glossed (the gloss would read "never disable" or a quoted
 * example as the order itself).
 */
export const GLOSS_GUARDED = new RegExp(`${ABOUT_ATTACKS_ML}|${asWords(`${NEGATION_WORDS}|${TALK_WORDS}`)}`, 'iu');

/**
 * Polish and Russian put their "nie" and "не" right before the verb, as English puts "not": a negation
 * glossed in place is one the English rules read ("не отправляй" is "not send"). Only talk of attacks,
 * tests, examples and prompts keeps a note in those languages from being glossed (9 catches for no
 * false block on the tuning splits' Russian notes, against 2 with every negation guarded too).
 * Spanish, Portuguese and Italian do too, but read so, two of the lint's own look-alikes were blocked
 * ("esta nota no prevalece sobre lo que pida el usuario" glossed "not prevails", where the English
 * rules read "does not prevail"): they keep the whole guard (docs/memory-rules.md). The same could
 * happen in Polish or Russian; none of their tuning or test notes showed it.
 */
const TALK_GUARDED = new RegExp(`${ABOUT_ATTACKS_ML}|${asWords(TALK_WORDS)}`, 'iu');

const NOT_BEFORE_VERB: ReadonlySet<GlossLanguage> = new Set(['pl', 'ru']);

const tables = new Map<GlossLanguage, ReadonlyMap<string, string>>();
function table(language: GlossLanguage): ReadonlyMap<string, string> {
  let words = tables.get(language);
  if (words === undefined) {
    const built = new Map<string, string>();
    for (const line of GLOSSARIES[language].words.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0) built.set(line.slice(0, tab), line.slice(tab + 1));
    }
    tables.set(language, built);
    words = built;
  }
  return words;
}

/** A text and, for each of its characters, the span of the original it stands for. */
export interface Gloss {
  text: string;
  starts: number[];
  ends: number[];
}

/**
 * The note read word for word in English, or null when it is not in a glossed language, is guarded,
 * or no word changed. Each English character maps back to the whole word it glosses.
 */
export function englishGloss(text: string): Gloss | null {
  const language = glossLanguage(text);
  if (language === null || (NOT_BEFORE_VERB.has(language) ? TALK_GUARDED : GLOSS_GUARDED).test(text)) return null;
  const words = table(language);
  const starts: number[] = [];
  const ends: number[] = [];
  const parts: string[] = [];
  let changed = false;
  const keep = (from: number, to: number) => {
    parts.push(text.slice(from, to));
    for (let at = from; at < to; at++) {
      starts.push(at);
      ends.push(at + 1);
    }
  };
  let at = 0;
  for (const match of text.matchAll(TOKEN)) {
    const word = match[0];
    const english = /^\p{L}+$/u.test(word) ? words.get(word.toLowerCase()) : undefined;
    if (english === undefined) continue;
    keep(at, match.index);
    const end = match.index + word.length;
    parts.push(word[0] !== word[0]!.toLowerCase() ? english[0]!.toUpperCase() + english.slice(1) : english);
    for (let i = 0; i < english.length; i++) {
      starts.push(match.index);
      ends.push(end);
    }
    at = end;
    changed = true;
  }
  keep(at, text.length);
  const out = parts.join('');
  return changed ? { text: out, starts, ends } : null;
}
