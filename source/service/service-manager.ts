// `service install | uninstall | status`: the service file (service-unit.ts) written, removed or
// read, and the service manager's commands run through an injected runner — systemctl --user on
// Linux, launchctl on macOS — so that tests see the exact commands without a service manager.
// Uninstall removes a file only when it carries the ownership marker.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CmError } from '../errors.js';
import { ensureHome, resolveHome } from '../home.js';
import { BIN_PATH } from '../hosts/hook-config.js';
import {
  isOurs,
  launchdPlist,
  type ServiceKind,
  type ServiceProgram,
  type ServiceTarget,
  serviceTarget,
  systemdUnit,
} from './service-unit.js';

export interface CommandResult {
  /** The exit code; null when the command could not be started (`error` says why). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error?: string;
}

/** Runs one command and waits for it: systemctl and launchctl answer in milliseconds. */
export type CommandRunner = (command: string, args: readonly string[]) => CommandResult;

export const runCommand: CommandRunner = (command, args) => {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  return {
    code: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
    ...(result.error ? { error: result.error.message } : {}),
  };
};

/** Where and how: the platform, the user's dirs, the node and shim that run the host, the runner. */
export interface ServiceEnvironment {
  readonly platform: NodeJS.Platform;
  readonly userHome: string;
  readonly configHome: string;
  readonly uid: number;
  readonly node: string;
  readonly bin: string;
  readonly path: string;
  readonly run: CommandRunner;
}

export function serviceEnvironment(overrides: Partial<ServiceEnvironment> = {}): ServiceEnvironment {
  const userHome = overrides.userHome ?? homedir();
  return {
    platform: process.platform,
    userHome,
    configHome: process.env['XDG_CONFIG_HOME'] || join(userHome, '.config'),
    uid: process.getuid?.() ?? 0,
    node: process.execPath,
    bin: BIN_PATH,
    path: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    run: runCommand,
    ...overrides,
  };
}

export interface ServicePlan extends ServiceTarget {
  readonly home: string;
  readonly logPath: string;
  /** The file's text as install writes it. */
  readonly text: string;
  /** The commands install and uninstall run, in order (uninstall removes the file between its two). */
  readonly installCommands: readonly (readonly string[])[];
  readonly uninstallCommands: readonly (readonly string[])[];
  /** What a status read runs. */
  readonly statusCommands: readonly (readonly string[])[];
}

function kindOf(platform: NodeJS.Platform): ServiceKind {
  if (platform === 'linux') return 'systemd';
  if (platform === 'darwin') return 'launchd';
  throw new CmError(
    'usage',
    `common-memory service supports Linux (systemd) and macOS (launchd), not ${platform}. Keep a host running yourself: common-memory host`,
  );
}

export function planService(home: string, env: ServiceEnvironment): ServicePlan {
  const kind = kindOf(env.platform);
  const target = serviceTarget(kind, home, resolveHome(join(env.userHome, '.common-memory')), env);
  const logPath = join(home, 'service.log');
  const program: ServiceProgram = { node: env.node, bin: env.bin, home, logPath, path: env.path };
  if (kind === 'systemd') {
    const unit = `${target.name}.service`;
    return {
      ...target,
      home,
      logPath,
      text: systemdUnit(program),
      installCommands: [
        ['systemctl', '--user', 'daemon-reload'],
        ['systemctl', '--user', 'enable', unit],
        ['systemctl', '--user', 'restart', unit],
      ],
      uninstallCommands: [
        ['systemctl', '--user', 'disable', '--now', unit],
        ['systemctl', '--user', 'daemon-reload'],
      ],
      statusCommands: [
        ['systemctl', '--user', 'is-active', unit],
        ['systemctl', '--user', 'is-enabled', unit],
      ],
    };
  }
  const domain = `gui/${env.uid}`;
  return {
    ...target,
    home,
    logPath,
    text: launchdPlist(target.name, program),
    // bootout first: a changed plist is read only when it is bootstrapped again (a failure there means "was not loaded").
    installCommands: [
      ['launchctl', 'bootout', `${domain}/${target.name}`],
      ['launchctl', 'bootstrap', domain, target.path],
    ],
    uninstallCommands: [['launchctl', 'bootout', `${domain}/${target.name}`]],
    statusCommands: [['launchctl', 'print', `${domain}/${target.name}`]],
  };
}

export type ServiceFileState = 'ours' | 'foreign' | 'absent';

export interface ServiceStatus {
  readonly kind: ServiceKind;
  readonly name: string;
  readonly path: string;
  readonly logPath: string;
  /** ours: a file install wrote; foreign: something else is at that path; absent: nothing. */
  readonly file: ServiceFileState;
  readonly installed: boolean;
  /** Whether it starts at login (systemd: enabled; launchd: loaded); null when the manager could not tell. */
  readonly enabled: boolean | null;
  /** Whether the host process runs now; null when the manager could not tell (`problem` says why). */
  readonly running: boolean | null;
  /** The manager's own word for its state (systemd: active, failed…; launchd: running, not loaded…). */
  readonly state: string;
  readonly problem: string | null;
}

function fileState(path: string): ServiceFileState {
  if (!existsSync(path)) return 'absent';
  try {
    return isOurs(readFileSync(path, 'utf8')) ? 'ours' : 'foreign';
  } catch {
    return 'foreign';
  }
}

const commandText = (command: readonly string[]): string => command.join(' ');

/** The manager cannot be reached at all (no systemctl, no user manager): what happened and what to do. */
function unreachable(command: readonly string[], result: CommandResult): string | null {
  if (result.code === null)
    return `${command[0]} could not be run (${result.error ?? 'unknown error'}): this system has no ${command[0] === 'systemctl' ? 'systemd' : 'launchd'} user manager here.`;
  const said = `${result.stderr}${result.stdout}`;
  if (/Failed to connect to bus|No medium found|\$DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR/i.test(said))
    return `${commandText(command)} cannot reach the user's systemd manager (${said.trim().split('\n')[0]}). Log in as this user (a login session starts it), or run: loginctl enable-linger`;
  return null;
}

/**
 * The status read, step by step: it yields each command it needs answered and returns the status.
 * Written once for both ways of answering — at once (the CLI's `status`) or without blocking the
 * thread (the Dashboard, which must not stall its keys on systemctl).
 */
function* statusSteps(
  home: string,
  env: ServiceEnvironment,
): Generator<readonly string[], ServiceStatus, CommandResult> {
  const plan = planService(home, env);
  const file = fileState(plan.path);
  const base = { kind: plan.kind, name: plan.name, path: plan.path, logPath: plan.logPath, file };
  if (file === 'absent')
    return { ...base, installed: false, enabled: false, running: false, state: 'not installed', problem: null };
  if (plan.kind === 'systemd') {
    const [activeCommand, enabledCommand] = plan.statusCommands as [string[], string[]];
    const active = yield activeCommand;
    const problem = unreachable(activeCommand, active);
    if (problem)
      return { ...base, installed: file === 'ours', enabled: null, running: null, state: 'unknown', problem };
    const enabled = yield enabledCommand;
    const state = active.stdout.trim() || 'unknown';
    return {
      ...base,
      installed: file === 'ours',
      enabled: enabled.stdout.trim() === 'enabled',
      running: state === 'active' || state === 'reloading',
      state,
      problem: null,
    };
  }
  const [printCommand] = plan.statusCommands as [string[]];
  const printed = yield printCommand;
  const problem = unreachable(printCommand, printed);
  if (problem) return { ...base, installed: file === 'ours', enabled: null, running: null, state: 'unknown', problem };
  const loaded = printed.code === 0;
  const state = loaded ? (/^\s*state = (.+)$/m.exec(printed.stdout)?.[1]?.trim() ?? 'loaded') : 'not loaded';
  return { ...base, installed: file === 'ours', enabled: loaded, running: state === 'running', state, problem: null };
}

export function serviceStatus(home: string, env: ServiceEnvironment): ServiceStatus {
  const steps = statusSteps(home, env);
  let step = steps.next();
  while (!step.done) step = steps.next(env.run(step.value[0]!, step.value.slice(1)));
  return step.value;
}

/** Runs one command without blocking the thread. */
export type AsyncCommandRunner = (command: string, args: readonly string[]) => Promise<CommandResult>;

export const runCommandAsync: AsyncCommandRunner = (command, args) =>
  new Promise((resolve) => {
    execFile(command, [...args], { encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      // A number: the command ran and exited with it; otherwise it could not be run (or was killed).
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr, ...(error && code === null ? { error: error.message } : {}) });
    });
  });

