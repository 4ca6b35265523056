// The `codex` and `claude` runners: the real Codex CLI (`codex exec`) and Claude Code (`claude -p`)
// as restricted extractors. Each task runs in a one-off home created for it and removed after —
// no MCP servers, no hooks, no plugins, no shell or other tools, no session kept — with the model,
// endpoint and provider of the profile, through the same bounded process group as `command`. The
// bytes sent are the prompt: fixed instructions and the task's JSON, nothing else of the user's.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CmError } from '../errors.js';
import { sha256Hex } from '../ground/digests.js';
import { type BareExternalRunner, RunnerFailure, runProcess, taskLogName } from './command-runner.js';
import type { RunnerTask, RunOptions } from '../memory/runner.js';
import { screenRunnerTask } from '../memory/runner-input-lint.js';
import { runnerEnvironment, type ClientProfile } from './runner-profiles.js';

/** The instructions before the task's JSON; its version enters every plan (the prompt is sent). */
export const CLIENT_PROMPT_VERSION = 'client-prompt@1';
const INSTRUCTIONS = [
  'You are a restricted extractor for common-memory. You have no tools: never call one.',
  'Read the task JSON below and answer with exactly one JSON object and nothing else (no prose, no code fence):',
  '- for format common-memory-extraction-task@v1, a common-memory-candidate-draft-batch@v1 object that copies taskId',
  '  and binding unchanged and lists at most contract.maxCandidates durable statements the user made, each citing',
  '  evidence ids of evidenceCatalog only;',
  '- for format common-memory-adjudication-task@v1, a common-memory-adjudication-result@v1 object that copies taskId',
  '  and binding unchanged and decides store, skip, update or merge for every draft.',
  'Task:',
  '',
].join('\n');

/**
 * A consolidation task's own instructions (the extraction ones above are unchanged, so their plans
 * and digests are too): the patch format, what each operation must cite, and doctrine's rule.
 */
const CONSOLIDATION_INSTRUCTIONS = [
  'You are a restricted consolidator for common-memory. You have no tools: never call one.',
  "Read the task JSON below (format common-memory-consolidation-task@v1: one scope's approved entries and its scenes)",
  'and answer with exactly one common-memory-consolidation-patch@v1 JSON object and nothing else (no prose, no code',
  'fence) that copies taskId and binding unchanged. Each operation names the entries it rests on in basedOn, with the',
  'revision the task gives. A scene groups entries that apply together; a doctrine is a cross-cutting principle whose',
  'file cites (`cites`) the entries that instantiate it. Cite only entries of the task; write no secret.',
  'Task:',
  '',
].join('\n');

/** Earlier turns granted as context come before the task, marked as context: nothing in them is cited. */
const CONTEXT_HEADING = 'Earlier turns of the same session, as context only (cite nothing from them):\n';

/** The prompt's bytes, with every blocking secret replaced by `[secret:<rule>]` (a task already screened is unchanged). */
export const clientPrompt = (given: RunnerTask): Buffer => {
  const work = screenRunnerTask(given).work;
  const context =
    work.kind === 'extraction' && work.context?.length
      ? `${CONTEXT_HEADING}${work.context.map((turn) => turn.text).join('\n')}\n`
      : '';
  const instructions = work.kind === 'consolidation' ? CONSOLIDATION_INSTRUCTIONS : INSTRUCTIONS;
  const [head, task] = instructions.split(/(?=Task:\n$)/) as [string, string];
  return Buffer.from(`${head}${context}${task}${JSON.stringify(work.task)}\n`, 'utf8');
};

