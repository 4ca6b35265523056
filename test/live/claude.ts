// Claude Code 2.1.332 in a temporary config dir, against a fake Messages server (HOSTS.md 2.2–2.4).
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { locateClients } from './clients.js';
import { runChild } from './child.js';
import type { ChildResult } from './child.js';
import { parseJsonLines } from './jsonl.js';
import { baseEnv, hookCommandFor, makeSandbox, resolveEnv } from './sandbox.js';
import type { EnvOption, HookCommand, Sandbox } from './sandbox.js';

/**
 * The events common-memory can use. Left out on purpose: WorktreeCreate/WorktreeRemove (a
 * hook there *replaces* git worktree handling), FileChanged/CwdChanged/ConfigChange and the
 * other events that cannot fire in `-p` offline runs (HOSTS.md 2.4).
 */
export const CLAUDE_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'MessageDisplay',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
] as const;
export type ClaudeHookEvent = (typeof CLAUDE_HOOK_EVENTS)[number];

/**
 * At most 20 characters, so that "the key" and "its last 20 characters" (the form Claude
 * keeps in customApiKeyResponses.approved) are the same string.
 */
export const FAKE_ANTHROPIC_KEY = 'fake-key-0123456789';

export interface ClaudeSandboxOptions {
  /** Fake Messages server base URL (no /v1). */
  readonly baseUrl: string;
  /** Installed for every event in `hookEvents`; omitted means no hooks in settings.json. */
  readonly hookCommand?: HookCommand;
  readonly hookEvents?: readonly ClaudeHookEvent[];
  /**
   * Per-hook timeout in seconds (default 30). Also lifts SessionEnd's 1.5 s default, which a
   * loaded two-core machine can overrun with a plain `node` start.
   */
  readonly hookTimeoutSec?: number;
  /** Added to every run's environment (hooks inherit it). */
  readonly env?: EnvOption;
  /** Merged over the generated settings.json (shallow). */
  readonly settings?: Readonly<Record<string, unknown>>;
}

export interface ClaudeSandbox extends Sandbox {
  readonly client: 'claude';
  readonly configDir: string;
  readonly settingsPath: string;
  readonly env: Readonly<Record<string, string>>;
}

export async function createClaudeSandbox(options: ClaudeSandboxOptions): Promise<ClaudeSandbox> {
  locateClients();
  const sandbox = await makeSandbox('claude');
  const configDir = join(sandbox.home, '.claude');
  const settingsPath = join(configDir, 'settings.json');
  await mkdir(configDir, { recursive: true });

  const settings: Record<string, unknown> = {};
  if (options.hookCommand !== undefined) {
    const command = options.hookCommand;
    const timeout = options.hookTimeoutSec ?? 30;
    const events = options.hookEvents ?? CLAUDE_HOOK_EVENTS;
    // No matcher: matches every tool / source, and is ignored where matchers do not apply.
    settings['hooks'] = Object.fromEntries(
      events.map((event) => [
        event,
        [{ hooks: [{ type: 'command', command: hookCommandFor(command, event), timeout }] }],
      ]),
    );
  }
  await writeFile(settingsPath, JSON.stringify({ ...settings, ...options.settings }, null, 2) + '\n');
  // HOSTS.md 2.2: what an unattended run needs to skip onboarding, trust and key prompts.
  await writeFile(
    join(configDir, '.claude.json'),
    JSON.stringify(
      {
        hasCompletedOnboarding: true,
        projects: { [sandbox.cwd]: { hasTrustDialogAccepted: true } },
        customApiKeyResponses: { approved: [FAKE_ANTHROPIC_KEY], rejected: [] },
      },
      null,
      2,
    ) + '\n',
  );

  const env = {
    ...baseEnv(sandbox.home),
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    // HOSTS.md 2.2: no side traffic (models, count_tokens, telemetry, updates, error reports).
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...resolveEnv(options.env, sandbox),
  };
  return { ...sandbox, client: 'claude', configDir, settingsPath, env };
}

export interface ClaudeRunOptions {
  readonly prompt: string;
  /** `--resume <id>`: same session id, same transcript (HOSTS.md 2.4). */
  readonly resumeSessionId?: string;
  /** `--continue`: the latest session of this cwd. */
  readonly continueLatest?: boolean;
  /** Default ['Bash(echo *)']: without a rule `-p` denies Bash (PermissionRequest). */
  readonly allowedTools?: readonly string[];
  /** Default 90 s. */
  readonly timeoutMs?: number;
  readonly extraArgs?: readonly string[];
}

export interface ClaudeRun extends ChildResult {
  readonly args: readonly string[];
  /** The real session id (the one whose transcript exists). */
  readonly sessionId: string | null;
  readonly transcriptPath: string | null;
  /** The stream-json lines, parsed. */
  readonly events: ReadonlyArray<Record<string, unknown>>;
}

export async function runClaude(sandbox: ClaudeSandbox, options: ClaudeRunOptions): Promise<ClaudeRun> {
  const { claudeBinary } = locateClients();
  const allowed = options.allowedTools ?? ['Bash(echo *)'];
  const args = [
    // The prompt comes right after -p: --allowedTools is variadic and would swallow it.
    '-p',
    options.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    ...(options.resumeSessionId !== undefined ? ['--resume', options.resumeSessionId] : []),
    ...(options.continueLatest === true ? ['--continue'] : []),
    ...allowed.map((rule) => `--allowedTools=${rule}`),
    ...(options.extraArgs ?? []),
  ];
  const result = await runChild(claudeBinary, args, {
    cwd: sandbox.cwd,
    env: sandbox.env,
    timeoutMs: options.timeoutMs ?? 90_000,
  });
  const events = parseJsonLines(result.stdout);
  // With --continue the stream shows a throwaway id on some lines (HOSTS.md 2.4): prefer an
  // id that has a transcript, trying the result line first.
  const candidates = [
    ...events.filter((e) => e['type'] === 'result'),
    ...events.filter((e) => e['type'] === 'system' && e['subtype'] === 'init'),
    ...events,
  ]
    .map((e) => e['session_id'])
    .filter((id): id is string => typeof id === 'string');
  if (options.resumeSessionId !== undefined) candidates.push(options.resumeSessionId);
  let sessionId: string | null = null;
  let transcriptPath: string | null = null;
  for (const id of new Set(candidates)) {
    const path = await findTranscript(sandbox.configDir, id);
    if (path !== null) {
      sessionId = id;
      transcriptPath = path;
      break;
    }
  }
  sessionId ??= candidates[0] ?? null;
  return { ...result, args, sessionId, transcriptPath, events };
}

/** `<config dir>/projects/<slug>/<session_id>.jsonl`; searched so the slug rule is not re-derived here. */
export async function findTranscript(configDir: string, sessionId: string): Promise<string | null> {
  const projects = join(configDir, 'projects');
  let slugs: string[];
  try {
    slugs = await readdir(projects);
  } catch {
    return null;
  }
  for (const slug of slugs) {
    const path = join(projects, slug, `${sessionId}.jsonl`);
    if (existsSync(path)) return path;
  }
  return null;
}
