// install / uninstall codex|claude register `common-memory mcp` in the client's MCP config with
// the hooks: Claude Code's .claude.json → mcpServers (the client's own keys kept byte for byte),
// Codex's config.toml → [mcp_servers.common-memory] (comments and layout kept, through a TOML
// library). Idempotent; uninstall removes only ours and gives the file back; an entry under our
// name that is not ours is refused; a failed hooks write puts the MCP config back.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { applyInstall, integrationStatus, planInstall, planUninstall } from '../../source/hosts/integrations.js';
import { BIN_PATH } from '../../source/hosts/hook-config.js';
import { runCli } from '../support/cli.js';

const tempDir = (label: string): string => mkdtempSync(join(tmpdir(), `cm-install-mcp-${label}-`));
const cleanEnv = (): NodeJS.ProcessEnv => ({ COMMON_MEMORY_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' });
const read = (path: string): string => readFileSync(path, 'utf8');

/** What Claude Code itself writes into .claude.json while it runs: odd layout on purpose. */
const CLAUDE_JSON = `{
  "numStartups": 3,
  "installMethod": "unknown",
  "projects": {"/home/someone/project": {"allowedTools": [], "hasTrustDialogAccepted": true}},
  "mcpServers": {
    "other": {"type": "stdio", "command": "npx", "args": ["-y", "other-server"], "env": {}}
  },
  "userID": "abc123"
}
`;

const CODEX_TOML = `# my Codex settings
model = "gpt-5"   # the model I use

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-server"]  # keep this comment

[profiles.fast]
model = "o4-mini"
`;

describe('install: the MCP server registration', () => {
  it('claude: adds mcpServers.common-memory keeping every other byte; again is unchanged; uninstall gives the file back', () => {
    const dir = tempDir('claude');
    const path = join(dir, '.claude.json');
    writeFileSync(path, CLAUDE_JSON);
    const plan = planInstall('claude', { configDir: dir });
    assert.equal(plan.mcp.path, path);
    assert.equal(plan.mcp.change, 'add');
    assert.match(plan.mcp.diff, /\+\s+"common-memory": \{/);
    applyInstall(plan);
    const after = read(path);
    const value = JSON.parse(after);
    assert.deepEqual(value.mcpServers['common-memory'], {
      type: 'stdio',
      command: process.execPath,
      args: [BIN_PATH, 'mcp'],
    });
    assert.deepEqual(value.mcpServers.other, JSON.parse(CLAUDE_JSON).mcpServers.other);
    // Claude's own keys keep their exact text, compact objects included.
    for (const line of [
      '  "projects": {"/home/someone/project": {"allowedTools": [], "hasTrustDialogAccepted": true}},',
      '  "userID": "abc123"',
      '    "other": {"type": "stdio", "command": "npx", "args": ["-y", "other-server"], "env": {}}',
    ])
      assert.ok(after.includes(line), line);
    assert.equal(planInstall('claude', { configDir: dir }).mcp.change, 'unchanged');
    assert.equal(integrationStatus('claude', { configDir: dir }).state, 'installed');
    const removal = planUninstall('claude', { configDir: dir });
    assert.equal(removal.mcp.change, 'remove');
    applyInstall(removal);
    assert.equal(read(path), CLAUDE_JSON);
  });

  it('claude: without CLAUDE_CONFIG_DIR the file is ~/.claude.json; with --home the server gets it', () => {
    const home = tempDir('claude-home');
    const plan = planInstall('claude', { home: '/data/cm' });
    assert.equal(plan.mcp.path.endsWith('/.claude.json'), true);
    assert.notEqual(plan.mcp.path, join(plan.configDir, '.claude.json'), 'not inside ~/.claude');
    const chosen = planInstall('claude', { configDir: home, home: '/data/cm' });
    assert.deepEqual(chosen.mcp.entry.args, [BIN_PATH, 'mcp', '--home', '/data/cm']);
  });

  it('codex: adds [mcp_servers.common-memory] keeping comments and layout; uninstall gives the file back', () => {
    const codexHome = tempDir('codex');
    const path = join(codexHome, 'config.toml');
    writeFileSync(path, CODEX_TOML);
    const plan = planInstall('codex', { configDir: codexHome });
    assert.equal(plan.mcp.change, 'add');
    applyInstall(plan);
    const after = read(path);
    // The user's file byte for byte, then ours as a section of its own like the user's [mcp_servers.docs].
    assert.ok(after.startsWith(CODEX_TOML), after);
    assert.match(after.slice(CODEX_TOML.length), /^\n\[mcp_servers\.common-memory\]\ncommand = ".*"\nargs = \[.*\]\n$/);
    const value = JSON.parse(JSON.stringify(parseToml(after))) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.deepEqual(value.mcp_servers['common-memory'], { command: process.execPath, args: [BIN_PATH, 'mcp'] });
    assert.deepEqual(value.mcp_servers.docs, { command: 'npx', args: ['-y', 'docs-server'] });
    assert.equal(planInstall('codex', { configDir: codexHome }).mcp.change, 'unchanged');
    applyInstall(planUninstall('codex', { configDir: codexHome }));
    assert.equal(read(path), CODEX_TOML);
  });

  it('codex: a fresh config.toml gets a [mcp_servers.common-memory] table; uninstall removes the file it created', () => {
    const codexHome = join(tempDir('codex-fresh'), 'codex');
    applyInstall(planInstall('codex', { configDir: codexHome }));
    const path = join(codexHome, 'config.toml');
    assert.match(read(path), /\[mcp_servers\.common-memory\]\ncommand = ".*"\nargs = \[/);
    applyInstall(planUninstall('codex', { configDir: codexHome }));
    assert.equal(read(path).trim(), '', 'only our table was in it');
  });

  it('codex: a file without a final newline, and an inline mcp_servers table, still get our server and nothing else', () => {
    for (const [label, text] of [
      ['no final newline', 'model = "gpt-5"\n[mcp_servers.docs]\ncommand = "npx"'],
      ['inline mcp_servers', 'model = "gpt-5"\nmcp_servers = { docs = { command = "npx" } }\n'],
    ] as const) {
      const codexHome = tempDir(`codex-${label.replace(/ /g, '-')}`);
      const path = join(codexHome, 'config.toml');
      writeFileSync(path, text);
      applyInstall(planInstall('codex', { configDir: codexHome }));
      const value = JSON.parse(JSON.stringify(parseToml(read(path)))) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.deepEqual(
        value.mcp_servers['common-memory'],
        { command: process.execPath, args: [BIN_PATH, 'mcp'] },
        label,
      );
      assert.deepEqual(value.mcp_servers.docs, { command: 'npx' }, label);
      assert.equal(value.model, 'gpt-5', label);
      if (label === 'no final newline') assert.ok(read(path).startsWith(`${text}\n\n[mcp_servers.common-memory]\n`));
    }
  });

  it('an entry named common-memory that is not ours is refused, for install and uninstall; nothing is written', () => {
    const dir = tempDir('foreign');
    const path = join(dir, '.claude.json');
    const foreign =
      '{"mcpServers": {"common-memory": {"type": "stdio", "command": "npx", "args": ["common-memory-fork"]}}}\n';
    writeFileSync(path, foreign);
    for (const plan of [planInstall('claude', { configDir: dir }), planUninstall('claude', { configDir: dir })]) {
      assert.equal(plan.refusals.length, 1);
      assert.equal(plan.refusals[0]!.code, 'not_ours');
      assert.match(plan.refusals[0]!.message, /never overwrites or removes it/);
      assert.throws(() => applyInstall(plan), /never overwrites/);
    }
    assert.equal(read(path), foreign);
    assert.equal(existsSync(join(dir, 'settings.json')), false, 'the hooks were not written either');

    const codexHome = tempDir('foreign-codex');
    const toml =
      '[mcp_servers.common-memory]\ncommand = "/usr/bin/node"\nargs = ["/x/bin/common-memory.cjs", "mcp", "--verbose"]\n';
    writeFileSync(join(codexHome, 'config.toml'), toml);
    assert.equal(planInstall('codex', { configDir: codexHome }).refusals[0]?.code, 'not_ours');
  });

  it('an entry an earlier install wrote (another node or package path) is rewritten in place', () => {
    const dir = tempDir('earlier');
    const path = join(dir, '.claude.json');
    writeFileSync(
      path,
      '{"mcpServers": {"common-memory": {"type": "stdio", "command": "/old/node", "args": ["/old/pkg/bin/common-memory.cjs", "mcp"]}}}\n',
    );
    const plan = planInstall('claude', { configDir: dir });
    assert.equal(plan.mcp.change, 'update');
    assert.equal(integrationStatus('claude', { configDir: dir }).state, 'outdated');
    applyInstall(plan);
    assert.equal(JSON.parse(read(path)).mcpServers['common-memory'].command, process.execPath);
  });

  it('invalid TOML is refused with the file named; nothing is written', () => {
    const codexHome = tempDir('bad-toml');
    writeFileSync(join(codexHome, 'config.toml'), 'model = \n[[[');
    const plan = planInstall('codex', { configDir: codexHome });
    assert.equal(plan.refusals[0]?.code, 'invalid_json');
    assert.match(plan.refusals[0]!.message, /config\.toml is not valid TOML/);
    assert.equal(existsSync(join(codexHome, 'hooks.json')), false);
  });

  it('a failed hooks write puts the MCP config back (both files or neither)', () => {
    const dir = tempDir('atomic');
    const path = join(dir, '.claude.json');
    writeFileSync(path, CLAUDE_JSON);
    const plan = planInstall('claude', { configDir: dir });
    assert.throws(
      () =>
        applyInstall(plan, {
          fault: (name) => {
            if (name === 'beforeRename') throw new Error('simulated crash writing settings.json');
          },
        }),
      /simulated crash/,
    );
    assert.equal(read(path), CLAUDE_JSON);
    assert.equal(existsSync(join(dir, 'settings.json')), false);
  });

  it('the CLI: --dry-run shows the MCP change and writes nothing; --json reports it', async () => {
    const root = tempDir('cli');
    const dir = join(root, 'claude');
    mkdirSync(dir);
    writeFileSync(join(dir, '.claude.json'), CLAUDE_JSON);
    const dry = await runCli(['install', 'claude', '--claude-dir', dir, '--dry-run'], { env: cleanEnv() });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      /Would register the MCP server Claude Code starts \(common-memory mcp\) as mcpServers\.common-memory/,
    );
    assert.match(dry.stdout, /\+\s+"common-memory": \{/);
    assert.equal(read(join(dir, '.claude.json')), CLAUDE_JSON);
    const done = await runCli(['install', 'claude', '--claude-dir', dir, '--json'], { env: cleanEnv() });
    const result = JSON.parse(done.stdout);
    assert.equal(result.mcp.change, 'add');
    assert.equal(result.mcp.written, true);
    assert.deepEqual(result.mcp.args, [BIN_PATH, 'mcp']);
    const again = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.match(again.stdout, /already installed/);
  });

  it('a relative --claude-dir: .claude.json is named by its absolute path, as settings.json is', async () => {
    const root = tempDir('relative');
    mkdirSync(join(root, 'claude'));
    const dry = await runCli(['install', 'claude', '--claude-dir', 'claude', '--dry-run', '--json'], {
      env: cleanEnv(),
      cwd: root,
    });
    assert.equal(dry.code, 0, dry.stderr);
    const result = JSON.parse(dry.stdout);
    assert.equal(result.path, join(root, 'claude', 'settings.json'));
    assert.equal(result.mcp.path, join(root, 'claude', '.claude.json'));
  });
});
