// Consolidation by an external runner (issue 28) on real child processes: the task goes through
// extraction's authorised-bytes gate (nothing sent before its plan is approved; the bytes sent are
// the plan's), the answer through the strict ConsolidationPatch@v1 submission. A runner that lies
// (ids not in the task, a doctrine citing what it does not rest on, another schema), hangs (its
// profile's time-out), or answers for entries that changed meanwhile (stale) keeps nothing; a
// secret or an instruction to the model in a scene or doctrine keeps that operation out of the
// patch, never stored — also when the secret is wrapped over two lines.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { commandProfile, type CommandProfile } from '../../source/effects/runner-profiles.js';
import { externalRunner } from '../../source/effects/runner-registry.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import {
  BUILTIN_CONSOLIDATION_RUNNER,
  builtinConsolidationPatch,
  type ConsolidationTask,
} from '../../source/memory/consolidation/task.js';
import type { Runner } from '../../source/memory/runner.js';
import { consolidateWithBuiltin } from '../../source/pipeline/consolidation.js';
import { consolidateWithRunner } from '../../source/pipeline/consolidation-runner.js';
import { ExtractionPipeline } from '../../source/pipeline/extraction-pipeline.js';
import type { Db } from '../../source/store/database.js';
import { readConsolidationReview } from '../../source/store/memory/consolidation-reads.js';
import type { WriterPort } from '../../source/store/writer-commands.js';
import { FAKE_TOKEN } from '../support/consolidation-answers.mjs';
import {
  type ConsolidationState,
  consolidationState,
  type Fact,
  OWNER as owner,
} from '../support/consolidation-state.js';
import { fakeRunnerProfile, receivedBy } from '../support/fake-runner-profile.js';

