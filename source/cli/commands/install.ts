// `install` / `uninstall codex|claude`: plan the hook config change, show it (--dry-run stops
// there), apply it transactionally. The work is in source/hosts/integrations.ts, shared with the TUI.
import { echoed } from '../../echo-text.js';
import { CmError } from '../../errors.js';
import {
  applyInstall,
  planChanges,
  planDiff,
  planInstall,
  planOutdatedReasons,
  planUninstall,
} from '../../hosts/integrations.js';
import type { HookClient, IntegrationApplyResult, IntegrationPlan } from '../../hosts/integrations.js';
import { assertApplicable } from '../../hosts/hook-config.js';
import { faultPointFromEnv } from '../../ground/faults.js';
import type { Output } from '../output.js';
import { runPiInstall } from './install-pi.js';
import { reasonLines } from '../../hosts/install-health.js';

export interface InstallFlags {
  readonly codexHome: string | undefined;
  readonly claudeDir: string | undefined;
  readonly piDir: string | undefined;
  readonly dryRun: boolean;
  /** The data home, only when the user chose one (--home or COMMON_MEMORY_HOME). */
  readonly explicitHome: string | undefined;
}

const CLIENT_NAMES: Record<HookClient, string> = { codex: 'Codex', claude: 'Claude Code' };

function parseClient(action: string, args: string[], flags: InstallFlags): HookClient | 'pi' {
  const [client, ...extra] = args;
  if ((client !== 'codex' && client !== 'claude' && client !== 'pi') || extra.length > 0) {
    // What is wrong first (a client it does not know), then the usage; the parser refuses a second word.
    const wrong = client === undefined || extra.length > 0 ? '' : `Unknown client ${echoed(client)}; `;
    throw new CmError(
      'usage',
      `${wrong}usage: common-memory ${action} codex|claude|pi [--codex-home DIR | --claude-dir DIR | --pi-dir DIR] [--dry-run]`,
    );
  }
  if (client !== 'pi' && flags.piDir !== undefined) throw new CmError('usage', '--pi-dir is for pi.');
  if (client === 'pi') {
    if (flags.codexHome !== undefined || flags.claudeDir !== undefined)
      throw new CmError('usage', 'pi takes --pi-dir, not --codex-home or --claude-dir.');
    return client;
  }
  if (client === 'codex' && flags.claudeDir !== undefined)
    throw new CmError('usage', '--claude-dir is for claude; Codex takes --codex-home.');
  if (client === 'claude' && flags.codexHome !== undefined)
    throw new CmError('usage', '--codex-home is for codex; Claude Code takes --claude-dir.');
  return client;
}

export async function runInstallCommand(
  action: 'install' | 'uninstall',
  args: string[],
  flags: InstallFlags,
  out: Output,
): Promise<number> {
  const client = parseClient(action, args, flags);
  if (client === 'pi') return runPiInstall(action, flags, out);
  const configDir = client === 'codex' ? flags.codexHome : flags.claudeDir;
  const options = {
    ...(configDir === undefined ? {} : { configDir }),
    ...(flags.explicitHome === undefined ? {} : { home: flags.explicitHome }),
  };
  const plan = action === 'install' ? planInstall(client, options) : planUninstall(client, options);
  assertApplicable(plan);
  let applied: IntegrationApplyResult | null = null;
  if (!flags.dryRun) {
    const fault = faultPointFromEnv();
    applied = applyInstall(plan, fault ? { fault: (name) => fault(`installConfig.${name}`) } : {});
  }
  out.result(jsonResult(plan, flags.dryRun, applied), () => textResult(plan, flags.dryRun, applied));
  return 0;
}

function jsonResult(
  plan: IntegrationPlan,
  dryRun: boolean,
  applied: IntegrationApplyResult | null,
): Record<string, unknown> {
  return {
    client: plan.client,
    action: plan.action,
    dryRun,
    path: plan.path,
    configDir: plan.configDir,
    fileExisted: plan.before !== null,
    changed: planChanges(plan),
    written: applied?.written ?? false,
    writtenPath: applied?.writtenPath ?? null,
    backupPath: applied?.backupPath ?? null,
    command: plan.command,
    changes: plan.changes,
    outdated: planOutdatedReasons(plan),
    warnings: plan.warnings,
    diff: planDiff(plan),
    trust: plan.trust,
    mcp: {
      path: plan.mcp.path,
      key: plan.mcp.key,
      change: plan.mcp.change,
      command: plan.mcp.entry.command,
      args: plan.mcp.entry.args,
      reasons: plan.mcp.reasons,
      written: applied?.mcp.written ?? false,
      backupPath: applied?.mcp.backupPath ?? null,
    },
  };
}

