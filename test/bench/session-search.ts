// Session search quality: recall@5 and recall@10 of questions whose answer lies in a known user
// turn of a long multi-session conversation (fixtures/memory/session-search), over one FTS5 table
// (porter unicode61, BM25), in one run, for the query builder against the plain alternatives:
//   phrase     the whole question quoted as one FTS5 phrase (the common mistake);
//   and-terms  every word quoted, implicit AND (FTS5's default for bare words), no stop list;
//   or-terms   every word quoted, OR-joined, no stop list;
//   or-collapsed   or-terms with the product's collapsing of repeated texts, to show what that alone is worth;
//   session search what `common-memory search` runs: buildSessionSearchQuery (quoted terms OR-joined, English
//                  stop list but obligation words kept, compound words also by their parts), repeats collapsed.
// Quality is reported for the labelled questions and for a held-out set written from the same
// conversation, so that a rule fitted to the first set shows up as a gap on the second.
// The hand-written turns are mixed with one-off requests that reuse the same vocabulary, as a
// real conversation does, so that ranking matters. `node --import tsx test/bench/session-search.ts`
import Database from 'better-sqlite3';
import { buildSessionSearchQuery, quoteFtsTerm } from '../../source/memory/fts-query.js';
import { firstOfEachText } from '../../source/store/session-search.js';
import { readMemoryFixture } from '../support/fixture-jsonl.js';
import { percentile, timeMs } from './measure.js';

interface Turn {
  sessionKey: string;
  turnKey: string;
  text: string;
}

export interface Question {
  question: string;
  answerTurnKey: string;
}

const readJsonl = <T>(name: string): T[] => readMemoryFixture<T>(`session-search/${name}`);

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
  'source/store/journal.ts',
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
    turns.push({ sessionKey: `chatter-${Math.floor(i / 40)}`, turnKey: `chatter/${i}`, text: request(subject, file) });
  }
  return turns;
}

export function readConversation(): { turns: Turn[]; questions: Question[]; heldOut: Question[] } {
  return {
    turns: readJsonl<Turn>('turns.jsonl'),
    questions: readJsonl<Question>('questions.jsonl'),
    heldOut: readJsonl<Question>('held-out-questions.jsonl'),
  };
}

const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');

const orTerms = (question: string) => words(question).map(quoteFtsTerm).join(' OR ') || null;

/** Each method: the MATCH expression for a question, and whether repeated texts collapse into one result. */
export const METHODS: Record<string, { query: (question: string) => string | null; collapse: boolean }> = {
  phrase: { query: (question) => quoteFtsTerm(question), collapse: false },
  'and-terms': { query: (question) => words(question).map(quoteFtsTerm).join(' ') || null, collapse: false },
  'or-terms': { query: orTerms, collapse: false },
  'or-collapsed': { query: orTerms, collapse: true },
  'session search': { query: buildSessionSearchQuery, collapse: true },
};

export interface SearchQuality {
  turns: number;
  questions: number;
  heldOutQuestions: number;
  /** method → { at5, at10 } as fractions of the questions whose answer turn is in the top 5 / 10. */
  recall: Record<string, { at5: number; at10: number }>;
  heldOut: Record<string, { at5: number; at10: number }>;
}

function buildIndex(turns: readonly Turn[]) {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE turns USING fts5(text, tokenize = 'porter unicode61')");
  const insert = db.prepare('INSERT INTO turns (rowid, text) VALUES (?, ?)');
  db.transaction(() => {
    for (const [index, turn] of turns.entries()) insert.run(index + 1, turn.text);
  })();
  const top = db.prepare('SELECT rowid AS id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns), rowid LIMIT 10');
  const ranked = db.prepare('SELECT rowid AS id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns), rowid');
  return {
    db,
    // Collapsing reads the ranking lazily until ten distinct texts, as searchSessions does, so it is timed too.
    search: (query: string, collapse = false) =>
      collapse
        ? firstOfEachText(ranked.iterate(query) as Iterable<{ id: number }>, (row) => turns[row.id - 1]!.text, 10).map(
            (row) => row.id,
          )
        : (top.all(query) as { id: number }[]).map((row) => row.id),
  };
}

export function measureSearchQuality(chatter = 1000): SearchQuality {
  const { turns: conversation, questions, heldOut } = readConversation();
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
  const { db, search } = buildIndex(turns);
  const score = (set: readonly Question[]) => {
    const recall: SearchQuality['recall'] = {};
    for (const [name, method] of Object.entries(METHODS)) {
      let at5 = 0;
      let at10 = 0;
      for (const { question, answerTurnKey } of set) {
        const query = method.query(question);
        const ids = query === null ? [] : search(query, method.collapse).map((id) => turns[id - 1]!.turnKey);
        const rank = ids.indexOf(answerTurnKey);
        if (rank !== -1 && rank < 5) at5 += 1;
        if (rank !== -1) at10 += 1;
      }
      recall[name] = { at5: at5 / set.length, at10: at10 / set.length };
    }
    return recall;
  };
  const quality = {
    turns: turns.length,
    questions: questions.length,
    heldOutQuestions: heldOut.length,
    recall: score(questions),
    heldOut: score(heldOut),
  };
  db.close();
  return quality;
}

/**
 * p95 of each method's query over 100k turns (top 10 by BM25). Stop words cost time, not only
 * ranking: an OR with "the" or "we" matches nearly every row, and BM25 then scores them all.
 */
export function measureSearchLatency(total = 100_000): { turns: number; p95: Record<string, number> } {
  const { turns: conversation, questions } = readConversation();
  const { db, search } = buildIndex([...conversation, ...chatterTurns(total - conversation.length)]);
  const p95: Record<string, number> = {};
  for (const [name, method] of Object.entries(METHODS)) {
    const times: number[] = [];
    for (const { question } of questions) {
      const query = method.query(question);
      if (query !== null) times.push(timeMs(() => search(query, method.collapse)));
    }
    p95[name] = percentile(times, 95);
  }
  db.close();
  return { turns: total, p95 };
}

export async function runSessionSearchBench(): Promise<SearchQuality> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const quality = measureSearchQuality();
  out(`session search: ${quality.questions} questions over ${quality.turns} user turns (porter, BM25)`);
  for (const [name, { at5, at10 }] of Object.entries(quality.recall)) {
    out(`  ${name.padEnd(14)} recall@5 ${at5.toFixed(3)}  recall@10 ${at10.toFixed(3)}`);
  }
  out(`held-out: ${quality.heldOutQuestions} questions written from the same conversation, over the same turns`);
  for (const [name, { at5, at10 }] of Object.entries(quality.heldOut)) {
    out(`  ${name.padEnd(14)} recall@5 ${at5.toFixed(3)}  recall@10 ${at10.toFixed(3)}`);
  }
  const latency = measureSearchLatency();
  out(`query p95 over ${latency.turns} turns, ${quality.questions} questions:`);
  for (const [name, ms] of Object.entries(latency.p95)) out(`  ${name.padEnd(14)} ${ms.toFixed(2)} ms`);
  return quality;
}

if (import.meta.url === `file://${process.argv[1]}`) await runSessionSearchBench();
