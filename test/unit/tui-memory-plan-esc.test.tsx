// Prepare & promote: what Esc on a prepared plan does, said as it is. No key of the TUI voids a
// plan (the store voids one only when its targets or candidates changed): Esc goes back to the
// scope chooser and leaves the plan unapproved in the journal, where memory status counts it. The
// help line and the line under the plan say so, within 80 columns. In process, with a fake Application.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryPlanView, MemoryReview } from '../../source/api/memory-views.js';
import { absentDirs, fakeApp, hostStatus, reviewCandidate, reviewQueue } from '../support/tui-fakes.js';
import { assertFits80x24, KEY, mount, narrowTo80, press, unmount, waitForText } from '../support/tui-harness.js';

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

describe('Prepare & promote: Esc on a plan', () => {
  test('the keys say Esc leaves the plan unapproved; Esc goes back to the chooser and asks the host nothing', async () => {
    const calls: string[] = [];
    const view = await mount(
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
      }),
      HOME,
      { service: async () => null, integrations: DIRS },
    );
    try {
      await narrowTo80(view);
      await press(view, '7');
      await waitForText(view, /Always use named exports/);
      await press(view, 'p');
      await waitForText(view, /^> project · /m);
      await press(view, KEY.enter);
      const shown = await waitForText(view, /Plan plan-01234567 · not approved · read the diff/);
      assertFits80x24(shown);
      const help = shown.split('\n').at(-1) ?? '';
      assert.match(help, /a approve & write · Esc leave unapproved · q quit$/);
      assert.doesNotMatch(shown, /drop/);
      assert.match(shown, /Esc leaves it unapproved: memory status counts it\s+awaiting\s+approval\./);
      await press(view, KEY.escape);
      const back = await waitForText(view, /Prepare & promote · scope project/);
      assert.match(back, /1 candidate to promote into the project memory root/, 'the candidates stay chosen');
      assert.deepEqual(calls, ['prepare'], 'Esc sends nothing to the host: the plan is left as it was');
    } finally {
      await unmount(view);
    }
  });
});
