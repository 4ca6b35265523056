// Codex CLI 0.171.0 integration: common-memory's hooks in $CODEX_HOME/hooks.json (HOSTS.md 1.4).
//
// Codex runs user hooks only once they are trusted, and trust is keyed by the hook's position
// (`<hooks.json>:<event_snake>:<group>:<handler>`) and a hash of its definition. We never write
// that trust (config.toml is the user's, and the hash input is undocumented — the seed: "all hooks
// keep the host's trust mechanism; no trust store is written"); we explain how to grant it and
// name the exact keys. The warnings below need only a line scan of config.toml; the one change we
// make there, the MCP server's table, goes through a TOML library (hosts/mcp-config.ts).
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CODEX_CLAMPED_HOOK_TIMEOUT_SEC, HOOK_TIMEOUT_SEC } from '../../limits.js';
import { readConfigText } from '../config-file.js';
import { hookCommand } from '../hook-config.js';
import type { HookEventSpec, HookPlan, HookTarget } from '../hook-config.js';

/**
 * The Codex events common-memory captures — the one list install and uninstall use.
 * SessionStart: a new activation and its snapshot. UserPromptSubmit: the prompt candidate.
 * PostToolUse: a refresh point (seed 002) and, for a successful memory_get MCP call, a read for the
 * ledger. SubagentStart: the hint of what the root read, for the subagent. Stop: a turn ended
 * normally. Interrupt: a turn ended by the user (Stop does not fire then). PreCompact/PostCompact:
 * the transcript is rewritten. SessionEnd: the activation ends (also after a failed turn). Not
 * hooked: PreToolUse and PermissionRequest (would sit in front of every tool call), SubagentStop
 * (subagent threads have their own rollouts).
 */
export const CODEX_HOOK_EVENTS: readonly HookEventSpec[] = [
  { event: 'SessionStart', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'UserPromptSubmit', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'PostToolUse', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'SubagentStart', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'Stop', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'Interrupt', timeoutSec: CODEX_CLAMPED_HOOK_TIMEOUT_SEC },
  { event: 'PreCompact', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'PostCompact', timeoutSec: HOOK_TIMEOUT_SEC },
  { event: 'SessionEnd', timeoutSec: CODEX_CLAMPED_HOOK_TIMEOUT_SEC },
];

/** --codex-home, else $CODEX_HOME, else ~/.codex — where Codex itself looks. */
export function resolveCodexHome(flag?: string): string {
  const chosen = flag ?? process.env['CODEX_HOME'];
  return chosen ? resolve(chosen) : join(homedir(), '.codex');
}

export function codexTarget(options: { codexHome?: string; home?: string }): HookTarget {
  const codexHome = resolveCodexHome(options.codexHome);
  return {
    client: 'codex',
    path: join(codexHome, 'hooks.json'),
    events: CODEX_HOOK_EVENTS,
    command: hookCommand('codex', options.home),
  };
}

/** SessionStart → session_start: the event part of Codex's trust key. */
const snake = (event: string): string =>
  event.replace(/[A-Z]/g, (c, i: number) => `${i === 0 ? '' : '_'}${c.toLowerCase()}`);

export interface CodexTrust {
  /** The hooks.state keys of our entries, as Codex will list them. */
  readonly keys: readonly string[];
  /** How to trust them; printed after an install that changed something (and by --dry-run). */
  readonly text: string;
}

export function codexTrust(plan: HookPlan): CodexTrust {
  const keys = plan.changes
    .filter((c) => c.change !== 'remove')
    .map((c) => `${plan.path}:${snake(c.event)}:${c.group}:0`);
  return { keys, text: trustText(plan.path, keys) };
}

function trustText(hooksPath: string, keys: readonly string[]): string {
  const rpc = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"me","version":"0"}}}',
    '{"jsonrpc":"2.0","method":"initialized"}',
    '{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{}}',
  ];
  return [
    'Codex hook trust: Codex reads these hooks but silently does not run them until you trust them.',
    'common-memory does not trust them for you (in config.toml it writes only its MCP server). Choose one:',
    '  1. Interactive: start `codex`. It says "Hooks need review"; choose "Trust all and continue".',
    '     Or type /hooks in Codex to review and trust each hook.',
    '  2. One run only: `codex exec --dangerously-bypass-hook-trust …` runs them without trust (and says so).',
    '  3. Scripted: list the hooks with their hashes —',
    `       (printf '%s\\n' '${rpc.join("' '")}'; sleep 3) | codex app-server`,
    `     and, for each common-memory hook, copy its "currentHash" into ${join(dirname(hooksPath), 'config.toml')}:`,
    '       [hooks.state."<key>"]',
    '       trusted_hash = "<currentHash>"',
    `     Our keys (${hooksPath}:<event>:<group>:<handler>):`,
    ...keys.map((key) => `       ${key}`),
    'Any later change to a hook (its command, timeout, matcher or statusMessage, or its position) needs trusting again.',
  ].join('\n');
}

/** What we can tell about config.toml without a TOML parser: hooks switched off, or inline [hooks] tables. */
export function codexConfigWarnings(codexHome: string): string[] {
  const path = join(codexHome, 'config.toml');
  let text: string;
  try {
    text = readConfigText(path) ?? '';
  } catch {
    // Unreadable or over the size bound (refused unread): the MCP plan, which must read it, says so.
    return [];
  }
  const warnings: string[] = [];
  let table = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = header[1]!;
      if (/^hooks\.(?!state\b)/.test(table) || table === 'hooks') {
        warnings.push(
          `${path} also defines hooks inline ([${table}]); Codex warns when both it and hooks.json are used.`,
        );
      }
      continue;
    }
    if (
      (table === 'features' && /^hooks\s*=\s*false$/.test(line)) ||
      (table === '' && /^features\.hooks\s*=\s*false$/.test(line))
    ) {
      warnings.push(
        `${path} turns Codex hooks off (features.hooks = false): the installed hooks will not run until you turn them back on.`,
      );
    }
  }
  return [...new Set(warnings)];
}

/** After an uninstall, the user's own groups that moved up get new trust keys. */
export function codexShiftWarnings(plan: HookPlan): string[] {
  return plan.shifted.map(
    (s) =>
      `Your hook group hooks.${s.event}[${s.from}] moves to index ${s.to}; Codex keys trust by position, so it will need trusting again.`,
  );
}
