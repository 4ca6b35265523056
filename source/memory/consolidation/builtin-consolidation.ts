// The built-in consolidation runner: deterministic rules over one scope's approved entries — no
// model, same entries, same patch. It proposes
//
//   retire  an entry another entry declares it `supersedes` (certain: the team wrote it down);
//   merge   entries the rules call the same rule said again: close in content words weighted by
//           how rare each word is in the scope, not contradicting each other on a number, and
//           neither one replacing the other (an old rule and its replacement are never merged);
//   scenes  groups of at least SCENE_MIN_ENTRIES entries that share rare words (paths, tools,
//           commands, terms), by average-linkage clustering cut at SCENE_MIN_SIMILARITY; the
//           name, title and summary are made of the members' own words and cite every member.
//
// It writes no doctrine: a principle is prose it could not cite. Thresholds were tuned on the
// train split of test/corpus/consolidation only (docs/memory-rules.md has the figures).
import { contentWords, normalizeStatement } from '../adjudication-rules.js';
import { parseEntryDocument, slugify } from '../entry-format.js';
import type { BasedOn, ConsolidationOperation } from './patch.js';
import { type GoneEntries, goneBySupersedes, relistText } from './relist.js';
import {
  consolidationFromDocument,
  formatConsolidationFile,
  type SceneFile,
  updateConsolidationFile,
} from './scene-format.js';

export const BUILTIN_CONSOLIDATION_VERSION = 'builtin-consolidation@2';

/** An approved entry as the runner sees it. */
export interface ConsolidationEntry {
  id: string;
  revision: number;
  type: string;
  title: string;
  appliesWhen: string | null;
  body: string;
  supersedes: readonly string[];
}

/** A scene already in the memory root. */
export interface ExistingScene {
  name: string;
  title: string;
  appliesWhen: string | null;
  entries: readonly string[];
  body: string;
  /** The file's text as it is, when known: an update then changes its `entries` line only. */
  text?: string;
}

export interface ConsolidationInput {
  entries: readonly ConsolidationEntry[];
  scenes?: readonly ExistingScene[];
}

/** Weighted cosine from which two entries are proposed as one rule said twice. */
export const MERGE_MIN_SIMILARITY = 0.3;
/** Every pair inside a merge group must be at least this close (complete linkage). */
export const MERGE_GROUP_MIN_SIMILARITY = 0.3;
/**
 * From this similarity two entries are the same rule even when each title names something the
 * other never mentions: paraphrases put the same rule in their own words, titles first.
 */
export const MERGE_STRONG_SIMILARITY = 0.4;
/** Average similarity at which clusters stop joining into a scene. */
export const SCENE_MIN_SIMILARITY = 0.05;
export const SCENE_MIN_ENTRIES = 3;
/**
 * In a scope of at least COMMON_WORD_MIN_ENTRIES entries, a word in more than this share of them
 * says nothing about which scene they are in; in a smaller scope every shared word is a topic.
 */
const COMMON_WORD_SHARE = 0.5;
const COMMON_WORD_MIN_ENTRIES = 20;

interface Profile {
  entry: ConsolidationEntry;
  words: string[];
  weights: Map<string, number>;
  numbers: Set<string>;
  flags: Set<string>;
  titleWords: Set<string>;
  /** The entry says something changed ("now", "no longer", "replaced"): it may be a replacement. */
  changes: boolean;
}

const byCodepoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const textOf = (entry: ConsolidationEntry) => `${entry.title}. ${entry.appliesWhen ?? ''}. ${entry.body}`;

/** Words with which a newer rule says an older one is over. */
const CHANGE_CUE =
  /\b(?:now|no longer|not any more|anymore|replaced|replaces|replace|switched|moved from|moved to|gone|dropped|retired|deprecated)\b/;

/** Numbers the entry states (versions, thresholds, counts): two rules that differ on one are two rules. */
function numbersOf(text: string): Set<string> {
  return new Set(
    normalizeStatement(text)
      .split(' ')
      .filter((token) => /^\d+(?:\.\d+)*$/.test(token)),
  );
}

/** Command-line flags the entry names (`--test`, `-race`): the same command with another flag is another rule. */
function flagsOf(text: string): Set<string> {
  return new Set((text.match(/(?<![\w-])--?[a-z][a-z0-9-]*/g) ?? []).map((flag) => flag.toLowerCase()));
}

