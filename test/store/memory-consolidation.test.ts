// Consolidation tasks on a real memory-state (issue 28): a task over one owner's approved entries
// goes through the task machinery extraction uses — plan, claim, submit — and its accepted patch
// waits in the review read as one item. A patch resting on an entry whose revision changed since
// the task was made is refused as stale; a replay returns the stored outcome; a patch that does not
// answer its task is a failed attempt. The writer commands run as the writer thread runs them
// (schema-checked, one transaction each) but in this process.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { builtinConsolidationPatch, type ConsolidationTask } from '../../source/memory/consolidation/task.js';
import { consolidateWithBuiltin } from '../../source/pipeline/consolidation.js';
import type { Db } from '../../source/store/database.js';
import { readConsolidationReview } from '../../source/store/memory/consolidation-reads.js';
import type { WriterPort } from '../../source/store/writer-commands.js';
import {
  type ConsolidationState,
  consolidationState,
  type Fact,
  OWNER as owner,
} from '../support/consolidation-state.js';

const FACTS: Fact[] = [
  { id: 'jest', title: 'Run the unit tests with jest', body: 'Use `pnpm jest` for the unit suite.' },
  {
    id: 'vitest',
    title: 'Vitest runs the unit suite now',
    body: 'The unit suite moved from jest to vitest: `pnpm vitest run`.',
    supersedes: ['jest'],
  },
  {
    id: 'mig-1',
    title: 'Migrations are plain SQL files',
    body: 'Write each database migration by hand in migrations/*.sql.',
  },
  {
    id: 'mig-2',
    title: 'Never edit a merged migration',
    body: 'A database migration in migrations/ is never edited once merged.',
  },
  {
    id: 'mig-3',
    title: 'Fix a migration with a new migration',
    body: 'A broken database migration in migrations/ gets a follow-up migration.',
  },
  {
    id: 'ci-1',
    title: 'CI lints with biome before the unit tests',
    body: 'The CI workflow runs `pnpm biome check` and then the unit tests.',
  },
  {
    id: 'ci-2',
    title: 'Biome lint runs in CI before tests',
    body: 'CI runs `pnpm biome check` before the unit tests.',
  },
];