const FACTS: Fact[] = [
  { id: 'unit-tests', title: 'Run the unit tests with vitest', body: 'Use `pnpm vitest run` for the unit suite.' },
  { id: 'ci-lint', title: 'CI lints before the tests', body: 'CI runs `pnpm biome check` before the unit tests.' },
  { id: 'migrations', title: 'Migrations are plain SQL', body: 'Write each migration by hand in migrations/*.sql.' },
];

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('consolidation by an external runner', () => {
  let state: ConsolidationState;
  let dir: string;
  let db: Db;
  let writer: WriterPort;
  let memoryStatePath: string;
  let runners: Map<string, Runner>;
  let pipeline: ExtractionPipeline;
  let record: string;
  const sync = (facts: Fact[]) => state.sync(facts);

  /** The runner `ext` answers in `mode` (consolidation-answers.mjs) from now on. */
  const use = (mode: string, extra: Partial<CommandProfile> = {}) => {
    const profile = commandProfile.parse(fakeRunnerProfile(mode, record, { timeoutMs: 10_000, ...extra }));
    runners = new Map<string, Runner>([
      ['builtin', builtinRunner],
      ['ext', externalRunner(profile, join(dir, 'logs'))],
    ]);
  };

  const received = () => receivedBy(record);

  /** The task made for `ext` (as the memory files thread makes it), then the runners thread's part. */
  const plan = () => consolidateWithBuiltin(writer, memoryStatePath, owner, 'holder', [], [], false, 'ext');
  const run = async (approval: { approvePlan?: string } = {}) =>
    consolidateWithRunner(pipeline, writer, memoryStatePath, 'holder', {
      made: await plan(),
      runner: 'ext',
      ...approval,
    });
  /** Planned, shown, then approved by its plan digest: the runner's answer as the submission took it. */
  const approvedRun = async () => {
    const shown = await run();
    assert.ok(shown.pendingPlan, 'the plan is shown first');
    return run({ approvePlan: shown.pendingPlan.plans[0]!.planDigest });
  };
  /** Every byte memory-state keeps on disk (the database and its write-ahead log). */
  const stateBytes = () =>
    readdirSync(dir)
      .filter((name) => name.startsWith('memory-state'))
      .map((name) => readFileSync(join(dir, name)).toString('latin1'))
      .join('');

  beforeEach(() => {
    state = consolidationState('consolidation-runner', FACTS);
    ({ dir, db, writer, memoryStatePath } = state);
    record = join(dir, 'record');
    // Consolidation reads no captured turn: the pipeline's core database is never opened here.
    pipeline = new ExtractionPipeline(writer, {} as Db, () => runners, 'holder');
  });
  afterEach(() => state.close());

  it('sends nothing before its plan is approved, then exactly the plan’s bytes; scenes and doctrine wait in review', async () => {
    use('good');
    const shown = await run();
    assert.equal(shown.outcome, 'pending');
    const pending = shown.pendingPlan!;
    assert.equal(pending.reason, 'authorisation-needed');
    const [planned] = pending.plans;
    assert.equal(planned!.taskKind, 'consolidation');
    assert.equal(planned!.taskId, shown.taskId);
    assert.deepEqual(
      planned!.inputCoverage
        .filter((item) => item.sourceKind === 'entry')
        .map((item) => [item.opaqueSourceId, item.revision]),
      FACTS.map((fact) => [fact.id, 1]).sort(),
    );
    assert.deepEqual(received(), [], 'nothing was sent before the approval');

    const done = await run({ approvePlan: planned!.planDigest });
    assert.equal(done.outcome, 'accepted', done.reason ?? '');
    assert.equal(done.runner, 'ext');
    const sent = received();
    assert.equal(sent.length, 1);
    assert.equal(sha256(sent[0]!.text), planned!.runnerInputDigest, 'the bytes sent are the approved plan’s');
    assert.equal(JSON.parse(sent[0]!.text).format, 'common-memory-consolidation-task@v1');
    const [item] = readConsolidationReview(db, owner);
    assert.equal(item!.runner, 'ext');
    assert.deepEqual(
      item!.operations.map((operation) => `${operation.op} ${operation.target} ${operation.name}`),
      ['create scene tests-and-ci', 'create doctrine exact-commands'],
    );
    const approvedLog = db.prepare("SELECT count(*) FROM authorization_log WHERE decision = 'approved'").pluck().get();
    assert.equal(approvedLog, 1);

    // The same entries for the same runner are the same task: unchanged, nothing sent again.
    const again = await plan();
    assert.equal(again.outcome, 'unchanged');
    // The built-in runner over the same entries is another task (and writes no doctrine).
    const builtin = await consolidateWithBuiltin(writer, memoryStatePath, owner, 'holder');
    assert.notEqual(builtin.taskId, done.taskId);
    assert.ok(builtin.patch!.operations.every((operation) => operation.target !== 'doctrine'));
  });

  it('a lying runner keeps nothing: ids not in the task, a doctrine citing what it does not rest on, another schema', async () => {
    use('foreign-id');
    const shown = await run();
    const approvePlan = shown.pendingPlan!.plans[0]!.planDigest;
    const cases: Array<[string, RegExp]> = [
      ['foreign-id', /cites never-in-the-task, which is not an approved entry of the task/],
      ['uncited', /cites unit-tests but does not rest on it/],
      ['wrong-schema', /Unrecognized key.*confidence/],
    ];
    for (const [index, [mode, reason]] of cases.entries()) {
      use(mode);
      const result = await run({ approvePlan });
      assert.equal(result.outcome, 'rejected', mode);
      assert.match(result.reason!, reason);
      assert.equal(result.patch, null);
      assert.deepEqual(readConsolidationReview(db, owner), [], `${mode}: nothing queued`);
      const task = db.prepare('SELECT status, attempts FROM tasks WHERE task_id = ?').get(shown.taskId);
      assert.deepEqual(task, { status: 'pending', attempts: index + 1 }, 'a failed attempt, retried at the next run');
    }
  });

  it('the built-in runner writes no doctrine: a doctrine under its name is refused', async () => {
    const planned = await writer.call('memoryPlanConsolidation', { owner });
    const { claim } = await writer.call('memoryClaimTask', { holder: 'h', leaseMs: 60_000, taskIds: [planned.taskId] });
    const patch = builtinConsolidationPatch(planned.task as ConsolidationTask);
    const [a] = (planned.task as ConsolidationTask).entries;
    patch.operations.push({
      op: 'create',
      target: 'doctrine',
      name: 'say-it',
      newContent: `---\ndoctrine: say-it\ntitle: "Say it"\ncites: ["${a!.id}"]\n---\nSay it.\n`,
      basedOn: [{ entryId: a!.id, revision: a!.revision }],
      mergeSources: [],
      supersededBy: null,
      reason: 'a principle',
    });
    const refused = await writer.call('memorySubmitConsolidation', {
      taskId: planned.taskId,
      claimToken: claim!.claimToken,
      runner: BUILTIN_CONSOLIDATION_RUNNER,
      output: JSON.stringify(patch),
    });
    assert.equal(refused.outcome, 'rejected');
    assert.match((refused as { reason: string }).reason, /the built-in runner writes no doctrine/);
  });

  it('a hanging runner is stopped at its profile’s time-out with a clear reason; nothing is kept', async () => {
    use('sleep', { timeoutMs: 1000 });
    const shown = await run();
    const started = Date.now();
    const result = await run({ approvePlan: shown.pendingPlan!.plans[0]!.planDigest });
    assert.ok(Date.now() - started < 8000, 'the time-out took too long');
    assert.equal(result.outcome, 'rejected');
    assert.match(result.reason!, /runner-timeout: no answer within 1000 ms/);
    assert.match(result.reason!, /run memory consolidate --runner ext again/);
    assert.deepEqual(readConsolidationReview(db, owner), []);
    assert.deepEqual(db.prepare('SELECT status, attempts FROM tasks WHERE task_id = ?').get(shown.taskId), {
      status: 'pending',
      attempts: 1,
    });
  });

  it('refuses a patch whose entries changed while the runner worked (stale), and the next run makes a new task', async () => {
    use('await-go');
    const shown = await run();
    const answering = run({ approvePlan: shown.pendingPlan!.plans[0]!.planDigest });
    while (received().length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    // A teammate edits an entry the runner was sent, while it works.
    sync(FACTS.map((fact) => (fact.id === 'ci-lint' ? { ...fact, body: `${fact.body} Edited.` } : fact)));
    writeFileSync(join(record, 'go'), '');
    const result = await answering;
    assert.equal(result.outcome, 'stale');
    assert.match(result.reason!, /changed since the task was made \(ci-lint@1\); run memory consolidate again/);
    assert.deepEqual(readConsolidationReview(db, owner), [], 'nothing stale is queued');
    assert.equal(db.prepare('SELECT status FROM tasks WHERE task_id = ?').pluck().get(shown.taskId), 'stale');
    const next = await plan();
    assert.equal(next.outcome, 'pending');
    assert.notEqual(next.taskId, shown.taskId, 'a new task over the new revisions');
  });

  for (const [mode, transform] of [
    ['secret-scene', undefined],
    ['wrapped-secret', 'wrapped'],
  ] as const)
    it(`a secret in a runner's scene summary (${mode}) keeps that operation out; it is never stored`, async () => {
      use(mode);
      const result = await approvedRun();
      assert.equal(result.outcome, 'accepted', result.reason ?? '');
      assert.equal(result.blocked, 1);
      const finding = result.findings.find((f) => f.rule === 'github-token');
      assert.ok(finding, JSON.stringify(result.findings));
      assert.equal(finding.operation, 'create scene tests-and-ci');
      assert.equal(finding.severity, 'block');
      assert.equal(finding.transform, transform);
      assert.ok(!finding.excerpt.includes(FAKE_TOKEN.slice(4, 12)), 'the excerpt is masked');
      const [item] = readConsolidationReview(db, owner);
      assert.deepEqual(
        item!.operations.map((operation) => `${operation.op} ${operation.target} ${operation.name}`),
        ['create doctrine exact-commands'],
        'the doctrine stays; the scene carrying the secret is not in the review queue',
      );
      db.pragma('wal_checkpoint(TRUNCATE)');
      for (const piece of [FAKE_TOKEN, FAKE_TOKEN.slice(0, 18), FAKE_TOKEN.slice(18)])
        assert.ok(!stateBytes().includes(piece), `memory-state holds no part of the token (${piece.length} chars)`);
    });

  it('a doctrine telling the model to skip review is kept out like an entry’s poisoning', async () => {
    use('poison-doctrine');
    const result = await approvedRun();
    assert.equal(result.outcome, 'accepted', result.reason ?? '');
    assert.equal(result.blocked, 1);
    assert.ok(
      result.findings.some((f) => f.operation === 'create doctrine exact-commands' && f.rule.startsWith('poison-')),
    );
    const [item] = readConsolidationReview(db, owner);
    assert.deepEqual(
      item!.operations.map((operation) => operation.target),
      ['scene'],
    );
  });

  it('a secret in an approved entry is replaced in the bytes sent, and the plan names it', async () => {
    sync([...FACTS.slice(1), { ...FACTS[0]!, body: `${FACTS[0]!.body} The CI token is ${FAKE_TOKEN}.` }]);
    use('good');
    const shown = await run();
    const plan = shown.pendingPlan!.plans[0]!;
    assert.ok(
      plan.inputFindings.some((f) => f.source === 'entry' && f.ref === 'unit-tests' && f.rule === 'github-token'),
    );
    assert.equal(plan.secretsReplaced, 1);
    await run({ approvePlan: plan.planDigest });
    const [sent] = received();
    assert.ok(!sent!.text.includes(FAKE_TOKEN), 'the token was not sent');
    assert.ok(sent!.text.includes('[secret:github-token]'));
  });
});
