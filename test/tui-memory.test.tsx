// The Memory screen over a real host and a real git repository: sessions captured and extracted
// into candidates, reviewed on Review (statements, the cited user turn read through the session
// read, masked findings), the Extraction panel's counts, and approved memory searched on Entries.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Host } from '../source/host/host.js';
import * as c from './support/capture.js';
import { gitRepo, tempHome } from './support/cli.js';
import { plantedToken, queueSession } from './support/memory-corpus.js';
import { KEY, mount, press, type View, unmount, waitForText, withOverrides } from './support/tui-harness.js';
import type { Application } from '../source/api/application.js';
import { CmError } from '../source/errors.js';
import type { PreparedPlan, PromoteResult } from '../source/screens/memory/promotion-methods.js';

after(() => c.closeStores());

async function reviewFixture(name: string) {
  const home = tempHome(name);
  const repo = gitRepo(home, 'repo');
  const token = plantedToken();
  queueSession(home, repo, [
    'Always use named exports in TypeScript modules.',
    'Can you fix the build?',
    `Remember that the CI token is ${token} for uploads.`,
  ]);
  assert.equal((await c.flush(home)).complete, true);
  const host = await Host.start({ home, serve: false });
  const report = await host.application.memoryExtract({ cwd: repo });
  assert.equal(report.candidates.created, 2, 'one draft and one quarantined candidate');
  return { home, repo, host, token };
}

/** Moves the selection (↓ then ↑, at most `rows` each way) to the row matching `row`. */
async function selectRow(view: View, row: RegExp, rows = 5) {
  for (const key of [KEY.down, KEY.up])
    for (let i = 0; i <= rows; i++) {
      const selected = (view.lastFrame() ?? '').split('\n').find((line) => line.startsWith('›'));
      if (selected && row.test(selected)) return;
      await press(view, key);
    }
  assert.fail(`no row matches ${row}:\n${view.lastFrame()}`);
}

/** The help line (the frame's last line) fits 80 columns: Ink cut nothing from it. */
function assertHelpFits(frame: string) {
  const help = frame.split('\n').at(-1) ?? '';
  assert.ok(!help.endsWith('…'), `the help line is cut: ${help}`);
}

async function openMemory(view: View) {
  await press(view, '7');
  await waitForText(view, /\[Review\] Prepare & promote Entries Extraction/);
}