function profiles(entries: readonly ConsolidationEntry[]): Profile[] {
  const words = entries.map((entry) => [...contentWords(textOf(entry))]);
  const documentFrequency = new Map<string, number>();
  for (const list of words)
    for (const word of list) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const total = entries.length;
  return entries.map((entry, index) => {
    const weights = new Map<string, number>();
    let norm = 0;
    for (const word of words[index]!) {
      const df = documentFrequency.get(word)!;
      if (total >= COMMON_WORD_MIN_ENTRIES && df / total > COMMON_WORD_SHARE) continue;
      const weight = Math.log(1 + total / df);
      weights.set(word, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [word, weight] of weights) weights.set(word, weight / norm);
    return {
      entry,
      words: words[index]!,
      weights,
      numbers: numbersOf(textOf(entry)),
      flags: flagsOf(textOf(entry)),
      titleWords: new Set(contentWords(entry.title)),
      changes: CHANGE_CUE.test(normalizeStatement(textOf(entry))),
    };
  });
}

/** Pairwise similarity, symmetric, through an inverted index so unrelated pairs cost nothing. */
function similarities(list: readonly Profile[]): Float64Array {
  const n = list.length;
  const matrix = new Float64Array(n * n);
  const postings = new Map<string, Array<[number, number]>>();
  list.forEach((profile, index) => {
    for (const [word, weight] of profile.weights) {
      let posting = postings.get(word);
      if (!posting) postings.set(word, (posting = []));
      posting.push([index, weight]);
    }
  });
  for (const posting of postings.values()) {
    for (let a = 0; a < posting.length; a++) {
      const [i, wi] = posting[a]!;
      for (let b = a + 1; b < posting.length; b++) {
        const [j, wj] = posting[b]!;
        const product = wi * wj;
        matrix[i * n + j]! += product;
        matrix[j * n + i]! += product;
      }
    }
  }
  return matrix;
}

/** Declared supersession, made transitive: a → every entry it replaces directly or through a chain. */
function replaced(entries: readonly ConsolidationEntry[]): Map<string, Set<string>> {
  const direct = new Map(entries.map((entry) => [entry.id, entry.supersedes]));
  const closure = new Map<string, Set<string>>();
  for (const entry of entries) {
    const seen = new Set<string>();
    const stack = [...entry.supersedes];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id) || id === entry.id) continue;
      seen.add(id);
      stack.push(...(direct.get(id) ?? []));
    }
    closure.set(entry.id, seen);
  }
  return closure;
}

const basedOn = (entries: readonly ConsolidationEntry[]): BasedOn[] =>
  entries
    .map((entry) => ({ entryId: entry.id, revision: entry.revision }))
    .sort((a, b) => byCodepoint(a.entryId, b.entryId));

const differ = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => {
  if (a.size === 0 || b.size === 0) return false;
  for (const item of a) if (!b.has(item)) return true;
  for (const item of b) if (!a.has(item)) return true;
  return false;
};

/** A word of one title that the other entry never uses, rare in the scope (at most 2 entries). */
const ownTitleWord = (a: Profile, b: Profile, rare: ReadonlySet<string>): boolean =>
  [...a.titleWords].some(
    (word) => a.weights.has(word) && !b.weights.has(word) && a.weights.get(word)! > 0 && rare.has(word),
  );

/**
 * Two entries that differ on a number or a flag are two rules (Go 1.21 and 1.23; `db:reset` and
 * `db:reset --test`); so are two whose titles each name a rare subject the other never mentions,
 * unless they are at least MERGE_STRONG_SIMILARITY alike and neither says something changed (an
 * entry that says "now" or "replaced" next to one on another subject is likely its replacement).
 */
function conflict(a: Profile, b: Profile, rare: ReadonlySet<string>, similarity: number): boolean {
  return (
    differ(a.numbers, b.numbers) ||
    differ(a.flags, b.flags) ||
    (ownTitleWord(a, b, rare) &&
      ownTitleWord(b, a, rare) &&
      (similarity < MERGE_STRONG_SIMILARITY || a.changes || b.changes))
  );
}

/** Retirements: every approved entry another approved entry declares it supersedes. */
function retirements(entries: readonly ConsolidationEntry[]): ConsolidationOperation[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const operations: ConsolidationOperation[] = [];
  for (const entry of entries) {
    for (const oldId of [...new Set(entry.supersedes)].sort(byCodepoint)) {
      const old = byId.get(oldId);
      if (!old || old.id === entry.id) continue;
      operations.push({
        op: 'retire',
        target: 'entry',
        name: old.id,
        newContent: null,
        basedOn: basedOn([old, entry]),
        mergeSources: [],
        supersededBy: entry.id,
        reason: `${entry.id} declares supersedes ${old.id}`,
      });
    }
  }
  return operations;
}

