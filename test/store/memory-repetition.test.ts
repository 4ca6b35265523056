// Repetition is evidence, through the real pipeline (hook inbox → drain → extract with the builtin
// runner → review): a statement the user makes in two sessions of one scope, with no rule marker,
// becomes one candidate citing every occurrence; chatter, questions and requests said again do not;
// a statement said once is left to the rules; a restatement in a later run adds its turn to the
// existing candidate (a new revision) instead of a second candidate; extracting again creates nothing.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import { memoryReviewAt } from '../../source/pipeline/memory-access.js';
import {
  occurrenceIn,
  repeatable,
  repeatableStatements,
  repetitionOccurrences,
} from '../../source/memory/repetition.js';
import { normalizeStatement } from '../../source/memory/adjudication-rules.js';
import { openDatabase } from '../../source/store/database.js';
import { ExtractionPipeline } from '../../source/pipeline/extraction-pipeline.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { queueSession, RECENT_WINDOW } from '../support/memory-corpus.js';

after(() => c.closeStores());

/** Plain statements no marker word flags ("always", "never", "we use", …). */
const HABIT = 'Dates in the API are ISO 8601 strings in UTC.';
const ONCE = 'The billing service talks to the ledger over gRPC.';

async function world(home: string) {
  await c.flush(home);
  const writer = await startInlineWriter(storeFiles(home).core);
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  const pipeline = new ExtractionPipeline(writer, core, new Map([['builtin', builtinRunner]]), 'repetition');
  return {
    extract: (sessions?: string[]) =>
      pipeline.extract(
        { cwd: null, since: RECENT_WINDOW.since, until: RECENT_WINDOW.until, runner: 'builtin', sessions },
        () => null,
      ),
    review: () => memoryReviewAt(storeFiles(home).memoryState, { cwd: home, scope: 'all', limit: 100 }).candidates,
    memory: () => openDatabase(storeFiles(home).memoryState, { readonly: true }),
    close: async () => {
      core.close();
      await writer.close();
    },
  };
}

