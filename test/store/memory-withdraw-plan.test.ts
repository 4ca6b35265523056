// The store's own guard on a person's withdrawal (memoryWithdrawPlan), apart from the CLI and the
// TUI that call it: an approved plan is voided and promote then writes nothing; a plan being
// written (applying: promote began, perhaps killed) is refused and stays as it was, so only promote
// finishes it. Writer commands run in this process over a real memory-state.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { memoryRootOf } from '../../source/effects/memory-root.js';
import { CmError } from '../../source/errors.js';
import { promotePlan } from '../../source/pipeline/promotion.js';
import { approvedPlanInProcess, factCandidates, type InProcessGate } from '../support/in-process-gate.js';

const candidate = factCandidates(1, 'c-withdraw')[0]!;

const status = (gate: InProcessGate) =>
  gate.db.prepare('SELECT status, void_reason AS reason FROM promotion_journal WHERE plan_id = ?').get(gate.planId) as {
    status: string;
    reason: string | null;
  };

describe('memoryWithdrawPlan', () => {
  let dir: string;
  let gate: InProcessGate | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cm-withdraw-'));
  });
  afterEach(() => {
    gate?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('voids an approved plan; promote then writes nothing and says it was voided', async () => {
    gate = approvedPlanInProcess(dir, [candidate], 'plan-withdraw');
    const withdrawn = (await gate.run('memoryWithdrawPlan', { planId: gate.planId })) as {
      already: boolean;
      view: { status: string };
    };
    assert.equal(withdrawn.already, false);
    assert.equal(withdrawn.view.status, 'voided');
    assert.deepEqual(status(gate), { status: 'voided', reason: 'withdrawn by a person before it was written' });
    await assert.rejects(promotePlan(gate.deps, gate.planId), /voided \(withdrawn by a person/);
    const root = memoryRootOf('project', gate.anchor);
    assert.equal(existsSync(join(root.anchor, ...root.parts)), false, 'no memory root was made');
  });

  it('refuses a plan being written and leaves it applying; promote then finishes it', async () => {
    gate = approvedPlanInProcess(dir, [candidate], 'plan-applying');
    await gate.run('memoryBeginPromotion', { planId: gate.planId });
    assert.equal(status(gate).status, 'applying');
    await assert.rejects(
      async () => gate?.run('memoryWithdrawPlan', { planId: gate.planId }),
      (error: unknown) =>
        error instanceof CmError &&
        error.code === 'operation_conflict' &&
        /is being written .* run memory promote plan-applying to finish it/.test(error.message),
    );
    assert.deepEqual(status(gate), { status: 'applying', reason: null });
    assert.equal((await promotePlan(gate.deps, gate.planId)).status, 'applied');
  });
});
