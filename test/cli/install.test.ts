// install / uninstall codex|claude: planning and applying hook config changes, through the API the
// TUI uses and through the shipped CLI. Every test works in its own temp config dir.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { CLAUDE_HOOK_EVENTS } from '../../source/hosts/claude/install.js';
import { CODEX_HOOK_EVENTS } from '../../source/hosts/codex/install.js';
import { detectFormat } from '../../source/hosts/config-file.js';
import { HOOK_STATUS_MESSAGE, hookCommand, parseHookCommand } from '../../source/hosts/hook-config.js';
import { applyInstall, integrationStatus, planInstall, planUninstall } from '../../source/hosts/integrations.js';
import { unifiedDiff } from '../../source/ground/unified-diff.js';
import { BIN, runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

const tempDir = (label: string): string => mkdtempSync(join(tmpdir(), `cm-install-${label}-`));
/** The CLI without COMMON_MEMORY_HOME/CODEX_HOME/CLAUDE_CONFIG_DIR from the test's own environment. */
const cleanEnv = (): NodeJS.ProcessEnv => ({ COMMON_MEMORY_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' });
const read = (path: string): string => readFileSync(path, 'utf8');
const backups = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.bak'));
const temps = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

/** A settings.json a real user might have: their own hooks (one on an event we also hook) and other settings. */
const USER_SETTINGS = {
  $schema: 'https://json.schemastore.org/claude-code-settings.json',
  model: 'opus',
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send "done"' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard.sh', timeout: 5 }] }],
  },
  permissions: { allow: ['Bash(npm test)'], deny: [] },
  env: { FOO: 'bar' },
};
const userSettingsText = JSON.stringify(USER_SETTINGS, null, 2) + '\n';

function writeSettings(dir: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'settings.json');
  writeFileSync(path, text);
  return path;
}