/** Merge groups: pairs over MERGE_MIN_SIMILARITY joined while every pair stays over the group floor. */
function merges(
  list: readonly Profile[],
  matrix: Float64Array,
  retired: ReadonlySet<string>,
  closure: ReadonlyMap<string, ReadonlySet<string>>,
): ConsolidationOperation[] {
  const n = list.length;
  const documentFrequency = new Map<string, number>();
  for (const profile of list)
    for (const word of profile.words) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const rare = new Set([...documentFrequency].filter(([, count]) => count <= 2).map(([word]) => word));
  const blocked = (i: number, j: number) => {
    const a = list[i]!.entry.id;
    const b = list[j]!.entry.id;
    return (
      closure.get(a)?.has(b) === true ||
      closure.get(b)?.has(a) === true ||
      conflict(list[i]!, list[j]!, rare, matrix[i * n + j]!)
    );
  };
  const pairs: Array<[number, number, number]> = [];
  for (let i = 0; i < n; i++) {
    if (retired.has(list[i]!.entry.id)) continue;
    for (let j = i + 1; j < n; j++) {
      const similarity = matrix[i * n + j]!;
      if (similarity < MERGE_MIN_SIMILARITY || retired.has(list[j]!.entry.id) || blocked(i, j)) continue;
      pairs.push([similarity, i, j]);
    }
  }
  pairs.sort((a, b) => b[0] - a[0] || a[1] - b[1] || a[2] - b[2]);
  const group = new Int32Array(n).map((_, index) => index);
  const members = new Map<number, number[]>();
  for (let i = 0; i < n; i++) members.set(i, [i]);
  for (const [, i, j] of pairs) {
    const gi = group[i]!;
    const gj = group[j]!;
    if (gi === gj) continue;
    const left = members.get(gi)!;
    const right = members.get(gj)!;
    const fits = left.every((a) =>
      right.every((b) => matrix[a * n + b]! >= MERGE_GROUP_MIN_SIMILARITY && !blocked(a, b)),
    );
    if (!fits) continue;
    for (const b of right) group[b] = gi;
    left.push(...right);
    members.delete(gj);
  }
  const operations: ConsolidationOperation[] = [];
  for (const indexes of members.values()) {
    if (indexes.length < 2) continue;
    const entries = indexes.map((index) => list[index]!.entry);
    // The survivor says the most: the most content words, then the longest body, then the smallest id.
    const survivor = [...indexes].sort(
      (a, b) =>
        list[b]!.words.length - list[a]!.words.length ||
        list[b]!.entry.body.length - list[a]!.entry.body.length ||
        byCodepoint(list[a]!.entry.id, list[b]!.entry.id),
    )[0]!;
    const sources = entries
      .map((entry) => entry.id)
      .filter((id) => id !== list[survivor]!.entry.id)
      .sort(byCodepoint);
    const lowest = Math.min(...indexes.flatMap((a) => indexes.filter((b) => b !== a).map((b) => matrix[a * n + b]!)));
    operations.push({
      op: 'merge',
      target: 'entry',
      name: list[survivor]!.entry.id,
      newContent: null,
      basedOn: basedOn(entries),
      mergeSources: sources,
      supersededBy: null,
      reason: `same rule in other words: content-word similarity ${lowest.toFixed(2)} or more`,
    });
  }
  return operations.sort((a, b) => byCodepoint(a.name, b.name));
}

/**
 * Average-linkage clusters cut at `floor`, by the nearest-neighbour chain (O(n²) time): a cluster
 * whose nearest neighbour is below the floor is final.
 */