/** The status as serviceStatus reads it, its commands run without blocking the thread. */
export async function serviceStatusLater(
  home: string,
  env: ServiceEnvironment,
  run: AsyncCommandRunner = runCommandAsync,
): Promise<ServiceStatus> {
  const steps = statusSteps(home, env);
  let step = steps.next();
  while (!step.done) step = steps.next(await run(step.value[0]!, step.value.slice(1)));
  return step.value;
}

/**
 * This data home's service, or null on a platform without one (service install refuses there):
 * what the Dashboard shows, read without blocking the thread.
 */
export async function probeService(home: string): Promise<ServiceStatus | null> {
  let env: ServiceEnvironment;
  try {
    env = serviceEnvironment();
    planService(home, env);
  } catch {
    return null;
  }
  return serviceStatusLater(home, env);
}

export interface ServiceChange {
  readonly plan: ServicePlan;
  /** written/removed: the file changed; unchanged: install found it as it would write it. */
  readonly file: 'written' | 'unchanged' | 'removed' | 'absent';
  /** The commands run (or, with --dry-run, that would run), each with its outcome. */
  readonly commands: readonly { command: string; code: number | null; output: string }[];
  readonly dryRun: boolean;
}

/** Runs the commands in order; a failure stops the rest with what the manager said. `mayFail`: the ones whose failure means "nothing to undo". */
function runAll(
  env: ServiceEnvironment,
  commands: readonly (readonly string[])[],
  mayFail: (command: readonly string[]) => boolean,
  done: ServiceChange['commands'][number][],
  after: string,
): void {
  for (const command of commands) {
    const result = env.run(command[0]!, command.slice(1));
    const output = `${result.stderr}${result.stdout}`.trim();
    done.push({ command: commandText(command), code: result.code, output });
    if (result.code === 0 || mayFail(command)) continue;
    const problem = unreachable(command, result);
    throw new CmError(
      'internal',
      `${problem ?? `${commandText(command)} failed (exit ${result.code}): ${output || 'no output'}.`} ${after}`,
    );
  }
}

