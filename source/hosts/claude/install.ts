// Claude Code 2.1.332 integration: common-memory's hooks merged into settings.json in the config
// dir (HOSTS.md 2.4). Claude has no per-hook trust: settings hooks run as soon as they are there,
// also in `-p`. The user's other settings and hooks are kept as they are (see hook-config.ts).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLAUDE_SESSION_END_TIMEOUT_SEC, HOOK_TIMEOUT_SEC } from '../../limits.js';
import { hookCommand } from '../hook-config.js';
import type { HookEventSpec, HookPlan, HookTarget } from '../hook-config.js';

/**
 * The Claude Code events common-memory captures — the one list install and uninstall use.
 * SessionStart: a new activation and its snapshot (startup, resume, compact). UserPromptSubmit: the
 * prompt candidate (Claude's limit for it is 30 s; ours is below). PostToolUse: a refresh point
 * (seed 002) and, for a successful memory_get MCP call, a read for the ledger. Stop: a turn ended.
 * SubagentStart: the hint of what the root read, for the subagent. SubagentStop: a subagent's
 * transcript (agent_transcript_path) is complete. PreCompact/PostCompact: the transcript gets a compact boundary. SessionEnd: the
 * activation ends; its default 1.5 s limit is lifted by our per-hook timeout.
 * Not hooked: StopFailure (Claude does not wait for it; a node hook is killed before it runs),
 * PreToolUse/PermissionRequest (in front of every tool call), WorktreeCreate/Remove (a hook there
 * replaces git worktree handling), and display/notification events.
 */
export const CLAUDE_HOOK_EVENTS: readonly HookEventSpec[] = [
  { event: 'SessionStart', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'UserPromptSubmit', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'PostToolUse', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'Stop', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'SubagentStart', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'SubagentStop', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'PreCompact', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'PostCompact', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'SessionEnd', timeoutSec: CLAUDE_SESSION_END_TIMEOUT_SEC },
];

/** --claude-dir, else $CLAUDE_CONFIG_DIR, else ~/.claude — where Claude Code itself looks. */
export function resolveClaudeDir(flag?: string): string {
  const chosen = flag ?? process.env['CLAUDE_CONFIG_DIR'];
  return chosen ? resolve(chosen) : join(homedir(), '.claude');
}

export function claudeTarget(options: { claudeDir?: string; home?: string }): HookTarget {
  const dir = resolveClaudeDir(options.claudeDir);
  return {
    client: 'claude',
    path: join(dir, 'settings.json'),
    events: CLAUDE_HOOK_EVENTS,
    command: hookCommand('claude', options.home),
  };
}

/** Settings that keep installed hooks from running. */
export function claudeSettingsWarnings(plan: HookPlan): string[] {
  if (plan.before === null) return [];
  try {
    const settings = JSON.parse(plan.before.replace(/^\uFEFF/, '')) as Record<string, unknown>;
    return settings['disableAllHooks'] === true
      ? [`${plan.path} sets "disableAllHooks": true, so Claude Code will not run these hooks until you remove it.`]
      : [];
  } catch {
    return [];
  }
}