function clusters(n: number, matrix: Float64Array, floor: number): number[][] {
  const similarity = Float64Array.from(matrix);
  const size = new Int32Array(n).fill(1);
  const members: Array<number[] | null> = Array.from({ length: n }, (_, index) => [index]);
  const active = new Set<number>(Array.from({ length: n }, (_, index) => index));
  const done: number[][] = [];
  const chain: number[] = [];
  while (active.size > 0) {
    if (chain.length === 0) chain.push(Math.min(...active));
    const top = chain[chain.length - 1]!;
    let best = -1;
    let bestSimilarity = -1;
    for (const other of active) {
      if (other === top) continue;
      const value = similarity[top * n + other]!;
      if (value > bestSimilarity || (value === bestSimilarity && other < best)) {
        best = other;
        bestSimilarity = value;
      }
    }
    if (best < 0 || bestSimilarity < floor) {
      done.push(members[top]!);
      active.delete(top);
      chain.pop();
      continue;
    }
    const previous = chain.length > 1 ? chain[chain.length - 2]! : -1;
    if (best !== previous && !(previous >= 0 && similarity[top * n + previous]! === bestSimilarity)) {
      chain.push(best);
      continue;
    }
    // top and previous are each other's nearest: join them into `previous`.
    const into = previous;
    chain.pop();
    chain.pop();
    const total = size[into]! + size[top]!;
    for (const other of active) {
      if (other === into || other === top) continue;
      const joined = (size[into]! * similarity[into * n + other]! + size[top]! * similarity[top * n + other]!) / total;
      similarity[into * n + other] = joined;
      similarity[other * n + into] = joined;
    }
    size[into] = total;
    members[into] = [...members[into]!, ...members[top]!];
    members[top] = null;
    active.delete(top);
  }
  return done;
}

/**
 * The words that set the members apart, as people wrote them in titles and `appliesWhen`: in at
 * least 2 members, ranked by their share among the members less their share among the other entries
 * (a word every entry of the scope uses names no scene), then by weight.
 */
function sharedWords(
  list: readonly Profile[],
  indexes: readonly number[],
  frequency: ReadonlyMap<string, number>,
): string[] {
  const count = new Map<string, number>();
  const weight = new Map<string, number>();
  for (const index of indexes)
    for (const [word, value] of list[index]!.weights) {
      count.set(word, (count.get(word) ?? 0) + 1);
      weight.set(word, (weight.get(word) ?? 0) + value);
    }
  const surface = new Map<string, Map<string, number>>();
  for (const index of indexes) {
    for (const token of normalizeStatement(`${list[index]!.entry.title} ${list[index]!.entry.appliesWhen ?? ''}`).split(
      ' ',
    )) {
      const stems = [...contentWords(token)];
      if (stems.length !== 1 || !/^[a-z0-9][a-z0-9.-]*$/.test(token)) continue;
      const forms = surface.get(stems[0]!) ?? new Map<string, number>();
      forms.set(token, (forms.get(token) ?? 0) + 1);
      surface.set(stems[0]!, forms);
    }
  }
  const others = Math.max(1, list.length - indexes.length);
  const lift = (word: string) =>
    count.get(word)! / indexes.length - ((frequency.get(word) ?? 0) - count.get(word)!) / others;
  return [...count.keys()]
    .filter((word) => count.get(word)! >= 2 && surface.has(word) && lift(word) > 0)
    .sort((a, b) => lift(b) - lift(a) || weight.get(b)! - weight.get(a)! || byCodepoint(a, b))
    .slice(0, 3)
    .map((word) => [...surface.get(word)!].sort((a, b) => b[1] - a[1] || byCodepoint(a[0], b[0]))[0]![0]);
}

function sceneFor(
  list: readonly Profile[],
  matrix: Float64Array,
  indexes: number[],
  frequency: ReadonlyMap<string, number>,
): SceneFile {
  const n = list.length;
  const ordered = [...indexes].sort((a, b) => byCodepoint(list[a]!.entry.id, list[b]!.entry.id));
  // The medoid: the member closest on average to the others; its appliesWhen speaks for the scene.
  const medoid = [...ordered].sort((a, b) => {
    const mean = (i: number) => ordered.reduce((sum, j) => sum + (i === j ? 0 : matrix[i * n + j]!), 0);
    return mean(b) - mean(a);
  })[0]!;
  const words = sharedWords(list, ordered, frequency);
  const named = words.length > 0 ? words : [list[medoid]!.entry.title];
  const lines = ordered.map((index) => `- ${list[index]!.entry.id}: ${list[index]!.entry.title}`);
  return {
    kind: 'scene',
    name: slugify(named.slice(0, 2).join(' '), 48),
    title: `Scene: ${named.join(', ')}`,
    appliesWhen: list[medoid]!.entry.appliesWhen,
    entries: ordered.map((index) => list[index]!.entry.id),
    extra: [],
    body: [
      `${ordered.length} entries that share ${named.map((word) => `"${word}"`).join(', ')}; \`appliesWhen\` from ${list[medoid]!.entry.id}.`,
      '',
      ...lines,
      '',
    ].join('\n'),
  };
}

/**
 * An existing scene with new members: its file's other bytes kept when its text is known, except
 * that its text names no entry an earlier plan merged away or retired (relist.ts).
 */
