// The four standard live scenarios, each against its own fake server and sandbox:
// plain turn, tool call (echo), failed turn (HTTP 400), resumed session. The fake servers
// pick their reply from the prompt, so a scenario is just "which prompt(s), in what order".
import { byPrompt as responsesByPrompt, startFakeResponsesServer } from '../support/fake-responses-server.js';
import type { RecordedRequest } from '../support/fake-responses-server.js';
import { byPrompt as messagesByPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { createClaudeSandbox, runClaude } from './claude.js';
import type { ClaudeHookEvent, ClaudeRun, ClaudeSandbox } from './claude.js';
import { createCodexSandbox, runCodex } from './codex.js';
import type { CodexHookEvent, CodexRun, CodexSandbox, CodexTrustMode } from './codex.js';
import type { EnvOption, HookCommand } from './sandbox.js';

export type ScenarioName = 'plain' | 'tool' | 'fail' | 'resume';
export const SCENARIOS: readonly ScenarioName[] = ['plain', 'tool', 'fail', 'resume'];

/** The prompts each scenario sends, in order; the markers drive the fake servers' scripts. */
export const SCENARIO_PROMPTS: Readonly<Record<ScenarioName, readonly string[]>> = {
  plain: ['Say hello'],
  tool: ['USE_BASH please run echo hi'],
  fail: ['FAIL_400 please'],
  resume: ['Say hello', 'Say hello again'],
};

export const FAKE_TEXT_ANSWER = 'Hello from the fake server.';
export const TOOL_COMMAND = 'echo hi';

export interface ScenarioOptions {
  /** Installed for every event (see CODEX_HOOK_EVENTS / CLAUDE_HOOK_EVENTS). */
  readonly hookCommand?: HookCommand;
  readonly hookTimeoutSec?: number;
  readonly env?: EnvOption;
  /** Per client run (default 90 s). */
  readonly timeoutMs?: number;
}

export interface ScenarioResult<S, R> {
  readonly scenario: ScenarioName;
  /** The one session the scenario produced (resume keeps it); null if the client never said. */
  readonly sessionId: string | null;
  /** Distinct transcript/rollout files the runs reported. */
  readonly transcriptPaths: readonly string[];
  readonly runs: readonly R[];
  /** Every request the fake model server received. */
  readonly requests: readonly RecordedRequest[];
  readonly sandbox: S;
  readonly durationMs: number;
  /** Removes the sandbox (unless CM_LIVE_KEEP=1). The server is already closed. */
  cleanup(): Promise<void>;
}

/** Codex answers the exec output with text like "Chunk ID…\nOutput:\nhi\n"; keep the output. */
function execOutputBody(output: string): string {
  const marker = output.lastIndexOf('Output:\n');
  return (marker >= 0 ? output.slice(marker + 'Output:\n'.length) : output).trim();
}

export async function runCodexScenario(
  scenario: ScenarioName,
  options: ScenarioOptions & { readonly trust?: CodexTrustMode; readonly hookEvents?: readonly CodexHookEvent[] } = {},
): Promise<ScenarioResult<CodexSandbox, CodexRun>> {
  const started = Date.now();
  const server = await startFakeResponsesServer({
    script: responsesByPrompt(
      [
        {
          match: 'USE_BASH',
          reply: { type: 'exec', cmd: TOOL_COMMAND, then: (o) => `The command printed: ${execOutputBody(o)}` },
        },
        { match: 'FAIL_400', reply: { type: 'error', status: 400 } },
      ],
      { type: 'text', text: FAKE_TEXT_ANSWER },
    ),
  });
  let sandbox: CodexSandbox | undefined;
  try {
    sandbox = await createCodexSandbox({ baseUrl: server.baseUrl, ...options });
    const runs: CodexRun[] = [];
    for (const prompt of SCENARIO_PROMPTS[scenario]) {
      const resumeThreadId = runs.length > 0 ? requireId(runs[0]?.threadId, 'codex thread id') : undefined;
      runs.push(
        await runCodex(sandbox, { prompt, ...(resumeThreadId ? { resumeThreadId } : {}), ...timeout(options) }),
      );
    }
    return finish(
      scenario,
      started,
      sandbox,
      runs,
      server.requests,
      runs.map((r) => [r.threadId, r.rolloutPath] as const),
    );
  } catch (error) {
    await sandbox?.cleanup();
    throw error;
  } finally {
    await server.close();
  }
}

export async function runClaudeScenario(
  scenario: ScenarioName,
  options: ScenarioOptions & { readonly hookEvents?: readonly ClaudeHookEvent[] } = {},
): Promise<ScenarioResult<ClaudeSandbox, ClaudeRun>> {
  const started = Date.now();
  const server = await startFakeAnthropicServer({
    script: messagesByPrompt(
      [
        {
          match: 'USE_BASH',
          reply: {
            type: 'bash',
            command: TOOL_COMMAND,
            description: 'Print hi',
            preamble: 'I will run a command.',
            then: (o) => `Tool output was: ${o.trim()}`,
          },
        },
        { match: 'FAIL_400', reply: { type: 'error', status: 400 } },
      ],
      { type: 'text', text: FAKE_TEXT_ANSWER },
    ),
  });
  let sandbox: ClaudeSandbox | undefined;
  try {
    sandbox = await createClaudeSandbox({ baseUrl: server.baseUrl, ...options });
    const runs: ClaudeRun[] = [];
    for (const prompt of SCENARIO_PROMPTS[scenario]) {
      const resumeSessionId = runs.length > 0 ? requireId(runs[0]?.sessionId, 'claude session id') : undefined;
      runs.push(
        await runClaude(sandbox, { prompt, ...(resumeSessionId ? { resumeSessionId } : {}), ...timeout(options) }),
      );
    }
    return finish(
      scenario,
      started,
      sandbox,
      runs,
      server.requests,
      runs.map((r) => [r.sessionId, r.transcriptPath] as const),
    );
  } catch (error) {
    await sandbox?.cleanup();
    throw error;
  } finally {
    await server.close();
  }
}

function timeout(options: ScenarioOptions): { timeoutMs?: number } {
  return options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
}

function requireId(id: string | null | undefined, what: string): string {
  if (!id) throw new Error(`the first run reported no ${what}; cannot resume`);
  return id;
}

function finish<S extends { cleanup(): Promise<void> }, R>(
  scenario: ScenarioName,
  started: number,
  sandbox: S,
  runs: readonly R[],
  requests: readonly RecordedRequest[],
  ids: ReadonlyArray<readonly [string | null, string | null]>,
): ScenarioResult<S, R> {
  const paths = [...new Set(ids.map(([, path]) => path).filter((p): p is string => p !== null))];
  return {
    scenario,
    sessionId: ids.find(([id]) => id !== null)?.[0] ?? null,
    transcriptPaths: paths,
    runs,
    requests,
    sandbox,
    durationMs: Date.now() - started,
    cleanup: () => sandbox.cleanup(),
  };
}