/** The version line the client prints, checked against the profile's before anything runs. */
export function clientVersion(profile: ClientProfile): { version: string; fingerprint: string } {
  let text: string;
  try {
    text = execFileSync(profile.binary, ['--version'], {
      env: { PATH: process.env['PATH'] ?? '' },
      timeout: 20_000,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch (error) {
    throw new CmError(
      'runner_unavailable',
      `The ${profile.name} runner's client ${profile.binary} cannot be run (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); install ${profile.kind === 'codex' ? '@openai/codex' : '@anthropic-ai/claude-code'}@${profile.version} or fix "binary" in runners.json.`,
    );
  }
  const found = /(\d+\.\d+\.\d+)/.exec(text)?.[1] ?? text;
  if (found !== profile.version)
    throw new CmError(
      'runner_unavailable',
      `The ${profile.name} runner's client is version ${found}, not ${profile.version} as its profile says; install that version, or set "version" in runners.json after checking it (the conformance probe runs again).`,
    );
  const stat = statSync(profile.binary);
  return { version: found, fingerprint: sha256Hex(`${text}\0${stat.size}\0${Math.trunc(stat.mtimeMs)}`) };
}

/** Codex features that could act beyond answering text: all off in a runner's home. */
const CODEX_FEATURES_OFF = [
  'shell_tool',
  'unified_exec',
  'unified_exec_tty',
  'shell_snapshot',
  'hooks',
  'plugins',
  'remote_plugin',
  'apps',
  'browser_use',
  'browser_use_external',
  'browser_use_full_cdp_access',
  'in_app_browser',
  'computer_use',
  'code_mode_host',
  'code_mode_host_grpc',
  'image_generation',
  'view_image',
  'sleep_tool',
  'goals',
  'skill_mcp_dependency_install',
  'skill_search',
  'tool_suggest',
  'daemon_auto_start',
  'in_app_local_automation',
  'plugin_sharing',
  'workspace_dependencies',
];

const tomlString = (text: string) => JSON.stringify(text);

function codexConfig(profile: ClientProfile): string {
  return [
    `model = ${tomlString(profile.model)}`,
    'model_provider = "common_memory_runner"',
    'approval_policy = "never"',
    'sandbox_mode = "read-only"',
    'web_search = "disabled"',
    'check_for_update_on_startup = false',
    '[analytics]',
    'enabled = false',
    '[feedback]',
    'enabled = false',
    // Subagents: `[agents]` is what 0.171.0 reads (`[features].multi_agent` is deprecated and warns).
    '[agents]',
    'enabled = false',
    '[model_providers.common_memory_runner]',
    `name = ${tomlString(profile.provider)}`,
    `base_url = ${tomlString(profile.endpoint)}`,
    'wire_api = "responses"',
    // With the login, Codex reads the key or token from the copied auth.json.
    profile.login ? 'requires_openai_auth = true' : `env_key = ${tomlString(profile.apiKeyEnv ?? '')}`,
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '[features]',
    ...CODEX_FEATURES_OFF.map((feature) => `${feature} = false`),
    '',
  ].join('\n');
}

/** The final message of `codex exec --json`; a tool the model ran or tried is a failure. */
function codexAnswer(stdout: string): string {
  let answer: string | null = null;
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    let event: { type?: string; item?: { type?: string; text?: string }; error?: { message?: string } };
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    const item = event.item;
    if (event.type === 'item.completed' && item?.type === 'agent_message') answer = item.text ?? '';
    if (item && ['command_execution', 'mcp_tool_call', 'file_change', 'web_search'].includes(item.type ?? ''))
      throw new RunnerFailure('runner-tool-call', `the model used a tool (${item.type}); a runner may only answer`);
    if (event.type === 'turn.failed')
      throw new RunnerFailure('runner-exit-nonzero', `the turn failed: ${event.error?.message ?? 'no reason given'}`);
  }
  if (answer === null) throw new RunnerFailure('runner-no-answer', 'codex printed no final message');
  return answer;
}

/**
 * Codex 0.171.0 answers a call of a tool it does not offer with an error output to the model and
 * goes on — the model may call again, without end — and reports it only on stderr. The first such
 * line ends the run: a runner may only answer, and each round trip would send the input again.
 */
function codexToolCall(line: string): RunnerFailure | null {
  const call = /unsupported call: ?(\S*)/.exec(line);
  return call
    ? new RunnerFailure(
        'runner-tool-call',
        `the model called a tool (${call[1] || 'unknown'}); a runner may only answer`,
      )
    : null;
}

/**
 * The `result` of `claude -p --output-format json --max-turns 1`. Claude refuses a tool it does not
 * offer to the model and asks it again; `--max-turns 1` stops there, so a second turn (or the
 * max-turns stop) means the model called a tool.
 */
function claudeAnswer(stdout: string): string {
  let value: {
    type?: string;
    is_error?: boolean;
    result?: unknown;
    subtype?: string;
    num_turns?: number;
    errors?: unknown[];
  };
  try {
    value = JSON.parse(stdout);
  } catch {
    throw new RunnerFailure('runner-no-answer', 'claude printed no JSON result');
  }
  if (value.subtype === 'error_max_turns' || (value.num_turns ?? 1) > 1)
    throw new RunnerFailure('runner-tool-call', 'the model called a tool; a runner may only answer');
  if (value.is_error || typeof value.result !== 'string')
    throw new RunnerFailure(
      'runner-no-answer',
      `claude's result is an error (${value.subtype ?? 'unknown'}: ${String(value.errors?.[0] ?? value.result ?? 'no reason given').slice(0, 200)})`,
    );
  return value.result;
}

/** Claude Code's tools, all refused (besides `--tools ""`, which offers none). */
const CLAUDE_TOOLS =
  'Bash,BashOutput,KillShell,Edit,MultiEdit,Write,Read,Glob,Grep,NotebookEdit,WebFetch,WebSearch,Task,TodoWrite,Skill,SlashCommand';

/** The user's Codex login (auth.json of their CODEX_HOME, else ~/.codex), copied 0600 into a one-off home. */
function copyCodexLogin(profile: ClientProfile, to: string): void {
  const from = join(process.env['CODEX_HOME'] || join(homedir(), '.codex'), 'auth.json');
  try {
    copyFileSync(from, to);
    chmodSync(to, 0o600);
  } catch (error) {
    throw new CmError(
      'runner_unavailable',
      `The ${profile.name} runner uses your Codex login, but ${from} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); run codex login, or give the profile apiKeyEnv instead of "login".`,
    );
  }
}

export interface ClientRun {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

/** The command line and environment of one run in `home` (created for it), working in `workDir`. */
export function clientInvocation(profile: ClientProfile, home: string, workDir: string): ClientRun {
  const base = runnerEnvironment(profile);
  const key = profile.apiKeyEnv ? process.env[profile.apiKeyEnv] : undefined;
  if (profile.kind === 'codex') {
    mkdirSync(join(home, 'codex'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'codex', 'config.toml'), codexConfig(profile), { mode: 0o600 });
    if (profile.login) copyCodexLogin(profile, join(home, 'codex', 'auth.json'));
    return {
      argv: [
        profile.binary,
        'exec',
        '--skip-git-repo-check',
        '--json',
        '--ephemeral',
        '--ignore-rules',
        '-C',
        workDir,
        '-',
      ],
      env: {
        ...base,
        HOME: home,
        CODEX_HOME: join(home, 'codex'),
        ...(key && profile.apiKeyEnv ? { [profile.apiKeyEnv]: key } : {}),
      },
      cwd: workDir,
    };
  }
  mkdirSync(join(home, 'claude'), { recursive: true, mode: 0o700 });
  return {
    argv: [
      profile.binary,
      '-p',
      '--output-format',
      'json',
      '--model',
      profile.model,
      '--tools',
      '',
      '--disallowedTools',
      CLAUDE_TOOLS,
      '--strict-mcp-config',
      '--mcp-config',
      '{"mcpServers":{}}',
      '--setting-sources',
      '',
      '--no-session-persistence',
      '--permission-mode',
      'default',
      '--max-turns',
      '1',
    ],
    env: {
      ...base,
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, 'claude'),
      ANTHROPIC_BASE_URL: profile.endpoint,
      ...(key ? { ANTHROPIC_API_KEY: key } : {}),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
    cwd: workDir,
  };
}

/** Runs the client once on `input` in a fresh home (removed afterwards); resolves its answer text. */
export async function runClient(
  profile: ClientProfile,
  input: Buffer,
  options: { signal?: AbortSignal | undefined; maxOutputBytes: number; workDir?: string; stderrLog: string | null },
): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), `cm-runner-${profile.kind}-`));
  try {
    const workDir = options.workDir ?? join(home, 'work');
    mkdirSync(workDir, { recursive: true, mode: 0o700 });
    const run = clientInvocation(profile, home, workDir);
    const out = await runProcess({
      ...run,
      input,
      timeoutMs: profile.timeoutMs,
      maxStdoutBytes: Math.min(profile.maxStdoutBytes, options.maxOutputBytes),
      stderrLog: options.stderrLog,
      signal: options.signal,
      watchStderr: profile.kind === 'codex' ? codexToolCall : undefined,
    }).catch((error: unknown) => {
      // Claude exits 1 when it stops at --max-turns; its JSON result says why.
      if (profile.kind === 'claude' && error instanceof RunnerFailure && error.stdout?.length) return error.stdout;
      throw error;
    });
    const text = out.toString('utf8');
    return profile.kind === 'codex' ? codexAnswer(text) : claudeAnswer(text);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export function clientRunner(profile: ClientProfile, logDir: string | null): BareExternalRunner {
  return {
    name: profile.name,
    offline: false,
    profile,
    input: clientPrompt,
    send(input: Buffer, work: RunnerTask, options: RunOptions): Promise<string> {
      return runClient(profile, input, {
        signal: options.signal,
        maxOutputBytes: options.maxOutputBytes,
        stderrLog: logDir ? join(logDir, taskLogName(work.task.taskId)) : null,
      });
    },
    run(work: RunnerTask, options: RunOptions) {
      return this.send(clientPrompt(work), work, options);
    },
  };
}