function textResult(plan: IntegrationPlan, dryRun: boolean, applied: IntegrationApplyResult | null): string {
  const name = CLIENT_NAMES[plan.client];
  const events = (kind: 'add' | 'update' | 'remove') =>
    plan.changes.filter((c) => c.change === kind).map((c) => c.event);
  const lines: string[] = [];
  const added = events('add');
  const updated = events('update');
  const removed = events('remove');
  if (!planChanges(plan)) {
    lines.push(
      plan.action === 'install'
        ? `common-memory's ${name} hooks and MCP server are already installed (${plan.path}, ${plan.mcp.path}); nothing changed.`
        : `No common-memory ${name} hooks in ${plan.path} and no MCP server of ours in ${plan.mcp.path}; nothing changed.`,
    );
  } else if (plan.after === null) {
    lines.push(`${name} hooks: ${plan.action === 'install' ? 'already installed' : 'none of ours'} in ${plan.path}.`);
  } else {
    const installing = [
      added.length > 0 ? `add ${added.length} hooks (${added.join(', ')})` : '',
      updated.length > 0 ? `update ${updated.length} hooks an earlier install wrote (${updated.join(', ')})` : '',
    ];
    const what =
      plan.action === 'install'
        ? installing.filter(Boolean).join(' and ')
        : `remove ${removed.length} hooks (${removed.join(', ')})`;
    const file = plan.before === null ? `${plan.path} (new file)` : plan.path;
    if (dryRun) {
      lines.push(`Dry run — nothing was written. Would ${what} in ${file}:`, '', plan.diff.trimEnd(), '');
    } else {
      lines.push(
        `${plan.action === 'install' ? 'Installed' : 'Uninstalled'}: ${what
          .replace(/^add/, 'added')
          .replace(/\bupdate /, 'updated ')
          .replace(/^remove/, 'removed')} in ${file}.`,
      );
      if (applied?.writtenPath && applied.writtenPath !== plan.path)
        lines.push(`(${plan.path} is a link; wrote ${applied.writtenPath}.)`);
      if (applied?.backupPath) lines.push(`Previous file kept as ${applied.backupPath}`);
    }
  }
  // Why: a clone that moved or a Node that is gone leaves hooks that fail; said before the rest.
  lines.splice(1, 0, ...reasonLines(planOutdatedReasons(plan)));
  const mcpLine = mcpText(plan, dryRun, name);
  if (mcpLine) lines.push(mcpLine);
  if (dryRun && plan.mcp.diff !== '') lines.push('', plan.mcp.diff.trimEnd(), '');
  if (applied?.mcp.backupPath) lines.push(`Previous file kept as ${applied.mcp.backupPath}`);
  if (plan.action === 'install') lines.push(`Each hook runs: ${plan.command}`);
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  if (plan.trust) lines.push('', plan.trust.text);
  return lines.join('\n');
}

/** One line on the MCP server registration; null when both files are unchanged (said above). */
function mcpText(plan: IntegrationPlan, dryRun: boolean, name: string): string | null {
  const { mcp } = plan;
  if (!planChanges(plan)) return null;
  const where = `${mcp.key} in ${mcp.path}${mcp.before === null && mcp.after !== null ? ' (new file)' : ''}`;
  const verb: Record<typeof mcp.change, [string, string]> = {
    add: ['Would register', 'Registered'],
    update: ['Would rewrite', 'Rewrote'],
    remove: ['Would remove', 'Removed'],
    unchanged: ['', ''],
    absent: ['', ''],
  };
  if (mcp.change === 'unchanged') return `MCP server: already registered as ${where}.`;
  if (mcp.change === 'absent') return `MCP server: none of ours in ${mcp.path}.`;
  const [would, did] = verb[mcp.change];
  return `${dryRun ? would : did} the MCP server ${name} starts (common-memory mcp) as ${where}.`;
}
