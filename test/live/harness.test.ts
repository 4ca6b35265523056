// Live tests of the harness itself: the real Codex CLI and Claude Code run each standard
// scenario offline, and the recording hook proves which events fired, in which order, with
// which ids. Nothing is skipped: missing clients fail every test with the install command.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  CLAUDE_VERSION,
  CODEX_VERSION,
  HOOK_RECORD_ENV,
  SCENARIO_PROMPTS,
  SCENARIOS,
  TOOL_COMMAND,
  baseEnv,
  firedEvents,
  locateClients,
  makeSandbox,
  readHookRecords,
  recordingHookCommand,
  runChild,
  runClaudeScenario,
  runCodexScenario,
  shellQuote,
} from './harness.js';
import type {
  ClaudeRun,
  CodexRun,
  CodexTrustMode,
  HookRecord,
  SandboxPaths,
  ScenarioName,
  ScenarioResult,
} from './harness.js';
import { parseJsonLines } from './jsonl.js';

const recordFile = (paths: SandboxPaths): string => join(paths.root, 'hook-records.jsonl');
const recording = {
  hookCommand: recordingHookCommand,
  env: (paths: SandboxPaths) => ({ [HOOK_RECORD_ENV]: recordFile(paths) }),
};

/**
 * Firing orders, from HOSTS.md 1.4 and the fixtures: plain = fixtures/codex/hooks/a,
 * tool = b, fail = d, resume = a then c.
 */
