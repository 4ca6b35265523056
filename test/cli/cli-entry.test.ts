// Which bundle a run of the shipped bin loads (bin/common-memory.cjs): the TUI the ES module bundle
// (dist/cli/bundle.mjs, with ink and react); every other command the CommonJS CLI without them
// (dist/cli/main.cjs) through its V8 code cache; a TUI run that reaches the plain CLI anyway is
// handed over whole. Each is shown by taking the other bundle away in a copied installation.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { tempHome, waitFor } from '../support/cli.js';
import { copyInstall } from '../support/copied-install.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';

const CHECKOUT = join(import.meta.dirname, '../..');

/** Runs the copy's bin without a terminal; its status and output. */
const run = (bin: string, args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

/** What bin/code-cache.cjs makes of main.cjs's cache, asked in a plain Node as the bin is started. */
function cacheState(dir: string): 'accepted' | 'rejected' | 'none' {
  const loader = JSON.stringify(join(dir, 'bin', 'code-cache.cjs'));
  const bundle = JSON.stringify(join(dir, 'dist', 'cli', 'main.cjs'));
  const probe = `const s = require(${loader}).fromCache(${bundle});
    process.stdout.write(s === null ? 'none' : s.cachedDataRejected ? 'rejected' : 'accepted');`;
  const file = join(dirname(tempHome('cli-cache-probe')), 'probe.cjs');
  writeFileSync(file, probe);
  return run(file, []).stdout as 'accepted' | 'rejected' | 'none';
}

describe('the bin loads the bundle a run needs', () => {
  it("the build leaves a code cache that V8 accepts for the plain CLI's bundle", () => {
    assert.equal(cacheState(CHECKOUT), 'accepted');
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
