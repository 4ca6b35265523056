// Turns what a person typed into an FTS5 MATCH expression that can never be a syntax error or an
// operator injection: every term is its own double-quoted string (FTS5's only escape is `""`),
// the terms are OR-joined so that BM25 ranks by how many of them a row has, and common English
// words are dropped. Quoting the whole input as one phrase instead finds only rows that repeat
// the user's exact word order, which is why it misses most of what a person is looking for.
import { expandTerms } from './query-expansion.js';
import { readTimeExpressions, type TimeWindow } from './time-expression.js';

/** Terms kept from one query: enough for any question a person types, bounded so that a pasted document cannot make one query scan the index hundreds of times. */
export const FTS_QUERY_MAX_TERMS = 32;

/**
 * Words that carry no subject in a question or a preference. Kept in the query they would match
 * almost every turn and drown the ranking. Negations and modal verbs are here too: a search for
 * "why did we not use yarn" is about yarn, not about "not".
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are aren as at be because been before being below ' +
    'between both but by can cannot could couldn did didn do does doesn doing don down during each either else ' +
    'ever few for from further get gets got had hadn has hasn have haven having he her here hers herself him ' +
    'himself his how i if in into is isn it its itself just let me might more most must mustn my myself no nor ' +
    'not now of off on once only or other ought our ours ourselves out over own please same shall shan she ' +
    'should shouldn so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up upon us very was wasn we were weren what when where whether which while who ' +
    'whom whose why will with within without won would wouldn yes yet you your yours yourself yourselves ' +
    'anything something thing things tell told say said remind know knew like ok okay hey hi thanks ' +
    'thank s t d ll m re ve'
  ).split(' '),
);

// Everything FTS5 gives meaning to (quotes, grouping, prefix, column filter, initial-token,
// required/excluded) plus sentence punctuation ends a word. Hyphens, dots, slashes and
// underscores do not: `better-sqlite3` and `src/index.ts` stay one quoted term, which FTS5
// matches as the phrase of their tokens.
const WORD_BREAK = /[\s"'`()[\]{}*^:+,;!?<>=|&~\\]+/u;
const EDGE_NOISE = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const HAS_TOKEN = /[\p{L}\p{N}]/u;
// Control characters (NUL included) are never part of a word and are not worth sending to SQLite.
const CONTROL = /\p{Cc}/gu;

/** The distinct search terms of `text`, lower-cased, stop words removed, in first-seen order; at most `max`. */
export function ftsTerms(text: string, max = FTS_QUERY_MAX_TERMS): string[] {
  return collectTerms(text, max, (word) => ENGLISH_STOP_WORDS.has(word));
}

function collectTerms(text: string, max: number, isStopWord: (word: string) => boolean): string[] {
  const seen = new Set<string>();
  for (const raw of text.replace(CONTROL, ' ').split(WORD_BREAK)) {
    const word = raw.replace(EDGE_NOISE, '').toLowerCase();
    if (word === '' || !HAS_TOKEN.test(word) || isStopWord(word)) continue;
    seen.add(word);
    if (seen.size === max) break;
  }
  return [...seen];
}

/**
 * Words a rule is stated with. Session search keeps them: a question about a rule ("what size must
 * the TUI support?") uses the rule's own word ("the TUI must work at 80 by 24"). Recall, which
 * compares statements with each other, drops them with the other stop words.
 */
const OBLIGATION_WORDS: ReadonlySet<string> = new Set(['must', 'mustn', 'should', 'shouldn', 'cannot']);
const PART_BREAK = /[^\p{L}\p{N}]+/u;

/**
 * Session search's terms: those of ftsTerms plus obligation words, and after each compound word
 * (`node_env`, `better-sqlite3`) its parts. The quoted compound is one FTS5 phrase that BM25 weighs
 * as one term; its parts add the weight of each rare part, so the row that names the identifier
 * ranks above short rows that only share common words with the question.
 */
export function sessionSearchTerms(text: string, max = FTS_QUERY_MAX_TERMS): string[] {
  const isStopWord = (word: string) => ENGLISH_STOP_WORDS.has(word) && !OBLIGATION_WORDS.has(word);
  const terms = new Set<string>();
  for (const term of collectTerms(text, max, isStopWord)) {
    const parts = term.split(PART_BREAK).filter((part) => part !== '' && !isStopWord(part));
    for (const each of parts.length > 1 ? [term, ...parts] : [term]) terms.add(each);
  }
  return [...terms].slice(0, max);
}

/** Session search's FTS5 MATCH expression for `text` (quoted, OR-joined), or null when no searchable word remains. */
export function buildSessionSearchQuery(text: string): string | null {
  const terms = sessionSearchTerms(text);
  return terms.length === 0 ? null : terms.map(quoteFtsTerm).join(' OR ');
}

export interface SessionSearchPlan {
  /** The FTS5 MATCH expression: the query's terms, then the words and word families that widen them; null when no searchable word remains. */
  match: string | null;
  /** Windows named by the query's time expressions; turns in them rank first. */
  windows: TimeWindow[];
  /** The query asks what was said after what it describes ("what did I say next"): the turn that follows a match is the answer. */
  follow: boolean;
}

// "what did I say next", "and afterwards?", "what came after that": the words describe one turn,
// the question is about the turn after it in the same session.
const FOLLOW_UP = /(?<![\p{L}\p{N}])(?:next|afterwards|after that|right after)(?![\p{L}\p{N}])/giu;

/**
 * What `common-memory search` runs for `text` at `nowMs`: time expressions become windows and
 * leave the words; the remaining terms are widened by related words and word families
 * (query-expansion.ts), all OR-joined into one BM25 query, so widening costs no second pass.
 */
export function planSessionSearch(text: string, nowMs: number): SessionSearchPlan {
  const { windows, rest } = readTimeExpressions(text, nowMs);
  const follow = FOLLOW_UP.test(rest);
  const terms = sessionSearchTerms(rest.replace(FOLLOW_UP, ' '));
  const { words, prefixes } = expandTerms(terms);
  const parts = [
    ...terms.map(quoteFtsTerm),
    ...words.slice(0, FTS_QUERY_MAX_TERMS).map(quoteFtsTerm),
    ...prefixes.slice(0, FTS_QUERY_MAX_TERMS).map((root) => `${quoteFtsTerm(root)}*`),
  ];
  return { match: parts.length === 0 ? null : parts.join(' OR '), windows, follow };
}

/** Double-quotes one term for FTS5; a quote inside is doubled, FTS5's only escape. */
export function quoteFtsTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** An FTS5 MATCH expression for `text`, or null when no searchable word remains. */
export function buildFtsQuery(text: string): string | null {
  const terms = ftsTerms(text);
  return terms.length === 0 ? null : terms.map(quoteFtsTerm).join(' OR ');
}
