// The per-user service that keeps a headless host running: its name, where its file goes and the
// file's text — a systemd user unit on Linux, a launchd agent on macOS. Pure: nothing is read or
// written here (service-manager.ts does that). The first line of each file is the ownership marker
// that `service uninstall` looks for before it removes anything.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export type ServiceKind = 'systemd' | 'launchd';

/** The first line of every file `service install` writes; uninstall removes only a file that starts with it. */
export const SERVICE_MARKER = 'Managed by common-memory service install; common-memory service uninstall removes it.';

/** Seconds between a failed host and its restart: long enough not to spin while another host holds the data home. */
export const SERVICE_RESTART_SEC = 15;

export interface ServiceTarget {
  readonly kind: ServiceKind;
  /** systemd: the unit name (without .service); launchd: the label. */
  readonly name: string;
  /** The file written. */
  readonly path: string;
}

export interface ServiceProgram {
  /** The node that runs the host, and common-memory's shim. */
  readonly node: string;
  readonly bin: string;
  /** The data home, always given as --home: the service manager's environment has no COMMON_MEMORY_HOME. */
  readonly home: string;
  /** Where the host's output goes (in the data home). */
  readonly logPath: string;
  /** The PATH the host sees: the installing shell's, so a driven agent or runner is found as there. */
  readonly path: string;
}

/**
 * One service per data home: the default home's is plainly named, another home's carries a short
 * digest of its path, so a second home (a test's, a project's) never replaces the first one's.
 */
export function serviceTarget(
  kind: ServiceKind,
  home: string,
  defaultHome: string,
  dirs: { configHome: string; userHome: string },
): ServiceTarget {
  const suffix = home === defaultHome ? '' : `-${createHash('sha256').update(home).digest('hex').slice(0, 8)}`;
  if (kind === 'systemd') {
    const name = `common-memory-host${suffix}`;
    return { kind, name, path: join(dirs.configHome, 'systemd', 'user', `${name}.service`) };
  }
  const name = `dev.common-memory.host${suffix}`;
  return { kind, name, path: join(dirs.userHome, 'Library', 'LaunchAgents', `${name}.plist`) };
}

/** A systemd word in double quotes: `\` and `"` escaped, `%` (specifiers) and `$` (variables) doubled. */
function systemdWord(word: string): string {
  return `"${word
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/%/g, '%%')
    .replace(/\$/g, '$$$$')}"`;
}

/** A path after `append:`: specifiers doubled; systemd takes the rest of the line as the path. */
const systemdPath = (path: string): string => path.replace(/%/g, '%%');

function refuseNewlines(program: ServiceProgram): void {
  for (const value of [program.node, program.bin, program.home, program.logPath, program.path])
    if (/[\r\n]/.test(value))
      throw new Error(`A path with a line break cannot go into a service file: ${JSON.stringify(value)}`);
}

/** The systemd user unit: restarted on failure, started with the user's manager (at login), output appended to the log. */
export function systemdUnit(program: ServiceProgram): string {
  refuseNewlines(program);
  const command = [program.node, program.bin, 'host', '--home', program.home].map(systemdWord).join(' ');
  return [
    `# ${SERVICE_MARKER}`,
    `# The common-memory host for the data home ${program.home}.`,
    '[Unit]',
    `Description=common-memory host (data home ${program.home.replace(/%/g, '%%')})`,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${command}`,
    `Environment=${systemdWord(`PATH=${program.path}`)}`,
    'Environment=NODE_ENV=production',
    'Restart=on-failure',
    `RestartSec=${SERVICE_RESTART_SEC}`,
    `StandardOutput=append:${systemdPath(program.logPath)}`,
    `StandardError=append:${systemdPath(program.logPath)}`,
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const xml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The launchd agent: loaded at login (RunAtLoad), restarted when it exits with a failure, output to the log. */
export function launchdPlist(label: string, program: ServiceProgram): string {
  refuseNewlines(program);
  const strings = (values: readonly string[], indent: string) =>
    values.map((value) => `${indent}<string>${xml(value)}</string>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!-- ${SERVICE_MARKER} -->`,
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${xml(label)}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...strings([program.node, program.bin, 'host', '--home', program.home], '    '),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    '    <key>PATH</key>',
    `    <string>${xml(program.path)}</string>`,
    '    <key>NODE_ENV</key>',
    '    <string>production</string>',
    '  </dict>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key>',
    `  <integer>${SERVICE_RESTART_SEC}</integer>`,
    '  <key>StandardOutPath</key>',
    `  <string>${xml(program.logPath)}</string>`,
    '  <key>StandardErrorPath</key>',
    `  <string>${xml(program.logPath)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

/** Whether a service file's text is one `service install` wrote (the marker in its first two lines). */
export const isOurs = (text: string): boolean => text.split('\n', 2).some((line) => line.includes(SERVICE_MARKER));