describe('repetition is evidence', () => {
  it('a plain statement said in two sessions is one candidate citing both turns; chatter, questions and requests are not', async () => {
    const home = tempHome('repetition');
    const one = queueSession(home, null, [
      'Can you fix the failing test in parser.ts?',
      `Sure, go ahead. ${HABIT}`,
      'Thanks, that worked.',
      'What does this error mean?',
    ]);
    const two = queueSession(home, null, [
      'Thanks, that worked.',
      'What does this error mean?',
      'Can you fix the failing test in parser.ts?',
      'dates in the API are ISO 8601 strings in UTC',
    ]);
    const three = queueSession(home, null, [ONCE]);
    const w = await world(home);
    try {
      const report = await w.extract();
      assert.deepEqual(report.failures, []);
      const candidates = w.review();
      const habit = candidates.filter((candidate) => normalizeStatement(candidate.content).includes('iso'));
      assert.equal(habit.length, 1, JSON.stringify(candidates.map((candidate) => candidate.content)));
      assert.deepEqual(
        habit[0]!.statements.flatMap((statement) => statement.evidence.map((e) => e.turnKey)).sort(),
        [one.turnKeys[1]!, two.turnKeys[3]!].sort(),
        'it cites the turn of each session',
      );
      // The wording is one the user wrote: the smaller in code-point order ('D' before 'd').
      assert.equal(habit[0]!.content, 'Dates in the API are ISO 8601 strings in UTC.');
      for (const said of ['Thanks', 'error mean', 'parser.ts'])
        assert.ok(!candidates.some((candidate) => candidate.content.includes(said)), `"${said}" is no candidate`);
      const db = w.memory();
      try {
        const repeats = db
          .prepare("SELECT count(*) FROM candidates WHERE chunk_ref LIKE 'repeat:%'")
          .pluck()
          .get() as number;
        assert.equal(repeats, 1, 'the repetition pass drafted it');
        const once = db
          .prepare("SELECT count(*) FROM candidates WHERE chunk_ref LIKE 'repeat:%' AND payload_json LIKE '%gRPC%'")
          .pluck()
          .get();
        assert.equal(once, 0, 'a statement said once is no repetition');
      } finally {
        db.close();
      }
      const again = await w.extract();
      assert.equal(again.tasks.created, 0, 'the same selection again plans nothing');
      assert.equal(again.candidates.created, 0);
      void three;
    } finally {
      await w.close();
    }
  });

  it('said again in a later session, after the candidate exists: the turn is added to its evidence, a new revision', async () => {
    const home = tempHome('repetition-later');
    const one = queueSession(home, null, [HABIT]);
    const two = queueSession(home, null, [`${HABIT} Thanks for checking.`]);
    let w = await world(home);
    let first: { candidateId: string; turns: string[] };
    try {
      await w.extract();
      const [habit] = w.review();
      first = {
        candidateId: habit!.candidateId,
        turns: habit!.statements.flatMap((s) => s.evidence.map((e) => e.turnKey)).sort(),
      };
      assert.deepEqual(first.turns, [one.turnKeys[0]!, two.turnKeys[0]!].sort());
    } finally {
      await w.close();
    }
    const three = queueSession(home, null, ['Keep that in mind.', HABIT]);
    w = await world(home);
    try {
      const report = await w.extract([three.sessionKey]);
      assert.deepEqual(report.failures, []);
      const live = w.review();
      assert.equal(live.length, 1, JSON.stringify(live.map((candidate) => candidate.content)));
      assert.equal(live[0]!.candidateId, first.candidateId, 'the existing candidate stays, no second one');
      assert.deepEqual(
        live[0]!.statements.flatMap((s) => s.evidence.map((e) => e.turnKey)).sort(),
        [...first.turns, three.turnKeys[1]!].sort(),
        'the later turn is added to its evidence',
      );
      const db = w.memory();
      try {
        const revision = db
          .prepare('SELECT revision FROM candidates WHERE candidate_id = ?')
          .pluck()
          .get(first.candidateId) as number;
        assert.ok(revision > 1, `a new revision (${revision})`);
      } finally {
        db.close();
      }
    } finally {
      await w.close();
    }
  });
});

describe('repetition.ts (pure)', () => {
  it('keeps prose statements, drops questions, chatter, requests and pasted lines; recognises a restatement by its normalised form', () => {
    assert.ok(repeatable(HABIT));
    for (const no of [
      'What does this error mean?',
      'Thanks, that worked.',
      'Can you fix the failing test in parser.ts',
      'Fix the failing test.',
      'ok',
    ])
      assert.ok(!repeatable(no), no);
    const pasted = `Here is the trace:\n    at foo (bar.js:1:2)\nTypeError: cannot read properties of undefined\nconst x = 1;`;
    assert.deepEqual(repeatableStatements([pasted]), []);
    const [statement] = repeatableStatements([`Sure. ${HABIT}`]);
    assert.equal(statement!.text, HABIT);
    assert.equal(
      occurrenceIn('dates in the api are iso 8601 strings in utc!', statement!.normalized),
      'dates in the api are iso 8601 strings in utc!',
    );
    assert.equal(occurrenceIn('Dates in the API are strings.', statement!.normalized), null);
  });

  it('needs two sessions; cites the earliest occurrences, bounded, always with a second session', () => {
    const at = (sessionKey: string, turnKey: string, recordedAtMs: number) => ({ sessionKey, turnKey, recordedAtMs });
    assert.deepEqual(repetitionOccurrences([at('s1', 't1', 1), at('s1', 't2', 2)]), []);
    const many = Array.from({ length: 12 }, (_, i) => at('s1', `t${String(i).padStart(2, '0')}`, i));
    const chosen = repetitionOccurrences([...many, at('s2', 'u1', 100)].reverse());
    assert.equal(chosen.length, 8);
    assert.deepEqual(new Set(chosen.map((o) => o.sessionKey)), new Set(['s1', 's2']));
    assert.equal(chosen[0]!.turnKey, 't00');
  });
});
