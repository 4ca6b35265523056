// Codex CLI 0.171.0 in a temporary CODEX_HOME, against a fake Responses server (HOSTS.md 1.2–1.4).
import { appendFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { locateClients } from './clients.js';
import { runChild } from './child.js';
import type { ChildResult } from './child.js';
import { trustedHashToml, listCodexHooks } from './codex-trust.js';
import { baseEnv, hookCommandFor, makeSandbox, resolveEnv } from './sandbox.js';
import type { EnvOption, HookCommand, Sandbox } from './sandbox.js';
import { parseJsonLines } from './jsonl.js';

/** All 12 Codex hook events (HOSTS.md 1.4). */
export const CODEX_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'Stop',
  'Interrupt',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
] as const;
export type CodexHookEvent = (typeof CODEX_HOOK_EVENTS)[number];

/** Codex clamps these to 3 s and warns; we write 3 s so the warning does not pollute runs. */
const CLAMPED_EVENTS: ReadonlySet<string> = new Set(['SessionEnd', 'Interrupt']);
const CLAMPED_TIMEOUT_SEC = 3;

/**
 * How the hooks get trusted (Codex silently skips untrusted user hooks):
 * - 'bypass': `--dangerously-bypass-hook-trust` on every exec (what the fixtures used; costs
 *   two warning items in the --json stream).
 * - 'trusted-hash': ask `codex app-server` (hooks/list) for each hook's currentHash and write
 *   it as `[hooks.state."<key>"] trusted_hash` in config.toml — the persistent trust a user
 *   gets, so runs need no flag. Costs one app-server start (~1 s) per sandbox.
 */
export type CodexTrustMode = 'bypass' | 'trusted-hash';

export interface CodexSandboxOptions {
  /** Fake Responses base URL, ending in /v1. */
  readonly baseUrl: string;
  /** Installed for every event in `hookEvents`; omitted means no hooks.json at all. */
  readonly hookCommand?: HookCommand;
  readonly hookEvents?: readonly CodexHookEvent[];
  /** Per-hook timeout in seconds (default 30; SessionEnd/Interrupt are capped at 3). */
  readonly hookTimeoutSec?: number;
  readonly trust?: CodexTrustMode;
  /** Added to every run's environment (hooks inherit it). */
  readonly env?: EnvOption;
  /** Raw TOML appended to config.toml (e.g. `model_auto_compact_token_limit = 50`). */
  readonly extraConfigToml?: string;
}

export interface CodexSandbox extends Sandbox {
  readonly client: 'codex';
  readonly codexHome: string;
  readonly configPath: string;
  readonly hooksPath: string | null;
  readonly trust: CodexTrustMode;
  readonly env: Readonly<Record<string, string>>;
}

export async function createCodexSandbox(options: CodexSandboxOptions): Promise<CodexSandbox> {
  const { codexLauncher } = locateClients();
  const sandbox = await makeSandbox('codex');
  const codexHome = join(sandbox.home, '.codex');
  const configPath = join(codexHome, 'config.toml');
  const trust = options.trust ?? 'bypass';
  const env = {
    ...baseEnv(sandbox.home),
    CODEX_HOME: codexHome,
    // The provider's env_key: must be non-empty, the fake server ignores it.
    FAKE_API_KEY: 'fake-key',
    ...resolveEnv(options.env, sandbox),
  };
  await mkdir(codexHome, { recursive: true });
  await writeFile(configPath, codexConfigToml(options.baseUrl, options.extraConfigToml));

  let hooksPath: string | null = null;
  if (options.hookCommand !== undefined) {
    hooksPath = join(codexHome, 'hooks.json');
    const command = options.hookCommand;
    const timeout = options.hookTimeoutSec ?? 30;
    const events = options.hookEvents ?? CODEX_HOOK_EVENTS;
    const hooks = Object.fromEntries(
      events.map((event) => [
        event,
        // No matcher: it matches every tool (and is ignored by non-tool events).
        [
          {
            hooks: [
              {
                type: 'command',
                command: hookCommandFor(command, event),
                timeout: CLAMPED_EVENTS.has(event) ? Math.min(timeout, CLAMPED_TIMEOUT_SEC) : timeout,
              },
            ],
          },
        ],
      ]),
    );
    await writeFile(hooksPath, JSON.stringify({ hooks }, null, 2) + '\n');
    if (trust === 'trusted-hash') {
      const listed = await listCodexHooks(codexLauncher, sandbox.cwd, env);
      await appendFile(configPath, trustedHashToml(listed));
      const after = await listCodexHooks(codexLauncher, sandbox.cwd, env);
      const untrusted = after.filter((h) => h.trustStatus !== 'trusted');
      if (untrusted.length > 0 || after.length !== events.length) {
        throw new Error(`Codex did not accept the trusted hashes: ${JSON.stringify(after)}`);
      }
    }
  }
  return { ...sandbox, client: 'codex', codexHome, configPath, hooksPath, trust, env };
}