describe('Memory screen', { timeout: 90_000 }, () => {
  test('Review: the queue, a candidate with its statement and the cited user turn, masked findings', async () => {
    const { home, repo, host, token } = await reviewFixture('tui-memory-review');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      const queue = await waitForText(view, /Review · 2 in the queue \(1 draft, 1 quarantined\) · project scope/);
      assert.match(queue, /^[› ] {2}draft +work_\w+ +Always use named exports/m);
      assert.match(queue, /QUARANTINED work_fact +The CI token is ghp_…/);
      assert.ok(!queue.includes(token), 'the list never shows the secret');
      assertHelpFits(queue);
      await selectRow(view, /named exports/);
      await press(view, KEY.enter);
      await waitForText(view, /Statements \(1\)/);
      await waitForText(view, /› 1\. .*named exports/);
      assertHelpFits(await waitForText(view, /cites 1 user turn/));
      await press(view, 'e');
      await waitForText(view, /you: Always use named exports in TypeScript modules\./);
      await press(view, KEY.escape);
      await selectRow(view, /QUARANTINED/);
      await press(view, KEY.enter);
      const quarantined = await waitForText(view, /Secret findings \(2, masked/);
      assert.match(quarantined, /block github-token at content/);
      assert.match(quarantined, /Quarantined: a blocking finding keeps it from being promoted/);
      await press(view, 'e');
      // The cited turn is what the user said, read through the session read on request, its secret masked too.
      const cited = await waitForText(view, /you: Remember that the CI token is ghp_…\[40 chars\] for uploads\./);
      assert.ok(!cited.includes(token), 'the cited turn never shows the secret');
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('Extraction: counts and the last run from memory status; quarantined candidates with masked findings', async () => {
    const { home, repo, host, token } = await reviewFixture('tui-memory-extraction');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      await waitForText(view, /2 in the queue/);
      await press(view, '[');
      const frame = await waitForText(view, /Candidates 1 draft · 1 quarantined/);
      assert.match(frame, /\[Extraction\]/);
      assert.match(frame, /Last: builtin run-\w+ · project · done/);
      assert.match(frame, /Tasks \d+ pending · \d+ claimed · 2 submitted/);
      assert.match(frame, /Quarantined candidates \(1\)/);
      assert.ok(!frame.includes(token));
      await waitForText(view, /block github-token/);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('a host that stops answering: the queue read says so and what to do', async () => {
    const home = tempHome('tui-memory-gone');
    const host = await Host.start({ home, serve: false });
    const gone = withOverrides(host.application, {
      memoryReview: () =>
        Promise.reject(new CmError('host_unreachable', 'The common-memory host on 127.0.0.1:1 did not answer.')),
    });
    const view = await mount(gone, home, { cwd: home });
    try {
      await openMemory(view);
      await waitForText(view, /review: error host_unreachable: The common-memory host/);
      await waitForText(view, /start it again/);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});

/** A plan as the host's prepare answers it, for the screen's own steps (the real host's plans are tested end to end). */
function planFor(scope: 'project' | 'user'): PreparedPlan {
  const path = 'work_method/use-named-exports.md';
  const body = Array.from({ length: 40 }, (_, i) => `+line ${i + 1} of the entry`).join('\n');
  return {
    planId: 'plan-0123456789abcdef',
    planDigest: 'd'.repeat(64),
    status: 'generated',
    scope,
    files: [
      {
        path,
        entryId: 'use-named-exports',
        action: 'create',
        targetBlobHash: null,
        sanitizedContentDigest: 'e'.repeat(64),
        bytes: 321,
        state: 'pending',
        findings: [],
      },
    ],
    diff: `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,40 @@\n${body}\n`,
    voidReason: null,
  };
}

interface Calls {
  prepare: Array<{ candidateIds: string[]; scope: string }>;
  approve: Array<{ planId: string; digest: string }>;
  promote: Array<{ planId: string }>;
}

function promotingApp(
  real: Application,
  behaviour: {
    approve?: () => Promise<unknown>;
    promote?: (plan: PreparedPlan) => Promise<PromoteResult>;
  } = {},
): { app: Application; calls: Calls } {
  const calls: Calls = { prepare: [], approve: [], promote: [] };
  let plan: PreparedPlan | null = null;
  const overrides = {
    memoryPrepare: async (request: { candidateIds: string[]; scope: 'project' | 'user' }) => {
      calls.prepare.push({ candidateIds: request.candidateIds, scope: request.scope });
      plan = planFor(request.scope);
      return plan;
    },
    memoryPlan: async () => plan,
    memoryApprove: async (request: { planId: string; digest: string }) => {
      calls.approve.push(request);
      if (behaviour.approve) return behaviour.approve();
      return { ...plan!, status: 'approved' };
    },
    memoryPromote: async (request: { planId: string }) => {
      calls.promote.push(request);
      if (behaviour.promote) return behaviour.promote(plan!);
      return {
        ...plan!,
        status: 'applied',
        files: plan!.files.map((file) => ({ ...file, state: 'written' })),
        sync: { generation: 1, coverage: 'complete', entries: 1 },
      };
    },
  };
  return { app: withOverrides(real, overrides as unknown as Partial<Application>), calls };
}

async function toPlan(view: View) {
  await openMemory(view);
  await waitForText(view, /2 in the queue/);
  await selectRow(view, /named exports/);
  await press(view, 'm');
  await waitForText(view, /1 marked/);
  await press(view, 'p');
  const chosen = await waitForText(view, /\[Prepare & promote\]/);
  assert.match(chosen, /1 candidate to promote into the project memory root/);
  assert.match(chosen, /cand-\w{8} +Always use named exports/);
  assertHelpFits(chosen);
}

describe('Prepare & promote', { timeout: 90_000 }, () => {
  test('scope → plan → the diff scrolls, nothing is approved until a → written, with the result', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-promote');
    const { app, calls } = promotingApp(host.application);
    const view = await mount(app, home, { cwd: repo });
    try {
      await toPlan(view);
      await press(view, 's');
      await waitForText(view, /into the user memory root/);
      await press(view, 's');
      await waitForText(view, /into the project memory root/);
      await press(view, KEY.enter);
      const plan = await waitForText(view, /Plan plan-01234567 · not approved · read the diff/);
      assert.match(plan, /1 file in the project memory root\ndigest d{64}/);
      assert.match(plan, /work_method\/use-named-exports\.md \(new file, 321 bytes\)/);
      assert.match(plan, /\+line 1 of the entry/);
      assert.match(plan, /Nothing is written until you approve/);
      assertHelpFits(plan);
      assert.equal(calls.prepare.length, 1);
      assert.equal(calls.prepare[0]!.scope, 'project');
      await press(view, KEY.pageDown);
      await waitForText(view, /\+line 2\d of the entry/);
      await press(view, KEY.enter);
      await press(view, KEY.down);
      assert.equal(calls.approve.length, 0, 'scrolling or Enter never approves');
      await press(view, 'a');
      const done = await waitForText(view, /Promoted: plan plan-01234567 applied to the project memory root/);
      assert.match(done, /written: work_method\/use-named-exports\.md/);
      assert.match(done, /Approved memory: 1 entries · generation 1 · coverage complete/);
      assert.match(done, /never commits/);
      assert.deepEqual(calls.approve, [{ planId: 'plan-0123456789abcdef', digest: 'd'.repeat(64) }]);
      assert.deepEqual(calls.promote, [{ planId: 'plan-0123456789abcdef' }]);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('a voided plan says which target changed and what to do; Enter prepares a new one', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-voided');
    const { app, calls } = promotingApp(host.application, {
      promote: async (plan) => ({
        ...plan,
        status: 'voided',
        voidReason: 'work_method/use-named-exports.md changed since the plan was prepared.',
        files: plan.files.map((file) => ({ ...file, state: 'drifted' })),
        sync: null,
      }),
    });
    const view = await mount(app, home, { cwd: repo });
    try {
      await toPlan(view);
      await press(view, KEY.enter);
      await waitForText(view, /not approved · read the diff/);
      await press(view, 'a');
      const voided = await waitForText(view, /Plan plan-01234567 was voided: nothing more was written\./);
      assert.match(voided, /CHANGED since the plan was prepared: not written: work_method\/use-named-exports\.md/);
      assert.match(voided, /Look at that file \(git diff\), then press Enter to\s+prepare a new plan/);
      assertHelpFits(voided);
      await press(view, KEY.enter);
      await waitForText(view, /not approved · read the diff/);
      assert.equal(calls.prepare.length, 2);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('a digest the host refuses leaves the plan unapproved and says so; nothing is written', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-digest');
    const { app, calls } = promotingApp(host.application, {
      approve: () =>
        Promise.reject(
          new CmError(
            'operation_conflict',
            'The plan digest does not match plan plan-0123456789abcdef; prepare it again.',
          ),
        ),
    });
    const view = await mount(app, home, { cwd: repo });
    try {
      await toPlan(view);
      await press(view, KEY.enter);
      await waitForText(view, /not approved · read the diff/);
      await press(view, 'a');
      const refused = await waitForText(view, /promote: error operation_conflict: The plan digest does not match/);
      assert.match(refused, /The plan is not approved and nothing was written/);
      assert.equal(calls.promote.length, 0);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('the host gone during the write: the error says so, and a writes again without approving twice', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-write-gone');
    let attempts = 0;
    const { app, calls } = promotingApp(host.application, {
      promote: async (plan) => {
        attempts += 1;
        if (attempts === 1)
          throw new CmError('host_unreachable', 'The common-memory host on 127.0.0.1:1 did not answer.');
        return { ...plan, status: 'applied', files: plan.files.map((f) => ({ ...f, state: 'written' })), sync: null };
      },
    });
    const view = await mount(app, home, { cwd: repo });
    try {
      await toPlan(view);
      await press(view, KEY.enter);
      await waitForText(view, /not approved · read the diff/);
      await press(view, 'a');
      await waitForText(view, /promote: error host_unreachable/);
      await waitForText(view, /The host is not answering: start it again/);
      await waitForText(view, /approved, not written yet/);
      await press(view, 'a');
      await waitForText(view, /Promoted: plan plan-01234567 applied/);
      assert.equal(calls.approve.length, 1, 'approved once');
      assert.equal(calls.promote.length, 2);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
