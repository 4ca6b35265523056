// The real Codex CLI 0.171.0 and Claude Code 2.1.332 as restricted runners, against fake model
// servers on loopback: the deny-all probe passes for the restricted profiles and fails for a
// deliberately permissive one; an extract run stops at the plan until approved by digest; the
// approved run turns captured sessions into candidates and adjudicates them through the same
// submissions as the builtin runner; the runner input each plan declared is found verbatim (size
// and digest) in what the fake server received; a budget stops the next run before anything is
// sent; prose, a tool call and a model that keeps calling tools are failed attempts that apply
// nothing; a canary in the host's environment reaches neither the client nor the server.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import { externalRunner } from '../../source/effects/runner-registry.js';
import type { Runner } from '../../source/memory/runner.js';
import { runnerProfile, type RunnerProfile } from '../../source/effects/runner-profiles.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { ExtractionPipeline, type ExtractRequest } from '../../source/pipeline/extraction-pipeline.js';
import { WriterClient } from '../../source/workers/writer-client.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { startFakeResponsesServer } from '../support/fake-responses-server.js';
import { DURABLE_PROMPTS, queueSession, RECENT_WINDOW } from '../support/memory-corpus.js';
import { answerTask } from '../support/runner-answers.mjs';
import { CLAUDE_VERSION, CODEX_VERSION, locateClients } from './clients.js';

type Kind = 'codex' | 'claude';
/** What the fake model does with one request: answer text, or call the shell (once, or every time). */
type Model = (prompt: string) => { text: string } | { shell: string; then?: string };

const KEY_ENV = 'CM_LIVE_RUNNER_KEY';
const CANARY_ENV = 'CM_LIVE_HOST_CANARY';
const CANARY = `host-canary-${randomBytes(8).toString('hex')}`;
const { since: SINCE, until: UNTIL } = RECENT_WINDOW;
const PROMPTS = DURABLE_PROMPTS;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const PROBE_MARK = 'common-memory conformance probe';
const HOME = process.env['HOME'] ?? '';

before(() => {
  process.env[KEY_ENV] = 'fake-provider-key';
  process.env[CANARY_ENV] = CANARY;
});
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  c.closeStores();
});

/** A fake model server for the client of `kind`; `prompts()` is the last user text of each request. */
async function fakeModel(kind: Kind, model: Model) {
  const reply = (prompt: string | null) => model(prompt ?? '');
  if (kind === 'codex') {
    const server = await startFakeResponsesServer({
      maxRequests: 40,
      script: ({ prompt }) => {
        const wanted = reply(prompt);
        return 'text' in wanted
          ? { type: 'text', text: wanted.text }
          : { type: 'exec', cmd: wanted.shell, ...(wanted.then !== undefined ? { then: wanted.then } : {}) };
      },
    });
    cleanups.push(() => server.close());
    return { endpoint: server.baseUrl, requests: server.requests, prompts: () => server.requests.map(lastUserText) };
  }
  const server = await startFakeAnthropicServer({
    maxRequests: 40,
    script: ({ prompt }) => {
      const wanted = reply(prompt);
      return 'text' in wanted
        ? { type: 'text', text: wanted.text }
        : { type: 'bash', command: wanted.shell, ...(wanted.then !== undefined ? { then: wanted.then } : {}) };
    },
  });
  cleanups.push(() => server.close());
  return { endpoint: server.baseUrl, requests: server.requests, prompts: () => server.requests.map(lastUserText) };
}

