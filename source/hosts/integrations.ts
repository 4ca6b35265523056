// Installing common-memory's hooks into Codex and Claude Code: the API the CLI and the TUI
// Integrations screen share. Plan first (pure: reads the config file, writes nothing), show the
// plan, then apply it:
//
//   const plan = planInstall('claude', { claudeDir, home });   // or planUninstall(…)
//   plan.diff        unified diff of the config file ("" when nothing would change)
//   plan.changes     per event: add | remove | unchanged, with the group index
//   plan.refusals    non-empty → applyInstall refuses (invalid JSON, a changed or foreign
//                    common-memory entry); each message says what differs and how to fix it
//   plan.warnings    things to tell the user (hooks disabled, layout normalised, …)
//   plan.trust       Codex only: the trust keys of our hooks and the how-to text
//   const result = applyInstall(plan);  // { written, path, writtenPath, backupPath }
//
// applyInstall writes only if the file still holds the bytes the plan was made from (a
// config_conflict error otherwise: plan again), via temp file + fsync + rename, after keeping a
// backup of the previous file next to it. Applying an unchanged plan writes nothing.
// integrationStatus() summarises a client for a list view without planning twice.
import { join } from 'node:path';
import { claudeSettingsWarnings, claudeTarget, resolveClaudeDir } from './claude/install.js';
import { codexConfigWarnings, codexShiftWarnings, codexTarget, codexTrust, resolveCodexHome } from './codex/install.js';
import type { CodexTrust } from './codex/install.js';
import type { WriteFault } from './config-file.js';
import { applyHookPlan, assertApplicable, planHooks } from './hook-config.js';
import { applyMcpPlan, claudeMcpPath, mcpEntry, planClaudeMcp, planCodexMcp, revertMcpPlan } from './mcp-config.js';
import type { McpPlan } from './mcp-config.js';
import type { HookAction, HookApplyResult, HookClient, HookPlan } from './hook-config.js';

export type { HookAction, HookApplyResult, HookChange, HookClient, HookPlan, Refusal } from './hook-config.js';
export type { CodexTrust } from './codex/install.js';
export type { McpPlan } from './mcp-config.js';

export const INTEGRATION_CLIENTS: readonly HookClient[] = ['codex', 'claude'];

export interface IntegrationOptions {
  /** The client's config dir: Codex's CODEX_HOME or Claude's config dir. Default: the client's own default. */
  readonly configDir?: string;
  /** A data home the user chose explicitly; it is written into the hook command as --home. */
  readonly home?: string;
}

export interface IntegrationPlan extends HookPlan {
  readonly configDir: string;
  /** Codex only; null for Claude (no per-hook trust). */
  readonly trust: CodexTrust | null;
  /** The MCP server registration in the client's MCP config, planned and applied with the hooks. */
  readonly mcp: McpPlan;
}

/** Whether applying the plan writes anything (the hooks file, the MCP config or both). */
export const planChanges = (plan: IntegrationPlan): boolean => plan.after !== null || plan.mcp.after !== null;

/** The diff of every file the plan changes. */
export const planDiff = (plan: IntegrationPlan): string => `${plan.diff}${plan.mcp.diff}`;

function plan(client: HookClient, action: HookAction, options: IntegrationOptions): IntegrationPlan {
  const home = options.home === undefined ? {} : { home: options.home };
  if (client === 'codex') {
    const configDir = resolveCodexHome(options.configDir);
    const hooks = planHooks(codexTarget({ codexHome: configDir, ...home }), action);
    const warnings = [
      ...hooks.warnings,
      ...(action === 'install' ? codexConfigWarnings(configDir) : codexShiftWarnings(hooks)),
    ];
    const mcp = planCodexMcp(action, join(configDir, 'config.toml'), mcpEntry(options.home));
    return {
      ...hooks,
      refusals: [...hooks.refusals, ...mcp.refusals],
      warnings,
      configDir,
      trust: action === 'install' && hooks.refusals.length === 0 ? codexTrust(hooks) : null,
      mcp,
    };
  }
  const configDir = resolveClaudeDir(options.configDir);
  const hooks = planHooks(claudeTarget({ claudeDir: configDir, ...home }), action);
  const warnings = [...hooks.warnings, ...(action === 'install' ? claudeSettingsWarnings(hooks) : [])];
  const mcp = planClaudeMcp(action, claudeMcpPath(options.configDir), mcpEntry(options.home));
  return { ...hooks, refusals: [...hooks.refusals, ...mcp.refusals], warnings, configDir, trust: null, mcp };
}

export const planInstall = (client: HookClient, options: IntegrationOptions = {}): IntegrationPlan =>
  plan(client, 'install', options);
export const planUninstall = (client: HookClient, options: IntegrationOptions = {}): IntegrationPlan =>
  plan(client, 'uninstall', options);

/** Applies an install or uninstall plan (see the top of this module). `fault` is for crash drills. */
export function applyInstall(plan: IntegrationPlan, options: { fault?: WriteFault } = {}): IntegrationApplyResult {
  assertApplicable(plan);
  // The MCP config first: if the hooks file then cannot be written, the MCP config is put back,
  // so an install or uninstall takes effect in both files or in neither.
  const mcp = applyMcpPlan(plan.mcp, options.fault ? (name) => options.fault!(`mcp.${name}`) : undefined);
  try {
    return { ...applyHookPlan(plan, options.fault), mcp };
  } catch (error) {
    if (mcp.written) revertMcpPlan(plan.mcp);
    throw error;
  }
}

export interface IntegrationApplyResult extends HookApplyResult {
  readonly mcp: { written: boolean; backupPath: string | null };
}

export type IntegrationState = 'installed' | 'outdated' | 'not_installed' | 'partial' | 'blocked';

/**
 * installed: every hook present; outdated: some were written by an earlier install (install
 * rewrites them); not_installed: none; partial: some; blocked: install would be refused.
 */
export function integrationStatus(
  client: HookClient,
  options: IntegrationOptions = {},
): { state: IntegrationState; plan: IntegrationPlan } {
  const planned = planInstall(client, options);
  if (planned.refusals.length > 0) return { state: 'blocked', plan: planned };
  if (planned.changes.some((c) => c.change === 'update') || planned.mcp.change === 'update')
    return { state: 'outdated', plan: planned };
  const parts = [...planned.changes.map((c) => c.change), planned.mcp.change];
  const present = parts.filter((change) => change === 'unchanged').length;
  const state = present === parts.length ? 'installed' : present === 0 ? 'not_installed' : 'partial';
  return { state, plan: planned };
}
