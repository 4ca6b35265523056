// Words a question uses for what a turn says with other words. Session search has no model, so it
// widens a query with two small deterministic rules: a hand-written map of the words developers
// use for the same thing in this domain (a product's maker for the product, "linter" for "lint",
// "caps" for "limits"), and word families: the porter stemmer keeps "formatter" and "formatting"
// apart, so a word with a derivational ending also matches every word that starts with its root.
// Related words are specific ones: a word found in most turns ("test", "on") would make every
// query score most of the index, and BM25 time grows with the rows matched.

/** Related words by word: what a statement is likely to say where the question says the key. */
const RELATED: Record<string, readonly string[]> = {
  // makers and products, nicknames and forks
  anthropic: ['claude'],
  openai: ['codex'],
  microsoft: ['windows'],
  apple: ['macos'],
  mac: ['macos'],
  rome: ['biome'],
  mario: ['pi'],
  zechner: ['pi'],
  github: ['actions'],
  // acronyms
  rrf: ['reciprocal', 'fusion'],
  wal: ['journal_mode'],
  // tools and what they are
  linter: ['lint', 'eslint', 'biome'],
  formatter: ['format', 'prettier', 'biome'],
  runner: ['vitest'],
  framework: ['vitest'],
  repository: ['repo', 'monorepo'],
  layout: ['monorepo', 'structure'],
  config: ['settings', 'configuration'],
  configuration: ['settings', 'config'],
  settings: ['config'],
  os: ['linux', 'macos', 'windows'],
  interface: ['tui', 'screen'],
  ui: ['tui', 'screen'],
  terminal: ['tui', 'tmux'],
  stdin: ['standard'],
  standard: ['stdin'],
  environment: ['env'],
  variable: ['env'],
  permissions: ['mode'],
  permission: ['mode'],
  corrupt: ['integrity'],
  corruption: ['integrity'],
  // sizes, limits, time
  big: ['larger', 'large', 'long'],
  huge: ['large', 'larger', 'long'],
  large: ['larger', 'long'],
  size: ['mib', 'kib', 'larger'],
  limit: ['cap', 'capped', 'max'],
  limits: ['cap', 'capped', 'max'],
  cap: ['limit', 'capped'],
  caps: ['limits', 'capped'],
  maximum: ['max', 'cap'],
  parallel: ['at once', 'concurrent'],
  concurrently: ['at once', 'concurrent'],
  simultaneously: ['at once', 'concurrent'],
  slow: ['ms', 'slower'],
  slowly: ['ms', 'slower'],
  fast: ['ms', 'faster'],
  quick: ['ms', 'faster'],
  speed: ['ms', 'second', 'faster'],
  throughput: ['second'],
  wait: ['deadline', 'timeout'],
  waits: ['deadline', 'timeout'],
  timeout: ['deadline'],
  // actions and outcomes
  quit: ['quits', 'exit', 'escape'],
  leave: ['quits', 'escape', 'back'],
  exit: ['quits'],
  remove: ['delete', 'deletes', 'drop'],
  delete: ['remove', 'drop'],
  reject: ['refused'],
  refuse: ['refused', 'reject'],
  crash: ['crashes', 'interrupted'],
  crashes: ['interrupted'],
  publish: ['release', 'npm'],
  secret: ['key', 'token'],
  secrets: ['key', 'token'],
  credential: ['key', 'secret', 'token'],
  credentials: ['key', 'secret', 'token'],
  password: ['secret', 'key'],
  leak: ['rss', 'memory'],
};

/** Endings that make a word from a root; the porter stemmer does not undo the first ones. */
const DERIVATIONAL = ['ers', 'er', 'ors', 'or', 'ly'];
const ROOT_MIN = 4;
const PLAIN_WORD = /^\p{L}+$/u;

/** The root of a plain word with a derivational ending, at least ROOT_MIN letters; null otherwise. */
export function wordRoot(word: string): string | null {
  if (!PLAIN_WORD.test(word)) return null;
  for (const ending of DERIVATIONAL) {
    if (!word.endsWith(ending)) continue;
    const stem = word.slice(0, -ending.length);
    // "formatter" → "formatt" → "format": a doubled last consonant belongs to the ending.
    const root = /([b-df-hj-np-tv-z])\1$/u.test(stem) ? stem.slice(0, -1) : stem;
    // Porter already takes -er off a stem of measure above 1 ("manager" → "manag"): the family
    // would only count the word twice, and a common word counted twice drowns the rest.
    if (ending.startsWith('er') && root === stem && porterMeasure(stem) > 1) return null;
    return root.length >= ROOT_MIN ? root : null;
  }
  return null;
}

/** Porter's measure of a stem: how many vowel-consonant sequences follow its first consonants. */
function porterMeasure(stem: string): number {
  const shape = [...stem].map((ch, i) => (/[aeiou]/u.test(ch) || (ch === 'y' && i > 0) ? 'v' : 'c')).join('');
  return (shape.replace(/^c+/u, '').match(/v+c+/gu) ?? []).length;
}

export interface Expansion {
  /** Words to match as they are (FTS5 quoted terms). */
  words: string[];
  /** Roots to match as prefixes (FTS5 `"root"*`). */
  prefixes: string[];
}

/** The words and word families that widen `terms` (the query's own terms are not repeated). */
export function expandTerms(terms: readonly string[]): Expansion {
  const own = new Set(terms);
  const words = new Set<string>();
  const prefixes = new Set<string>();
  for (const term of terms) {
    for (const related of RELATED[term] ?? []) if (!own.has(related)) words.add(related);
    const root = wordRoot(term);
    if (root !== null) prefixes.add(root);
  }
  return { words: [...words], prefixes: [...prefixes] };
}
