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
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readConfigText } from './config-file.js';
import { claudeSettingsWarnings, claudeTarget, resolveClaudeDir } from './claude/install.js';
import { codexConfigWarnings, codexShiftWarnings, codexTarget, codexTrust, resolveCodexHome } from './codex/install.js';
import type { CodexTrust } from './codex/install.js';
import { assertWritable, type WriteFault } from './config-file.js';
import { applyHookPlan, assertApplicable, planHooks } from './hook-config.js';
import { applyMcpPlan, claudeMcpPath, mcpEntry, planClaudeMcp, planCodexMcp, revertMcpPlan } from './mcp-config.js';
import type { McpPlan } from './mcp-config.js';
import type { HookAction, HookApplyResult, HookClient, HookPlan } from './hook-config.js';
import { BIN_PATH } from './hook-config.js';
import { isBroken, repairCommand, uniqueReasons } from './install-health.js';
import type { OutdatedReason } from './install-health.js';
import { planPiExtension } from './pi/extension-install.js';

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

/** Why the entries an earlier install wrote are outdated, hooks and MCP server together, each once. */
export const planOutdatedReasons = (plan: IntegrationPlan): OutdatedReason[] =>
  uniqueReasons([...plan.changes.flatMap((change) => change.reasons ?? []), ...plan.mcp.reasons]);

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
  // Both files are checked before either is written: a read-only one refuses the whole change.
  if (plan.mcp.after !== null) assertWritable(plan.mcp.path);
  if (plan.after !== null) assertWritable(plan.path);
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

/** Installed entries of ours whose command names a path that is gone: the client runs them and nothing is captured. */
export interface BrokenIntegration {
  readonly client: HookClient | 'pi';
  /** The config file holding them. */
  readonly path: string;
  readonly reasons: readonly OutdatedReason[];
  /** The install command, with this node and shim, that rewrites them. */
  readonly fix: string;
}

export interface IntegrationDirs {
  readonly codexHome?: string | undefined;
  readonly claudeDir?: string | undefined;
  readonly piDir?: string | undefined;
  /** A data home the user chose explicitly (as install takes it). */
  readonly home?: string | undefined;
}

/**
 * What `status` and the Dashboard warn about: for each client, the entries an earlier install
 * wrote that name a node or shim (or pi extension) that no longer exists. Reads the config files
 * only; a file that cannot be read or planned is no warning (install says why when it is run).
 */
export function brokenIntegrations(dirs: IntegrationDirs = {}): BrokenIntegration[] {
  const found: BrokenIntegration[] = [];
  const flag = (name: string, value: string | undefined) => (value === undefined ? [] : [name, value]);
  const home = flag('--home', dirs.home);
  for (const client of INTEGRATION_CLIENTS) {
    const configDir = client === 'codex' ? dirs.codexHome : dirs.claudeDir;
    try {
      const planned = planInstall(client, {
        ...(configDir === undefined ? {} : { configDir }),
        ...(dirs.home === undefined ? {} : { home: dirs.home }),
      });
      const reasons = planOutdatedReasons(planned).filter(isBroken);
      const dirFlag = flag(client === 'codex' ? '--codex-home' : '--claude-dir', configDir);
      if (reasons.length > 0)
        found.push({
          client,
          path: planned.path,
          reasons,
          fix: repairCommand(process.execPath, BIN_PATH, client, [...dirFlag, ...home]),
        });
    } catch {
      // unreadable: not ours to judge here
    }
  }
  try {
    const pi = planPiExtension('install', dirs.piDir === undefined ? {} : { piDir: dirs.piDir });
    const reasons = pi.reasons.filter(isBroken);
    if (reasons.length > 0)
      found.push({
        client: 'pi',
        path: pi.path,
        reasons,
        fix: repairCommand(process.execPath, BIN_PATH, 'pi', flag('--pi-dir', dirs.piDir)),
      });
  } catch {
    // as above
  }
  return found;
}

const CLIENT_LABELS: Record<BrokenIntegration['client'], string> = {
  codex: "Codex's hooks",
  claude: "Claude Code's hooks",
  pi: "pi's extension",
};

/** One warning a broken integration: what is gone, that nothing is captured, the command that repairs it. */
export function brokenIntegrationText(broken: BrokenIntegration): string {
  const why = broken.reasons.map((reason) => reason.message).join('; ');
  return `${CLIENT_LABELS[broken.client]} in ${broken.path} cannot run: ${why}. Nothing is captured until you repair them: ${broken.fix}`;
}

/** Installed hooks of a client from which no event arrived since they were written: for Codex, most likely not trusted yet. */
export interface SilentHooks {
  readonly client: 'codex';
  /** The hooks file, and when it was last written (ISO): our hooks are in it since then. */
  readonly path: string;
  readonly writtenAt: string;
  /** When the client's last event arrived, or null: never. */
  readonly lastEventAt: string | null;
  /** Whether config.toml names a trusted hash for every hook of ours (trusted once; a later edit needs trusting again). */
  readonly trustRecorded: boolean;
  /** The client's trust step, in one line. */
  readonly fix: string;
}

/**
 * What `status` and the Dashboard warn about: Codex's hooks of ours are all in its hooks.json, yet
 * no Codex event reached the store since that file was written. Codex reads untrusted hooks and
 * silently does not run them, so nothing is captured and nothing says so; hooks that run leave an
 * event at the next Codex session. (Also shown when Codex simply was not used since: it says so.)
 */
export function silentHooks(dirs: IntegrationDirs, lastEventAt: { codex: string | null }): SilentHooks[] {
  try {
    const { state, plan: planned } = integrationStatus('codex', {
      ...(dirs.codexHome === undefined ? {} : { configDir: dirs.codexHome }),
      ...(dirs.home === undefined ? {} : { home: dirs.home }),
    });
    if (state !== 'installed') return [];
    const writtenMs = statSync(planned.path).mtimeMs;
    const last = lastEventAt.codex === null ? null : Date.parse(lastEventAt.codex);
    if (last !== null && last >= writtenMs) return [];
    const keys = codexTrust(planned).keys;
    const config = readConfigText(join(planned.configDir, 'config.toml')) ?? '';
    const trustRecorded = keys.every((key) => config.includes(`[hooks.state.${JSON.stringify(key)}]`));
    return [
      {
        client: 'codex',
        path: planned.path,
        writtenAt: new Date(writtenMs).toISOString(),
        lastEventAt: lastEventAt.codex,
        trustRecorded,
        fix: 'start codex and choose "Trust all and continue" (or type /hooks in Codex); for codex exec: --dangerously-bypass-hook-trust; common-memory install codex --dry-run shows the scripted way',
      },
    ];
  } catch {
    return []; // unreadable: install says why when it is run
  }
}

export function silentHooksText(silent: SilentHooks): string {
  const since =
    silent.lastEventAt === null
      ? 'no Codex event ever arrived'
      : `no Codex event arrived since (the last at ${silent.lastEventAt})`;
  const trust = silent.trustRecorded
    ? 'config.toml trusts them, but a changed hook needs trusting again'
    : 'config.toml does not trust them yet';
  return `Codex's hooks in ${silent.path} were written at ${silent.writtenAt} and ${since}: Codex runs hooks only once trusted (${trust}), and nothing is captured until then. To trust them, ${silent.fix}.`;
}
