// Registering `common-memory mcp` as an MCP server of Claude Code (`.claude.json` → `mcpServers`)
// and Codex (`config.toml` → `[mcp_servers.common-memory]`), the way the hooks are installed:
// plan (pure), show, apply transactionally; everything else in the file keeps its bytes.
//
// Ownership is the server name plus the exact entry we write: `common-memory` whose command is
// a node and whose args run a common-memory bin's `mcp` (for the same data home). Such an entry
// written by an earlier install (another node or package path) is rewritten in place; anything
// else under our name is never touched — the plan is refused with what differs.
// Claude Code writes its own keys into `.claude.json` while it runs: only `mcpServers` changes,
// every other byte is kept (json-preserving). config.toml is edited with a TOML library that
// patches the document (comments, order and layout kept), never by string surgery, and the
// result is parsed back and checked to hold exactly the intended change.
import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseToml, patch as patchToml, stringify as stringifyToml } from '@decimalturn/toml-patch';
import { unifiedDiff } from '../ground/unified-diff.js';
import {
  InvalidConfigError,
  loadJsonObject,
  readConfigText,
  replaceFileAtomically,
  rewriteJson,
} from './config-file.js';
import type { LoadedJson, WriteFault } from './config-file.js';
import type { HookAction, HookClient, Refusal } from './hook-config.js';
import { BIN_PATH } from './hook-config.js';
import { outdatedReasons } from './install-health.js';
import type { OutdatedReason } from './install-health.js';

/** The name clients list the server under: tools appear as mcp__common-memory__memory_get. */
export const MCP_SERVER_NAME = 'common-memory';

export interface McpServerEntry {
  readonly command: string;
  readonly args: readonly string[];
}

export interface McpPlan {
  readonly client: HookClient;
  readonly action: HookAction;
  readonly path: string;
  /** Where the entry lives in the file, as the client names it. */
  readonly key: string;
  readonly entry: McpServerEntry;
  readonly before: string | null;
  /** null: nothing to write (unchanged, absent on uninstall, or refused). */
  readonly after: string | null;
  readonly change: 'add' | 'update' | 'remove' | 'unchanged' | 'absent';
  readonly refusals: readonly Refusal[];
  /** For `update`: why the entry an earlier install wrote is outdated (a missing path, another Node). */
  readonly reasons: readonly OutdatedReason[];
  readonly diff: string;
}

/** `<node> <bin> mcp [--home <home>]`: like the hooks, no PATH lookup when the client starts it. */
export function mcpEntry(home?: string): McpServerEntry {
  return { command: process.execPath, args: [BIN_PATH, 'mcp', ...(home === undefined ? [] : ['--home', home])] };
}

/**
 * Claude Code keeps `.claude.json` in its config dir when CLAUDE_CONFIG_DIR (or --claude-dir)
 * names one, and in the home directory otherwise (not inside ~/.claude).
 */