function updatedScene(
  old: ExistingScene,
  entries: string[],
  gone: GoneEntries,
  titles: ReadonlyMap<string, string>,
): string {
  const fields: SceneFile = {
    kind: 'scene',
    name: old.name,
    title: old.title,
    appliesWhen: old.appliesWhen,
    entries: [...old.entries],
    extra: [],
    body: old.body,
  };
  if (old.text !== undefined) {
    const document = parseEntryDocument(old.text);
    if (document.ok) {
      const parsed = consolidationFromDocument(document.value);
      if (parsed.ok && parsed.value.kind === 'scene')
        return updateConsolidationFile(document.value, {
          ...parsed.value,
          entries,
          body: relistText(parsed.value.body, gone, titles),
        });
    }
  }
  return formatConsolidationFile({ ...fields, entries, body: relistText(fields.body, gone, titles) });
}

function overlap(a: readonly string[], b: readonly string[]): number {
  const left = new Set(a);
  const shared = b.filter((id) => left.has(id)).length;
  return shared / (left.size + b.length - shared || 1);
}

function sceneOperations(
  list: readonly Profile[],
  matrix: Float64Array,
  existing: readonly ExistingScene[],
  retired: ReadonlySet<string>,
): ConsolidationOperation[] {
  const live = list.map((_, index) => index).filter((index) => !retired.has(list[index]!.entry.id));
  const liveMatrix = new Float64Array(live.length * live.length);
  live.forEach((i, a) => {
    live.forEach((j, b) => {
      liveMatrix[a * live.length + b] = matrix[i * list.length + j]!;
    });
  });
  const liveList = live.map((index) => list[index]!);
  const groups = clusters(live.length, liveMatrix, SCENE_MIN_SIMILARITY).filter(
    (group) => group.length >= SCENE_MIN_ENTRIES,
  );
  const byId = new Map(list.map((profile) => [profile.entry.id, profile.entry]));
  const gone = goneBySupersedes(list.map((profile) => profile.entry));
  const titles = new Map(list.map((profile) => [profile.entry.id, profile.entry.title]));
  const frequency = new Map<string, number>();
  for (const profile of liveList)
    for (const word of profile.weights.keys()) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const operations: ConsolidationOperation[] = [];
  const taken = new Set<string>(existing.map((scene) => scene.name));
  const kept = new Set<string>();
  for (const group of groups) {
    const scene = sceneFor(liveList, liveMatrix, group, frequency);
    const match = existing
      .map((old) => ({ old, score: overlap(old.entries, scene.entries) }))
      .filter(({ old, score }) => score >= 0.5 && !kept.has(old.name))
      .sort((a, b) => b.score - a.score || byCodepoint(a.old.name, b.old.name))[0];
    const cited = scene.entries.map((id) => byId.get(id)!);
    if (match) {
      kept.add(match.old.name);
      const same =
        [...match.old.entries].sort(byCodepoint).join('\0') === [...scene.entries].sort(byCodepoint).join('\0');
      if (same) continue;
      operations.push({
        op: 'update',
        target: 'scene',
        name: match.old.name,
        // A scene people may have edited: only its members change; every other byte stays theirs.
        newContent: updatedScene(match.old, scene.entries, gone, titles),
        basedOn: basedOn(cited),
        mergeSources: [],
        supersededBy: null,
        reason: `members now ${scene.entries.length} entries`,
      });
      continue;
    }
    let name = scene.name;
    for (let suffix = 2; taken.has(name); suffix++) name = `${scene.name}-${suffix}`;
    taken.add(name);
    operations.push({
      op: 'create',
      target: 'scene',
      name,
      newContent: formatConsolidationFile({ ...scene, name }),
      basedOn: basedOn(cited),
      mergeSources: [],
      supersededBy: null,
      reason: scene.body.split('\n')[0]!,
    });
  }
  return operations.sort((a, b) => byCodepoint(a.name, b.name));
}

/** The built-in runner's operations for one scope: retirements, then merges, then scenes. */
export function consolidate(input: ConsolidationInput): ConsolidationOperation[] {
  const entries = [...input.entries].sort((a, b) => byCodepoint(a.id, b.id));
  const list = profiles(entries);
  const matrix = similarities(list);
  const retire = retirements(entries);
  const retired = new Set(retire.map((operation) => operation.name));
  const closure = replaced(entries);
  return [
    ...retire,
    ...merges(list, matrix, retired, closure),
    ...sceneOperations(list, matrix, input.scenes ?? [], retired),
  ];
}
