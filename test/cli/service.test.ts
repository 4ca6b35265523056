// `service install | uninstall | status`: the unit and the agent as written, the exact commands run
// (through an injected runner, and through a fake systemctl on PATH for the real command), and an
// uninstall that removes only what install wrote. launchd is checked as text and commands only:
// no macOS here (README says so).
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  type CommandResult,
  installService,
  planService,
  type ServiceEnvironment,
  serviceEnvironment,
  serviceStatus,
  runCommandAsync,
  serviceStatusLater,
  uninstallService,
} from '../../source/service/service-manager.js';
import { launchdPlist, SERVICE_MARKER, systemdUnit } from '../../source/service/service-unit.js';
import { runCli } from '../support/cli.js';

const program = {
  node: '/opt/node 20/bin/node',
  bin: '/src/common memory/bin/common-memory.cjs',
  home: '/home/u/100% $HOME & <data>',
  logPath: '/home/u/100% $HOME & <data>/service.log',
  path: '/usr/local/bin:/usr/bin',
};

function sandbox(): { root: string; userHome: string; configHome: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), 'service-'));
  const userHome = join(root, 'user');
  const configHome = join(userHome, '.config');
  mkdirSync(configHome, { recursive: true });
  return { root, userHome, configHome, home: join(root, 'data home') };
}

/** A runner that records each command and answers as a healthy systemd (or as `answers` says). */
function recorder(answers: (args: readonly string[]) => Partial<CommandResult> = () => ({})) {
  const ran: string[] = [];
  const run = (command: string, args: readonly string[]): CommandResult => {
    ran.push([command, ...args].join(' '));
    const verb = args[1];
    const fallback = verb === 'is-active' ? 'active\n' : verb === 'is-enabled' ? 'enabled\n' : '';
    return { code: 0, stdout: fallback, stderr: '', ...answers(args) };
  };
  return { ran, run };
}

function environment(
  box: ReturnType<typeof sandbox>,
  run: ServiceEnvironment['run'],
  platform: NodeJS.Platform = 'linux',
) {
  return serviceEnvironment({
    platform,
    userHome: box.userHome,
    configHome: box.configHome,
    uid: 501,
    node: '/usr/bin/node',
    bin: '/src/bin/common-memory.cjs',
    path: '/usr/bin:/bin',
    run,
  });
}

describe('service files', () => {
  it('the systemd unit: marker first, quoted command with --home, restart on failure, login start, log in the data home', () => {
    const unit = systemdUnit(program);
    const lines = unit.split('\n');
    assert.equal(lines[0], `# ${SERVICE_MARKER}`);
    // Spaces quoted, `%` (specifier) and `$` (variable) doubled, so systemd runs exactly these words.
    assert.ok(
      lines.includes(
        'ExecStart="/opt/node 20/bin/node" "/src/common memory/bin/common-memory.cjs" "host" "--home" "/home/u/100%% $$HOME & <data>"',
      ),
      unit,
    );
    assert.ok(lines.includes('Restart=on-failure'));
    assert.ok(lines.includes('WantedBy=default.target'), 'started with the user manager, at login');
    assert.ok(lines.includes('StandardOutput=append:/home/u/100%% $HOME & <data>/service.log'));
    assert.ok(lines.includes('StandardError=append:/home/u/100%% $HOME & <data>/service.log'));
    assert.ok(lines.includes('Environment="PATH=/usr/local/bin:/usr/bin"'));
    assert.throws(() => systemdUnit({ ...program, home: 'a\nExecStartPre=/bin/false' }), /line break/);
  });

  it('the launchd agent: marker, arguments as strings (XML escaped), RunAtLoad, KeepAlive on failure, log', () => {
    const plist = launchdPlist('dev.common-memory.host', program);
    assert.ok(plist.split('\n')[1]!.includes(SERVICE_MARKER));
    assert.match(plist, /<string>\/home\/u\/100% \$HOME &amp; &lt;data&gt;<\/string>/);
    assert.match(plist, /<key>RunAtLoad<\/key>\n {2}<true\/>/);
    assert.match(plist, /<key>KeepAlive<\/key>\n {2}<dict>\n {4}<key>SuccessfulExit<\/key>\n {4}<false\/>/);
    assert.match(
      plist,
      /<key>StandardOutPath<\/key>\n {2}<string>\/home\/u\/100% \$HOME &amp; &lt;data&gt;\/service.log/,
    );
    assert.match(plist, /<string>host<\/string>\n {4}<string>--home<\/string>/);
  });

  it('one service per data home: the default one plainly named, another with a digest of its path', () => {
    const box = sandbox();
    const env = environment(box, recorder().run);
    assert.equal(planService(join(box.userHome, '.common-memory'), env).name, 'common-memory-host');
    const other = planService(box.home, env);
    assert.match(other.name, /^common-memory-host-[0-9a-f]{8}$/);
    assert.equal(other.path, join(box.configHome, 'systemd', 'user', `${other.name}.service`));
    const mac = planService(box.home, environment(box, recorder().run, 'darwin'));
    assert.match(mac.path, /Library\/LaunchAgents\/dev\.common-memory\.host-[0-9a-f]{8}\.plist$/);
    assert.throws(
      () => planService(box.home, environment(box, recorder().run, 'win32')),
      /Linux \(systemd\) and macOS/,
    );
  });
});

