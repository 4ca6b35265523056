// De-duplication does not depend on order: the same sessions, queued through the hook's inbox and
// sealed by the real drain in a shuffled order, extracted by the builtin runner in shuffled runs
// (all at once, or session by session, with any task limit), give byte-identical candidate sets in
// review. When two drafts say the same thing the survivor is chosen by a fixed rule (the one that
// says more; ties by text) and cites the user turns of both.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import { memoryReviewAt } from '../../source/pipeline/memory-access.js';
import { openDatabase } from '../../source/store/database.js';
import { ExtractionPipeline } from '../../source/pipeline/extraction-pipeline.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { queueSession, RECENT_WINDOW } from '../support/memory-corpus.js';

after(() => c.closeStores());

/** Sessions whose rules restate each other across sessions: a shorter and a longer wording, or the same words. */
const CORPUS: string[][] = [
  ['Always use pnpm.', 'Can you fix the failing test in parser.ts?'],
  ['Always use pnpm instead of npm in this repo.', 'What does this error mean?'],
  ['Never commit generated files.', 'Always write tests with node:test.'],
  ['Never commit the generated files under dist/ to git.'],
  ['Always write unit tests with node:test and node:assert.', 'Prefer named exports in TypeScript modules.'],
  ['Always use named exports in TypeScript modules.', 'Thanks, that looks right.'],
];

/** A small seeded generator (mulberry32): the shuffles are the same on every run of the test. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface Canonical {
  status: string;
  content: string;
  statements: Array<{ text: string; turns: string[] }>;
}

/** Queues the corpus in `order`, extracts as `plan` says, and returns review's candidates in a canonical form. */
async function candidatesFor(seed: number): Promise<{ canonical: string; candidates: Canonical[] }> {
  const next = random(seed);
  const home = tempHome('dedup-order');
  // Turn identity in the canonical form is the corpus position, never a key made at run time.
  const label = new Map<string, string>();
  const sessionKeys: string[] = [];
  for (const index of shuffled(
    CORPUS.map((_prompts, i) => i),
    next,
  )) {
    const queued = queueSession(home, null, CORPUS[index]!);
    for (const [turn, turnKey] of queued.turnKeys.entries()) label.set(turnKey, `S${index}.t${turn}`);
    sessionKeys.push(queued.sessionKey);
  }
  await c.flush(home);
  const writer = await startInlineWriter(storeFiles(home).core);
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    const pipeline = new ExtractionPipeline(writer, core, new Map([['builtin', builtinRunner]]), 'dedup-order');
    const limit = 1 + Math.floor(next() * 8);
    const extract = (sessions?: string[]) =>
      pipeline.extract(
        { cwd: null, since: RECENT_WINDOW.since, until: RECENT_WINDOW.until, runner: 'builtin', limit, sessions },
        () => null,
      );
    if (next() < 0.3) {
      // Every chunk in one run (a limit under the chunk count leaves the rest to the next runs).
      for (let run = 0; run < CORPUS.length; run++) await extract();
    } else {
      // Runs of one or two sessions each, in another shuffled order than the sessions were queued.
      const order = shuffled(sessionKeys, next);
      while (order.length > 0) await extract(order.splice(0, next() < 0.5 ? 1 : 2));
    }
    const review = memoryReviewAt(storeFiles(home).memoryState, { cwd: home, scope: 'all', limit: 100 });
    const candidates = review.candidates
      .map(
        (candidate): Canonical => ({
          status: candidate.status,
          content: candidate.content,
          statements: candidate.statements.map((statement) => ({
            text: statement.text,
            turns: [...new Set(statement.evidence.map((e) => label.get(e.turnKey) ?? `unknown:${e.turnKey}`))].sort(),
          })),
        }),
      )
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    return { canonical: JSON.stringify(candidates), candidates };
  } finally {
    core.close();
    await writer.close();
  }
}

describe('order-independent de-duplication through the real pipeline', () => {
  it('10 shuffled orders of sessions, runs and chunks give byte-identical candidates, each citing every turn that said it', async () => {
    const first = await candidatesFor(1);
    for (let seed = 2; seed <= 10; seed++) {
      const other = await candidatesFor(seed);
      assert.equal(other.canonical, first.canonical, `order ${seed} gave other candidates than order 1`);
    }
    const byTurns = (turn: string) =>
      first.candidates.filter((candidate) => candidate.statements.some((s) => s.turns.includes(turn)));
    // Each restated rule is one candidate; the survivor is the wording that says more, citing both turns.
    const expectations: Array<[string, string, RegExp]> = [
      ['S0.t0', 'S1.t0', /pnpm instead of npm/],
      ['S2.t0', 'S3.t0', /under dist\//],
      ['S2.t1', 'S4.t0', /node:test and node:assert/],
      ['S4.t1', 'S5.t0', /named exports in TypeScript modules/],
    ];
    for (const [a, b, survivor] of expectations) {
      const holders = byTurns(a);
      assert.equal(holders.length, 1, `${a} is cited by one candidate: ${first.canonical}`);
      assert.match(holders[0]!.content, survivor);
      assert.deepEqual(
        holders[0]!.statements.flatMap((s) => s.turns),
        [a, b].sort(),
        `the survivor cites both turns: ${first.canonical}`,
      );
    }
    assert.equal(first.candidates.length, expectations.length, first.canonical);
  });
});