describe('consolidation tasks on memory-state', () => {
  let state: ConsolidationState;
  let db: Db;
  let writer: WriterPort;
  let memoryStatePath: string;
  let commits: string[];
  const sync = (facts: Fact[]) => state.sync(facts);

  beforeEach(() => {
    state = consolidationState('consolidation', FACTS);
    ({ db, writer, memoryStatePath, commits } = state);
  });
  afterEach(() => state.close());

  it('plans, claims and submits through the task machinery; the patch is one review item with its operations', async () => {
    const result = await consolidateWithBuiltin(writer, memoryStatePath, owner, 'holder-1');
    assert.equal(result.outcome, 'accepted');
    assert.equal(result.entries, FACTS.length);
    assert.deepEqual(commits.slice(-3), ['memoryPlanConsolidation', 'memoryClaimTask', 'memorySubmitConsolidation']);
    const task = db.prepare('SELECT kind, status FROM tasks WHERE task_id = ?').get(result.taskId);
    assert.deepEqual(task, { kind: 'consolidation', status: 'submitted' });

    const review = readConsolidationReview(db, owner);
    assert.equal(review.length, 1);
    const [item] = review;
    assert.equal(item!.taskId, result.taskId);
    assert.deepEqual(result.patch, item);
    const retire = item!.operations.find((o) => o.op === 'retire');
    assert.deepEqual(retire && [retire.name, retire.supersededBy], ['jest', 'vitest']);
    assert.deepEqual(retire!.basedOn, [
      { entryId: 'jest', revision: 1 },
      { entryId: 'vitest', revision: 1 },
    ]);
    assert.ok(
      item!.operations.some((o) => o.op === 'create' && o.target === 'scene'),
      'a scene is proposed',
    );
    assert.deepEqual(readConsolidationReview(db, { repositoryKey: 'c'.repeat(64), worktreeKey: 'd'.repeat(64) }), []);
    assert.equal(readConsolidationReview(db, null).length, 1, 'every owner’s');
  });

  it('the same entries are the same task: a second run answers unchanged with the queued patch', async () => {
    const first = await consolidateWithBuiltin(writer, memoryStatePath, owner, 'holder-1');
    const second = await consolidateWithBuiltin(writer, memoryStatePath, owner, 'holder-2');
    assert.equal(second.outcome, 'unchanged');
    assert.equal(second.taskId, first.taskId);
    assert.deepEqual(second.patch, first.patch);
    assert.equal(readConsolidationReview(db, owner).length, 1);
  });

  it('refuses a patch when an entry it rests on changed revision after the task was made; a new task is accepted', async () => {
    const planned = await writer.call('memoryPlanConsolidation', { owner });
    const { claim } = await writer.call('memoryClaimTask', { holder: 'h', leaseMs: 60_000, taskIds: [planned.taskId] });
    assert.ok(claim);
    const patch = builtinConsolidationPatch(planned.task as ConsolidationTask);
    // A teammate edits an entry the patch rests on: the projection's revision of it grows.
    sync(FACTS.map((fact) => (fact.id === 'jest' ? { ...fact, body: `${fact.body} Edited.` } : fact)));
    const refused = await writer.call('memorySubmitConsolidation', {
      taskId: planned.taskId,
      claimToken: claim.claimToken,
      runner: 'builtin',
      output: JSON.stringify(patch),
    });
    assert.equal(refused.outcome, 'stale');
    assert.ok(refused.outcome === 'stale' && refused.stale.some((s) => s.entryId === 'jest' && s.revision === 1));
    assert.equal(db.prepare('SELECT status FROM tasks WHERE task_id = ?').pluck().get(planned.taskId), 'stale');
    assert.deepEqual(readConsolidationReview(db, owner), [], 'nothing stale is queued');
    const again = await writer.call('memoryClaimTask', { holder: 'h2', leaseMs: 60_000, taskIds: [planned.taskId] });
    assert.equal(again.claim, null, 'a stale task is never claimed again');

    const fresh = await consolidateWithBuiltin(writer, memoryStatePath, owner, 'holder-3');
    assert.equal(fresh.outcome, 'accepted');
    assert.notEqual(fresh.taskId, planned.taskId);
    const retire = fresh.patch!.operations.find((o) => o.op === 'retire');
    assert.deepEqual(retire!.basedOn[0], { entryId: 'jest', revision: 2 });
  });

  it('a patch with no operation is not a review item: the task is done, nothing waits in review', async () => {
    // Two unrelated entries: no scene, no merge, no retirement.
    sync(FACTS.filter((fact) => fact.id === 'jest' || fact.id === 'mig-1'));
    const result = await consolidateWithBuiltin(writer, memoryStatePath, owner, 'holder-1');
    assert.equal(result.outcome, 'accepted');
    assert.deepEqual(result.patch?.operations, []);
    assert.equal(db.prepare('SELECT status FROM tasks WHERE task_id = ?').pluck().get(result.taskId), 'submitted');
    assert.deepEqual(readConsolidationReview(db, owner), [], 'nothing to review');
    assert.equal(db.prepare('SELECT count(*) FROM consolidation_patches').pluck().get(), 0);
    const again = await consolidateWithBuiltin(writer, memoryStatePath, owner, 'holder-2');
    assert.equal(again.outcome, 'unchanged');
    assert.deepEqual(again.patch?.operations, [], 'the same entries: still nothing to propose');
  });

  it('a new task makes the owner’s earlier open task stale', async () => {
    const first = await writer.call('memoryPlanConsolidation', { owner });
    sync(FACTS.slice(1));
    const second = await writer.call('memoryPlanConsolidation', { owner });
    assert.notEqual(second.taskId, first.taskId);
    assert.equal(second.superseded, 1);
    assert.deepEqual(db.prepare('SELECT status, superseded_by FROM tasks WHERE task_id = ?').get(first.taskId), {
      status: 'stale',
      superseded_by: second.taskId,
    });
  });

  it('a replay returns the stored outcome; another answer after it is audited and refused', async () => {
    const planned = await writer.call('memoryPlanConsolidation', { owner });
    const { claim } = await writer.call('memoryClaimTask', { holder: 'h', leaseMs: 60_000, taskIds: [planned.taskId] });
    const patch = builtinConsolidationPatch(planned.task as ConsolidationTask);
    const submit = (output: string) =>
      writer.call('memorySubmitConsolidation', {
        taskId: planned.taskId,
        claimToken: claim!.claimToken,
        runner: 'builtin',
        output,
      });
    const accepted = await submit(JSON.stringify(patch));
    assert.equal(accepted.outcome, 'accepted');
    assert.deepEqual(await submit(JSON.stringify(patch)), { ...accepted, replayed: true });
    const other = await submit(JSON.stringify({ ...patch, operations: [] }));
    assert.equal(other.outcome, 'conflict');
    assert.equal(
      db.prepare('SELECT count(*) FROM submission_conflicts WHERE task_id = ?').pluck().get(planned.taskId),
      1,
    );
  });

  it('a patch that does not answer its task is a failed attempt, and the task can be claimed again', async () => {
    const planned = await writer.call('memoryPlanConsolidation', { owner });
    const patch = builtinConsolidationPatch(planned.task as ConsolidationTask);
    const cases: Array<[unknown, RegExp]> = [
      ['not json', /not JSON/],
      [{ ...patch, format: 'other@v1' }, /format "other@v1"/],
      [{ ...patch, extra: 1 }, /Unrecognized key/],
      [{ ...patch, taskId: 'con-other' }, /answers task con-other/],
      [
        {
          ...patch,
          operations: [
            {
              ...patch.operations[0]!,
              basedOn: [
                { entryId: 'jest', revision: 7 },
                { entryId: 'vitest', revision: 1 },
              ],
            },
          ],
        },
        /rests on jest@7, which the task did not give/,
      ],
      [{ ...patch, operations: [{ ...patch.operations[0]!, supersededBy: null }] }, /names no replacement/],
    ];
    for (const [output, reason] of cases) {
      const { claim } = await writer.call('memoryClaimTask', {
        holder: 'h',
        leaseMs: 60_000,
        taskIds: [planned.taskId],
      });
      assert.ok(claim, `claimable again before ${reason}`);
      const refused = await writer.call('memorySubmitConsolidation', {
        taskId: planned.taskId,
        claimToken: claim.claimToken,
        runner: 'builtin',
        output: typeof output === 'string' ? output : JSON.stringify(output),
      });
      assert.equal(refused.outcome, 'rejected');
      assert.match((refused as { reason: string }).reason, reason);
      await writer.call('memoryRetryTask', { taskId: planned.taskId });
    }
    assert.deepEqual(readConsolidationReview(db, owner), []);
  });
});
