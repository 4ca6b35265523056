// Session search quality: recall@5 and recall@10 of questions whose answer lies in a known user
// turn of a long multi-session conversation (fixtures/memory/session-search), over core.sqlite's
// own index (porter unicode61, BM25), in one run, for the product against the plain alternatives:
//   phrase         the whole question quoted as one FTS5 phrase (the common mistake);
//   and-terms      every word quoted, implicit AND (FTS5's default for bare words), no stop list;
//   or-terms       every word quoted, OR-joined, no stop list: the baseline the ratio is against;
//   or-collapsed   or-terms with the product's collapsing of repeated texts, to show what that alone is worth;
//   terms only     the product's terms (stop list, obligation words kept, compounds by their parts), collapsed:
//                  session search before time expressions, widening and followers;
//   session search what `common-memory search` runs: searchSessions with planSessionSearch (time
//                  expressions as preferred windows, related words and word families, "what next").
// Four question sets: the labelled one, a first held-out set (since looked at), a dev set of
// paraphrase, time, names/pronouns and multi-hop questions that the rules were tuned on, and a
// FROZEN held-out set of the same kinds, written and committed before any tuning and never tuned
// on; the ratio printed for it is the figure that counts. Questions are asked at ASKED_AT.
// The hand-written turns are mixed with one-off requests that reuse the same vocabulary, as a
// real conversation does, so that ranking matters. `node --import tsx test/bench/session-search.ts`
import Database from 'better-sqlite3';
import { buildSessionSearchQuery, quoteFtsTerm } from '../../source/memory/fts-query.js';
import { firstOfEachText, searchSessions } from '../../source/store/core/session-search.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { migrate } from '../../source/store/migrations.js';
import { readMemoryFixture } from '../support/fixture-jsonl.js';
import { percentile, timeMs } from './measure.js';

interface Turn {
  sessionKey: string;
  turnKey: string;
  text: string;
  /** UTC, when the turn was said. */
  recordedAt: string;
}

export interface Question {
  question: string;
  answerTurnKey: string;
  /** paraphrase, time, names or multi-hop (the dev and frozen sets). */
  kind?: string;
  /** When the question is asked (time expressions are relative to it); the sets without it are asked at ASKED_AT. */
  askedAt?: string;
}

/** When the conversation is searched: after its last session (Friday 2026-03-27, 16:00 UTC). */
export const ASKED_AT = '2026-03-27T16:00:00Z';
const readJsonl = <T>(name: string): T[] => readMemoryFixture<T>(`session-search/${name}`);
const CONVERSATION_START_MS = Date.parse('2026-03-02T08:00:00Z');

const SUBJECTS = [
  'the hook',
  'the drain',
  'the TUI',
  'the pi agent',
  'the journal',
  'the migration',
  'the writer thread',
  'the status screen',
  'the install plan',
  'the settings merge',
  'the rollout parser',
  'session search',
  'recall',
  'the secret lint',
  'the release workflow',
  'the changelog',
  'doctor',
  'the lease',
  'the first frame',
  'the bundle',
  'the package.json',
  'the tsconfig',
  'the memory state',
];
const FILES = [
  'source/hook/capture.ts',
  'source/store/core/journal.ts',
  'source/screens/app.tsx',
  'source/hosts/pi/agent-manager.ts',
  'README.md',
  'source/limits.ts',
  'test/e2e/host.test.ts',
  'source/cli/main.ts',
  'scripts/bundle.mjs',
  'biome.json',
  'package.json',
];
const REQUESTS = [
  (s: string, f: string) => `run the tests for ${s} again`,
  (s: string, f: string) => `show me the diff of ${f}`,
  (s: string, f: string) => `fix the lint errors in ${f}`,
  (s: string, f: string) => `the test of ${s} times out on CI, have a look`,
  (s: string, f: string) => `open ${f} and find where ${s} starts`,
  (s: string, f: string) => `what does ${s} do when the host is not running?`,
  (s: string, f: string) => `add a debug log in ${f} so I can see ${s}`,
  (s: string, f: string) => `revert the last change to ${f}`,
  (s: string, f: string) => `commit this as "${s}: tidy up"`,
  (s: string, f: string) => `the output of ${s} looks wrong, print the JSON`,
  (s: string, f: string) => `rename the helper in ${f}, the name says nothing`,
  (s: string, f: string) => `how far along is the refactor of ${s}?`,
  (s: string, f: string) => `${s} is green now, next`,
  (s: string, f: string) => `try ${s} with --verbose and paste the first error`,
  (s: string, f: string) => `typecheck fails in ${f} after the merge, fix it`,
];