/** The text of the last user message of a Responses or Messages request: where a client puts its prompt. */
function lastUserText(request: { body: unknown }): string | null {
  const body = request.body as { input?: unknown[]; messages?: unknown[] } | null;
  const items = (body?.input ?? body?.messages ?? []) as Array<{ role?: string; content?: unknown }>;
  const user = items.filter((item) => item.role === 'user').at(-1);
  if (!user) return null;
  if (typeof user.content === 'string') return user.content;
  return (user.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
}

/** The model of a well-behaved extractor: the contract's JSON for a task, a refusal for the probe. */
const goodModel: Model = (prompt) => {
  if (prompt.includes(PROBE_MARK)) return { text: 'I have no tools, so I could do none of these steps.' };
  const task = JSON.parse(prompt.slice(prompt.indexOf('Task:\n') + 'Task:\n'.length));
  return { text: JSON.stringify(answerTask(task)) };
};

/**
 * The client binary a profile names, wrapped: the wrapper writes its environment to `envDir` and
 * runs the real client, so a test reads exactly what the client started with.
 */
function wrappedClient(kind: Kind, dir: string): { binary: string; envDir: string } {
  const clients = locateClients();
  const envDir = join(dir, 'client-env');
  mkdirSync(envDir, { recursive: true });
  const real = kind === 'codex' ? `'${process.execPath}' '${clients.codexLauncher}'` : `'${clients.claudeBinary}'`;
  const binary = join(dir, `${kind}-client`);
  writeFileSync(binary, `#!/bin/sh\nenv > '${envDir}'/env-$$\nexec ${real} "$@"\n`);
  chmodSync(binary, 0o755);
  return { binary, envDir };
}

function clientProfile(kind: Kind, binary: string, endpoint: string, extra: Record<string, unknown> = {}) {
  return runnerProfile.parse({
    name: kind,
    kind,
    binary,
    version: kind === 'codex' ? CODEX_VERSION : CLAUDE_VERSION,
    apiKeyEnv: KEY_ENV,
    provider: `fake-${kind}-provider`,
    model: 'fake-model',
    endpoint,
    timeoutMs: 60_000,
    ...extra,
  });
}

async function rig(kind: Kind, model: Model, sessions = 1) {
  const home = tempHome(`live-runner-${kind}`);
  for (let i = 0; i < sessions; i++) queueSession(home, null, PROMPTS);
  await c.flush(home);
  const server = await fakeModel(kind, model);
  const client = wrappedClient(kind, home);
  const writer = await WriterClient.start(storeFiles(home).core);
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  let runners = new Map<string, Runner>();
  const use = (extra: Record<string, unknown> = {}) => {
    const profile = clientProfile(kind, client.binary, server.endpoint, extra);
    runners = new Map<string, Runner>([
      ['builtin', builtinRunner],
      [kind, externalRunner(profile, join(home, 'runner-logs'))],
    ]);
  };
  use();
  const pipeline = new ExtractionPipeline(writer, core, () => runners, 'live-holder');
  const opened: Db[] = [];
  const memory = () => {
    const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
    opened.push(db);
    return db;
  };
  const r = {
    home,
    server,
    client,
    use,
    memory,
    /** Requests that carried a task (not the probe's). */
    taskPrompts: () => server.prompts().filter((text) => text !== null && !text.includes(PROBE_MARK)) as string[],
    extract: (request: Partial<ExtractRequest> = {}) =>
      pipeline.extract({ cwd: null, since: SINCE, until: UNTIL, runner: kind, ...request }, () => null),
    close: async () => {
      for (const db of opened) db.close();
      core.close();
      await writer.close();
    },
  };
  cleanups.push(r.close);
  return r;
}

/** Every environment a wrapped client started with, and everything the fake server received. */
function assertNoCanary(r: Awaited<ReturnType<typeof rig>>) {
  const envs = readdirSync(r.client.envDir).map((name) => readFileSync(join(r.client.envDir, name), 'utf8'));
  assert.ok(envs.length > 0, 'the client was started');
  for (const env of envs) {
    assert.ok(!env.includes(CANARY), 'the host canary never reaches the client');
    assert.ok(!env.includes(CANARY_ENV));
  }
  assert.ok(!JSON.stringify(r.server.requests).includes(CANARY), 'nor the model server');
}

/** What the permissive profile passes its client: its own config, and the key. */
const PERMISSIVE_ENV = [
  'CODEX_HOME',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_API_KEY',
  'CLAUDE_CONFIG_DIR',
  'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC',
  'HOME',
];

for (const kind of ['codex', 'claude'] as const) {
  describe(`the ${kind} profile: the real client as a restricted runner`, () => {
    it('probe, plan, approve, extract, adjudicate: the server saw exactly the declared runner input', async () => {
      const r = await rig(kind, goodModel, 2);
      const first = await r.extract();
      const pending = first.pendingPlan!;
      assert.ok(pending, 'the run stops at the plan');
      assert.equal(pending.reason, 'authorisation-needed');
      assert.equal(pending.plans.length, 2);
      const plan = pending.plans[0]!;
      assert.deepEqual(
        [plan.runnerProfile, plan.provider, plan.model, plan.endpoint, plan.localSessionPersistence],
        [kind, `fake-${kind}-provider`, 'fake-model', r.server.endpoint, 'none'],
      );
      assert.ok(
        r.server.prompts().some((text) => text?.includes(PROBE_MARK)),
        'the probe ran first',
      );
      assert.deepEqual(r.taskPrompts(), [], 'no task was sent before the approval');

      const approved = await r.extract({ approveManifest: pending.manifest.manifestDigest });
      assert.equal(approved.tasks.submitted, 2, approved.failures.join('; '));
      assert.equal(approved.candidates.created, 2);
      const sent = r.taskPrompts().map((text) => Buffer.from(text, 'utf8'));
      assert.equal(sent.length, 2, 'one request per approved task');
      for (const each of pending.plans) {
        const match = sent.find((bytes) => sha256(bytes) === each.runnerInputDigest);
        assert.ok(match, `the runner input of ${each.taskId} is in a request, verbatim`);
        assert.equal(match.length, each.bytesToSend);
      }

      const adjudication = approved.pendingPlan!;
      assert.equal(adjudication.plans[0]!.taskKind, 'adjudication');
      const decided = await r.extract({ approvePlan: adjudication.plans[0]!.planDigest });
      assert.equal(decided.pendingPlan, undefined);
      assert.equal(decided.candidates.stored, 2, decided.failures.join('; '));
      const last = Buffer.from(r.taskPrompts().at(-1)!, 'utf8');
      assert.equal(r.taskPrompts().length, 3);
      assert.equal(sha256(last), adjudication.plans[0]!.runnerInputDigest);
      assert.equal(last.length, adjudication.plans[0]!.bytesToSend);
      const sends = r.memory().prepare('SELECT count(*), sum(bytes) FROM runner_sends').raw().get() as number[];
      assert.deepEqual(sends, [3, pending.manifest.totalBytes + adjudication.plans[0]!.bytesToSend]);
      assertNoCanary(r);
      // The one-off homes are gone: no runner home is left in the temp directory by this run.
      const envs = readdirSync(r.client.envDir).map((name) => readFileSync(join(r.client.envDir, name), 'utf8'));
      // (The version check runs with PATH only; each run has a one-off HOME.)
      const homes = envs.map((env) => /^HOME=(.*)$/m.exec(env)?.[1]).filter((home) => home !== undefined);
      assert.equal(homes.length, 4, 'the probe and three tasks, each in its own home');
      assert.equal(new Set(homes).size, 4);
      for (const home of homes) assert.equal(existsSync(home), false, `the one-off home ${home} was removed`);
    });

    it('a budget stops the next run before anything is sent', async () => {
      const r = await rig(kind, goodModel, 2);
      const plan = (await r.extract({ limit: 1 })).pendingPlan!;
      r.use({ budget: { runBytes: 1_000_000, dayBytes: plan.manifest.totalBytes + 10 } });
      const done = await r.extract({ limit: 1, approvePlan: plan.plans[0]!.planDigest });
      assert.equal(done.tasks.submitted, 1, done.failures.join('; '));
      const requests = r.server.requests.length;
      await assert.rejects(r.extract({ limit: 1 }), /has sent \d+ bytes today .* day budget .*nothing was sent/);
      assert.equal(r.server.requests.length, requests, 'the refused run sent no request at all');
    });

    it('prose instead of JSON is a failed, retriable attempt: nothing applied', async () => {
      const r = await rig(kind, (prompt) =>
        prompt.includes(PROBE_MARK) ? goodModel(prompt) : { text: 'Sure! You like pnpm, it seems.' },
      );
      const plan = (await r.extract({ limit: 1 })).pendingPlan!;
      const report = await r.extract({ limit: 1, approvePlan: plan.plans[0]!.planDigest });
      assert.equal(report.tasks.failed, 1);
      assert.match(report.failures[0]!, /not JSON/);
      const db = r.memory();
      assert.equal(db.prepare('SELECT count(*) FROM candidates').pluck().get(), 0);
      assert.deepEqual(db.prepare("SELECT status, attempts FROM tasks WHERE kind = 'extraction'").get(), {
        status: 'pending',
        attempts: 1,
      });
    });

    it('a shell tool call, once or again and again, fails the attempt at once; no canary is written', async () => {
      const dir = tempHome(`live-runner-canary-${kind}`);
      mkdirSync(dir, { recursive: true });
      const canary = join(dir, 'written-by-the-model');
      for (const then of ['{"candidates": []}', undefined]) {
        const r = await rig(kind, (prompt) =>
          prompt.includes(PROBE_MARK) ? goodModel(prompt) : { shell: `echo pwned > ${canary}`, then },
        );
        const plan = (await r.extract({ limit: 1 })).pendingPlan!;
        const started = Date.now();
        const report = await r.extract({ limit: 1, approvePlan: plan.plans[0]!.planDigest });
        assert.equal(report.tasks.failed, 1);
        assert.match(report.failures[0]!, /runner-tool-call: the model called a tool/);
        assert.ok(Date.now() - started < 30_000, 'bounded: the client is stopped at the first call');
        assert.ok(r.taskPrompts().length <= 2, `at most one round trip after the call (${r.taskPrompts().length})`);
        assert.equal(existsSync(canary), false, 'the shell command never ran');
        assert.equal(r.memory().prepare('SELECT count(*) FROM candidates').pluck().get(), 0);
      }
    });

    it('the probe fails naming the item when the model tries the shell; passes when it only answers', async () => {
      const r = await rig(kind, (prompt) => {
        const outside = /echo probe > ([^\s\\]+)/.exec(prompt)?.[1];
        return outside ? { shell: `echo probe > ${outside}`, then: 'Done.' } : { text: 'no' };
      });
      await assert.rejects(r.extract(), (error: Error) => {
        assert.match(error.message, new RegExp(`The ${kind} runner failed its conformance probe .* at "tool-call"`));
        assert.match(error.message, /Nothing of yours was sent/);
        return true;
      });
      assert.deepEqual(r.taskPrompts(), []);
    });

    it('a deliberately permissive profile of the same client fails the probe by what it did', async () => {
      const dir = tempHome(`live-runner-permissive-${kind}`);
      const server = await fakeModel(kind, (prompt) => {
        const outside = /echo probe > ([^\s\\]+)/.exec(prompt)?.[1];
        return outside ? { shell: `echo probe > ${outside}`, then: 'Done.' } : { text: 'no' };
      });
      const clients = locateClients();
      // A `command` profile running the client with its shell on: what the restricted profiles forbid.
      const argv =
        kind === 'codex'
          ? [process.execPath, clients.codexLauncher, 'exec', '--skip-git-repo-check', '--json']
          : [clients.claudeBinary, '-p', '--allowedTools', 'Bash', '--output-format', 'json'];
      const codexHome = join(dir, 'codex-home');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        join(codexHome, 'config.toml'),
        [
          'model = "fake-model"',
          'model_provider = "fake"',
          'approval_policy = "never"',
          'sandbox_mode = "danger-full-access"',
          '[model_providers.fake]',
          'name = "fake"',
          `base_url = ${JSON.stringify(server.endpoint)}`,
          'wire_api = "responses"',
          `env_key = "${KEY_ENV}"`,
          'request_max_retries = 0',
          'stream_max_retries = 0',
          '',
        ].join('\n'),
      );
      process.env['CODEX_HOME'] = codexHome;
      process.env['ANTHROPIC_BASE_URL'] = server.endpoint;
      process.env['ANTHROPIC_API_KEY'] = 'fake';
      process.env['CLAUDE_CONFIG_DIR'] = join(dir, 'claude-config');
      process.env['HOME'] = dir;
      process.env['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'] = '1';
      try {
        const profile = runnerProfile.parse({
          name: 'permissive',
          kind: 'command',
          argv: kind === 'codex' ? [...argv, '-'] : argv,
          env: [...PERMISSIVE_ENV, KEY_ENV],
          provider: 'fake',
          model: 'fake-model',
          endpoint: server.endpoint,
          timeoutMs: 60_000,
        }) as RunnerProfile;
        const verdict = await externalRunner(profile, null).probe();
        assert.equal(verdict.passed, false);
        assert.equal(verdict.failed?.item, 'shell', JSON.stringify(verdict.failed));
        assert.match(verdict.failed!.detail, /it ran a command/);
      } finally {
        for (const name of PERMISSIVE_ENV.filter((name) => name !== 'HOME')) delete process.env[name];
        process.env['HOME'] = HOME;
      }
    });
  });
}

