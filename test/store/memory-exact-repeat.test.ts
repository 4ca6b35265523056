// A draft that repeats a pooled candidate word for word folds into it before adjudication
// (exact-repeat.ts): no recall, no adjudication task, and the same candidates in review as when the
// repeats are decided by the full path (all sessions in one run, where the repeats are drafts of
// one batch and adjudication folds them). The candidate cites every turn that said it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import { memoryReviewAt } from '../../source/pipeline/memory-access.js';
import { openDatabase } from '../../source/store/database.js';
import { ExtractionPipeline, type ExtractReport } from '../../source/pipeline/extraction-pipeline.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { queueSession, RECENT_WINDOW } from '../support/memory-corpus.js';

after(() => c.closeStores());

const PNPM = 'Always use pnpm in this repository.';
const DIST = 'Never commit the generated files under dist/.';
/** The same rule in three sessions, word for word; a second rule in two; one repeat differs in case only. */
const CORPUS: string[][] = [
  [PNPM, DIST],
  [PNPM, 'Can you explain this stack trace?'],
  [DIST, PNPM],
  ['always use PNPM in this repository.'],
];

interface Outcome {
  canonical: string;
  reports: ExtractReport[];
  /** Adjudication tasks by run id. */
  adjudications: Map<string, number>;
  provenanceTasks: string[];
}

async function extracted(oneByOne: boolean): Promise<Outcome> {
  const home = tempHome('exact-repeat');
  const label = new Map<string, string>();
  const sessionKeys: string[] = [];
  for (const [index, prompts] of CORPUS.entries()) {
    const queued = queueSession(home, null, prompts);
    for (const [turn, turnKey] of queued.turnKeys.entries()) label.set(turnKey, `S${index}.t${turn}`);
    sessionKeys.push(queued.sessionKey);
  }
  await c.flush(home);
  const writer = await startInlineWriter(storeFiles(home).core);
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    const pipeline = new ExtractionPipeline(writer, core, new Map([['builtin', builtinRunner]]), 'exact-repeat');
    const extract = (sessions?: string[]) =>
      pipeline.extract(
        { cwd: null, since: RECENT_WINDOW.since, until: RECENT_WINDOW.until, runner: 'builtin', sessions },
        () => null,
      );
    const reports: ExtractReport[] = [];
    if (oneByOne) for (const key of sessionKeys) reports.push(await extract([key]));
    else reports.push(await extract());
    const review = memoryReviewAt(storeFiles(home).memoryState, { cwd: home, scope: 'all', limit: 100 });
    const candidates = review.candidates
      .map((candidate) => ({
        status: candidate.status,
        content: candidate.content,
        statements: candidate.statements.map((statement) => ({
          text: statement.text,
          turns: [...new Set(statement.evidence.map((e) => label.get(e.turnKey) ?? `unknown:${e.turnKey}`))].sort(),
        })),
      }))
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    const state = openDatabase(storeFiles(home).memoryState, { readonly: true });
    const adjudications = new Map(
      (
        state
          .prepare("SELECT run_id AS runId, count(*) AS n FROM tasks WHERE kind = 'adjudication' GROUP BY run_id")
          .all() as Array<{ runId: string; n: number }>
      ).map((row) => [row.runId, row.n]),
    );
    const provenanceTasks = state
      .prepare(
        "SELECT DISTINCT t.kind FROM candidate_provenance p JOIN tasks t ON t.task_id = p.task_id WHERE p.relation = 'skip' ORDER BY 1",
      )
      .pluck()
      .all() as string[];
    state.close();
    return { canonical: JSON.stringify(candidates, null, 1), reports, adjudications, provenanceTasks };
  } finally {
    core.close();
    await writer.close();
  }
}

describe('a word-for-word repeat of a pooled candidate', () => {
  it('folds before adjudication, with the same candidates and citations as the full path', async () => {
    const together = await extracted(false);
    const apart = await extracted(true);
    assert.equal(apart.canonical, together.canonical);

    const candidates = JSON.parse(apart.canonical) as Array<{
      content: string;
      statements: Array<{ turns: string[] }>;
    }>;
    const turnsOf = (pattern: RegExp) =>
      candidates.filter((c) => pattern.test(c.content)).map((c) => c.statements.flatMap((s) => s.turns).sort());
    // One candidate per rule, citing every session that said it (the case-only repeat too).
    assert.deepEqual(turnsOf(/pnpm/i), [['S0.t0', 'S1.t0', 'S2.t1', 'S3.t0']], apart.canonical);
    assert.deepEqual(turnsOf(/dist/), [['S0.t1', 'S2.t0']], apart.canonical);
    assert.equal(candidates.length, 2, apart.canonical);

    // Run by run: the second and third sessions only repeat the pool word for word, so their runs
    // decide every draft without an adjudication task; the case-only repeat of the fourth is not
    // word for word, and adjudication decides it.
    const [first, second, third, fourth] = apart.reports as [
      ExtractReport,
      ExtractReport,
      ExtractReport,
      ExtractReport,
    ];
    assert.equal(apart.adjudications.get(first.runIds[0]!), 1);
    for (const run of [second, third]) {
      assert.equal(apart.adjudications.get(run.runIds[0]!), undefined, JSON.stringify(run));
      assert.ok(run.candidates.skipped >= 1, JSON.stringify(run));
      assert.equal(run.candidates.skipped, run.candidates.created + (run.repetition?.candidates ?? 0));
    }
    assert.equal(apart.adjudications.get(fourth.runIds[0]!), 1, JSON.stringify(fourth));
    // A folded repeat's provenance names its own extraction task; the full path's, its adjudication.
    assert.deepEqual(apart.provenanceTasks, ['adjudication', 'extraction']);
    assert.deepEqual(together.provenanceTasks, ['adjudication']);
  });
});
