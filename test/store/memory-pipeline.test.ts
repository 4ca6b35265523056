// The extraction pipeline end to end on real stores: captured turns → chunks → tasks → builtin
// runner → candidates with evidence → adjudication; idempotence, claims, strict submissions,
// secret quarantine and stale adjudication.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import { FORMATS } from '../../source/memory/contracts.js';
import { ExtractionPipeline, type ExtractRequest } from '../../source/pipeline/extraction-pipeline.js';
import { indexRecallRow } from '../../source/store/memory/recall-terms.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import type { WriterClient } from '../../source/workers/writer-client.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import { appendJournal } from '../../source/store/core/journal.js';
import { insertTimeline } from '../../source/store/core/timeline.js';
import { commit } from '../../source/store/transaction.js';
import { tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { plantedToken, queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const day = 86_400_000;
/** A window around now (turns are sealed now), as canonical UTC instants. */
const SINCE = new Date(Date.now() - 30 * day).toISOString().replace(/\.\d+Z$/, 'Z');
const UNTIL = new Date(Date.now() + day).toISOString().replace(/\.\d+Z$/, 'Z');

interface Rig {
  home: string;
  writer: WriterClient;
  core: Db;
  memory: () => Db;
  pipeline: ExtractionPipeline;
  extract: (request?: Partial<ExtractRequest>) => ReturnType<ExtractionPipeline['extract']>;
  close: () => Promise<void>;
}

async function rig(
  sessions: Array<{ prompts: string[] }>,
  before: (home: string) => void = () => {},
): Promise<Rig & { keys: ReturnType<typeof queueSession>[] }> {
  const home = tempHome('pipeline');
  const keys = sessions.map((s) =>
    queueSession(home, null, s.prompts, {
      answer: (i) => `Sure. Remember that I answered ${i}; we use yarn everywhere.`,
    }),
  );
  await c.flush(home);
  before(home);
  const writer = await startInlineWriter(storeFiles(home).core);
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  const pipeline = new ExtractionPipeline(writer, core, new Map([['builtin', builtinRunner]]), 'test-holder');
  const opened: Db[] = [];
  return {
    home,
    keys,
    writer,
    core,
    pipeline,
    memory: () => {
      const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
      opened.push(db);
      return db;
    },
    extract: (request = {}) =>
      pipeline
        .extract({ cwd: null, since: SINCE, until: UNTIL, ...request }, () => null)
        .catch((e) => Promise.reject(e)),
    close: async () => {
      for (const db of opened) db.close();
      core.close();
      await writer.close();
    },
  };
}

const PROMPTS = [
  'Can you fix the failing test in parser.ts?',
  'From now on, use pnpm instead of npm in this repo.',
  'Always use named exports in TypeScript modules.',
  'What does this stack trace mean?\n    at foo (bar.js:1:2)\n    at baz (qux.js:3:4)',
];

describe('extraction with the builtin runner', () => {
  it('drafts candidates from what the user said, each statement citing its own user turn; questions and answers give nothing', async () => {
    const r = await rig([{ prompts: PROMPTS }]);
    try {
      const report = await r.extract();
      assert.equal(report.turns, PROMPTS.length);
      assert.equal(report.tasks.submitted, 1);
      assert.equal(report.candidates.created, 2, JSON.stringify(report));
      assert.equal(report.candidates.stored, 2);
      const db = r.memory();
      const rows = db
        .prepare(
          "SELECT candidate_id AS id, json_extract(payload_json, '$.content') AS content, status, decision FROM candidates ORDER BY content",
        )
        .all() as Array<{ id: string; content: string; status: string; decision: string }>;
      assert.deepEqual(
        rows.map((row) => [row.status, row.decision]),
        [
          ['draft', 'store'],
          ['draft', 'store'],
        ],
      );
      assert.ok(
        rows.some((row) => /pnpm/.test(row.content)) && rows.some((row) => /named exports/.test(row.content)),
        JSON.stringify(rows),
      );
      assert.ok(!rows.some((row) => /yarn|answered/.test(row.content)), 'assistant text is never a memory');
      const refs = db
        .prepare(
          'SELECT e.candidate_id AS id, e.turn_key AS turn, e.session_key AS session, a.claim_support AS support FROM evidence_refs e JOIN assessments a USING (candidate_id, statement_id)',
        )
        .all() as Array<{ id: string; turn: string; session: string; support: string }>;
      const pnpm = rows.find((row) => /pnpm/.test(row.content))!;
      assert.deepEqual(
        refs.filter((ref) => ref.id === pnpm.id).map((ref) => ref.turn),
        [r.keys[0]!.turnKeys[1]],
      );
      assert.ok(refs.every((ref) => ref.session === r.keys[0]!.sessionKey));
      assert.equal(
        db.prepare('SELECT count(*) FROM candidate_fts').pluck().get(),
        2,
        'stored drafts enter the dedup pool',
      );
    } finally {
      await r.close();
    }
  });

  it('running the same selection again creates nothing new', async () => {
    const r = await rig([{ prompts: PROMPTS }]);
    try {
      await r.extract();
      const again = await r.extract();
      assert.equal(again.tasks.created, 0);
      assert.equal(again.tasks.submitted, 0);
      assert.equal(again.candidates.created, 0);
      const db = r.memory();
      assert.equal(db.prepare('SELECT count(*) FROM candidates').pluck().get(), 2);
      assert.equal(db.prepare("SELECT count(*) FROM tasks WHERE kind = 'extraction'").pluck().get(), 1);
      assert.equal(db.prepare('SELECT count(*) FROM runs').pluck().get(), 2);
    } finally {
      await r.close();
    }
  });

  it('a paraphrased duplicate in a later session converges on one candidate citing both turns, not stored twice', async () => {
    const r = await rig([
      { prompts: ['Always use named exports in TypeScript modules.'] },
      { prompts: ['Always use named exports in TypeScript modules!'] },
    ]);
    try {
      const report = await r.extract();
      // One draft per session by the rules, and one by the repetition pass (said in two sessions).
      assert.equal(report.candidates.created, 2);
      assert.deepEqual(report.repetition, { tasks: 1, candidates: 1 });
      const db = r.memory();
      const live = db
        .prepare(
          "SELECT candidate_id, json_extract(payload_json, '$.content') AS content FROM candidates WHERE status = 'draft'",
        )
        .all() as Array<{ candidate_id: string; content: string }>;
      assert.equal(live.length, 1, JSON.stringify(report));
      // The fixed rule: equal words, so the smaller text in code-point order ('!' before '.') survives.
      assert.equal(live[0]!.content, 'Always use named exports in TypeScript modules!');
      const superseded = db
        .prepare("SELECT candidate_id, superseded_by FROM candidates WHERE status = 'superseded' ORDER BY candidate_id")
        .all() as Array<{ candidate_id: string; superseded_by: string }>;
      assert.equal(superseded.length, 2);
      assert.ok(superseded.every((row) => row.superseded_by === live[0]!.candidate_id));
      assert.ok(
        db
          .prepare('SELECT count(*) FROM candidate_provenance WHERE candidate_id IN (?, ?)')
          .pluck()
          .get(superseded[0]!.candidate_id, live[0]!.candidate_id),
        'the fold is recorded',
      );
      assert.deepEqual(
        db
          .prepare('SELECT turn_key FROM evidence_refs WHERE candidate_id = ? ORDER BY turn_key')
          .pluck()
          .all(live[0]!.candidate_id),
        [r.keys[0]!.turnKeys[0], r.keys[1]!.turnKeys[0]].sort(),
        'the survivor cites the turn of each session',
      );
      assert.equal(db.prepare('SELECT count(*) FROM candidates').pluck().get(), 3, 'nothing is deleted');
    } finally {
      await r.close();
    }
  });

  it('a planted secret in a user turn quarantines its candidate; the findings are masked', async () => {
    const token = plantedToken();
    const r = await rig([{ prompts: [`Remember that the deploy token is ${token} for the staging cluster.`] }]);
    try {
      const report = await r.extract();
      assert.equal(report.candidates.quarantined, 1);
      const db = r.memory();
      const row = db
        .prepare('SELECT status, findings_json AS findings, payload_json AS payload FROM candidates')
        .get() as { status: string; findings: string; payload: string };
      assert.equal(row.status, 'quarantined');
      assert.ok(!row.findings.includes(token), 'findings never hold the secret');
      const findings = JSON.parse(row.findings) as Array<{ rule: string; severity: string; excerpt: string }>;
      assert.ok(
        findings.some((f) => f.rule === 'github-token' && f.severity === 'block'),
        row.findings,
      );
      const masked = (JSON.parse(row.payload) as { masked: { content: string } }).masked.content;
      assert.ok(!masked.includes(token) && masked.includes('ghp_…'));
      assert.equal(
        db.prepare('SELECT count(*) FROM candidate_fts').pluck().get(),
        0,
        'a quarantined candidate is never in the pool',
      );
    } finally {
      await r.close();
    }
  });

  it('more than 200 matching turns is refused, never cut; a window over 366 days or reversed is refused', async () => {
    const r = await rig([{ prompts: Array.from({ length: 201 }, (_, i) => `note number ${i}`) }]);
    try {
      await assert.rejects(
        r.extract(),
        (e: Error & { code?: string }) => e.code === 'limit_exceeded' && /201 turns/.test(e.message),
      );
      await assert.rejects(
        r.extract({ since: '2024-01-01', until: '2025-01-02' }),
        (e: Error & { code?: string }) => e.code === 'usage' && /366/.test(e.message),
      );
      await assert.rejects(
        r.extract({ since: '2025-01-02', until: '2025-01-01' }),
        (e: Error & { code?: string }) =>
          e.code === 'usage' &&
          /reversed/.test(e.message) &&
          e.message.includes('--since 2025-01-02T00:00:00.000Z') &&
          e.message.includes('--until 2025-01-01T00:00:00.000Z'),
      );
      const db = r.memory();
      assert.equal(db.prepare('SELECT count(*) FROM tasks').pluck().get(), 0, 'nothing was planned');
    } finally {
      await r.close();
    }
  });
});

describe('driven pi agents', () => {
  it("a driven agent's prompt becomes a candidate citing its user row; the agent's reply is context only", async () => {
    const r = await rig([], (home) => {
      const db = openDatabase(storeFiles(home).core);
      commit(db, 'test', (tx) => {
        const rows = [
          ['user', 'u-1', 'We prefer composition over inheritance in the service layer.'],
          ['assistant', 'a-1', 'Noted. Always use classes everywhere.'],
        ] as const;
        for (const [role, id, text] of rows) {
          const { sequence } = appendJournal(tx, {
            kind: 'test',
            agentId: 'agent-1',
            generationId: 'gen-1',
            operationId: null,
            canonicalMessageId: id,
            payload: {},
          });
          insertTimeline(tx, {
            messageId: id,
            role,
            payload: { role, content: [{ type: 'text', text }] },
            agentId: 'agent-1',
            generationId: 'gen-1',
            operationId: null,
            sourceJournalSequence: sequence,
          });
        }
      });
      db.close();
    });
    try {
      const report = await r.extract();
      assert.equal(report.turns, 1);
      assert.equal(report.candidates.created, 1, JSON.stringify(report));
      const db = r.memory();
      assert.match(
        db.prepare("SELECT json_extract(payload_json, '$.content') FROM candidates").pluck().get() as string,
        /composition over inheritance/,
      );
      assert.deepEqual(db.prepare('SELECT client, session_key, turn_key FROM evidence_refs').raw().all(), [
        ['pi', 'gen-1', 'u-1'],
      ]);
      const task = JSON.parse(
        db.prepare("SELECT task_json FROM tasks WHERE kind = 'extraction'").pluck().get() as string,
      ).task;
      assert.match(
        task.chunk.transcript,
        /<<past-user evidence=e1>>\nWe prefer composition[\s\S]*<<past-assistant>>\nNoted\./,
      );
      assert.equal(task.evidenceCatalog.length, 1, 'only the user row is evidence');
    } finally {
      await r.close();
    }
  });
});

describe('a window of more than 8 chunks', () => {
  it('one run works on 8 tasks and leaves the rest pending; running it again finishes them; then nothing is new', async () => {
    // 130 recorded Codex turns (each carries its context again) make more than 8 chunks of 40 KiB.
    const prompts = Array.from({ length: 130 }, (_, i) =>
      i % 10 === 0 ? `Always run the migration check before release ${i}.` : `Can you look at step ${i}?`,
    );
    const r = await rig([{ prompts }]);
    try {
      const first = await r.extract();
      assert.ok(first.chunks > 8, `more than 8 chunks: ${first.chunks}`);
      assert.equal(first.tasks.planned, first.chunks);
      assert.equal(first.tasks.submitted, 8, 'at most 8 tasks a run');
      assert.equal(first.tasks.pending, first.chunks - 8);
      const second = await r.extract();
      assert.equal(second.tasks.created, 0, 'the same window plans nothing new');
      assert.equal(second.tasks.submitted, first.chunks - 8);
      assert.equal(second.tasks.pending, 0);
      const third = await r.extract();
      assert.deepEqual([third.tasks.submitted, third.candidates.created, third.tasks.pending], [0, 0, 0]);
      const db = r.memory();
      assert.equal(
        db.prepare("SELECT count(*) FROM tasks WHERE kind = 'extraction' AND status = 'submitted'").pluck().get(),
        first.chunks,
      );
      assert.equal(
        db.prepare('SELECT count(*) FROM candidates').pluck().get(),
        first.candidates.created + second.candidates.created,
      );
      assert.equal(first.candidates.created + second.candidates.created, 13, 'one draft per durable statement');
      assert.equal(db.prepare("SELECT count(*) FROM candidates WHERE adjudication = 'pending'").pluck().get(), 0);
    } finally {
      await r.close();
    }
  });
});

describe('tasks and submissions', () => {
  async function plannedTask(r: Rig): Promise<string> {
    const report = await r.extract({ limit: 1, runner: 'builtin' }).catch((e) => Promise.reject(e));
    void report;
    const db = r.memory();
    return db.prepare("SELECT task_id FROM tasks WHERE kind = 'extraction'").pluck().get() as string;
  }

  it('a claim is exclusive; submitted tasks are never claimed again; a lost lease refuses the old holder', async () => {
    const r = await rig([{ prompts: PROMPTS }]);
    try {
      const taskId = await plannedTask(r);
      const again = await r.writer.call('memoryClaimTask', { holder: 'other', leaseMs: 60_000, taskIds: [taskId] });
      assert.equal(again.claim, null, 'a submitted task is never re-claimed');
      const refused = await r.writer.call('memorySubmitExtraction', {
        taskId,
        claimToken: 'not-the-token',
        output: '{}',
      });
      assert.equal(refused.outcome, 'conflict', 'a different answer after the accepted one is refused and audited');
      const db = r.memory();
      assert.equal(db.prepare('SELECT count(*) FROM submission_conflicts').pluck().get(), 1);
      assert.equal(
        db.prepare('SELECT count(*) FROM submissions').pluck().get(),
        2,
        'one accepted submission per task (extraction + adjudication)',
      );
    } finally {
      await r.close();
    }
  });

  it('strict submissions: not JSON, wrong format, foreign evidence and a wrong binding are counted failed attempts that apply nothing; 5 attempts wait for a retry', async () => {
    const r = await rig([{ prompts: PROMPTS }]);
    try {
      // Plan without running: a zero-limit run is refused, so plan with limit 1 on an empty runner map instead.
      const planner = new ExtractionPipeline(
        r.writer,
        r.core,
        new Map([['builtin', { name: 'builtin', offline: true, run: () => Promise.reject(new Error('runner down')) }]]),
        'h1',
      );
      const first = await planner.extract({ cwd: null, since: SINCE, until: UNTIL }, () => null);
      assert.equal(first.tasks.failed, 1);
      assert.match(first.failures[0]!, /runner down/);
      const taskId = r.memory().prepare("SELECT task_id FROM tasks WHERE kind = 'extraction'").pluck().get() as string;
      const stored = JSON.parse(
        r.memory().prepare('SELECT task_json FROM tasks WHERE task_id = ?').pluck().get(taskId) as string,
      ).task;
      const good = {
        format: FORMATS.draftBatch,
        taskId,
        binding: stored.binding,
        candidates: [
          {
            content: 'Use pnpm.',
            type: 'work_method',
            priority: 50,
            confidence: 'high',
            scene: null,
            statements: [{ statementId: 's1', text: 'Use pnpm.', evidenceIds: ['e2'] }],
          },
        ],
      };
      const bad = [
        ['not json', /not JSON/],
        [JSON.stringify({ ...good, format: 'something-else@v1' }), /format/],
        [JSON.stringify({ ...good, extra: 1 }), /does not match/],
        [
          JSON.stringify({
            ...good,
            candidates: [
              { ...good.candidates[0], statements: [{ statementId: 's1', text: 'x', evidenceIds: ['e99'] }] },
            ],
          }),
          /not in the task's evidence catalogue/,
        ],
      ] as const;
      let attempts = 1;
      for (const [output, reason] of bad) {
        const { claim } = await r.writer.call('memoryClaimTask', { holder: 'h2', leaseMs: 60_000, taskIds: [taskId] });
        assert.ok(claim, `claimable after ${attempts} failed attempt(s)`);
        const outcome = await r.writer.call('memorySubmitExtraction', { taskId, claimToken: claim.claimToken, output });
        assert.equal(outcome.outcome, 'rejected');
        assert.match((outcome as { reason: string }).reason, reason);
        attempts += 1;
        assert.equal((outcome as { attempts: number }).attempts, attempts);
      }
      assert.equal(r.memory().prepare('SELECT count(*) FROM candidates').pluck().get(), 0, 'nothing half-applied');
      const spent = await r.writer.call('memoryClaimTask', { holder: 'h2', leaseMs: 60_000, taskIds: [taskId] });
      assert.equal(spent.claim, null);
      assert.deepEqual(spent.waiting, [taskId], 'after 5 attempts the task waits for an explicit retry');
      await r.writer.call('memoryRetryTask', { taskId });
      const { claim } = await r.writer.call('memoryClaimTask', { holder: 'h3', leaseMs: 60_000, taskIds: [taskId] });
      assert.ok(claim);
      const accepted = await r.writer.call('memorySubmitExtraction', {
        taskId,
        claimToken: claim.claimToken,
        output: JSON.stringify(good),
      });
      assert.equal(accepted.outcome, 'accepted');
      const replay = await r.writer.call('memorySubmitExtraction', {
        taskId,
        claimToken: claim.claimToken,
        output: JSON.stringify(good),
      });
      assert.deepEqual({ ...replay, replayed: undefined }, { ...accepted, replayed: undefined });
      assert.equal(
        (replay as { replayed: boolean }).replayed,
        true,
        'a replay returns the stored outcome and creates nothing',
      );
      assert.equal(r.memory().prepare('SELECT count(*) FROM candidates').pluck().get(), 1);
    } finally {
      await r.close();
    }
  });

  it('an expired lease can be re-claimed; the old holder is refused by the token check', async () => {
    const r = await rig([{ prompts: PROMPTS }]);
    try {
      const planner = new ExtractionPipeline(
        r.writer,
        r.core,
        new Map([['builtin', { name: 'builtin', offline: true, run: () => Promise.reject(new Error('down')) }]]),
        'h1',
      );
      await planner.extract({ cwd: null, since: SINCE, until: UNTIL }, () => null);
      const taskId = r.memory().prepare("SELECT task_id FROM tasks WHERE kind = 'extraction'").pluck().get() as string;
      const old = (await r.writer.call('memoryClaimTask', { holder: 'old', leaseMs: 1000, taskIds: [taskId] })).claim!;
      assert.equal(
        (await r.writer.call('memoryClaimTask', { holder: 'new', leaseMs: 60_000, taskIds: [taskId] })).claim,
        null,
        'a live lease is exclusive',
      );
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const fresh = (await r.writer.call('memoryClaimTask', { holder: 'new', leaseMs: 60_000, taskIds: [taskId] }))
        .claim!;
      assert.ok(fresh && fresh.leaseEpoch === old.leaseEpoch + 1);
      const stored = JSON.parse(
        r.memory().prepare('SELECT task_json FROM tasks WHERE task_id = ?').pluck().get(taskId) as string,
      ).task;
      const output = JSON.stringify({ format: FORMATS.draftBatch, taskId, binding: stored.binding, candidates: [] });
      const lost = await r.writer.call('memorySubmitExtraction', { taskId, claimToken: old.claimToken, output });
      assert.equal(lost.outcome, 'lease_lost');
      assert.equal(
        (await r.writer.call('memorySubmitExtraction', { taskId, claimToken: fresh.claimToken, output })).outcome,
        'accepted',
      );
    } finally {
      await r.close();
    }
  });
});

describe('adjudication compare-and-swap', () => {
  it('a pool that moved between task and submission makes the task stale: nothing applied, a new task decides against the new pool', async () => {
    const r = await rig([{ prompts: ['Always use named exports in TypeScript modules.'] }]);
    try {
      let moved = false;
      // The runner sees the task; before it answers, an approved entry saying the same arrives (as a promotion would add it).
      const racing = {
        name: 'builtin',
        offline: true,
        async run(work: Parameters<typeof builtinRunner.run>[0], options: Parameters<typeof builtinRunner.run>[1]) {
          if (work.kind === 'adjudication' && !moved) {
            moved = true;
            const db = openDatabase(storeFiles(r.home).memoryState);
            const owner = work.task.binding.owner;
            const rowid = db
              .prepare(
                "INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status) VALUES ('entry-1', ?, ?, 1, ?, '{}', ?, 'active')",
              )
              .run(
                owner.repositoryKey,
                owner.worktreeKey,
                '0'.repeat(64),
                'Always use named exports in TypeScript modules.',
              ).lastInsertRowid;
            indexRecallRow(db, 'approved', rowid, 'Always use named exports in TypeScript modules.');
            db.close();
          }
          return builtinRunner.run(work, options);
        },
      };
      const pipeline = new ExtractionPipeline(r.writer, r.core, new Map([['builtin', racing]]), 'h');
      const report = await pipeline.extract({ cwd: null, since: SINCE, until: UNTIL }, () => null);
      assert.equal(report.tasks.stale, 1, JSON.stringify(report));
      assert.equal(report.candidates.skipped, 1, 'the new task decided against the new pool');
      assert.equal(report.candidates.stored, 0);
      const db = r.memory();
      const tasks = db
        .prepare(
          "SELECT task_id AS id, status, superseded_by AS next, last_error AS error FROM tasks WHERE kind = 'adjudication' ORDER BY created_at_ms, status DESC",
        )
        .all() as Array<{ id: string; status: string; next: string | null; error: string | null }>;
      const stale = tasks.find((t) => t.status === 'stale')!;
      assert.ok(stale.next && tasks.some((t) => t.id === stale.next && t.status === 'submitted'));
      assert.match(stale.error!, /pool changed/);
      assert.equal(db.prepare('SELECT superseded_by FROM candidates').pluck().get(), 'approved:entry-1');
    } finally {
      await r.close();
    }
  });

  it('update and merge may target existing memory only; a draft targeting a sibling draft rejects the whole result', async () => {
    const r = await rig([
      {
        prompts: [
          'Always use named exports in TypeScript modules.',
          'We prefer composition over inheritance in the service layer.',
        ],
      },
    ]);
    try {
      let seen: string | undefined;
      const sneaky = {
        name: 'builtin',
        offline: true,
        async run(work: Parameters<typeof builtinRunner.run>[0], options: Parameters<typeof builtinRunner.run>[1]) {
          if (work.kind !== 'adjudication') return builtinRunner.run(work, options);
          const [a, b] = work.task.drafts;
          seen = JSON.stringify(work.task.drafts.map((d) => d.candidateId));
          return JSON.stringify({
            format: FORMATS.adjudicationResult,
            taskId: work.task.taskId,
            binding: work.task.binding,
            adjudications: [
              { draftRef: a!.candidateId, action: 'store', targetIds: [], mergedFields: null },
              { draftRef: b!.candidateId, action: 'merge', targetIds: [a!.candidateId], mergedFields: null },
            ],
          });
        },
      };
      const pipeline = new ExtractionPipeline(r.writer, r.core, new Map([['builtin', sneaky]]), 'h');
      const report = await pipeline.extract({ cwd: null, since: SINCE, until: UNTIL }, () => null);
      assert.ok(seen);
      assert.ok(
        report.failures.some((f) => /a draft of the same batch/.test(f)),
        JSON.stringify(report.failures),
      );
      const db = r.memory();
      assert.equal(
        db.prepare("SELECT count(*) FROM candidates WHERE adjudication = 'pending'").pluck().get(),
        2,
        'nothing applied',
      );
      assert.equal(db.prepare('SELECT count(*) FROM candidate_fts').pluck().get(), 0);
    } finally {
      await r.close();
    }
  });
});

describe('selection by client', () => {
  it('--client pi reads captured pi sessions as well as driven agents', async () => {
    // A session captured from pi (its extension writes client pi into the inbox like any host).
    const r = await rig([{ prompts: PROMPTS }], (home) => {
      const db = openDatabase(storeFiles(home).core);
      try {
        db.prepare("UPDATE capture_activations SET client = 'pi'").run();
      } finally {
        db.close();
      }
    });
    try {
      const report = await r.extract({ client: 'pi' });
      assert.equal(report.turns, PROMPTS.length, JSON.stringify(report));
    } finally {
      await r.close();
    }
  });
});
