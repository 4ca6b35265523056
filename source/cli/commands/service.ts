// `service install | uninstall | status`: the headless host as a per-user service (a systemd user
// unit on Linux, a launchd agent on macOS), so that captured turns become candidates without a
// TUI open. The work is in source/service/; this prints it.
import { EXIT } from '../../errors.js';
import {
  installService,
  type ServiceChange,
  type ServiceEnvironment,
  type ServiceStatus,
  serviceEnvironment,
  serviceStatus,
  uninstallService,
} from '../../service/service-manager.js';
import type { Output } from '../output.js';

const KIND_TEXT = { systemd: 'systemd user unit', launchd: 'launchd agent' } as const;

export function runService(
  action: 'install' | 'uninstall' | 'status',
  home: string,
  dryRun: boolean,
  out: Output,
  env: ServiceEnvironment = serviceEnvironment(),
): number {
  if (action === 'status') {
    const status = serviceStatus(home, env);
    out.result(status, () => serviceStatusText(status).join('\n'));
    return EXIT.ok;
  }
  const change = action === 'install' ? installService(home, env, dryRun) : uninstallService(home, env, dryRun);
  const after = dryRun ? null : serviceStatus(home, env);
  out.result({ ...change, status: after }, () => changeText(action, change, after));
  return EXIT.ok;
}

function changeText(action: 'install' | 'uninstall', change: ServiceChange, after: ServiceStatus | null): string {
  const { plan } = change;
  const what = `${KIND_TEXT[plan.kind]} ${plan.name}`;
  const lines: string[] = [];
  if (change.dryRun) {
    if (action === 'install') {
      lines.push(
        change.file === 'unchanged'
          ? `${plan.path} already holds this ${KIND_TEXT[plan.kind]}.`
          : `Would write ${plan.path}:`,
      );
      if (change.file !== 'unchanged') lines.push('', plan.text);
    } else if (change.file === 'absent') lines.push(`No ${what} is installed for ${plan.home}; nothing to remove.`);
    else lines.push(`Would remove ${plan.path}.`);
    if (change.commands.length > 0) lines.push('Would run:', ...change.commands.map((c) => `  ${c.command}`));
    lines.push('(--dry-run: nothing was written or run)');
    return lines.join('\n');
  }
  if (action === 'uninstall') {
    if (change.file === 'absent') return `No ${what} is installed for ${plan.home}; nothing was removed.`;
    lines.push(`Removed ${what} (${plan.path}); the host it ran is stopped. The log stays: ${plan.logPath}`);
    return lines.join('\n');
  }
  lines.push(
    change.file === 'unchanged'
      ? `${what} was already installed (${plan.path}); (re)started it.`
      : `Installed ${what}: ${plan.path}`,
    `It runs the host for ${plan.home}, starts at login, restarts after a failure and logs to ${plan.logPath}.`,
  );
  if (after) lines.push(...serviceStatusText(after).slice(1));
  if (plan.kind === 'systemd') lines.push('To start it at boot without a login too: loginctl enable-linger');
  return lines.join('\n');
}

/** The service in a few lines: which, whether installed, enabled and running, the log; what to do next. */
export function serviceStatusText(status: ServiceStatus): string[] {
  const lines = [`service: ${KIND_TEXT[status.kind]} ${status.name} (${status.path})`];
  if (status.file === 'absent') {
    lines.push('not installed. Keep a host running in the background: common-memory service install');
    return lines;
  }
  if (status.file === 'foreign')
    lines.push('a file common-memory did not write is at that path: service install and uninstall leave it alone.');
  if (status.problem) {
    lines.push(`installed, state unknown: ${status.problem}`);
    return lines;
  }
  const yes = (value: boolean | null) => (value === null ? 'unknown' : value ? 'yes' : 'no');
  lines.push(`installed · starts at login: ${yes(status.enabled)} · running: ${yes(status.running)} (${status.state})`);
  if (status.running === false)
    lines.push(`Not running: its log says why (${status.logPath}); start it again with common-memory service install.`);
  return lines;
}
