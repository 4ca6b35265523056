// A consolidation patch through the human gate (issue 28, item 3), in process over a real
// memory-state and a real git worktree: the built-in runner's patch is prepared — all of it or the
// operations a person accepted — into a promotion plan, approved by digest and promoted; the files
// are created, updated and removed exactly as approved, and nothing is removed without an approved
// plan. A patch resting on an entry edited since its task is refused at prepare (consolidate again).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { MemoryPlanView } from '../../source/api/memory-views.js';
import { resolveScope } from '../../source/effects/repository.js';
import { CmError } from '../../source/errors.js';
import { syncRoot } from '../../source/pipeline/approved-access.js';
import { consolidateWithBuiltin } from '../../source/pipeline/consolidation.js';
import { preparePatchPlan } from '../../source/pipeline/patch-prepare.js';
import { type GateDeps, gateWriterOver, promotePlan } from '../../source/pipeline/promotion.js';
import type { AnyCommand } from '../../source/store/command.js';
import type { Db } from '../../source/store/database.js';
import { readConsolidationReview } from '../../source/store/memory/consolidation-reads.js';
import { openMemoryState } from '../../source/store/memory/state-database.js';
import { commit } from '../../source/store/transaction.js';
import { writerCommands, type WriterPort } from '../../source/store/writer-commands.js';
import { projectRoot, writeConsolidationEntries } from '../support/memory-files.js';

/** The entries of writeConsolidationEntries (with duplicates), vitest aside. */
const IDS = ['jest', 'mig-1', 'mig-2', 'mig-3', 'ci-1', 'ci-2'];