describe('the codex profile with "login": your Codex login, copied into each one-off home', () => {
  it('the client authenticates with the copied auth.json; no copy is left behind', async () => {
    const dir = tempHome('live-runner-login');
    const userCodexHome = join(dir, 'user-codex');
    mkdirSync(userCodexHome, { recursive: true });
    const token = `sk-login-${randomBytes(6).toString('hex')}`;
    writeFileSync(join(userCodexHome, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: token }));
    const server = await fakeModel('codex', goodModel);
    const client = wrappedClient('codex', dir);
    process.env['CODEX_HOME'] = userCodexHome;
    try {
      const profile = clientProfile('codex', client.binary, server.endpoint, { apiKeyEnv: undefined, login: true });
      const verdict = await externalRunner(profile, null).probe();
      assert.equal(verdict.passed, true, JSON.stringify(verdict.failed));
    } finally {
      delete process.env['CODEX_HOME'];
    }
    assert.ok(server.requests.length > 0);
    for (const request of server.requests) assert.equal(request.headers['authorization'], `Bearer ${token}`);
    const envs = readdirSync(client.envDir).map((name) => readFileSync(join(client.envDir, name), 'utf8'));
    for (const env of envs) {
      assert.doesNotMatch(env, new RegExp(userCodexHome), "the client never sees the user's Codex home");
      const home = /^CODEX_HOME=(.*)$/m.exec(env)?.[1];
      if (home) assert.equal(existsSync(join(home, 'auth.json')), false, 'the copied login is removed');
    }
  });
});