describe('service install, status and uninstall (injected runner)', () => {
  it('systemd: writes the unit, reloads, enables and (re)starts it; uninstall disables, removes, reloads', () => {
    const box = sandbox();
    const { ran, run } = recorder();
    const env = environment(box, run);
    const dry = installService(box.home, env, true);
    assert.equal(existsSync(dry.plan.path), false, '--dry-run writes nothing');
    assert.deepEqual(ran, [], '--dry-run runs nothing');
    const unit = `${dry.plan.name}.service`;
    assert.deepEqual(
      dry.commands.map((c) => c.command),
      [`systemctl --user daemon-reload`, `systemctl --user enable ${unit}`, `systemctl --user restart ${unit}`],
    );

    const installed = installService(box.home, env, false);
    assert.equal(installed.file, 'written');
    assert.equal(readFileSync(installed.plan.path, 'utf8'), installed.plan.text);
    assert.deepEqual(
      ran,
      dry.commands.map((c) => c.command),
    );
    const status = serviceStatus(box.home, env);
    assert.deepEqual(
      { installed: status.installed, enabled: status.enabled, running: status.running, state: status.state },
      { installed: true, enabled: true, running: true, state: 'active' },
    );
    assert.equal(installService(box.home, env, false).file, 'unchanged', 'a second install rewrites nothing');

    ran.length = 0;
    const removed = uninstallService(box.home, env, false);
    assert.equal(removed.file, 'removed');
    assert.equal(existsSync(installed.plan.path), false);
    assert.deepEqual(ran, [`systemctl --user disable --now ${unit}`, 'systemctl --user daemon-reload']);
    assert.equal(serviceStatus(box.home, env).installed, false);
    assert.equal(uninstallService(box.home, env, false).file, 'absent', 'nothing left to remove');
  });

  it('a file common-memory did not write is neither replaced nor removed', () => {
    const box = sandbox();
    const { ran, run } = recorder();
    const env = environment(box, run);
    const { path } = planService(box.home, env);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '[Service]\nExecStart=/usr/bin/mine\n');
    assert.throws(() => installService(box.home, env, false), /was not written by common-memory service install/);
    assert.throws(() => uninstallService(box.home, env, false), /nothing was removed/);
    assert.equal(readFileSync(path, 'utf8'), '[Service]\nExecStart=/usr/bin/mine\n');
    assert.deepEqual(ran, []);
    assert.equal(serviceStatus(box.home, env).file, 'foreign');
  });

  it('a failing systemctl says what it said and what to do; an unreachable user manager is named', () => {
    const box = sandbox();
    const failing = recorder((args) => (args[1] === 'enable' ? { code: 1, stderr: 'Unit file is masked.' } : {}));
    assert.throws(
      () => installService(box.home, environment(box, failing.run), false),
      /systemctl --user enable .* failed \(exit 1\): Unit file is masked\.[\s\S]*service install again/,
    );
    const noBus = recorder(() => ({ code: 1, stderr: 'Failed to connect to bus: No medium found' }));
    const status = serviceStatus(box.home, environment(box, noBus.run));
    assert.equal(status.running, null);
    assert.match(status.problem!, /cannot reach the user's systemd manager[\s\S]*loginctl enable-linger/);
  });

  it('launchd: bootout (allowed to fail) then bootstrap in gui/<uid>; status from launchctl print', () => {
    const box = sandbox();
    const { ran, run } = recorder((args) =>
      args[0] === 'bootout'
        ? { code: 3, stderr: 'No such process' }
        : args[0] === 'print'
          ? { stdout: '\tstate = running\n' }
          : {},
    );
    const env = environment(box, run, 'darwin');
    const installed = installService(box.home, env, false);
    const label = installed.plan.name;
    assert.deepEqual(ran, [`launchctl bootout gui/501/${label}`, `launchctl bootstrap gui/501 ${installed.plan.path}`]);
    const status = serviceStatus(box.home, env);
    assert.equal(status.running, true);
    assert.equal(status.state, 'running');
    ran.length = 0;
    uninstallService(box.home, env, false);
    assert.deepEqual(ran, [`launchctl bootout gui/501/${label}`]);
    assert.equal(existsSync(installed.plan.path), false);
  });

  it('read without blocking (the Dashboard): the same status and commands as the blocking read', async () => {
    const box = sandbox();
    const { ran, run } = recorder((args) => (args[1] === 'is-active' ? { code: 3, stdout: 'failed\n' } : {}));
    const env = environment(box, run);
    const later: string[] = [];
    const runLater = async (command: string, args: readonly string[]) => {
      later.push([command, ...args].join(' '));
      return run(command, args);
    };
    assert.equal((await serviceStatusLater(box.home, env, runLater)).file, 'absent');
    assert.deepEqual(later, [], 'no service file: nothing is asked');
    installService(box.home, env, false);
    ran.length = 0;
    const blocking = serviceStatus(box.home, env);
    const commands = [...ran];
    ran.length = 0;
    const status = await serviceStatusLater(box.home, env, runLater);
    assert.deepEqual(status, blocking);
    assert.deepEqual(later, commands);
    assert.deepEqual(
      { installed: status.installed, running: status.running, state: status.state },
      { installed: true, running: false, state: 'failed' },
    );
    // The manager out of reach stops at the first command, as the blocking read does.
    const noBus = recorder(() => ({ code: 1, stderr: 'Failed to connect to bus: No medium found' }));
    const unreachable = await serviceStatusLater(box.home, env, async (command, args) => noBus.run(command, args));
    assert.equal(unreachable.running, null);
    assert.equal(noBus.ran.length, 1);
  });

  it('the non-blocking runner reports the exit code, and a command that could not start as such', async () => {
    const exited = await runCommandAsync(process.execPath, ['-e', 'process.stdout.write("up"); process.exit(3)']);
    assert.deepEqual({ code: exited.code, stdout: exited.stdout }, { code: 3, stdout: 'up' });
    const missing = await runCommandAsync(join(tmpdir(), 'no-such-command-here'), []);
    assert.equal(missing.code, null);
    assert.match(missing.error ?? '', /ENOENT/);
  });
});

