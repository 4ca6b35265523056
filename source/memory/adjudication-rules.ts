// The built-in adjudicator: compares a draft with what recall found and proposes store, skip,
// update or merge by deterministic rules on normalised text — no model, same input, same answer.
//
//   skip    the draft says nothing the target does not already say (equal after normalisation,
//           equal content words, or its content words are a subset of the target's);
//   update  the draft says the opposite of the target in the same words ("use X" → "never use X");
//   merge   the draft says all the target says and more, or nearly the same with one word changed;
//   store   anything else — including "the same sentence about another tool, number or path",
//           which is a different statement, never a duplicate to fold away.
//
// Update and merge supersede the target with provenance; nothing is deleted (the pipeline's rule).

export type Decision = 'store' | 'skip' | 'update' | 'merge';

export interface RecalledItem {
  id: string;
  sourceKind: string;
  content: string;
  revision: number;
}

export interface DraftDecision {
  decision: Decision;
  targetId?: string;
  targetRevision?: number;
}

/** Content-word overlap (Jaccard) from which two statements that differ on both sides are near-duplicates. */
export const MERGE_MIN_JACCARD = 0.7;

const CONTRACTIONS: [RegExp, string][] = [
  [/\bcan't\b/g, 'cannot'],
  [/\bwon't\b/g, 'will not'],
  [/\bshan't\b/g, 'shall not'],
  [/\b(\w+)n't\b/g, '$1 not'],
  [/\b(\w+)'re\b/g, '$1 are'],
  [/\b(\w+)'ve\b/g, '$1 have'],
  [/\b(\w+)'ll\b/g, '$1 will'],
  [/\b(\w+)'d\b/g, '$1 would'],
  [/\b(i)'m\b/g, '$1 am'],
  [/\b(it|that|there|what|here)'s\b/g, '$1 is'],
  [/\blet's\b/g, 'let us'],
];

// A token is letters and digits, joined inside by the characters of paths, versions and package
// names (`src/log.ts`, `node:test`, `3.12`, `kebab-case`, `@scope/pkg`); edges are punctuation.
const TOKEN = /[\p{L}\p{N}@#]+(?:[./:_+-][\p{L}\p{N}@#]+)*\+*/gu;

/**
 * One statement in canonical form: Unicode NFKC, lower case, typographic quotes straightened,
 * contractions expanded, Markdown and punctuation dropped, one space between tokens.
 */
export function normalizeStatement(text: string): string {
  let value = text.normalize('NFKC').toLowerCase().replace(/[’‘`]/g, "'").replace(/[“”]/g, '"');
  for (const [pattern, replacement] of CONTRACTIONS) value = value.replace(pattern, replacement);
  return (value.match(TOKEN) ?? []).join(' ');
}

const NEGATIONS = new Set(['not', 'never', 'no', 'without', 'avoid', 'nor', 'cannot']);

// Words that carry no subject of their own in a rule someone states: articles, pronouns,
// modals, and the verbs and nouns every rule is phrased with ("use", "keep", "our convention").
const SOFT = new Set(
  (
    'a an the of to in on at for with and or but by as into onto from per each every all any some is are was were ' +
    'be been being am it its this that these those there here we our us you your i me my they their them please ' +
    'always should must need needs needed have has had having do does did done get gets got getting make makes ' +
    'sure use uses used using put puts add adds added keep keeps kept keeping live lives lived located stored go ' +
    'goes belong belongs called named run runs running ran prefer prefers preferred like rather instead than over ' +
    'only just also now going forward future when whenever then so very really strongly generally usually ' +
    'convention conventions rule rules standard standards policy team project repository will would can could ' +
    'shall may might want wants let what which who whose how why under ever everywhere one-off thing things'
  ).split(' '),
);

// Spellings of one idea that people use interchangeably in developer talk.
const SYNONYMS: Record<string, string[]> = {
  repo: ['repository'],
  repos: ['repository'],
  db: ['database'],
  pr: ['pull', 'request'],
  prs: ['pull', 'request'],
  deps: ['dependency'],
  dep: ['dependency'],
  config: ['configuration'],
  dir: ['directory'],
  folder: ['directory'],
  e2e: ['end-to-end'],
  env: ['environment'],
  infra: ['infrastructure'],
  linter: ['lint'],
  linting: ['lint'],
  docs: ['documentation'],
  msg: ['message'],
  fn: ['function'],
  func: ['function'],
  k8s: ['kubernetes'],
  written: ['write'],
  wrote: ['write'],
};

// A light English stemmer: enough that "tests/testing", "merged/merge", "dependencies/dependency"
// and "exactly/exact" compare equal; applied to plain words only, never to paths or versions.
function stem(word: string): string {
  if (!/^[a-z]+$/.test(word) || word.length <= 3) return word;
  let w = word;
  const undouble = (s: string) => (/([b-df-hj-np-tv-z])\1$/.test(s) && !/(ss|ll)$/.test(s) ? s.slice(0, -1) : s);
  if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
  if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed')) w = undouble(w.slice(0, -2));
  else if (w.length > 4 && w.endsWith('es')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('y')) w = `${w.slice(0, -1)}i`;
  return w;
}

interface Analysed {
  normalized: string;
  /** Content words in order, stemmed, negations and soft words removed; code spans always kept. */
  sequence: string[];
  words: Set<string>;
  negations: number;
}

/** Texts whose analysis is kept: a run compares the same few sentences again and again. */
const ANALYSED_MAX = 4096;
const analyses = new Map<string, Analysed>();

/** A text's analysis, remembered (it is a pure function of the text, and never changed by a caller). */
function analyse(text: string): Analysed {
  let known = analyses.get(text);
  if (known === undefined) {
    if (analyses.size >= ANALYSED_MAX) analyses.clear();
    known = analyseText(text);
    analyses.set(text, known);
  }
  return known;
}

function analyseText(text: string): Analysed {
  // Code spans name the exact thing (`any`, `dist/`): they are content even when they are stop words.
  const code = new Set((text.match(/`[^`]+`/g) ?? []).flatMap((span) => normalizeStatement(span).split(' ')));
  const normalized = normalizeStatement(text);
  const sequence: string[] = [];
  let negations = 0;
  for (const token of normalized.split(' ')) {
    if (token === '') continue;
    if (NEGATIONS.has(token)) {
      negations += 1;
      continue;
    }
    if (code.has(token)) sequence.push(token);
    else if (!SOFT.has(token))
      for (const word of (Object.hasOwn(SYNONYMS, token) ? SYNONYMS[token] : undefined) ?? [token])
        if (!SOFT.has(word)) sequence.push(stem(word));
  }
  return { normalized, sequence, words: new Set(sequence), negations };
}

const isSpecific = (word: string) => /\d|[./:@]/.test(word);

interface Relation {
  decision: Decision;
  /** Higher is a stronger reason; decides between several recalled items. */
  strength: number;
  jaccard: number;
}

function relate(draft: Analysed, target: Analysed): Relation {
  if (draft.normalized === target.normalized) return { decision: 'skip', strength: 5, jaccard: 1 };
  if (draft.words.size === 0 || target.words.size === 0) return { decision: 'store', strength: 0, jaccard: 0 };
  const shared = [...draft.words].filter((word) => target.words.has(word)).length;
  const onlyDraft = [...draft.words].filter((word) => !target.words.has(word));
  const onlyTarget = [...target.words].filter((word) => !draft.words.has(word));
  const jaccard = shared / (draft.words.size + onlyTarget.length);
  const sameWords = onlyDraft.length === 0 && onlyTarget.length === 0;
  if (sameWords && draft.negations !== target.negations && draft.sequence.join(' ') === target.sequence.join(' ')) {
    return { decision: 'update', strength: 4, jaccard };
  }
  if (sameWords) return { decision: 'skip', strength: 4, jaccard };
  if (onlyDraft.length === 0) return { decision: 'skip', strength: 3, jaccard };
  if (onlyTarget.length === 0) return { decision: 'merge', strength: 2, jaccard };
  // Both sides have words of their own: one changed word in a long statement is a rewording,
  // unless a number, version or path changed — "Node 18" and "Node 20" are two facts.
  const specificChange = [...onlyDraft, ...onlyTarget].some(isSpecific);
  if (jaccard >= MERGE_MIN_JACCARD && !specificChange) return { decision: 'merge', strength: 1, jaccard };
  return { decision: 'store', strength: 0, jaccard };
}

/** What to do with one draft given its recall set (best first); the draft's own batch siblings are the caller's to exclude. */
export function decideDraft(draft: { content: string }, recalled: readonly RecalledItem[]): DraftDecision {
  const analysedDraft = analyse(draft.content);
  let best: { item: RecalledItem; relation: Relation } | null = null;
  for (const item of recalled) {
    const relation = relate(analysedDraft, analyse(item.content));
    if (relation.decision === 'store') continue;
    const better =
      best === null ||
      relation.strength > best.relation.strength ||
      (relation.strength === best.relation.strength && relation.jaccard > best.relation.jaccard);
    if (better) best = { item, relation };
  }
  if (best === null) return { decision: 'store' };
  return { decision: best.relation.decision, targetId: best.item.id, targetRevision: best.item.revision };
}

export interface BatchDraft {
  /** The draft's reference in its batch (its candidate id once stored). */
  draftRef: string;
  content: string;
}

export interface BatchDecision extends DraftDecision {
  draftRef: string;
}

/**
 * Decisions for one batch of drafts. `recalled[i]` is draft i's recall set; it may hold the
 * batch's other drafts (stored as candidates before adjudication, ids = their draftRef), which
 * are never a target of skip, update or merge by recall: only committed items are. Within the
 * batch, a draft that repeats an earlier kept draft is a `skip` naming that draft, so duplicates
 * converge on one candidate.
 */
export function decideBatch(
  drafts: readonly BatchDraft[],
  recalled: readonly (readonly RecalledItem[])[],
): BatchDecision[] {
  if (recalled.length !== drafts.length)
    throw new RangeError(`${drafts.length} drafts but ${recalled.length} recall sets`);
  const batch = new Set(drafts.map((draft) => draft.draftRef));
  const decisions: BatchDecision[] = [];
  const kept: { draftRef: string; analysed: Analysed }[] = [];
  drafts.forEach((draft, index) => {
    const committed = recalled[index]!.filter((item) => !batch.has(item.id));
    const decision = decideDraft(draft, committed);
    const analysed = analyse(draft.content);
    if (decision.decision === 'store') {
      const sibling = kept.find((other) => relate(analysed, other.analysed).decision === 'skip');
      if (sibling) {
        decisions.push({ draftRef: draft.draftRef, decision: 'skip', targetId: sibling.draftRef });
        return;
      }
    }
    if (decision.decision !== 'skip') kept.push({ draftRef: draft.draftRef, analysed });
    decisions.push({ draftRef: draft.draftRef, ...decision });
  });
  return decisions;
}

/**
 * Whether two statements say the same thing, whichever is taken as the draft: one's content words
 * are within the other's, or they are near-duplicates (a skip or a merge by the rules above, in
 * either direction). Saying the opposite in the same words (an update) is not a restatement.
 */
export function restates(a: string, b: string): boolean {
  const left = analyse(a);
  const right = analyse(b);
  const forward = relate(left, right).decision;
  const backward = relate(right, left).decision;
  return (forward === 'skip' || forward === 'merge') && (backward === 'skip' || backward === 'merge');
}

const codepointOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The fixed rule of which of two restatements survives, so that the order the drafts arrive in never
 * decides it: the one with more content words (it says more), then the longer normalised text, then
 * the smaller normalised text, then the smaller raw text (code-point order). Negative when `a`
 * survives, positive when `b` does, 0 only for the very same text.
 */
export function survivorOrder(a: string, b: string): number {
  const left = analyse(a);
  const right = analyse(b);
  return (
    right.words.size - left.words.size ||
    right.normalized.length - left.normalized.length ||
    codepointOrder(left.normalized, right.normalized) ||
    codepointOrder(a, b)
  );
}

/** How many distinct content words a statement has (negations, soft words and punctuation aside). */
export function contentWordCount(text: string): number {
  return analyse(text).words.size;
}

/**
 * A statement's content words, as the rules above compare them: stemmed, synonyms folded,
 * negations and soft words out, code spans kept. Consolidation groups approved entries by them.
 */
export function contentWords(text: string): ReadonlySet<string> {
  return analyse(text).words;
}