/** One-off requests mixed into the conversation: deterministic, reusing the conversation's words. */
export function chatterTurns(count: number): Turn[] {
  const turns: Turn[] = [];
  for (let i = 0; i < count; i += 1) {
    const request = REQUESTS[i % REQUESTS.length]!;
    const subject = SUBJECTS[(i * 7) % SUBJECTS.length]!;
    const file = FILES[(i * 5) % FILES.length]!;
    // Spread over the conversation's days, as requests between its sessions are.
    const recordedAt = new Date(
      CONVERSATION_START_MS + ((i * 7919) % count) * ((Date.parse(ASKED_AT) - CONVERSATION_START_MS) / count),
    );
    turns.push({
      sessionKey: `chatter-${Math.floor(i / 40)}`,
      turnKey: `chatter/${i}`,
      text: request(subject, file),
      recordedAt: recordedAt.toISOString(),
    });
  }
  return turns;
}

/** The question sets, in the order they are printed; the frozen one is never tuned on (see the fixtures' README). */
export const QUESTION_SETS = {
  labelled: 'questions.jsonl',
  'held-out 1': 'held-out-questions.jsonl',
  dev: 'dev-questions.jsonl',
  frozen: 'frozen-held-out.jsonl',
} as const;
export type QuestionSet = keyof typeof QUESTION_SETS;

export function readConversation(): { turns: Turn[]; sets: Record<QuestionSet, Question[]> } {
  const sets = {} as Record<QuestionSet, Question[]>;
  for (const [name, file] of Object.entries(QUESTION_SETS)) sets[name as QuestionSet] = readJsonl<Question>(file);
  return { turns: readJsonl<Turn>('turns.jsonl'), sets };
}

const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');

const orTerms = (question: string) => words(question).map(quoteFtsTerm).join(' OR ') || null;

/** The plain alternatives: a MATCH expression for a question, top 10 by BM25, repeats collapsed or not. */
const PLAIN: Record<string, { query: (question: string) => string | null; collapse: boolean }> = {
  phrase: { query: (question) => quoteFtsTerm(question), collapse: false },
  'and-terms': { query: (question) => words(question).map(quoteFtsTerm).join(' ') || null, collapse: false },
  'or-terms': { query: orTerms, collapse: false },
  'or-collapsed': { query: orTerms, collapse: true },
  // Session search before time expressions, widening and followers: its terms only, repeats collapsed.
  'terms only': { query: buildSessionSearchQuery, collapse: true },
};
export const METHODS = [...Object.keys(PLAIN), 'session search'];

export interface Recall {
  /** Fractions of the questions whose answer turn is in the top 5 / 10. */
  at5: number;
  at10: number;
}

export interface SearchQuality {
  turns: number;
  /** set → { questions, method → recall, kind → method → recall }. */
  sets: Record<
    QuestionSet,
    { questions: number; recall: Record<string, Recall>; byKind: Record<string, Record<string, Recall>> }
  >;
}

/**
 * The product's own index (core.sqlite's schema, porter unicode61) holding `turns`, and a search
 * per method: the plain ones are one FTS5 query each; session search is the product's
 * searchSessions, ranking and collapsing included, with time expressions read against `nowMs`.
 */
function buildIndex(turns: readonly Turn[]) {
  const db = new Database(':memory:');
  migrate(db, coreSchema);
  const insert = db.prepare(
    'INSERT INTO session_search (rowid, body, ref, client, session_key, turn_key, recorded_at_ms, typed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const [index, turn] of turns.entries())
      insert.run(
        index + 1,
        turn.text,
        `t:${index + 1}`,
        'claude',
        turn.sessionKey,
        turn.turnKey,
        Date.parse(turn.recordedAt),
        // Each turn of the labelled conversation was typed when it was recorded.
        Date.parse(turn.recordedAt),
      );
  })();
  const top = db.prepare(
    'SELECT rowid AS id FROM session_search WHERE session_search MATCH ? ORDER BY bm25(session_search), rowid LIMIT 10',
  );
  const ranked = db.prepare(
    'SELECT rowid AS id FROM session_search WHERE session_search MATCH ? ORDER BY bm25(session_search), rowid',
  );
  const keyOf = (id: number) => turns[id - 1]!.turnKey;
  return {
    db,
    /** The turn keys of the top 10 for a question by a method. */
    search: (method: string, question: string, nowMs: number): string[] => {
      if (method === 'session search')
        return searchSessions(db, { query: question, limit: 10, nowMs }).map((hit) => hit.turnKey);
      const { query, collapse } = PLAIN[method]!;
      const match = query(question);
      if (match === null) return [];
      // Collapsing reads the ranking lazily until ten distinct texts, as searchSessions does, so it is timed too.
      const ids = collapse
        ? firstOfEachText(ranked.iterate(match) as Iterable<{ id: number }>, (row) => turns[row.id - 1]!.text, 10).map(
            (row) => row.id,
          )
        : (top.all(match) as { id: number }[]).map((row) => row.id);
      return ids.map(keyOf);
    },
  };
}