describe('common-memory service (a fake systemctl on PATH)', { timeout: 240_000 }, () => {
  it('install --dry-run prints the unit; install, status and uninstall run systemctl --user; status reports it', async () => {
    const box = sandbox();
    const bin = join(box.root, 'bin');
    mkdirSync(bin);
    const calls = join(box.root, 'systemctl-calls');
    // Answers as a user manager whose unit runs; every call is appended to a file.
    writeFileSync(
      join(bin, 'systemctl'),
      `#!/bin/sh\necho "$*" >> '${calls}'\ncase "$2" in is-active) echo active;; is-enabled) echo enabled;; esac\nexit 0\n`,
    );
    chmodSync(join(bin, 'systemctl'), 0o755);
    // Only the fake on PATH: the machine's own systemctl is never reached.
    const env = { PATH: bin, HOME: box.userHome, XDG_CONFIG_HOME: box.configHome };
    const args = ['--home', box.home];

    const dry = await runCli(['service', 'install', '--dry-run', ...args], { env });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Would write .*\.service:/);
    assert.ok(dry.stdout.includes(`# ${SERVICE_MARKER}`));
    assert.match(dry.stdout, /Would run:\n {2}systemctl --user daemon-reload/);
    assert.equal(existsSync(calls), false, '--dry-run ran nothing');

    const installed = await runCli(['service', 'install', ...args], { env });
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /Installed systemd user unit common-memory-host-[0-9a-f]{8}/);
    assert.match(installed.stdout, /running: yes \(active\)/);
    const unitName = /common-memory-host-[0-9a-f]{8}/.exec(installed.stdout)![0];
    assert.deepEqual(readFileSync(calls, 'utf8').trim().split('\n').slice(0, 3), [
      '--user daemon-reload',
      `--user enable ${unitName}.service`,
      `--user restart ${unitName}.service`,
    ]);
    const unit = readFileSync(join(box.configHome, 'systemd', 'user', `${unitName}.service`), 'utf8');
    assert.ok(unit.includes(`"host" "--home" "${box.home}"`), unit);

    const status = JSON.parse((await runCli(['service', 'status', '--json', ...args], { env })).stdout);
    assert.equal(status.installed, true);
    assert.equal(status.running, true);
    const note = await runCli(['note', 'a store for status', ...args], { env });
    assert.equal(note.code, 0, note.stderr);
    const overall = await runCli(['status', ...args], { env });
    assert.match(overall.stdout, /service: systemd user unit common-memory-host-/);
    assert.match(overall.stdout, /installed · starts at login: yes · running: yes \(active\)/);

    const removed = await runCli(['service', 'uninstall', ...args], { env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /Removed systemd user unit/);
    assert.ok(readFileSync(calls, 'utf8').includes(`--user disable --now ${unitName}.service`));
    const after = await runCli(['status', ...args], { env });
    assert.match(after.stdout, /not installed\. Keep a host running in the background: common-memory service install/);
  });

  it('without systemctl, status says so and install fails saying what happened and what to do', async () => {
    const box = sandbox();
    const empty = join(box.root, 'empty');
    mkdirSync(empty);
    const env = { PATH: empty, HOME: box.userHome, XDG_CONFIG_HOME: box.configHome };
    const installed = await runCli(['service', 'install', '--home', box.home], { env });
    assert.notEqual(installed.code, 0);
    assert.match(installed.stderr, /systemctl could not be run .*no systemd user manager/);
    assert.match(installed.stderr, /service install again, or remove it with common-memory service uninstall/);
  });

  it('a data home that cannot be made (below /proc, or a file) is exit 7 at once; no unit is written', async () => {
    const box = sandbox();
    const empty = join(box.root, 'empty');
    mkdirSync(empty);
    const env = { PATH: empty, HOME: box.userHome, XDG_CONFIG_HOME: box.configHome };
    const file = join(box.root, 'a-file');
    writeFileSync(file, 'not a directory');
    for (const home of ['/proc/common-memory-test/home', file]) {
      const started = Date.now();
      // A recursive mkdir of a path below /proc loops for good: the deadline ends it.
      const installed = await runCli(['service', 'install', '--home', home, '--json'], { env, timeoutMs: 10_000 });
      assert.equal(installed.code, 7, `${home}: ${installed.stderr}`);
      assert.equal(JSON.parse(installed.stderr).error.code, 'store_unavailable');
      assert.ok(Date.now() - started < 10_000);
      assert.equal(existsSync(join(box.configHome, 'systemd')), false, 'no unit file was written');
    }
  });
});
