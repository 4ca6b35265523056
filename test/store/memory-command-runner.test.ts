// The `command` runner on real child processes: stdin/stdout, bounded stderr log, each failure
// with its fixed code and its whole process group reaped; the host's environment never reaches it;
// runner profiles refuse shell strings and unsafe variables with a line that says what to do.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CmError } from '../../source/errors.js';
import { commandRunner, RunnerFailure } from '../../source/effects/command-runner.js';
import type { RunnerTask } from '../../source/memory/runner.js';
import { commandProfile, parseRunnerProfiles } from '../../source/effects/runner-profiles.js';

const FAKE = new URL('../support/fake-command-runner.mjs', import.meta.url).pathname;
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-command-runner-'));
  dirs.push(dir);
  return dir;
};

const profile = (mode: string, record: string, extra: Record<string, unknown> = {}) =>
  commandProfile.parse({
    name: 'fake',
    kind: 'command',
    argv: [process.execPath, FAKE, mode, record],
    provider: 'test',
    model: 'fake-model',
    endpoint: 'http://127.0.0.1:1/v1',
    timeoutMs: 5000,
    ...extra,
  });

const task = {
  kind: 'extraction',
  task: {
    format: 'common-memory-extraction-task@v1',
    taskId: 'ext-test',
    binding: {},
    evidenceCatalog: [{ evidenceId: 'e1' }],
    contract: { promptVersion: 'p' },
  },
} as unknown as RunnerTask;
const options = () => ({ signal: new AbortController().signal, maxOutputBytes: 1024 * 1024 });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function failureOf(promise: Promise<unknown>): Promise<RunnerFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof RunnerFailure, String(error));
    return error;
  }
  assert.fail('the runner succeeded');
}

describe('command runner', () => {
  it('sends the task on stdin, reads the answer from stdout, logs stderr per task', async () => {
    const record = temp();
    const logs = temp();
    const runner = commandRunner(profile('good', record), logs);
    const input = runner.input(task);
    const answer = JSON.parse(await runner.send(input, task, options()));
    assert.equal(answer.format, 'common-memory-candidate-draft-batch@v1');
    const received = JSON.parse(readFileSync(join(record, 'received.jsonl'), 'utf8').trim());
    assert.equal(received.bytes, input.length);
    assert.equal(received.text, input.toString('utf8'));
    assert.match(readFileSync(join(logs, 'ext-test.stderr.log'), 'utf8'), /fake runner good: \d+ bytes/);
  });

  it('a canary secret in the host environment never reaches the runner; PATH does, and allow-listed names', async () => {
    const record = temp();
    process.env['CM_TEST_CANARY_SECRET'] = 'canary-3f9a1c';
    process.env['CM_TEST_ALLOWED'] = 'allowed-value';
    try {
      const runner = commandRunner(profile('env', record, { env: ['CM_TEST_ALLOWED'] }), null);
      const text = await runner.run(task, options());
      assert.ok(!text.includes('canary-3f9a1c'), 'the canary leaked');
      const env = JSON.parse(text) as Record<string, string>;
      assert.equal(env['CM_TEST_ALLOWED'], 'allowed-value');
      assert.equal(env['PATH'], process.env['PATH']);
      assert.equal(env['HOME'], undefined);
    } finally {
      delete process.env['CM_TEST_CANARY_SECRET'];
      delete process.env['CM_TEST_ALLOWED'];
    }
  });

  it('each failure has its fixed code: non-zero exit, time-out, over-size, signal, leftover process', async () => {
    const record = temp();
    assert.equal(
      (await failureOf(commandRunner(profile('fail', record), null).run(task, options()))).code,
      'runner-exit-nonzero',
    );
    const started = Date.now();
    const timeout = await failureOf(
      commandRunner(profile('sleep', record, { timeoutMs: 1000 }), null).run(task, options()),
    );
    assert.equal(timeout.code, 'runner-timeout');
    assert.ok(Date.now() - started < 4000, 'the time-out took too long');
    const big = await failureOf(
      commandRunner(profile('big', record, { maxStdoutBytes: 64 * 1024 }), null).run(task, options()),
    );
    assert.equal(big.code, 'runner-output-over-size');
    assert.equal(
      (await failureOf(commandRunner(profile('signal', record), null).run(task, options()))).code,
      'runner-signal',
    );
    const leftover = await failureOf(commandRunner(profile('leftover', record), null).run(task, options()));
    assert.equal(leftover.code, 'runner-leftover-process');
    const pid = Number(readFileSync(join(record, 'leftover.pid'), 'utf8'));
    const deadline = Date.now() + 3000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(alive(pid), false, 'the background process of the group was not reaped');
  });

  it('a missing program is runner-spawn-failed', async () => {
    const runner = commandRunner(profile('good', temp(), { argv: ['/nonexistent/extractor'] }), null);
    assert.equal((await failureOf(runner.run(task, options()))).code, 'runner-spawn-failed');
  });
});

describe('runner profiles', () => {
  const refused = (text: string, message: RegExp) => {
    assert.throws(
      () => parseRunnerProfiles(text),
      (error: unknown) => error instanceof CmError && error.code === 'invalid_input' && message.test(error.message),
    );
  };
  const base = { name: 'mine', kind: 'command', provider: 'p', model: 'm', endpoint: 'https://example.invalid' };

  it('refuses a shell string, naming the profile and the fix', () => {
    refused(
      JSON.stringify({ profiles: [{ ...base, argv: 'python3 extract.py | tee log' }] }),
      /Runner profile "mine": argv is a shell string; give the program and its arguments as a list of words/,
    );
  });

  it('refuses loader variables, the builtin name, unknown fields, duplicates and non-JSON', () => {
    refused(JSON.stringify({ profiles: [{ ...base, argv: ['x'], env: ['LD_PRELOAD'] }] }), /env\.0: loader/);
    refused(JSON.stringify({ profiles: [{ ...base, name: 'builtin', argv: ['x'] }] }), /cannot be redefined/);
    refused(JSON.stringify({ profiles: [{ ...base, argv: ['x'], shell: true }] }), /Unrecognized key/);
    refused(
      JSON.stringify({
        profiles: [
          { ...base, argv: ['x'] },
          { ...base, argv: ['y'] },
        ],
      }),
      /defined twice/,
    );
    refused('{profiles', /is not JSON/);
  });

  it('fills conservative defaults', () => {
    const [parsed] = parseRunnerProfiles(JSON.stringify({ profiles: [{ ...base, argv: ['x'] }] }));
    assert.deepEqual(parsed!.budget, { runBytes: 256 * 1024, dayBytes: 1024 * 1024 });
    assert.equal(parsed!.conversationContext, false);
    assert.deepEqual(parsed!.env, []);
  });
});
