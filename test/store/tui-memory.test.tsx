// The Memory screen over a real host and a real git repository: sessions captured and extracted
// into candidates, reviewed on Review (statements, the cited user turn read through the session
// read, masked findings), the Extraction panel's counts, and approved memory searched on Entries.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import * as c from '../support/capture.js';
import { gitRepo, tempHome } from '../support/cli.js';
import { plantedToken, queueSession } from '../support/memory-corpus.js';
import { fillQueue } from '../support/memory-queue.js';
import {
  KEY,
  mount,
  narrowTo80,
  press,
  type,
  type View,
  unmount,
  waitForText,
  withOverrides,
} from '../support/tui-harness.js';
import type { Application } from '../../source/api/application.js';
import { CmError } from '../../source/errors.js';
import type { MemoryPlanView, MemoryPromoteResult } from '../../source/api/memory-views.js';

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
      const queue = await waitForText(view, /Review · all scopes · 1 of 2 *\n2 queued \(1 draft, 1 quarantined\)/);
      assert.match(queue, /^[› ] {2}draft +work_\w+ +repo +Always use named exports/m);
      assert.match(queue, /QUARANTINED work_fact +repo +The CI token is ghp_…/);
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
      // Confirmed, it stays quarantined, and the notice says so: confirming is no way past the finding.
      await press(view, 'c');
      await waitForText(view, /Statement s1 confirmed: [\s\S]*It stays\s+quarantined/);
      // p on it does not take it to Prepare & promote, where Enter could only be refused: Review says why.
      await press(view, KEY.escape);
      await press(view, 'p');
      const refused = await waitForText(view, /is quarantined: a blocking finding keeps it out of every plan/);
      assert.match(refused, /\[Review\] Prepare & promote/, 'still on Review');
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('a statement confirmed in one candidate is not shown confirmed in another whose statement has the same id', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-confirm-one');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await narrowTo80(view);
      await openMemory(view);
      // At 80 columns every key of the queue is named: the help line is not cut, s and r are under the counts.
      const queue = await waitForText(view, /2 queued \(1 draft, 1 quarantined\)\ns this scope · r refresh\n/);
      assertHelpFits(queue);
      assert.match(queue.split('\n').at(-1) ?? '', /d discard · q quit$/);
      await selectRow(view, /named exports/);
      await press(view, KEY.enter);
      await waitForText(view, /› 1\. Always use named exports/);
      await press(view, 'c');
      await waitForText(view, /support human-confirmed/);
      await press(view, KEY.escape);
      // The quarantined candidate's one statement is s1 too, and nobody confirmed it.
      await selectRow(view, /QUARANTINED/);
      await press(view, KEY.enter);
      const other = await waitForText(view, /Candidate cand-\w{8} · quarantined[\s\S]*support typed-fact/);
      assert.doesNotMatch(other, /\[confirmed\]/, 'only the statement confirmed is marked');
      assert.doesNotMatch(other, /Statement s1 confirmed/, "the other candidate's notice stays with it");
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('Review: a queue longer than a page is read a page at a time as the selection nears its end', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-pages');
    fillQueue(home, 230); // the draft and 229 newer copies, and the quarantined candidate: 231
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      const first = /Review · all scopes · 1 of 231 *\n231 queued, newest 200 read \(200 draft, 0 quarantined\)/;
      await waitForText(view, first);
      await waitForText(view, /· 1 of 231/);
      let frame = view.lastFrame() ?? '';
      for (let i = 0; i < 40 && !/231 queued \(230 draft, 1 quarantined\)/.test(frame); i++) {
        await press(view, KEY.pageDown);
        frame = view.lastFrame() ?? '';
      }
      frame = await waitForText(view, /Review · all scopes · \d+ of 231 *\n231 queued \(230 draft, 1 quarantined\)/);
      for (let i = 0; i < 40 && !/· 231 of 231/.test(frame); i++) {
        await press(view, KEY.pageDown);
        frame = view.lastFrame() ?? '';
      }
      frame = await waitForText(view, /· 231 of 231/);
      assert.match(frame, /QUARANTINED work_fact +repo +The CI token is ghp_…/, 'the oldest candidate is the last row');
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
      await waitForText(view, /2 queued/);
      // Usage is the last view, Extraction the one before it.
      await press(view, '[');
      await waitForText(view, /\[Usage\]/);
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

  test('Extraction: an external runner stops at its plan, shown whole; only a approves it; sent today before and after', async () => {
    const home = tempHome('tui-memory-runner');
    const repo = gitRepo(home, 'repo');
    queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    assert.equal((await c.flush(home)).complete, true);
    const record = join(home, 'record');
    const fake = new URL('../support/fake-command-runner.mjs', import.meta.url).pathname;
    writeFileSync(
      join(home, 'runners.json'),
      JSON.stringify({
        profiles: [
          {
            name: 'ext',
            kind: 'command',
            argv: [process.execPath, fake, 'good', record],
            provider: 'example-provider',
            model: 'example-model',
            endpoint: 'https://api.example.com/v1',
          },
        ],
      }),
    );
    const sent = () =>
      existsSync(join(record, 'received.jsonl'))
        ? readFileSync(join(record, 'received.jsonl'), 'utf8').trim().split('\n').length
        : 0;
    const host = await Host.start({ home, serve: false });
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      await press(view, '[');
      await waitForText(view, /\[Usage\]/);
      await press(view, '[');
      await waitForText(
        view,
        /ext: example-provider example-model at https:\/\/api\.example\.com\/v1 · sent today 0 of/,
      );
      await waitForText(view, /x extract · r runner builtin/);
      // r opens the runner chooser on the current runner; ↓ and Enter choose the external one.
      await press(view, 'r');
      await waitForText(view, /^> builtin: offline/m);
      await press(view, KEY.down);
      await waitForText(view, /^> ext: example-provider/m);
      await press(view, KEY.enter);
      await waitForText(view, /r runner ext/);
      await press(view, 'x');
      let frame = await waitForText(view, /The ext runner sends these bytes off this machine; nothing was sent yet\./);
      assert.match(frame, /provider example-provider, model example-model, endpoint/);
      assert.match(frame, /provider retention: unknown; local session persistence: none/);
      assert.match(frame, /extraction \S+: \d+ bytes \(sha256 [0-9a-f]{16}…\), 1 turn\(s\)/);
      assert.match(frame, /a approve & send · Esc drop plan/);
      assertHelpFits(frame);
      await press(view, KEY.pageDown);
      await waitForText(view, /Last: ext run-\w+ · project · stopped at its plan, nothing sent/);
      // Neither running again nor Enter approves: the plan stays, nothing is sent.
      await press(view, 'x');
      await press(view, KEY.enter);
      await waitForText(view, /nothing was sent yet/);
      assert.equal(sent(), 0, 'nothing was sent before the approval key');
      await press(view, 'a');
      frame = await waitForText(view, /adjudication \S+: \d+ bytes/);
      assert.equal(sent(), 1, 'the approved extraction was sent');
      assert.match(frame, /The ext runner sends these bytes off this machine; nothing was sent yet\./);
      await waitForText(view, /sent today [1-9]\d* of/);
      await press(view, KEY.escape);
      frame = await waitForText(view, /x extract · r runner ext/);
      assert.doesNotMatch(frame, /nothing was sent yet/);
      assert.equal(sent(), 1, 'a dropped plan sends nothing');
      await waitForText(view, /Last: ext run-\w+ · project · done/);
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
function planFor(scope: 'project' | 'user'): MemoryPlanView {
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
        candidateIds: [],
        targetBlobHash: null,
        sanitizedContentDigest: 'e'.repeat(64),
        bytes: 321,
        state: 'pending',
        findings: [],
      },
    ],
    diff: `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,40 @@\n${body}\n`,
    voidReason: null,
    candidates: [],
    createdAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:00.000Z',
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
    promote?: (plan: MemoryPlanView) => Promise<MemoryPromoteResult>;
  } = {},
): { app: Application; calls: Calls } {
  const calls: Calls = { prepare: [], approve: [], promote: [] };
  let plan: MemoryPlanView | null = null;
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

/** Marks the draft candidate on Review and takes it to Prepare & promote. */
async function toChosen(view: View) {
  await selectRow(view, /named exports/);
  await press(view, 'm');
  await waitForText(view, /1 marked/);
  await press(view, 'p');
  const chosen = await waitForText(view, /\[Prepare & promote\]/);
  assert.match(chosen, /1 candidate to promote into the project memory root/);
  assert.match(chosen, /cand-\w{8} +Always use named exports/);
  assertHelpFits(chosen);
}

/** Opens the Memory screen and prepares a plan of the draft candidate. */
async function toPlan(view: View) {
  await openMemory(view);
  await waitForText(view, /2 queued/);
  await toChosen(view);
  await press(view, KEY.enter);
  await waitForText(view, /not approved · read the diff/);
}

describe('Prepare & promote', { timeout: 120_000 }, () => {
  test("one inbox: started in another repository, it lists every repository's candidates, s narrows to its own, and promotes into the candidate's", async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-inbox');
    // The TUI runs in a second repository, which has no candidate of its own.
    const other = gitRepo(home, 'other');
    const view = await mount(host.application, home, { cwd: other });
    try {
      await openMemory(view);
      const queue = await waitForText(view, /Review · all scopes · 1 of 2 *\n2 queued/);
      assert.match(
        queue,
        /draft +work_\w+ +repo +Always use named exports/,
        "each row names the candidate's repository",
      );
      await press(view, 's');
      await waitForText(view, /Review · project scope only\s*\n0 queued/);
      await waitForText(view, /no draft or quarantined candidates in this scope \(s: all scopes\)/);
      await press(view, 's');
      await waitForText(view, /Review · all scopes · 1 of 2/);
      await toChosen(view);
      const chosen = view.lastFrame() ?? '';
      assert.match(chosen, /project memory root \(repo's \.common-memory\/memory/);
      await press(view, KEY.enter);
      const plan = await waitForText(view, /Plan plan-\w+ · not approved · read the diff/, 30_000);
      const path = /(work_\w+\/[\w.-]+\.md) \(new file, \d+ bytes\)/.exec(plan)?.[1];
      assert.ok(path, plan);
      await press(view, 'a');
      await waitForText(view, /Promoted: plan plan-\w+ applied to the project memory root\./, 30_000);
      assert.match(readFileSync(join(repo, '.common-memory', 'memory', path), 'utf8'), /named exports/);
      assert.ok(!existsSync(join(other, '.common-memory')), 'nothing lands in the directory the TUI runs in');
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('confirm, mark, scope → the real plan and its diff; nothing is approved until a; the file lands in the repository', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-promote');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      await waitForText(view, /2 queued/);
      await selectRow(view, /named exports/);
      await press(view, KEY.enter);
      await waitForText(view, /› 1\. Always use named exports/);
      await press(view, 'c');
      await waitForText(view, /Statement s\d+ confirmed/);
      await waitForText(view, /\[confirmed\]/);
      await waitForText(view, /support human-confirmed/);
      await press(view, KEY.escape);
      await toChosen(view);
      await press(view, 's');
      await waitForText(view, /into the user memory root/);
      await press(view, 's');
      await waitForText(view, /into the project memory root/);
      await press(view, KEY.enter);
      const plan = await waitForText(view, /Plan plan-\w+ · not approved · read the diff/);
      assert.match(plan, /1 file in the project memory root/);
      assert.match(plan, /digest [0-9a-f]{64}/);
      const path = /(work_\w+\/[\w.-]+\.md) \(new file, \d+ bytes\)/.exec(plan)?.[1];
      assert.ok(path, `the plan names its target:\n${plan}`);
      assert.match(plan, /\+\+\+ /);
      assert.match(plan, /Nothing is written until you approve/);
      assertHelpFits(plan);
      const target = join(repo, '.common-memory', 'memory', path);
      await press(view, KEY.pageDown);
      await press(view, KEY.enter);
      await press(view, KEY.down);
      assert.ok(!existsSync(target), 'scrolling or Enter never approves nor writes');
      await press(view, 'a');
      const done = await waitForText(view, /Promoted: plan plan-\w+ applied to the project memory root\./, 30_000);
      assert.match(done, new RegExp(`written: ${path.replace('.', '\\.')}`));
      assert.match(done, /never commits/);
      assertHelpFits(done);
      assert.match(readFileSync(target, 'utf8'), /Always use named exports in TypeScript modules\./);
      // The promoted candidate left the review queue.
      await press(view, '[');
      await waitForText(view, /1 queued \(0 draft, 1 quarantined\)/);
      // The entry is approved memory now: Entries finds it and get opens it.
      await press(view, ']');
      await press(view, ']');
      await waitForText(view, /\[Entries\]/);
      await press(view, '/');
      await type(view, 'named exports');
      await press(view, KEY.enter);
      const found = await waitForText(
        view,
        /"named exports": 1 found · generation \d+ · coverage \w+\n +project: 1 entry, generation \d+, complete/,
      );
      assert.match(found, new RegExp(`› project +Always use named exports.*\\n +${path.replace('.', '\\.')}`));
      await press(view, KEY.enter);
      const entry = await waitForText(view, /content digest sha256:[0-9a-f]{64}/);
      assert.match(entry, new RegExp(`source project: ${path.replace('.', '\\.')}`));
      assert.match(entry, /Always use named exports in TypeScript modules\./);
      assertHelpFits(entry);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('a target written by hand after prepare voids the plan: the screen says which and what to do', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-voided');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      await waitForText(view, /2 queued/);
      await toChosen(view);
      await press(view, KEY.enter);
      const plan = await waitForText(view, /not approved · read the diff/);
      const path = /(work_\w+\/[\w.-]+\.md) \(new file/.exec(plan)![1]!;
      const target = join(repo, '.common-memory', 'memory', path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, 'written by hand\n');
      await press(view, 'a');
      const voided = await waitForText(view, /Plan plan-\w+ was voided: nothing more was written\./, 30_000);
      assert.match(voided, /CHANGED since the plan was prepared: not written:/);
      assert.match(voided, /press Enter to\s+prepare a new plan/);
      assertHelpFits(voided);
      assert.equal(readFileSync(target, 'utf8'), 'written by hand\n', 'the hand-written file is untouched');
      await press(view, KEY.enter);
      const again = await waitForText(view, /not approved · read the diff/);
      const next = /(work_\w+\/[\w.-]+\.md) \(new file/.exec(again)?.[1];
      assert.ok(next && next !== path, `the new plan leaves the hand-written file alone:\n${again}`);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('discard asks first; y takes the candidate out of the queue', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-discard');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await openMemory(view);
      await waitForText(view, /2 queued/);
      await selectRow(view, /QUARANTINED/);
      await press(view, 'd');
      const asked = await waitForText(view, /Discard candidate cand-\w{8}\? .* y discard · n or Esc keep it/s);
      assertHelpFits(asked);
      await press(view, 'n');
      await waitForText(view, /r refresh/);
      await press(view, 'd');
      await press(view, 'y');
      await waitForText(view, /Candidate cand-\w{8} discarded: it left the queue/);
      await waitForText(view, /1 queued \(1 draft, 0 quarantined\)/);
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
      await press(view, 'a');
      const refused = await waitForText(view, /promote: error operation_conflict: The plan digest does not match/);
      assert.match(refused, /The plan is not approved and nothing was written/);
      assert.equal(calls.promote.length, 0);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('Esc after a promotion leaves nothing chosen: the promoted candidates are not offered again', async () => {
    const { home, repo, host } = await reviewFixture('tui-memory-after-promote');
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await toPlan(view);
      await press(view, 'a');
      await waitForText(view, /Promoted: plan plan-\w+ applied/, 30_000);
      await press(view, KEY.escape);
      const after = await waitForText(view, /Prepare & promote · scope/);
      assert.match(after, /No candidates chosen\. On Review, mark candidates/);
      assert.doesNotMatch(after, /Always use named exports/);
      await press(view, KEY.enter);
      const still = await waitForText(view, /No candidates chosen/);
      assert.doesNotMatch(still, /operation_conflict|error/, 'Enter prepares nothing for a promoted candidate');
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
        return {
          ...plan,
          status: 'applied',
          files: plan.files.map((f) => ({ ...f, state: 'written' })),
          sync: null,
          alreadyApplied: false,
        };
      },
    });
    const view = await mount(app, home, { cwd: repo });
    try {
      await toPlan(view);
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
