// Prepare & promote: what Esc on a prepared plan does, said as it is. Esc on a plan not approved
// asks the host to void it (memory void), so no approval of its digest can write it later, and goes
// back to the scope chooser with the same candidates chosen; if the host refuses, the plan stays on
// screen with the error. The help line and the line under the plan say so, within 80 columns (and
// at 60, a and Esc before any other key). In process, with a fake Application.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryPlanView, MemoryReview } from '../../source/api/memory-views.js';
import { CmError } from '../../source/errors.js';
import { absentDirs, fakeApp, hostStatus, reviewCandidate, reviewQueue } from '../support/tui-fakes.js';
import {
  assertFits80x24,
  KEY,
  mount,
  narrowTo80,
  press,
  resizeTo,
  unmount,
  waitForText,
} from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-plan-esc');

const queue: MemoryReview = reviewQueue([reviewCandidate({ candidateId: 'cand-0001aaaa' })]);

const plan: MemoryPlanView = {
  planId: 'plan-0123456789abcdef',
  planDigest: 'd'.repeat(64),
  status: 'generated',
  scope: 'project',
  files: [
    {
      path: 'work_method/use-named-exports.md',
      entryId: 'use-named-exports',
      action: 'create',
      candidateIds: ['cand-0001aaaa'],
      targetBlobHash: null,
      sanitizedContentDigest: 'e'.repeat(64),
      bytes: 120,
      state: 'pending',
      findings: [],
    },
  ],
  diff: '--- /dev/null\n+++ b/work_method/use-named-exports.md\n@@ -0,0 +1 @@\n+Always use named exports.\n',
  voidReason: null,
  candidates: [],
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
};

const mountWith = (calls: string[], memoryVoid: () => Promise<unknown>) =>
  mount(
    fakeApp({
      status: async () => hostStatus(),
      memoryReview: async () => queue,
      memoryPrepare: async () => {
        calls.push('prepare');
        return plan;
      },
      memoryApprove: async () => {
        calls.push('approve');
        return { ...plan, status: 'approved' };
      },
      memoryVoid: async (request: { planId: string }) => {
        calls.push(`void ${request.planId}`);
        return memoryVoid();
      },
    }),
    HOME,
    { service: async () => null, integrations: DIRS },
  );

async function showPlan(view: Awaited<ReturnType<typeof mount>>): Promise<string> {
  await narrowTo80(view);
  await press(view, '7');
  await waitForText(view, /Always use named exports/);
  await press(view, 'p');
  await waitForText(view, /^> project · /m);
  await press(view, KEY.enter);
  return waitForText(view, /Plan plan-01234567 · not approved · read the diff/);
}

describe('Prepare & promote: Esc on a plan', () => {
  test('the keys say Esc drops the plan; Esc has the host void it and goes back to the chooser, the candidates still chosen', async () => {
    const calls: string[] = [];
    const view = await mountWith(calls, async () => ({ ...plan, status: 'voided', alreadyVoided: false }));
    try {
      const shown = await showPlan(view);
      assertFits80x24(shown);
      const help = shown.split('\n').at(-1) ?? '';
      assert.match(help, /a approve & write · Esc drop plan · q quit$/);
      assert.match(shown, /Esc drops it: the plan is voided\./);
      await press(view, KEY.escape);
      const back = await waitForText(view, /Prepare & promote · scope project/);
      assert.match(back, /1 candidate to promote into the project memory root/, 'the candidates stay chosen');
      assert.deepEqual(calls, ['prepare', `void ${plan.planId}`], 'the plan was voided, nothing approved');
    } finally {
      await unmount(view);
    }
  });

  test('a refused void leaves the plan on screen with the error; Esc again tries again', async () => {
    const calls: string[] = [];
    let refuse = true;
    const view = await mountWith(calls, async () => {
      if (refuse) throw new CmError('operation_conflict', `Plan ${plan.planId} is being written.`);
      return { ...plan, status: 'voided', alreadyVoided: false };
    });
    try {
      await showPlan(view);
      await press(view, KEY.escape);
      const refused = await waitForText(view, /error operation_conflict: Plan plan-0123456789abcdef is being written/);
      assert.match(refused, /Plan plan-01234567 · not approved · read the diff/, 'still on the plan');
      refuse = false;
      await press(view, KEY.escape);
      await waitForText(view, /Prepare & promote · scope project/);
      assert.deepEqual(calls, ['prepare', `void ${plan.planId}`, `void ${plan.planId}`]);
    } finally {
      await unmount(view);
    }
  });

  test('at 60×20 the key line keeps a and Esc, the keys that decide the plan, where the others give way', async () => {
    const calls: string[] = [];
    const view = await mountWith(calls, async () => ({ ...plan, status: 'voided', alreadyVoided: false }));
    const keyLine = (frame: string) => frame.split('\n').at(-1) ?? '';
    try {
      const shown = await showPlan(view);
      assert.equal(keyLine(shown), 'PgDn/PgUp scroll · ↑↓ line · a approve & write · Esc drop plan · q quit');
      await resizeTo(view, 60, 20);
      const narrow = await waitForText(view, /Esc drop plan · … · q quit$/);
      assert.equal(keyLine(narrow), 'a approve & write · Esc drop plan · … · q quit');
      assert.ok(narrow.split('\n').length <= 20, narrow);
      await press(view, KEY.escape);
      await waitForText(view, /Prepare & promote · scope project/);
      assert.deepEqual(calls, ['prepare', `void ${plan.planId}`]);
    } finally {
      await unmount(view);
    }
  });

  test("at 60×15 the plan's heading keeps where the diff is scrolled, leaving out read the diff", async () => {
    const view = await mountWith([], async () => ({ ...plan, status: 'voided', alreadyVoided: false }));
    try {
      const shown = await showPlan(view);
      assert.match(shown, /^Plan plan-01234567 · not approved · read the diff$/m, '80 columns: as before');
      await resizeTo(view, 60, 15);
      const narrow = await waitForText(view, /^Plan plan-01234567 · not approved · lines 1–\d+ of \d+$/m);
      assert.ok(
        narrow.split('\n').every((line) => line.length <= 60),
        narrow,
      );
    } finally {
      await unmount(view);
    }
  });
});