describe('a consolidation patch through the human gate', () => {
  let dir: string;
  let db: Db;
  let worktree: string;
  let root: string;
  let writer: WriterPort;
  let deps: GateDeps;
  let owner: { scope: 'project'; repositoryKey: string; worktreeKey: string };

  const sync = () => syncRoot({ memoryStatePath: deps.memoryStatePath, store: deps.writer.storeScan }, owner, worktree);
  const consolidate = async () => {
    await sync();
    return consolidateWithBuiltin(writer, deps.memoryStatePath, owner, 'holder');
  };
  const prepare = (taskId: string, operations?: number[]) =>
    preparePatchPlan(deps, {
      candidateIds: [],
      patch: { taskId, ...(operations ? { operations } : {}) },
      cwd: worktree,
    });
  const approve = (plan: MemoryPlanView) =>
    writer.call('memoryApprovePlan', { planId: plan.planId, digest: plan.planDigest });
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  const journalRows = () => db.prepare('SELECT count(*) FROM promotion_journal').pluck().get() as number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cm-consolidation-gate-'));
    worktree = realpathSync(mkdirSync(join(dir, 'worktree'), { recursive: true }) ?? join(dir, 'worktree'));
    execFileSync('git', ['init', '-q'], { cwd: worktree });
    const binding = resolveScope(worktree);
    assert.equal(binding.scope, 'project');
    owner = { scope: 'project', repositoryKey: binding.repositoryKey, worktreeKey: binding.worktreeKey };
    root = projectRoot(worktree);
    writeConsolidationEntries(root, { duplicates: true });
    const memoryStatePath = join(dir, 'memory-state.sqlite');
    const state = openMemoryState(memoryStatePath);
    db = state.db;
    const context = { storeId: 'test', memoryStateUuid: state.memoryStateUuid, core: db };
    writer = {
      storeId: 'test',
      call: ((name: string, input: unknown) => {
        const command = (writerCommands as Record<string, AnyCommand>)[name]!;
        return Promise.resolve(commit(db, name, (tx) => command.run(tx, context, command.schema.parse(input))));
      }) as WriterPort['call'],
    };
    deps = {
      memoryStatePath,
      home: dir,
      writer: gateWriterOver(writer),
    };
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prepares the accepted operations only, says which were left out, and promote does exactly that', async () => {
    const result = await consolidate();
    assert.equal(result.outcome, 'accepted');
    const operations = result.patch!.operations;
    const number = (predicate: (o: (typeof operations)[number]) => boolean) => operations.findIndex(predicate) + 1;
    const retire = number((o) => o.op === 'retire' && o.name === 'jest');
    const merge = number((o) => o.op === 'merge' && o.target === 'entry');
    const scenes = operations.map((o, i) => [o, i + 1] as const).filter(([o]) => o.target === 'scene');
    assert.ok(retire > 0 && merge > 0 && scenes.length > 0, JSON.stringify(operations.map((o) => [o.op, o.target])));
    const mergeOp = operations[merge - 1]!;
    const [merged] = mergeOp.mergeSources;
    const before = new Map(IDS.map((id) => [id, read(`work_method/${id}.md`)]));

    const plan = await prepare(result.taskId, [merge, retire]);
    assert.equal(plan.status, 'generated');
    assert.deepEqual(
      plan.consolidation?.operations.map((o) => o.number),
      [merge, retire].sort((a, b) => a - b),
    );
    assert.deepEqual(
      plan.consolidation?.leftOut,
      scenes.map(([, n]) => n),
      'the scenes were left out, and the plan says so',
    );
    assert.deepEqual(plan.candidates, []);
    assert.deepEqual(
      plan.files.map((f) => [f.action, f.path]).sort(),
      [
        ['remove', 'work_method/jest.md'],
        ['remove', `work_method/${merged}.md`],
        ['update', `work_method/${mergeOp.name}.md`],
      ].sort(),
    );
    assert.deepEqual(readConsolidationReview(db, owner), [], 'a prepared patch leaves the review queue');

    // Nothing is removed before the plan is approved.
    await assert.rejects(promotePlan(deps, plan.planId), /not approved yet/);
    assert.equal(read('work_method/jest.md'), before.get('jest'));

    await approve(plan);
    const promoted = await promotePlan(deps, plan.planId);
    assert.equal(promoted.status, 'applied');
    assert.deepEqual(promoted.files.map((f) => f.state).sort(), ['removed', 'removed', 'written']);
    assert.equal(existsSync(join(root, 'work_method', 'jest.md')), false, 'the retired entry is removed');
    assert.equal(existsSync(join(root, 'work_method', `${merged}.md`)), false, 'the merged entry is removed');
    const survivor = read(`work_method/${mergeOp.name}.md`);
    assert.match(survivor, new RegExp(`\\nsupersedes: \\["${merged}"\\]\\n`));
    assert.equal(
      survivor.replace(/supersedes: .*\nupdated: .*\n/, ''),
      before.get(mergeOp.name),
      'the survivor keeps every other byte',
    );
    assert.equal(existsSync(join(root, 'scenes')), false, 'the scenes left out are not written');
    for (const [id, text] of before)
      if (id !== 'jest' && id !== merged && id !== mergeOp.name)
        assert.equal(read(`work_method/${id}.md`), text, `${id} is untouched`);
    assert.equal(promoted.sync?.entries, IDS.length + 1 - 2, 'the projection follows: two entries fewer');
  });

  it('a scene that lists the merged entry is updated by the plan; once promoted the patch is applied, not prepared again', async () => {
    const result = await consolidate();
    const operations = result.patch!.operations;
    const merge = operations.findIndex((o) => o.op === 'merge' && o.target === 'entry') + 1;
    const mergeOp = operations[merge - 1]!;
    const [merged] = mergeOp.mergeSources;
    // A scene the person wrote by hand, after the task was made, naming the entry merged away.
    mkdirSync(join(root, 'scenes'), { recursive: true });
    const hand = `---\nscene: hand-picked\ntitle: "By hand"\nentries: ["mig-1", "${merged}"]\n---\nMine.\n`;
    writeFileSync(join(root, 'scenes', 'hand-picked.md'), hand);

    const plan = await prepare(result.taskId, [merge]);
    assert.deepEqual(
      plan.files.map((f) => [f.action, f.path]).sort(),
      [
        ['remove', `work_method/${merged}.md`],
        ['update', 'scenes/hand-picked.md'],
        ['update', `work_method/${mergeOp.name}.md`],
      ].sort(),
    );
    const status = () =>
      db.prepare('SELECT status, plan_id FROM consolidation_patches WHERE task_id = ?').get(result.taskId);
    assert.deepEqual(status(), { status: 'prepared', plan_id: plan.planId });
    await approve(plan);
    const promoted = await promotePlan(deps, plan.planId);
    assert.equal(promoted.status, 'applied');
    assert.equal(
      read('scenes/hand-picked.md'),
      hand.replace(`entries: ["mig-1", "${merged}"]`, `entries: ["mig-1","${mergeOp.name}"]`),
      'the scene names the survivor, every other byte kept',
    );
    assert.deepEqual(status(), { status: 'applied', plan_id: plan.planId }, 'the patch is applied by its plan');
    assert.deepEqual(readConsolidationReview(db, owner), []);
    await assert.rejects(prepare(result.taskId), (error: unknown) => {
      assert.ok(error instanceof CmError && error.code === 'operation_conflict', String(error));
      assert.match(error.message, new RegExp(`applied by plan ${plan.planId}`));
      return true;
    });
  });

  it('refuses a patch whose entry was edited since its task, names it, and a new consolidation prepares', async () => {
    const result = await consolidate();
    const path = join(root, 'work_method', 'jest.md');
    writeFileSync(path, `${readFileSync(path, 'utf8')}Also for the watch mode.\n`);
    const refused = await prepare(result.taskId).then(
      () => assert.fail('a stale patch was prepared'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof CmError);
    assert.equal(refused.code, 'operation_conflict');
    assert.match(
      refused.message,
      new RegExp(`patch ${result.taskId} is stale: entry jest changed \\(revision 1 → 2\\)`),
    );
    assert.match(refused.message, /Nothing was prepared; run memory consolidate again for a new patch\./);
    assert.equal(journalRows(), 0, 'no plan is stored');

    // An operation that does not rest on the edited entry can still be taken on its own.
    const unrelated = result.patch!.operations.findIndex((o) => !o.basedOn.some((b) => b.entryId === 'jest')) + 1;
    assert.ok(unrelated > 0);
    const partial = await prepare(result.taskId, [unrelated]);
    assert.deepEqual(
      partial.consolidation?.operations.map((o) => o.number),
      [unrelated],
    );

    const again = await consolidate();
    assert.equal(again.outcome, 'accepted');
    assert.notEqual(again.taskId, result.taskId);
    const plan = await prepare(again.taskId);
    assert.equal(plan.status, 'generated');
    assert.deepEqual(plan.consolidation?.leftOut, []);
  });

  it('an entry edited between prepare and approve voids the plan; a file changed before promote is kept', async () => {
    const result = await consolidate();
    const retire = result.patch!.operations.findIndex((o) => o.op === 'retire') + 1;
    const plan = await prepare(result.taskId, [retire]);
    const path = join(root, 'work_method', 'jest.md');
    const edited = `${readFileSync(path, 'utf8')}Edited after prepare.\n`;
    writeFileSync(path, edited);
    await sync();
    const voided = (await approve(plan)) as { voided: string | null };
    assert.match(voided.voided ?? '', /entry jest changed since the plan was prepared \(revision 1 → 2\)/);

    // Approved, then the file changes: promote voids the plan and removes nothing.
    const again = await consolidate();
    const next = await prepare(again.taskId, [again.patch!.operations.findIndex((o) => o.op === 'retire') + 1]);
    await approve(next);
    writeFileSync(path, `${edited}Edited after approve.\n`);
    const promoted = await promotePlan(deps, next.planId);
    assert.equal(promoted.status, 'voided');
    assert.equal(readFileSync(path, 'utf8'), `${edited}Edited after approve.\n`, 'the changed file is kept');
  });
});
