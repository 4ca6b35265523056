// Which bundle a run of the shipped bin loads (bin/common-memory.cjs): the TUI the ES module bundle
// (dist/cli/bundle.mjs, with ink and react); every other command the CommonJS CLI without them
// (dist/cli/main.cjs) through its V8 code cache, and `mcp` the same CLI with the MCP server
// (dist/cli/mcp.cjs); a TUI or MCP run that reaches the plain CLI anyway is handed over whole. Each
// is shown by taking the other bundle away in a copied installation.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { tempHome, waitFor } from '../support/cli.js';
import { copyInstall } from '../support/copied-install.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';

const CHECKOUT = join(import.meta.dirname, '../..');

/** Runs the copy's bin without a terminal; its status and output. */
const run = (bin: string, args: string[], input?: string) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    ...(input === undefined ? {} : { input }),
  });

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-entry', version: '0' } },
})}\n`;

/** What bin/code-cache.cjs makes of a CLI bundle's cache, asked in a plain Node as the bin is started. */
function cacheState(dir: string, name = 'main.cjs'): 'accepted' | 'rejected' | 'none' {
  const loader = JSON.stringify(join(dir, 'bin', 'code-cache.cjs'));
  const bundle = JSON.stringify(join(dir, 'dist', 'cli', name));
  const probe = `const s = require(${loader}).fromCache(${bundle});
    process.stdout.write(s === null ? 'none' : s.cachedDataRejected ? 'rejected' : 'accepted');`;
  const file = join(dirname(tempHome('cli-cache-probe')), 'probe.cjs');
  writeFileSync(file, probe);
  return run(file, []).stdout as 'accepted' | 'rejected' | 'none';
}

describe('the bin loads the bundle a run needs', () => {
  it("the build leaves a code cache that V8 accepts for the plain CLI's bundle and the MCP server's", () => {
    assert.equal(cacheState(CHECKOUT), 'accepted');
    assert.equal(cacheState(CHECKOUT, 'mcp.cjs'), 'accepted');
  });

  it('`mcp` runs from its own bundle; reached through the plain CLI, it is handed over whole', () => {
    const install = copyInstall(join(tempHome('cli-entry-mcp'), 'install'));
    const home = tempHome('cli-entry-mcp-home');
    const plain = join(install.dir, 'dist', 'cli', 'main.cjs');
    const aside = `${plain}.aside`;
    renameSync(plain, aside);
    const direct = run(install.bin, ['mcp', '--home', home], INITIALIZE);
    assert.equal(direct.status, 0, direct.stderr);
    assert.match(direct.stdout, /"serverInfo":\{"name":"common-memory"/, 'answered without the plain CLI');

    renameSync(aside, plain);
    // A flag before the command: the shim sends this run to the plain CLI, which has no MCP server.
    const handed = run(install.bin, ['--home', home, 'mcp'], INITIALIZE);
    assert.equal(handed.status, 0, handed.stderr);
    assert.match(handed.stdout, /"serverInfo":\{"name":"common-memory"/);
    rmSync(join(install.dir, 'dist', 'cli', 'mcp.cjs'));
    const missing = run(install.bin, ['--home', home, 'mcp'], INITIALIZE);
    assert.notEqual(missing.status, 0, 'the plain CLI cannot serve MCP itself');
    assert.doesNotMatch(missing.stdout, /serverInfo/);
  });

  it('a plain command runs without the TUI bundle, and only the plain CLI missing stops it', () => {
    const install = copyInstall(join(tempHome('cli-entry'), 'install'));
    const home = tempHome('cli-entry-home');
    for (const name of readdirSync(join(install.dir, 'dist', 'cli')))
      if (name.endsWith('.mjs')) rmSync(join(install.dir, 'dist', 'cli', name));
    const note = run(install.bin, ['note', 'kept without the TUI bundle', '--home', home]);
    assert.equal(note.status, 0, note.stderr);
    const listed = run(install.bin, ['log', '--json', '--home', home]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /kept without the TUI bundle/);

    rmSync(join(install.dir, 'dist', 'cli', 'main.cjs'));
    const broken = run(install.bin, ['log', '--json', '--home', home]);
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /is not built .*main\.cjs is missing.*npm run build/s);
  });

  it('a TUI run that reaches the plain CLI (a flag of no command) is handed to the TUI bundle', async () => {
    const home = tempHome('cli-entry-tui');
    const child = spawnInTerminal([process.execPath, join(CHECKOUT, 'bin', 'common-memory.cjs'), '--json'], {
      ...terminalEnv({ COMMON_MEMORY_HOME: home }),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor('the first frame', () => (output.includes('Dashboard') ? true : undefined), 30_000);
      child.stdin.write('q');
      assert.equal(await exited, 0, output.slice(-500));
    } finally {
      child.kill('SIGKILL');
    }
  });
});