describe('install: planning and applying (the API the TUI uses)', () => {
  it('fresh install into an empty Codex home creates hooks.json with one group of ours per event', () => {
    const codexHome = join(tempDir('fresh'), 'codex');
    const plan = planInstall('codex', { configDir: codexHome });
    assert.equal(plan.before, null);
    assert.deepEqual(plan.refusals, []);
    assert.deepEqual(
      plan.changes.map((c) => c.change),
      CODEX_HOOK_EVENTS.map(() => 'add'),
    );
    assert.match(plan.diff, /^--- \/dev\/null\n\+\+\+ .*hooks\.json\n@@ -0,0 \+1,/);
    const result = applyInstall(plan);
    assert.equal(result.written, true);
    assert.equal(result.backupPath, null, 'nothing to back up');
    const written = JSON.parse(read(join(codexHome, 'hooks.json')));
    assert.deepEqual(
      Object.keys(written.hooks),
      CODEX_HOOK_EVENTS.map((e) => e.event),
    );
    for (const spec of CODEX_HOOK_EVENTS) {
      assert.deepEqual(written.hooks[spec.event], [
        {
          hooks: [
            {
              type: 'command',
              command: hookCommand('codex'),
              timeout: spec.timeoutSec,
              statusMessage: HOOK_STATUS_MESSAGE,
            },
          ],
        },
      ]);
    }
    // Codex clamps these two to 3 s: we ask for no more.
    assert.equal(written.hooks.SessionEnd[0].hooks[0].timeout, 3);
    assert.equal(written.hooks.Interrupt[0].hooks[0].timeout, 3);
    assert.deepEqual(plan.trust?.keys.slice(0, 2), [
      `${join(codexHome, 'hooks.json')}:session_start:0:0`,
      `${join(codexHome, 'hooks.json')}:user_prompt_submit:0:0`,
    ]);
    assert.equal(integrationStatus('codex', { configDir: codexHome }).state, 'installed');
  });

  it("merges into a settings.json with the user's own hooks and settings, and uninstall gives back the exact bytes", () => {
    const dir = tempDir('merge');
    const path = writeSettings(dir, userSettingsText);
    assert.equal(integrationStatus('claude', { configDir: dir }).state, 'not_installed');
    const plan = planInstall('claude', { configDir: dir });
    assert.deepEqual(plan.warnings, [], 'a JSON.stringify-shaped file round-trips: no layout warning');
    applyInstall(plan);
    const after = JSON.parse(read(path));
    for (const key of ['$schema', 'model', 'permissions', 'env'])
      assert.deepEqual(after[key], USER_SETTINGS[key as keyof typeof USER_SETTINGS], key);
    assert.deepEqual(Object.keys(after), Object.keys(USER_SETTINGS), 'key order kept');
    assert.deepEqual(after.hooks.PreToolUse, USER_SETTINGS.hooks.PreToolUse, 'an event we do not hook is untouched');
    assert.deepEqual(after.hooks.Stop[0], USER_SETTINGS.hooks.Stop[0], "the user's Stop hook stays first");
    assert.equal(after.hooks.Stop[1].hooks[0].statusMessage, HOOK_STATUS_MESSAGE);
    assert.deepEqual(
      Object.keys(after.hooks).slice(0, 2),
      ['Stop', 'PreToolUse'],
      'existing events keep their place; ours follow',
    );
    assert.equal(after.hooks.SessionEnd[0].hooks[0].timeout, 5, "lifts Claude's 1.5 s SessionEnd default");

    const removal = planUninstall('claude', { configDir: dir });
    assert.deepEqual(
      removal.changes.map((c) => c.change),
      CLAUDE_HOOK_EVENTS.map(() => 'remove'),
    );
    applyInstall(removal);
    assert.equal(read(path), userSettingsText, 'uninstall removed exactly what install added');
  });

  it("keeps the file's own indentation, line ends and final newline", () => {
    const dir = tempDir('format');
    const original = JSON.stringify({ model: 'x', hooks: {} }, null, '\t').replace(/\n/g, '\r\n');
    const path = writeSettings(dir, original);
    applyInstall(planInstall('claude', { configDir: dir }));
    const text = read(path);
    assert.ok(text.includes('\r\n\t"hooks": {\r\n\t\t"SessionStart": ['), text.slice(0, 120));
    assert.ok(!/[^\r]\n/.test(text), 'only CRLF line ends');
    assert.ok(!text.endsWith('\n'), 'no final newline, as before');
    assert.deepEqual(detectFormat('{\n    "a": 1\n}\n'), { indent: 4, eol: '\n', finalNewline: true, bom: false });
    assert.equal(detectFormat('{"a":1}').indent, 0);
  });

  it('a hand-laid-out file: what we do not change keeps its exact text, and the plan says so', () => {
    const dir = tempDir('layout');
    const stopGroup = '{ "hooks": [ { "type": "command", "command": "say \\u00e9t\\u00e9" } ] }';
    const permissions = '{"allow": ["Bash(ls)"],   "deny": []}';
    writeSettings(
      dir,
      `{\n    "model": "x",\n    "n": 1.50,\n    "hooks": {\n        "Stop": [ ${stopGroup} ]\n    },\n    "permissions": ${permissions}\n}\n`,
    );
    const plan = planInstall('claude', { configDir: dir });
    assert.equal(plan.warnings.length, 1);
    assert.match(plan.warnings[0]!, /laid out by hand/);
    applyInstall(plan);
    const text = read(join(dir, 'settings.json'));
    assert.ok(text.includes(`"permissions": ${permissions}\n}\n`), text);
    assert.ok(text.includes(`"Stop": [\n            ${stopGroup},\n            {\n                "hooks": [`), text);
    assert.ok(
      text.startsWith('{\n    "model": "x",\n    "n": 1.50,\n    "hooks": {\n'),
      'number form and 4-space indent kept',
    );
    // And uninstall gives back the same content (the Stop list is laid out anew, its member is not).
    applyInstall(planUninstall('claude', { configDir: dir }));
    const back = read(join(dir, 'settings.json'));
    assert.ok(back.includes(`"Stop": [\n            ${stopGroup}\n        ]`), back);
    assert.ok(back.includes(`"permissions": ${permissions}\n}\n`), back);
  });

  it('refuses a plan whose file changed after planning, and writes nothing', () => {
    const dir = tempDir('cas');
    const path = writeSettings(dir, userSettingsText);
    const plan = planInstall('claude', { configDir: dir });
    writeFileSync(path, userSettingsText.replace('opus', 'sonnet'));
    assert.throws(
      () => applyInstall(plan),
      (error: Error & { code?: string }) => error.code === 'config_conflict' && /changed since/.test(error.message),
    );
    assert.equal(read(path), userSettingsText.replace('opus', 'sonnet'));
    assert.deepEqual(backups(dir), []);
  });

  it('a failure between writing the temp file and renaming it leaves the original and no temp file', () => {
    const dir = tempDir('throw');
    const path = writeSettings(dir, userSettingsText);
    const plan = planInstall('claude', { configDir: dir });
    assert.throws(
      () =>
        applyInstall(plan, {
          fault: (name) => {
            if (name === 'beforeRename') throw new Error('injected');
          },
        }),
      /injected/,
    );
    assert.equal(read(path), userSettingsText);
    assert.deepEqual(temps(dir), []);
  });

  it('writes through a symlinked settings.json, keeping the link', () => {
    const root = tempDir('link');
    const real = writeSettings(join(root, 'dotfiles'), userSettingsText);
    mkdirSync(join(root, 'claude'));
    symlinkSync(real, join(root, 'claude', 'settings.json'));
    const result = applyInstall(planInstall('claude', { configDir: join(root, 'claude') }));
    assert.equal(result.writtenPath, real);
    assert.equal(readFileSync(join(root, 'claude', 'settings.json'), 'utf8'), read(real));
    assert.ok(JSON.parse(read(real)).hooks.SessionStart);
    assert.equal(backups(join(root, 'dotfiles')).length, 1);
  });

  it('refuses a settings.json that is a link to a missing file, keeping the link (it was replaced by a new file)', () => {
    const root = tempDir('dangling');
    mkdirSync(join(root, 'claude'));
    const link = join(root, 'claude', 'settings.json');
    symlinkSync(join(root, 'dotfiles', 'settings.json'), link);
    // Planning (what --dry-run prints, and what install applies) refuses: before, it planned a new
    // file and the rename replaced the user's link with it.
    assert.throws(
      () => planInstall('claude', { configDir: join(root, 'claude') }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'invalid_input');
        assert.match(
          error.message,
          /is a link to .*dotfiles.*settings\.json, which does not exist.*nothing was written/s,
        );
        return true;
      },
    );
    assert.ok(lstatSync(link).isSymbolicLink(), 'the link is kept');
    assert.equal(existsSync(join(root, 'dotfiles')), false);
  });

  it("Codex uninstall warns when the user's later groups move (Codex keys trust by position)", () => {
    const codexHome = tempDir('shift');
    applyInstall(planInstall('codex', { configDir: codexHome }));
    const path = join(codexHome, 'hooks.json');
    const value = JSON.parse(read(path));
    value.hooks.Stop.push({ hooks: [{ type: 'command', command: 'my-stop.sh' }] });
    writeFileSync(path, JSON.stringify(value, null, 2) + '\n');
    const removal = planUninstall('codex', { configDir: codexHome });
    assert.deepEqual(removal.shifted, [{ event: 'Stop', from: 1, to: 0 }]);
    assert.ok(
      removal.warnings.some((w) => /hooks\.Stop\[1\] moves to index 0/.test(w)),
      removal.warnings.join('\n'),
    );
    applyInstall(removal);
    assert.deepEqual(JSON.parse(read(path)), {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'my-stop.sh' }] }] },
    });
  });

  it('warns when Codex hooks are switched off in config.toml; there it adds only its MCP server', () => {
    const codexHome = tempDir('toml');
    const toml = 'model = "m"\n[features]\nhooks = false\n[hooks.state."x:stop:0:0"]\ntrusted_hash = "sha256:1"\n';
    writeFileSync(join(codexHome, 'config.toml'), toml);
    const plan = planInstall('codex', { configDir: codexHome });
    assert.equal(plan.warnings.length, 1, plan.warnings.join('\n'));
    assert.match(plan.warnings[0]!, /features\.hooks = false/);
    applyInstall(plan);
    const after = read(join(codexHome, 'config.toml'));
    assert.ok(after.startsWith(toml), after);
    // Ours is a section of its own after the user's file, with no empty [mcp_servers] header.
    assert.match(after.slice(toml.length), /^\n\[mcp_servers\.common-memory\]\ncommand = /);
  });

  it('the unified diff numbers its hunks like diff -u', () => {
    assert.equal(unifiedDiff('a\nb\nc\n', 'a\nb\nc\n', 'x', 'y'), '');
    assert.equal(unifiedDiff('a\nb\nc\n', 'a\nB\nc\n', 'x', 'y'), '--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
    assert.equal(unifiedDiff('', 'a\n', '/dev/null', 'y'), '--- /dev/null\n+++ y\n@@ -0,0 +1,1 @@\n+a\n');
  });

  it('recognises its own command, earlier shims and homes with spaces and quotes; nothing else', () => {
    const home = "/tmp/my homes/it's here";
    const here = { node: process.execPath, bin: BIN };
    assert.deepEqual(parseHookCommand(hookCommand('claude', home), 'claude'), { home, ...here });
    assert.deepEqual(parseHookCommand(hookCommand('codex'), 'codex'), { home: undefined, ...here });
    assert.equal(parseHookCommand(hookCommand('codex'), 'claude'), undefined, 'another client');
    assert.deepEqual(parseHookCommand("'/usr/bin/node' '/x/bin/common-memory.js' hook codex", 'codex'), {
      home: undefined,
      node: '/usr/bin/node',
      bin: '/x/bin/common-memory.js',
    });
    for (const other of [
      'npx common-memory hook codex',
      "'/usr/bin/node' '/x/bin/common-memory.js' hook codex --verbose",
      'node /x/bin/common-memory.js hook codex; rm -rf ~',
      'node  /x/bin/common-memory.js hook codex',
    ]) {
      assert.equal(parseHookCommand(other, 'codex'), undefined, other);
    }
  });

  it('the installed command is a working hook: one event lands in the inbox of the chosen home', () => {
    const home = join(tempDir('run'), 'home');
    const command = hookCommand('claude', home);
    assert.match(command, /^env -u NODE_EXTRA_CA_CERTS .*common-memory\.cjs hook claude --home /);
    const payload = JSON.stringify({ session_id: 's', transcript_path: null, cwd: '/tmp', hook_event_name: 'Stop' });
    // With a certificate bundle that would fail Node's start-up if it were read: the hook never reads it.
    execFileSync('/bin/sh', ['-c', command], {
      input: payload,
      env: { ...process.env, NODE_ENV: 'production', NODE_EXTRA_CA_CERTS: join(home, '..', 'no-such-bundle.pem') },
    });
    const db = new Database(join(home, 'core.sqlite'), { readonly: true });
    try {
      assert.equal((db.prepare("SELECT count(*) AS n FROM inbox WHERE client = 'claude'").get() as { n: number }).n, 1);
    } finally {
      db.close();
    }
  });
});