export function installService(home: string, env: ServiceEnvironment, dryRun: boolean): ServiceChange {
  const plan = planService(home, env);
  const state = fileState(plan.path);
  if (state === 'foreign')
    throw new CmError(
      'config_conflict',
      `${plan.path} exists and was not written by common-memory service install; nothing was changed. Move it away (or remove it) and run common-memory service install again.`,
    );
  const current = state === 'ours' ? readFileSync(plan.path, 'utf8') : null;
  const unchanged = current === plan.text;
  if (dryRun)
    return {
      plan,
      file: unchanged ? 'unchanged' : 'written',
      commands: plan.installCommands.map((command) => ({ command: commandText(command), code: null, output: '' })),
      dryRun,
    };
  // The data home first (its service.log): bounded, and one that cannot be made writes no unit.
  ensureHome(home);
  if (!unchanged) {
    mkdirSync(dirname(plan.path), { recursive: true });
    const temporary = `${plan.path}.${process.pid}.tmp`;
    writeFileSync(temporary, plan.text, { mode: 0o644 });
    renameSync(temporary, plan.path);
  }
  const done: ServiceChange['commands'][number][] = [];
  runAll(
    env,
    plan.installCommands,
    // launchd: bootout of an agent that is not loaded fails, and that is fine.
    (command) => command[0] === 'launchctl' && command[1] === 'bootout',
    done,
    `The service file is in place (${plan.path}); once that is fixed, run common-memory service install again, or remove it with common-memory service uninstall.`,
  );
  return { plan, file: unchanged ? 'unchanged' : 'written', commands: done, dryRun };
}

export function uninstallService(home: string, env: ServiceEnvironment, dryRun: boolean): ServiceChange {
  const plan = planService(home, env);
  const state = fileState(plan.path);
  if (state === 'foreign')
    throw new CmError(
      'config_conflict',
      `${plan.path} was not written by common-memory service install (its first line is not common-memory's marker); nothing was removed.`,
    );
  if (state === 'absent') return { plan, file: 'absent', commands: [], dryRun };
  if (dryRun)
    return {
      plan,
      file: 'removed',
      commands: plan.uninstallCommands.map((command) => ({ command: commandText(command), code: null, output: '' })),
      dryRun,
    };
  const done: ServiceChange['commands'][number][] = [];
  const [stop, ...rest] = plan.uninstallCommands;
  // Stopping a service that is not loaded or not running fails harmlessly: the file goes regardless.
  runAll(env, [stop!], () => true, done, '');
  rmSync(plan.path, { force: true });
  runAll(env, rest, () => true, done, '');
  return { plan, file: 'removed', commands: done, dryRun };
}