const CODEX_ORDER: Record<ScenarioName, readonly string[]> = {
  plain: ['SessionStart:startup', 'UserPromptSubmit', 'Stop', 'SessionEnd'],
  tool: ['SessionStart:startup', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'],
  fail: ['SessionStart:startup', 'UserPromptSubmit', 'SessionEnd'],
  resume: [
    ...['SessionStart:startup', 'UserPromptSubmit', 'Stop', 'SessionEnd'],
    ...['SessionStart:resume', 'UserPromptSubmit', 'Stop', 'SessionEnd'],
  ],
};

/**
 * plain = fixtures/claude/hooks/01-plain, tool = 02-tool, resume = 01-plain then 03-resume.
 * fail has no fixture: like plain without Stop. Claude does fire StopFailure after an API
 * error, but does not wait for the hook: a hook slower than a few tens of ms (any `node`
 * start) is killed before it runs, so StopFailure is allowed here, never required.
 */
const CLAUDE_ORDER: Record<ScenarioName, readonly string[]> = {
  plain: ['SessionStart:startup', 'UserPromptSubmit', 'MessageDisplay', 'Stop', 'SessionEnd'],
  tool: [
    ...['SessionStart:startup', 'UserPromptSubmit', 'MessageDisplay', 'PreToolUse', 'PostToolUse', 'PostToolBatch'],
    ...['MessageDisplay', 'Stop', 'SessionEnd'],
  ],
  fail: ['SessionStart:startup', 'UserPromptSubmit', 'MessageDisplay', 'SessionEnd'],
  resume: [
    ...['SessionStart:startup', 'UserPromptSubmit', 'MessageDisplay', 'Stop', 'SessionEnd'],
    ...['SessionStart:resume', 'UserPromptSubmit', 'MessageDisplay', 'Stop', 'SessionEnd'],
  ],
};

/** "SessionStart:<source>" for SessionStart, the bare event name otherwise. */
function orderOf(records: readonly HookRecord[]): string[] {
  return firedEvents(records).map((event, i) => {
    const source = records[i]?.payload?.['source'];
    return event === 'SessionStart' ? `${event}:${String(source)}` : event;
  });
}

function describeRuns(
  result: ScenarioResult<unknown, { exitCode: number | null; timedOut: boolean; stderr: string; durationMs: number }>,
): string {
  return result.runs
    .map(
      (r, i) =>
        `run ${i}: exit ${String(r.exitCode)}${r.timedOut ? ' (timed out)' : ''} in ${r.durationMs} ms; stderr: ${r.stderr.slice(0, 2000)}`,
    )
    .join('\n');
}

/** What every scenario shares: exit codes, hook ids, the prompt in the transcript. */
function checkCommon(
  result: ScenarioResult<
    SandboxPaths,
    { exitCode: number | null; timedOut: boolean; stderr: string; durationMs: number }
  >,
  records: readonly HookRecord[],
  promptInTranscript: (lines: ReadonlyArray<Record<string, unknown>>, prompt: string) => boolean,
): void {
  const failing = result.scenario === 'fail';
  for (const run of result.runs) {
    assert.equal(run.timedOut, false, describeRuns(result));
    assert.equal(run.exitCode, failing ? 1 : 0, describeRuns(result));
  }
  assert.ok(result.sessionId, 'the client reported a session id');
  assert.equal(
    result.transcriptPaths.length,
    1,
    `one transcript for the whole scenario: ${result.transcriptPaths.join(', ')}`,
  );
  const transcript = result.transcriptPaths[0] ?? '';
  for (const record of records) {
    // The hook ran for the event it was registered for, about this session, in the workspace.
    assert.equal(record.payload?.['hook_event_name'], record.event);
    assert.equal(record.payload?.['session_id'], result.sessionId);
    assert.equal(record.payload?.['transcript_path'], transcript);
    assert.equal(record.payload?.['cwd'], result.sandbox.cwd);
    assert.equal(record.cwd, result.sandbox.cwd, 'hooks run in the session cwd');
  }
  const lines = parseJsonLines(readFileSync(transcript, 'utf8'));
  assert.ok(lines.length > 0, `transcript ${transcript} has records`);
  for (const prompt of SCENARIO_PROMPTS[result.scenario]) {
    assert.ok(promptInTranscript(lines, prompt), `transcript ${transcript} holds the prompt ${JSON.stringify(prompt)}`);
  }
  const prompts = records.filter((r) => r.event === 'UserPromptSubmit').map((r) => r.payload?.['prompt']);
  assert.deepEqual(prompts, SCENARIO_PROMPTS[result.scenario]);
}

/** Codex: a user `message` response_item whose input_text is the prompt (HOSTS.md 1.5). */
function codexPromptIn(lines: ReadonlyArray<Record<string, unknown>>, prompt: string): boolean {
  return lines.some((line) => {
    const payload = line['payload'] as { type?: unknown; role?: unknown; content?: unknown } | undefined;
    if (line['type'] !== 'response_item' || payload?.type !== 'message' || payload.role !== 'user') return false;
    return (
      Array.isArray(payload.content) &&
      payload.content.some((c: { type?: unknown; text?: unknown }) => c.type === 'input_text' && c.text === prompt)
    );
  });
}

/** Claude: a `user` line whose message.content is the prompt string (HOSTS.md 2.5). */
function claudePromptIn(lines: ReadonlyArray<Record<string, unknown>>, prompt: string): boolean {
  return lines.some(
    (line) => line['type'] === 'user' && (line['message'] as { content?: unknown } | undefined)?.content === prompt,
  );
}

test('the live clients are installed at the pinned versions', async () => {
  // Throws "Live clients are not installed … run `bash test/live/install-clients.sh`" when missing.
  const clients = locateClients();
  const env = baseEnv(process.env['HOME'] ?? '/tmp');
  const codex = await runChild(process.execPath, [clients.codexLauncher, '--version'], {
    cwd: process.cwd(),
    env,
    timeoutMs: 30_000,
  });
  assert.equal(codex.stdout.trim(), `codex-cli ${CODEX_VERSION}`, codex.stderr);
  const claude = await runChild(clients.claudeBinary, ['--version'], {
    cwd: process.cwd(),
    env: { ...env, DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    timeoutMs: 30_000,
  });
  assert.equal(claude.stdout.trim(), `${CLAUDE_VERSION} (Claude Code)`, claude.stderr);
});

test('runChild ends the whole process group it started when the deadline passes', async () => {
  const dir = await makeSandbox('child');
  try {
    const pidFile = join(dir.root, 'grandchild.pid');
    // A grandchild that would outlive its parent: it must die with the group.
    const script = `sleep 60 & echo $! > ${shellQuote(pidFile)}; wait`;
    const result = await runChild('/bin/sh', ['-c', script], { cwd: dir.cwd, env: baseEnv(dir.home), timeoutMs: 500 });
    assert.equal(result.timedOut, true);
    const grandchild = Number(readFileSync(pidFile, 'utf8').trim());
    assert.equal(isAlive(grandchild), false, 'the grandchild is gone');
  } finally {
    await dir.cleanup();
  }
});

/** Gone or a zombie: this machine's PID 1 does not always reap orphans promptly. */
function isAlive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

async function codexScenario(scenario: ScenarioName, trust: CodexTrustMode): Promise<void> {
  const result = await runCodexScenario(scenario, { ...recording, trust });
  try {
    const records = readHookRecords(recordFile(result.sandbox));
    assert.deepEqual(orderOf(records), CODEX_ORDER[scenario], describeRuns(result));
    checkCommon(result, records, codexPromptIn);
    checkCodexStream(result, trust);
    if (scenario === 'tool') checkCodexTool(result, records);
  } finally {
    await result.cleanup();
  }
}

function checkCodexStream(result: ScenarioResult<SandboxPaths, CodexRun>, trust: CodexTrustMode): void {
  for (const run of result.runs) {
    const types = run.events.map((e) => e['type']);
    assert.equal(types[0], 'thread.started');
    assert.ok(
      types.includes(result.scenario === 'fail' ? 'turn.failed' : 'turn.completed'),
      `exec --json events: ${types.join(', ')}`,
    );
    const bypassNotice = run.events.some((e) => JSON.stringify(e).includes('--dangerously-bypass-hook-trust'));
    assert.equal(bypassNotice, trust === 'bypass', 'the trust-bypass notice appears exactly when the flag is used');
  }
  const posts = result.requests.filter((r) => r.method === 'POST');
  assert.ok(
    posts.length > 0 && posts.every((r) => r.path === '/v1/responses'),
    `requests: ${result.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`,
  );
}

function checkCodexTool(result: ScenarioResult<SandboxPaths, CodexRun>, records: readonly HookRecord[]): void {
  const pre = records.find((r) => r.event === 'PreToolUse')?.payload;
  const post = records.find((r) => r.event === 'PostToolUse')?.payload;
  assert.equal(pre?.['tool_name'], 'Bash');
  assert.deepEqual(pre?.['tool_input'], { command: TOOL_COMMAND });
  assert.equal(post?.['tool_use_id'], pre?.['tool_use_id']);
  assert.equal(post?.['tool_response'], 'hi\n');
  // The second model request carries the tool output back, for the same call id.
  const last = result.requests.filter((r) => r.path === '/v1/responses').at(-1)?.body as
    | { input?: Array<Record<string, unknown>> }
    | undefined;
  assert.equal(last?.input?.at(-1)?.['type'], 'function_call_output');
  assert.equal(last?.input?.at(-1)?.['call_id'], pre?.['tool_use_id']);
}

async function claudeScenario(scenario: ScenarioName): Promise<void> {
  const result = await runClaudeScenario(scenario, recording);
  try {
    const records = readHookRecords(recordFile(result.sandbox));
    const order = orderOf(records);
    const withoutStopFailure = scenario === 'fail' ? order.filter((e) => e !== 'StopFailure') : order;
    assert.deepEqual(withoutStopFailure, CLAUDE_ORDER[scenario], describeRuns(result));
    if (order.includes('StopFailure'))
      assert.equal(order.at(-2), 'StopFailure', 'StopFailure comes just before SessionEnd');
    checkCommon(result, records, claudePromptIn);
    // HOSTS.md 2.3: with non-essential traffic off, the Messages endpoint is all Claude calls.
    assert.ok(
      result.requests.every((r) => r.method === 'POST' && r.path === '/v1/messages?beta=true'),
      `requests: ${result.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`,
    );
    const final = result.runs.at(-1)?.events.find((e) => e['type'] === 'result');
    assert.equal(final?.['is_error'], scenario === 'fail', `result line: ${JSON.stringify(final)}`);
    if (scenario === 'tool') checkClaudeTool(result, records);
  } finally {
    await result.cleanup();
  }
}

function checkClaudeTool(result: ScenarioResult<SandboxPaths, ClaudeRun>, records: readonly HookRecord[]): void {
  const pre = records.find((r) => r.event === 'PreToolUse')?.payload;
  const post = records.find((r) => r.event === 'PostToolUse')?.payload;
  assert.equal(pre?.['tool_name'], 'Bash');
  assert.equal((pre?.['tool_input'] as { command?: unknown } | undefined)?.command, TOOL_COMMAND);
  assert.equal(post?.['tool_use_id'], pre?.['tool_use_id']);
  assert.equal((post?.['tool_response'] as { stdout?: unknown } | undefined)?.stdout, 'hi');
  const last = result.requests.at(-1)?.body as { messages?: Array<{ role?: unknown; content?: unknown }> } | undefined;
  const lastUser = last?.messages?.filter((m) => m.role === 'user').at(-1);
  assert.ok(
    JSON.stringify(lastUser?.content).includes(`"tool_use_id":"${String(pre?.['tool_use_id'])}"`),
    'the tool_result goes back to the model',
  );
}

describe('Codex CLI 0.171.0 (hooks trusted with --dangerously-bypass-hook-trust)', () => {
  for (const scenario of SCENARIOS) test(scenario, () => codexScenario(scenario, 'bypass'));
});

describe('Codex CLI 0.171.0 (hooks trusted persistently with trusted_hash)', () => {
  // One scenario per mode is enough to prove the trust path; the events are the same.
  test('tool', () => codexScenario('tool', 'trusted-hash'));
  test('resume', () => codexScenario('resume', 'trusted-hash'));
});

describe('Claude Code 2.1.332', () => {
  for (const scenario of SCENARIOS) test(scenario, () => claudeScenario(scenario));
});