export const askedAtMs = (question: Question) => Date.parse(question.askedAt ?? ASKED_AT);

/** The conversation with `chatter` one-off requests interleaved, indexed; and the question sets. */
export function conversationIndex(chatter = 1000) {
  const { turns: conversation, sets } = readConversation();
  // The chatter is interleaved with the conversation so row ids carry no hint of the answer.
  const chatterRows = chatterTurns(chatter);
  const turns: Turn[] = [];
  const step = Math.max(1, Math.floor(chatterRows.length / Math.max(1, conversation.length)));
  let c = 0;
  for (const turn of conversation) {
    turns.push(...chatterRows.slice(c, c + step), turn);
    c += step;
  }
  turns.push(...chatterRows.slice(c));
  return { turns, sets, ...buildIndex(turns) };
}

export function measureSearchQuality(chatter = 1000): SearchQuality {
  const { turns, sets, db, search } = conversationIndex(chatter);
  const score = (set: readonly Question[]) => {
    const recall: Record<string, Recall> = {};
    const byKind: Record<string, Record<string, Recall>> = {};
    for (const method of METHODS) {
      const hits = new Map<string, { at5: number; at10: number; n: number }>();
      for (const question of set) {
        const rank = search(method, question.question, askedAtMs(question)).indexOf(question.answerTurnKey);
        for (const group of question.kind === undefined ? ['all'] : ['all', question.kind]) {
          const tally = hits.get(group) ?? { at5: 0, at10: 0, n: 0 };
          if (rank !== -1 && rank < 5) tally.at5 += 1;
          if (rank !== -1) tally.at10 += 1;
          tally.n += 1;
          hits.set(group, tally);
        }
      }
      for (const [group, { at5, at10, n }] of hits) {
        const value = { at5: at5 / n, at10: at10 / n };
        if (group === 'all') recall[method] = value;
        else (byKind[group] ??= {})[method] = value;
      }
    }
    return { questions: set.length, recall, byKind };
  };
  const quality = { turns: turns.length, sets: {} as SearchQuality['sets'] };
  for (const [name, set] of Object.entries(sets)) quality.sets[name as QuestionSet] = score(set);
  db.close();
  return quality;
}

/**
 * p95 of each method's search over 100k turns (top 10). Stop words cost time, not only ranking:
 * an OR with "the" or "we" matches nearly every row, and BM25 then scores them all.
 */
export function measureSearchLatency(total = 100_000): {
  turns: number;
  questions: number;
  p95: Record<string, number>;
} {
  const { turns: conversation, sets } = readConversation();
  const questions = Object.values(sets).flat();
  const { db, search } = buildIndex([...conversation, ...chatterTurns(total - conversation.length)]);
  const p95: Record<string, number> = {};
  for (const method of METHODS) {
    const times = questions.map((question) => timeMs(() => search(method, question.question, askedAtMs(question))));
    p95[method] = percentile(times, 95);
  }
  db.close();
  return { turns: total, questions: questions.length, p95 };
}

/** How many times plain OR-joined BM25 session search's recall@10 is, on one set. */
export const recallRatio = (recall: Record<string, Recall>) =>
  recall['session search']!.at10 / recall['or-terms']!.at10;

export async function runSessionSearchBench(): Promise<SearchQuality> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const quality = measureSearchQuality();
  const row = (name: string, { at5, at10 }: Recall) =>
    `  ${name.padEnd(14)} recall@5 ${at5.toFixed(3)}  recall@10 ${at10.toFixed(3)}`;
  out(`session search over ${quality.turns} user turns (porter, BM25), asked at ${ASKED_AT}`);
  for (const [name, set] of Object.entries(quality.sets)) {
    const frozen = name === 'frozen' ? ' (FROZEN held-out: never tuned on)' : '';
    out(`${name}: ${set.questions} questions${frozen}`);
    for (const [method, recall] of Object.entries(set.recall)) out(row(method, recall));
    for (const [kind, recall] of Object.entries(set.byKind))
      out(
        `    ${kind.padEnd(11)} session search ${recall['session search']!.at10.toFixed(3)} against or-terms ${recall['or-terms']!.at10.toFixed(3)} at @10`,
      );
    out(`  recall@10 ratio, session search / or-terms: ${recallRatio(set.recall).toFixed(2)}x`);
  }
  const latency = measureSearchLatency();
  out(`search p95 over ${latency.turns} turns, ${latency.questions} questions:`);
  for (const [name, ms] of Object.entries(latency.p95)) out(`  ${name.padEnd(14)} ${ms.toFixed(2)} ms`);
  return quality;
}

if (import.meta.url === `file://${process.argv[1]}`) await runSessionSearchBench();
