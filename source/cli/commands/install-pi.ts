// `install` / `uninstall pi`: common-memory's extension in pi's agent-dir settings.json. The plan
// and the transactional write are in source/hosts/pi/extension-install.ts.
import { applyPiExtension, planPiExtension } from '../../hosts/pi/extension-install.js';
import type { PiExtensionApplyResult, PiExtensionPlan } from '../../hosts/pi/extension-install.js';
import { faultPointFromEnv } from '../../ground/faults.js';
import type { Output } from '../output.js';
import { reasonLines } from '../../hosts/install-health.js';

export interface PiInstallFlags {
  readonly piDir: string | undefined;
  readonly dryRun: boolean;
  readonly explicitHome: string | undefined;
}

export function runPiInstall(action: 'install' | 'uninstall', flags: PiInstallFlags, out: Output): number {
  const planned = planPiExtension(action, flags.piDir === undefined ? {} : { piDir: flags.piDir });
  // pi's settings hold only the extension's path; it captures into the home pi's own environment names.
  const warnings = [...planned.warnings];
  if (action === 'install' && flags.explicitHome !== undefined) {
    warnings.push(
      `the extension captures into COMMON_MEMORY_HOME as pi sees it (else ~/.common-memory), not into ${flags.explicitHome}: start pi with COMMON_MEMORY_HOME set to choose the home.`,
    );
  }
  const plan: PiExtensionPlan = { ...planned, warnings };
  let applied: PiExtensionApplyResult | null = null;
  if (!flags.dryRun || plan.refusals.length > 0) {
    const fault = faultPointFromEnv();
    applied = applyPiExtension(plan, fault ? (name) => fault(`installConfig.${name}`) : undefined);
  }
  out.result(
    {
      client: 'pi',
      action,
      dryRun: flags.dryRun,
      path: plan.path,
      configDir: plan.piDir,
      fileExisted: plan.before !== null,
      changed: plan.after !== null,
      written: applied?.written ?? false,
      writtenPath: applied?.writtenPath ?? null,
      backupPath: applied?.backupPath ?? null,
      extension: plan.extension,
      change: plan.change,
      previous: plan.previous,
      outdated: plan.reasons,
      warnings: plan.warnings,
      diff: plan.diff,
    },
    () => textResult(plan, flags.dryRun, applied),
  );
  return 0;
}

function textResult(plan: PiExtensionPlan, dryRun: boolean, applied: PiExtensionApplyResult | null): string {
  const lines: string[] = [];
  if (plan.after === null) {
    lines.push(
      plan.action === 'install'
        ? `common-memory's pi extension is already in ${plan.path}; nothing changed.`
        : `No common-memory extension in ${plan.path}; nothing changed.`,
    );
  } else {
    const what = {
      add: 'add the extension',
      update: 'update the extension an earlier install wrote',
      remove: 'remove the extension',
      unchanged: '',
    }[plan.change];
    const file = plan.before === null ? `${plan.path} (new file)` : plan.path;
    if (dryRun) lines.push(`Dry run — nothing was written. Would ${what} in ${file}:`, '', plan.diff.trimEnd(), '');
    else {
      lines.push(
        `${plan.action === 'install' ? 'Installed' : 'Uninstalled'}: ${what.replace(/^(add|update|remove)/, (verb) => `${verb.replace(/e$/, '')}ed`)} in ${file}.`,
      );
      if (applied?.writtenPath && applied.writtenPath !== plan.path)
        lines.push(`(${plan.path} is a link; wrote ${applied.writtenPath}.)`);
      if (applied?.backupPath) lines.push(`Previous file kept as ${applied.backupPath}`);
    }
  }
  lines.splice(1, 0, ...reasonLines(plan.reasons));
  if (plan.action === 'install') lines.push(`pi loads: ${plan.extension}`);
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}