export function claudeMcpPath(flag?: string): string {
  const chosen = flag ?? process.env['CLAUDE_CONFIG_DIR'];
  // Absolute, as the hooks' settings.json is: a relative --claude-dir named it relative in messages and --json.
  return chosen ? resolve(chosen, '.claude.json') : join(homedir(), '.claude.json');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The data home an entry of ours serves (undefined: the default), or null when the entry is not ours. */
function ourHome(value: unknown, claude: boolean): { home: string | undefined } | null {
  if (!isObject(value)) return null;
  const allowed = claude ? ['type', 'command', 'args'] : ['command', 'args'];
  if (!Object.keys(value).every((key) => allowed.includes(key))) return null;
  if (claude && value['type'] !== 'stdio') return null;
  const { command, args } = value;
  if (typeof command !== 'string' || !Array.isArray(args) || !args.every((a) => typeof a === 'string')) return null;
  const [bin, verb, ...rest] = args as string[];
  if (!bin || !/\/bin\/common-memory\.c?js$/.test(bin) || verb !== 'mcp') return null;
  if (rest.length === 0) return { home: undefined };
  if (rest.length === 2 && rest[0] === '--home') return { home: rest[1] };
  return null;
}

const sameEntry = (value: unknown, entry: McpServerEntry) =>
  isObject(value) && value['command'] === entry.command && JSON.stringify(value['args']) === JSON.stringify(entry.args);

interface Decision {
  change: McpPlan['change'];
  refusal?: Refusal;
  reasons?: OutdatedReason[];
}

function decide(
  existing: unknown,
  entry: McpServerEntry,
  action: HookAction,
  where: string,
  path: string,
  claude: boolean,
): Decision {
  const client = claude ? 'claude' : 'codex';
  if (existing === undefined) return { change: action === 'install' ? 'add' : 'absent' };
  const ours = ourHome(existing, claude);
  const wanted = ourHome(claude ? { type: 'stdio', ...entry } : entry, claude);
  if (ours === null || ours.home !== wanted?.home) {
    const why =
      ours === null
        ? 'it is not the entry "common-memory install" writes'
        : `it serves another data home (${ours.home ?? 'the default'})`;
    const fix =
      action === 'install'
        ? `Remove or rename that entry, then run "common-memory install ${client}" again.`
        : 'Remove it by hand if you no longer want it.';
    return {
      change: 'unchanged',
      refusal: {
        code: 'not_ours',
        where,
        message: `${where} in ${path} is an MCP server named "${MCP_SERVER_NAME}", but ${why}; common-memory never overwrites or removes it. ${fix}`,
      },
    };
  }
  if (action === 'uninstall') return { change: 'remove' };
  if (sameEntry(existing, entry) && (!claude || (existing as Record<string, unknown>)['type'] === 'stdio'))
    return { change: 'unchanged' };
  const found = existing as { command: string; args: string[] };
  return {
    change: 'update',
    reasons: outdatedReasons(
      { node: found.command, file: found.args[0]! },
      { node: entry.command, file: entry.args[0]! },
    ),
  };
}

type PlanBase = Omit<McpPlan, 'after' | 'change' | 'refusals' | 'reasons' | 'diff'>;

function refusedPlan(base: PlanBase, refusal: Refusal): McpPlan {
  return { ...base, after: null, change: 'unchanged', refusals: [refusal], reasons: [], diff: '' };
}

function finish(
  base: PlanBase,
  change: McpPlan['change'],
  after: string | null,
  reasons: OutdatedReason[] = [],
): McpPlan {
  const written = change === 'add' || change === 'update' || change === 'remove' ? after : null;
  const label = base.before === null ? '/dev/null' : base.path;
  return {
    ...base,
    after: written,
    change,
    refusals: [],
    reasons,
    diff: written === null ? '' : unifiedDiff(base.before ?? '', written, label, base.path),
  };
}

export function planClaudeMcp(action: HookAction, path: string, entry: McpServerEntry): McpPlan {
  const where = `mcpServers.${MCP_SERVER_NAME}`;
  let loaded: LoadedJson;
  try {
    loaded = loadJsonObject(path);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    const base = { client: 'claude' as const, action, path, key: where, entry, before: null };
    return refusedPlan(base, { code: 'invalid_json', where: path, message: error.message });
  }
  const base = { client: 'claude' as const, action, path, key: where, entry, before: loaded.text };
  const root = structuredClone(loaded.value);
  const servers = root['mcpServers'];
  if (servers !== undefined && !isObject(servers)) {
    return refusedPlan(base, {
      code: 'unexpected_shape',
      where: 'mcpServers',
      message: `"mcpServers" in ${path} is not an object. Fix it, then try again; nothing was written.`,
    });
  }
  const decision = decide(servers?.[MCP_SERVER_NAME], entry, action, where, path, true);
  if (decision.refusal) return refusedPlan(base, decision.refusal);
  const next: Record<string, unknown> = { ...(servers ?? {}) };
  if (decision.change === 'remove') delete next[MCP_SERVER_NAME];
  else next[MCP_SERVER_NAME] = { type: 'stdio', command: entry.command, args: [...entry.args] };
  if (Object.keys(next).length > 0) root['mcpServers'] = next;
  else delete root['mcpServers'];
  return finish(
    base,
    decision.change,
    decision.change === 'unchanged' || decision.change === 'absent' ? null : rewriteJson(loaded, root),
    decision.reasons,
  );
}

const readText = (path: string): string | null => readConfigText(path);

/** JSON with object keys sorted: the same value gives the same text whatever the key order. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isObject(item) && !(item instanceof Date)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}

/** New tables as `[mcp_servers.common-memory]` sections, not inline tables. */
const TOML_FORMAT = { inlineTableStart: 3 };

/**
 * Our server added as a `[mcp_servers.common-memory]` section at the end of the file, written by
 * the TOML library (its stringify of just that table): every byte of the user's file stays where it
 * was. The library's patch would put a new table under an existing implicit `mcp_servers` as a
 * dotted inline key at the top (`mcp_servers.common-memory = {…}`), unlike the user's own sections.
 * Where a section cannot be appended (the user wrote `mcp_servers` as an inline table), the patch is
 * used; either way the result is parsed back and checked.
 */
function appendedSection(before: string, next: Record<string, unknown>, where: string): string {
  const ours = (next['mcp_servers'] as Record<string, unknown>)[MCP_SERVER_NAME];
  // The library writes the parent's empty `[mcp_servers]` header first: ours starts at our own header.
  const text = stringifyToml(
    { mcp_servers: { [MCP_SERVER_NAME]: ours } },
    { ...TOML_FORMAT, trailingNewline: 1, bracketSpacing: false },
  );
  const start = text.indexOf(`[${where}]\n`);
  if (start < 0) return patchToml(before, next, TOML_FORMAT);
  const section = text.slice(start);
  const appended = before === '' ? section : `${before}${before.endsWith('\n') ? '' : '\n'}\n${section}`;
  try {
    if (sortedJson(parseToml(appended)) === sortedJson(next)) return appended;
  } catch {
    // Not appendable (e.g. an inline `mcp_servers = {…}` cannot be extended by a section).
  }
  return patchToml(before, next, TOML_FORMAT);
}

export function planCodexMcp(action: HookAction, path: string, entry: McpServerEntry): McpPlan {
  const where = `mcp_servers.${MCP_SERVER_NAME}`;
  const before = readText(path);
  const base = { client: 'codex' as const, action, path, key: where, entry, before };
  let value: Record<string, unknown>;
  try {
    value = before === null ? {} : (parseToml(before) as Record<string, unknown>);
  } catch (error) {
    return refusedPlan(base, {
      code: 'invalid_json',
      where: path,
      message: `${path} is not valid TOML (${(error as Error).message.split('\n')[0]}). Fix it, then try again; nothing was written.`,
    });
  }
  const servers = value['mcp_servers'];
  if (servers !== undefined && !isObject(servers)) {
    return refusedPlan(base, {
      code: 'unexpected_shape',
      where: 'mcp_servers',
      message: `"mcp_servers" in ${path} is not a table. Fix it, then try again; nothing was written.`,
    });
  }
  const decision = decide(servers?.[MCP_SERVER_NAME], entry, action, where, path, false);
  if (decision.refusal) return refusedPlan(base, decision.refusal);
  if (decision.change === 'unchanged' || decision.change === 'absent') return finish(base, decision.change, null);
  const next = structuredClone(value);
  const nextServers: Record<string, unknown> = { ...((next['mcp_servers'] as Record<string, unknown>) ?? {}) };
  if (decision.change === 'remove') delete nextServers[MCP_SERVER_NAME];
  else nextServers[MCP_SERVER_NAME] = { command: entry.command, args: [...entry.args] };
  if (Object.keys(nextServers).length > 0) next['mcp_servers'] = nextServers;
  else delete next['mcp_servers'];
  const after =
    decision.change === 'add' ? appendedSection(before ?? '', next, where) : patchToml(before ?? '', next, TOML_FORMAT);
  // The library's edit is checked, not trusted: the new file must parse to exactly the intended value.
  if (sortedJson(parseToml(after)) !== sortedJson(next)) {
    return refusedPlan(base, {
      code: 'unexpected_shape',
      where: path,
      message: `${path} could not be changed without touching other settings; add [${where}] with command = ${JSON.stringify(entry.command)} and args = ${JSON.stringify(entry.args)} by hand.`,
    });
  }
  return finish(base, decision.change, after, decision.reasons);
}

/** Writes an MCP plan; an unchanged plan writes nothing. */
export function applyMcpPlan(plan: McpPlan, fault?: WriteFault): { written: boolean; backupPath: string | null } {
  if (plan.after === null) return { written: false, backupPath: null };
  const result = replaceFileAtomically(plan.path, plan.before, plan.after, fault);
  return { written: true, backupPath: result.backupPath };
}

/** Puts the file back as it was planned from, after a later step of the same install failed. */
export function revertMcpPlan(plan: McpPlan): void {
  if (plan.after === null) return;
  if (plan.before !== null) replaceFileAtomically(plan.path, plan.after, plan.before);
  else if (readText(plan.path) === plan.after) rmSync(plan.path);
}
