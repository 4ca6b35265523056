// An external (`command`) runner in the real pipeline: nothing is sent before a plan is approved
// by its digest; the approved run sends exactly the declared bytes and turns sessions into
// candidates through the same submissions as the builtin runner; every decision is logged; the
// same bytes under a changed plan need a new approval; budgets stop a run before sending; a
// failing runner is a retriable attempt that applies nothing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { planText } from '../../source/cli/commands/memory-extract.js';
import { CmError } from '../../source/errors.js';
import { storeFiles } from '../../source/home.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import { externalRunner } from '../../source/effects/runner-registry.js';
import { ExtractionPipeline, type ExtractRequest } from '../../source/pipeline/extraction-pipeline.js';
import type { Runner } from '../../source/memory/runner.js';
import { commandProfile, type CommandProfile } from '../../source/effects/runner-profiles.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import { tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { DURABLE_PROMPTS, queueSession, RECENT_WINDOW } from '../support/memory-corpus.js';
import { fakeRunnerProfile, receivedBy } from '../support/fake-runner-profile.js';

after(() => c.closeStores());

const { since: SINCE, until: UNTIL } = RECENT_WINDOW;
const PROMPTS = DURABLE_PROMPTS;

async function rig(sessions = 1, prompts: readonly string[] = PROMPTS) {
  const home = tempHome('external');
  for (let i = 0; i < sessions; i++) queueSession(home, null, prompts);
  await c.flush(home);
  const writer = await startInlineWriter(storeFiles(home).core);
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  const record = join(home, 'runner-record');
  let runners = new Map<string, Runner>([['builtin', builtinRunner]]);
  const use = (mode: string, extra: Partial<CommandProfile> = {}) => {
    const profile = commandProfile.parse(fakeRunnerProfile(mode, record, { timeoutMs: 10_000, ...extra }));
    runners = new Map<string, Runner>([
      ['builtin', builtinRunner],
      ['ext', externalRunner(profile, join(home, 'logs'))],
    ]);
  };
  const pipeline = new ExtractionPipeline(writer, core, () => runners, 'test-holder');
  const opened: Db[] = [];
  const memory = () => {
    const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
    opened.push(db);
    return db;
  };
  const received = () => receivedBy(record);
  return {
    home,
    use,
    memory,
    received,
    clearReceived: () => rmSync(join(record, 'received.jsonl'), { force: true }),
    extract: (request: Partial<ExtractRequest> = {}) =>
      pipeline.extract({ cwd: null, since: SINCE, until: UNTIL, runner: 'ext', ...request }, () => null),
    close: async () => {
      for (const db of opened) db.close();
      core.close();
      await writer.close();
    },
  };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('an external runner needs an approved plan', () => {
  it('stops at the plan; a wrong digest is refused and logged; the approved run sends exactly the declared bytes', async () => {
    const r = await rig(2);
    try {
      r.use('good');
      const first = await r.extract();
      const pending = first.pendingPlan!;
      assert.ok(pending, 'a plan awaits approval');
      assert.equal(pending.reason, 'authorisation-needed');
      assert.equal(pending.plans.length, 2);
      assert.equal(pending.plans[0]!.provider, 'test-provider');
      assert.equal(pending.plans[0]!.localSessionPersistence, 'none');
      assert.equal(pending.manifest.totalBytes, pending.plans[0]!.bytesToSend + pending.plans[1]!.bytesToSend);
      assert.match(pending.approveWith, /^--approve-manifest [0-9a-f]{64}$/);
      assert.deepEqual(r.received(), [], 'nothing was sent before the approval');
      assert.equal(r.memory().prepare('SELECT count(*) FROM candidates').pluck().get(), 0);

      const wrong = await r.extract({ approveManifest: '0'.repeat(64) });
      assert.equal(wrong.pendingPlan?.reason, 'digest-mismatch');
      assert.deepEqual(r.received(), []);
      const refusals = r
        .memory()
        .prepare("SELECT count(*) FROM authorization_log WHERE decision = 'refused'")
        .pluck()
        .get();
      assert.equal(refusals, 2, 'each plan of the refused manifest is logged');

      const approved = await r.extract({ approveManifest: pending.manifest.manifestDigest });
      assert.equal(approved.tasks.submitted, 2, approved.failures.join('; '));
      assert.equal(approved.candidates.created, 2);
      const sent = r.received();
      assert.equal(sent.length, 2, 'two extraction tasks were sent (adjudication waits for its own plan)');
      for (const plan of pending.plans) {
        const match = sent.find((entry) => sha256(entry.text) === plan.runnerInputDigest);
        assert.ok(match, `the bytes of ${plan.taskId} were sent as declared`);
        assert.equal(match.bytes, plan.bytesToSend);
      }
      const log = r
        .memory()
        .prepare(
          "SELECT plan_digest, via, manifest_digest, runner_profile FROM authorization_log WHERE decision = 'approved'",
        )
        .all() as Array<{ plan_digest: string; via: string; manifest_digest: string; runner_profile: string }>;
      assert.deepEqual(log.map((row) => row.plan_digest).sort(), pending.plans.map((plan) => plan.planDigest).sort());
      assert.ok(log.every((row) => row.via === 'manifest' && row.runner_profile === 'ext'));

      // Adjudication goes through its own plan and the same CAS submission.
      const adjudication = approved.pendingPlan!;
      assert.equal(adjudication.plans[0]!.taskKind, 'adjudication');
      // The digest given approved the extraction: it is not "a digest that does not match" the adjudication.
      assert.equal(adjudication.reason, 'authorisation-needed');
      assert.equal(adjudication.given, null);
      const refused = "SELECT count(*) FROM authorization_log WHERE decision = 'refused'";
      assert.equal(r.memory().prepare(refused).pluck().get(), 2, 'only the wrong manifest was refused');
      assert.match(adjudication.approveWith, /^--approve-plan /);
      r.clearReceived();
      const decided = await r.extract({ approvePlan: adjudication.plans[0]!.planDigest });
      assert.equal(decided.pendingPlan, undefined);
      // Both sessions said the same words: the runner's two drafts and the repetition pass's draft of
      // that turn fold into one candidate citing both turns, whatever the runner decided; the
      // repetition pass's draft of the other prompt (said in both sessions too) is the second.
      assert.deepEqual(approved.repetition, { tasks: 2, candidates: 2 });
      assert.equal(decided.candidates.stored, 2, decided.failures.join('; '));
      assert.equal(decided.candidates.skipped, 2, decided.failures.join('; '));
      assert.equal(r.received().length, 1);
      assert.equal(sha256(r.received()[0]!.text), adjudication.plans[0]!.runnerInputDigest);
      const sends = r.memory().prepare('SELECT count(*), sum(bytes) FROM runner_sends').raw().get() as number[];
      assert.deepEqual(sends, [3, pending.manifest.totalBytes + adjudication.plans[0]!.bytesToSend]);
    } finally {
      await r.close();
    }
  });

  it('the same bytes under a changed model are another plan: the old approval no longer matches', async () => {
    const r = await rig();
    try {
      r.use('good');
      const first = (await r.extract()).pendingPlan!;
      r.use('good', { model: 'other-model' });
      const changed = await r.extract({ approvePlan: first.plans[0]!.planDigest });
      assert.equal(changed.pendingPlan?.reason, 'digest-mismatch');
      const now = changed.pendingPlan.plans[0]!;
      assert.equal(now.runnerInputDigest, first.plans[0]!.runnerInputDigest, 'same bytes');
      assert.notEqual(now.planDigest, first.plans[0]!.planDigest);
      assert.deepEqual(r.received(), []);
    } finally {
      await r.close();
    }
  });

  it('a run over the run budget, or over what is left of the day, is refused before sending', async () => {
    const r = await rig(2);
    try {
      r.use('good', { budget: { runBytes: 100, dayBytes: 1_000_000 } });
      await assert.rejects(r.extract(), (error: unknown) => {
        assert.ok(error instanceof CmError && error.code === 'limit_exceeded');
        assert.match(error.message, /over its run budget of 100; nothing was sent\. Use a smaller --limit/);
        return true;
      });
      r.use('good');
      const plan = (await r.extract({ limit: 1 })).pendingPlan!;
      const oneTask = plan.manifest.totalBytes;
      r.use('good', { budget: { runBytes: 1_000_000, dayBytes: oneTask + 10 } });
      const done = await r.extract({ limit: 1, approvePlan: plan.plans[0]!.planDigest });
      assert.equal(done.tasks.submitted, 1, done.failures.join('; '));
      await assert.rejects(r.extract({ limit: 1 }), /has sent \d+ bytes today .* day budget/);
      assert.equal(r.received().length, 1, 'the second run sent nothing');
    } finally {
      await r.close();
    }
  });

  it('garbage, a non-zero exit or a leftover process is a counted, retriable attempt that applies nothing', async () => {
    const r = await rig();
    try {
      for (const mode of ['garbage', 'fail', 'leftover']) {
        r.use(mode);
        const plan = (await r.extract({ limit: 1 })).pendingPlan!;
        const report = await r.extract({ limit: 1, approvePlan: plan.plans[0]!.planDigest });
        assert.equal(report.tasks.failed, 1, mode);
        assert.match(
          report.failures[0]!,
          { garbage: /not JSON/, fail: /runner-exit-nonzero/, leftover: /runner-leftover-process/ }[mode]!,
        );
      }
      const db = r.memory();
      assert.equal(db.prepare('SELECT count(*) FROM candidates').pluck().get(), 0);
      const task = db.prepare("SELECT status, attempts FROM tasks WHERE kind = 'extraction' LIMIT 1").get() as {
        status: string;
        attempts: number;
      };
      assert.deepEqual(task, { status: 'pending', attempts: 3 });
    } finally {
      await r.close();
    }
  });

  it('context disclosure: earlier processed turns of the session only when granted, declared in the plan, dropped first', async () => {
    const r = await rig(1, [
      'Alphaword: from now on, use pnpm instead of npm in this repo.',
      'Alphaword: always use named exports in TypeScript modules.',
      'Betaword: always indent with tabs in this repo.',
    ]);
    try {
      r.use('good', { conversationContext: true });
      // The first two turns are extracted first: they are then processed, in the same scope.
      const early = (await r.extract({ query: 'Alphaword' })).pendingPlan!;
      assert.equal(early.plans[0]!.inputCoverage.filter((item) => item.sourceKind === 'context').length, 0);
      const done = await r.extract({ query: 'Alphaword', approvePlan: early.plans[0]!.planDigest });
      assert.equal(done.tasks.submitted, 1, done.failures.join('; '));

      r.use('good');
      const plain = (await r.extract({ query: 'Betaword' })).pendingPlan!.plans[0]!;
      assert.deepEqual(
        plain.inputCoverage.map((item) => item.sourceKind),
        ['transcript', 'prompt'],
        "by default only the chunk's own turn",
      );
      r.use('good', { conversationContext: true });
      const granted = (await r.extract({ query: 'Betaword' })).pendingPlan!;
      const plan = granted.plans[0]!;
      const context = plan.inputCoverage.filter((item) => item.sourceKind === 'context');
      assert.equal(context.length, 2, 'the two earlier turns, named in the plan');
      assert.ok(plan.bytesToSend > plain.bytesToSend + context[0]!.bytes + context[1]!.bytes - 1);
      assert.match(planText(granted).replace(/\s+/g, ' '), /1 turn\(s\), 2 earlier turn\(s\) as context \(\d+ bytes\)/);
      r.clearReceived();
      const sent = await r.extract({ query: 'Betaword', approvePlan: plan.planDigest });
      assert.equal(sent.tasks.submitted, 1, sent.failures.join('; '));
      const received = r.received()[0]!;
      assert.equal(sha256(received.text), plan.runnerInputDigest, 'the declared bytes, context included');
      const given = JSON.parse(received.text).conversationContext as Array<{ turnKey: string; text: string }>;
      assert.deepEqual(
        given.map((turn) => turn.turnKey),
        context.map((item) => item.opaqueSourceId),
      );
      assert.match(given[0]!.text, /<<context-user>>\nAlphaword: from now on/);
      assert.doesNotMatch(received.text.replace(/"transcript":"[^"]*"/, ''), /evidence=none/);
    } finally {
      await r.close();
    }
  });

  it('context is dropped first when the chunk and its context pass the limit', async () => {
    const big = `Betaword: always indent with tabs. ${'Tabs, not spaces. '.repeat(2_050)}`;
    const r = await rig(1, ['Alphaword: from now on, use pnpm instead of npm in this repo.', big]);
    try {
      r.use('good', { conversationContext: true });
      const early = (await r.extract({ query: 'Alphaword' })).pendingPlan!;
      await r.extract({ query: 'Alphaword', approvePlan: early.plans[0]!.planDigest });
      const plan = (await r.extract({ query: 'Betaword' })).pendingPlan!.plans[0]!;
      const transcript = plan.inputCoverage.filter((item) => item.sourceKind === 'transcript');
      assert.equal(transcript.length, 1, 'the turn is whole in its own chunk');
      assert.ok(transcript[0]!.bytes > 38_000 && transcript[0]!.bytes <= 40 * 1024, String(transcript[0]!.bytes));
      assert.deepEqual(
        plan.inputCoverage.filter((item) => item.sourceKind === 'context'),
        [],
        'the optional context went first',
      );
    } finally {
      await r.close();
    }
  });
});