/** HOSTS.md 1.2, plus the documented switches that stop Codex reaching out on its own. */
function codexConfigToml(baseUrl: string, extra: string | undefined): string {
  return [
    'model = "fake-model"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[model_providers.fake]',
    'name = "Fake Responses"',
    `base_url = ${JSON.stringify(baseUrl)}`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    // Retries at 0: a forced HTTP error fails the turn at once instead of backing off.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    extra ?? '',
    '',
  ].join('\n');
}

export interface CodexRunOptions {
  readonly prompt: string;
  /** `codex exec resume <thread> <prompt>`: appends to the same rollout. */
  readonly resumeThreadId?: string;
  /** Default 90 s. */
  readonly timeoutMs?: number;
  /** Extra exec options (before the prompt), e.g. ['-c', 'model_auto_compact_token_limit=50']. */
  readonly extraArgs?: readonly string[];
}

export interface CodexRun extends ChildResult {
  readonly args: readonly string[];
  /** From the `thread.started` event; it is also the hook `session_id`. */
  readonly threadId: string | null;
  /** $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<thread>.jsonl, if it exists. */
  readonly rolloutPath: string | null;
  /** The --json event stream, parsed (non-JSON lines dropped). */
  readonly events: ReadonlyArray<Record<string, unknown>>;
}

export async function runCodex(sandbox: CodexSandbox, options: CodexRunOptions): Promise<CodexRun> {
  const { codexLauncher } = locateClients();
  const args = [
    codexLauncher,
    'exec',
    '--skip-git-repo-check',
    '--json',
    ...(sandbox.trust === 'bypass' && sandbox.hooksPath !== null ? ['--dangerously-bypass-hook-trust'] : []),
    ...(options.extraArgs ?? []),
    ...(options.resumeThreadId !== undefined ? ['resume', options.resumeThreadId] : []),
    options.prompt,
  ];
  const result = await runChild(process.execPath, args, {
    cwd: sandbox.cwd,
    env: sandbox.env,
    timeoutMs: options.timeoutMs ?? 90_000,
  });
  const events = parseJsonLines(result.stdout);
  const started = events.find((e) => e['type'] === 'thread.started');
  const threadId = typeof started?.['thread_id'] === 'string' ? started['thread_id'] : (options.resumeThreadId ?? null);
  const rolloutPath = threadId === null ? null : await findRollout(sandbox.codexHome, threadId);
  return { ...result, args: args.slice(1), threadId, rolloutPath, events };
}

/** Rollouts are filed by local date; search rather than guess the date the run crossed. */
export async function findRollout(codexHome: string, threadId: string): Promise<string | null> {
  const root = join(codexHome, 'sessions');
  let entries: string[];
  try {
    entries = await readdir(root, { recursive: true });
  } catch {
    return null;
  }
  const match = entries.find((entry) => entry.endsWith(`-${threadId}.jsonl`));
  return match === undefined ? null : join(root, match);
}