describe('install: the CLI', () => {
  it('install claude, then again: the second run changes nothing and says so', async () => {
    const dir = tempDir('cli-idem');
    const path = writeSettings(dir, userSettingsText);
    const first = await runCli(['install', 'claude', '--claude-dir', dir, '--json'], { env: cleanEnv() });
    assert.equal(first.code, 0, first.stderr);
    const result = JSON.parse(first.stdout);
    assert.equal(result.changed, true);
    assert.equal(result.written, true);
    assert.equal(result.path, path);
    assert.equal(read(result.backupPath), userSettingsText, 'backup holds the previous bytes');
    assert.doesNotMatch(result.command, /--home/, 'no --home unless the user chose one');
    assert.equal(result.trust, null);
    const installed = read(path);

    const second = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /already installed .*nothing changed/);
    assert.equal(read(path), installed);
    assert.equal(backups(dir).length, 1, 'no second backup');
    const again = JSON.parse(
      (await runCli(['install', 'claude', '--claude-dir', dir, '--json'], { env: cleanEnv() })).stdout,
    );
    assert.deepEqual([again.changed, again.written, again.backupPath, again.diff], [false, false, null, '']);
    assert.ok(again.changes.every((c: { change: string }) => c.change === 'unchanged'));
  });

  it('--dry-run shows a unified diff and writes nothing (new and existing file)', async () => {
    const root = tempDir('cli-dry');
    const codexHome = join(root, 'codex');
    const dry = await runCli(['install', 'codex', '--codex-home', codexHome, '--dry-run'], { env: cleanEnv() });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Dry run — nothing was written/);
    assert.match(dry.stdout, /^\+\+\+ .*hooks\.json$/m);
    assert.match(dry.stdout, /^\+ +"command": ".*common-memory\.cjs hook codex",$/m);
    assert.match(dry.stdout, /silently does not run them until you trust them/);
    assert.equal(existsSync(codexHome), false, 'not even the directory was created');

    const dir = join(root, 'claude');
    const path = writeSettings(dir, userSettingsText);
    const json = JSON.parse(
      (await runCli(['install', 'claude', '--claude-dir', dir, '--dry-run', '--json'], { env: cleanEnv() })).stdout,
    );
    assert.deepEqual([json.dryRun, json.changed, json.written, json.backupPath], [true, true, false, null]);
    assert.match(json.diff, /^@@ /m);
    assert.equal(read(path), userSettingsText);
    assert.deepEqual(readdirSync(dir), ['settings.json']);
  });

  it('passes --home into the hook command when the user chose a home', async () => {
    const root = tempDir('cli-home');
    const home = join(root, 'data');
    const byFlag = JSON.parse(
      (
        await runCli(['install', 'codex', '--codex-home', join(root, 'a'), '--home', home, '--json'], {
          env: cleanEnv(),
        })
      ).stdout,
    );
    assert.ok(byFlag.command.endsWith(`hook codex --home ${home}`), byFlag.command);
    const byEnv = JSON.parse(
      (
        await runCli(['install', 'codex', '--codex-home', join(root, 'b'), '--json'], {
          env: { ...cleanEnv(), COMMON_MEMORY_HOME: home },
        })
      ).stdout,
    );
    assert.equal(byEnv.command, byFlag.command);
  });

  it('refuses a modified entry of ours, saying what differs; install and uninstall write nothing', async () => {
    const dir = tempDir('cli-mod');
    const path = writeSettings(dir, userSettingsText);
    assert.equal((await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() })).code, 0);
    const value = JSON.parse(read(path));
    value.hooks.Stop[1].hooks[0].timeout = 30;
    const edited = JSON.stringify(value, null, 2) + '\n';
    writeFileSync(path, edited);
    const before = readdirSync(dir).sort();
    for (const action of ['install', 'uninstall']) {
      const refused = await runCli([action, 'claude', '--claude-dir', dir], { env: cleanEnv() });
      assert.equal(refused.code, 5, refused.stderr);
      assert.match(
        refused.stderr,
        /hooks\.Stop\[1\] .* is common-memory's Stop hook but was changed: timeout is 30 \(expected 10\)/,
      );
      assert.equal(read(path), edited);
      assert.deepEqual(readdirSync(dir).sort(), before);
    }
    const json = await runCli(['install', 'claude', '--claude-dir', dir, '--json'], { env: cleanEnv() });
    assert.equal(JSON.parse(json.stderr).error.code, 'config_conflict');
  });

  it('an entry an earlier install wrote (older shim, other node) is updated in place; one for another home is refused', async () => {
    const dir = tempDir('cli-upgrade');
    const path = writeSettings(dir, userSettingsText);
    assert.equal((await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() })).code, 0);
    const current = hookCommand('claude');
    const earlier =
      "'/opt/node-20.1/bin/node' '/old/place/node_modules/common-memory/bin/common-memory.js' hook claude";
    const value = JSON.parse(read(path));
    value.hooks.Stop[1].hooks[0].command = earlier;
    value.hooks.SessionStart[0].hooks[0].command = earlier;
    const old = JSON.stringify(value, null, 2) + '\n';
    writeFileSync(path, old);
    assert.equal(integrationStatus('claude', { configDir: dir }).state, 'outdated');

    const plan = planInstall('claude', { configDir: dir });
    assert.deepEqual(plan.refusals, []);
    assert.deepEqual(
      plan.changes.filter((c) => c.change === 'update').map((c) => [c.event, c.group]),
      [
        ['SessionStart', 0],
        ['Stop', 1],
      ],
    );
    const result = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /updated 2 hooks an earlier install wrote \(SessionStart, Stop\)/);
    const after = JSON.parse(read(path));
    assert.deepEqual(after.hooks.Stop[0], USER_SETTINGS.hooks.Stop[0], "the user's Stop hook keeps its place");
    assert.equal(after.hooks.Stop[1].hooks[0].command, current, 'rewritten where it was');
    assert.equal(after.hooks.SessionStart.length, 1);
    assert.equal(integrationStatus('claude', { configDir: dir }).state, 'installed');

    // An earlier entry capturing into another home is not this installation's: refused, untouched.
    const elsewhere = JSON.parse(read(path));
    elsewhere.hooks.Stop[1].hooks[0].command = `${earlier} --home /somewhere/else`;
    const text = JSON.stringify(elsewhere, null, 2) + '\n';
    writeFileSync(path, text);
    const refused = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(refused.code, 5, refused.stderr);
    assert.match(refused.stderr, /hooks\.Stop\[1\] .* was changed: command is/);
    assert.equal(read(path), text);

    // Uninstall takes an earlier entry of the same home with ours.
    writeFileSync(path, old);
    assert.equal((await runCli(['uninstall', 'claude', '--claude-dir', dir], { env: cleanEnv() })).code, 0);
    assert.deepEqual(JSON.parse(read(path)), USER_SETTINGS);
  });

  it('refuses to take over a common-memory hook it did not write, and leaves it as it is', async () => {
    const dir = tempDir('cli-foreign');
    const settings = {
      hooks: {
        UserPromptSubmit: [
          {
            matcher: '',
            hooks: [
              { type: 'command', command: 'npx common-memory hook claude' },
              { type: 'command', command: 'other' },
            ],
          },
        ],
      },
    };
    const text = JSON.stringify(settings, null, 2) + '\n';
    const path = writeSettings(dir, text);
    const refused = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(refused.code, 5);
    assert.match(
      refused.stderr,
      /hooks\.UserPromptSubmit\[0\] .* runs common-memory but was not written by "common-memory install" \(its group holds 2 handlers\)/,
    );
    assert.equal(read(path), text);
    const nothing = await runCli(['uninstall', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(nothing.code, 5, 'uninstall will not remove it either');
    assert.equal(read(path), text);
  });

  it('uninstall removes only ours, keeps a backup, and a second uninstall changes nothing', async () => {
    const codexHome = tempDir('cli-uninstall');
    const path = join(codexHome, 'hooks.json');
    const mine = {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh', timeout: 3 }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: 'hello.sh' }] }],
      },
    };
    writeFileSync(path, JSON.stringify(mine, null, 2) + '\n');
    assert.equal((await runCli(['install', 'codex', '--codex-home', codexHome], { env: cleanEnv() })).code, 0);
    const installed = read(path);
    const removed = await runCli(['uninstall', 'codex', '--codex-home', codexHome, '--json'], { env: cleanEnv() });
    assert.equal(removed.code, 0, removed.stderr);
    const result = JSON.parse(removed.stdout);
    assert.equal(result.changes.length, CODEX_HOOK_EVENTS.length);
    assert.equal(read(result.backupPath), installed);
    assert.equal(read(path), JSON.stringify(mine, null, 2) + '\n');
    const again = await runCli(['uninstall', 'codex', '--codex-home', codexHome], { env: cleanEnv() });
    assert.equal(again.code, 0);
    assert.match(again.stdout, /No common-memory Codex hooks .*nothing changed/);
  });

  it("invalid JSON in the user's file is refused clearly and nothing is written", async () => {
    const dir = tempDir('cli-invalid');
    const path = writeSettings(dir, '{ "model": "opus", }\n');
    const refused = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /settings\.json is not valid JSON .*nothing was written/);
    assert.equal(read(path), '{ "model": "opus", }\n');
    assert.deepEqual(readdirSync(dir), ['settings.json']);
  });

  it('a crash (SIGKILL) between the temp write and the rename leaves the original intact; the next run cleans up', async () => {
    const dir = tempDir('cli-crash');
    const path = writeSettings(dir, userSettingsText);
    const crashed = await runCli(['install', 'claude', '--claude-dir', dir], {
      env: { ...cleanEnv(), COMMON_MEMORY_FAULTS: 'installConfig.beforeRename=kill' },
    });
    assert.equal(crashed.signal, 'SIGKILL');
    assert.equal(read(path), userSettingsText, 'the original is untouched');
    assert.equal(temps(dir).length, 1, 'the killed run left its complete temp file');
    assert.equal(backups(dir).length, 1, 'and the backup it took first');
    const retried = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(retried.code, 0, retried.stderr);
    assert.deepEqual(temps(dir), []);
    assert.ok(JSON.parse(read(path)).hooks.SessionEnd);
  });

  it("usage errors: unknown client, the other client's dir flag", async () => {
    const unknown = await runCli(['install', 'vim'], { env: cleanEnv() });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown client "vim"; usage: common-memory install codex\|claude/);
    const uninstall = await runCliInProcess(['uninstall', 'vim', '--dry-run']);
    assert.equal(uninstall.code, 2);
    assert.match(uninstall.stderr, /Unknown client "vim"; usage: common-memory uninstall codex\|claude/);

    const wrongFlag = await runCli(['install', 'codex', '--claude-dir', '/tmp/x'], { env: cleanEnv() });
    assert.equal(wrongFlag.code, 2);
    assert.match(wrongFlag.stderr, /--claude-dir is for claude/);
  });
});
