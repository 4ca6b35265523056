// The hook bundle's V8 code cache (bin/hook-loader.cjs): the build leaves one that V8 accepts for
// exactly that bundle; a cache of another bundle (moved, rebuilt, touched), a damaged one or none
// at all is passed over, and the hook keeps every event as before.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeFiles } from '../../source/home.js';
import { copyInstall } from '../support/copied-install.js';
import { tempHome } from '../support/cli.js';

interface Loader {
  fromCache(): { script: { cachedDataRejected?: boolean } } | null;
  CACHE: string;
  HOOK: string;
}

const loaderOf = (dir: string): Loader => createRequire(import.meta.url)(join(dir, 'bin', 'hook-loader.cjs')) as Loader;

const event = (session: string, cwd: string) =>
  JSON.stringify({
    session_id: session,
    transcript_path: null,
    cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });

/** Runs `node <script> <args>` with the event on stdin, in a plain Node (no tsx). */
const node = (script: string, args: string[], input: string) =>
  spawnSync(process.execPath, [script, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });

/** What the copy's loader makes of its cache, asked in a plain Node as the hook is started. */
function cacheState(dir: string): 'accepted' | 'rejected' | 'none' {
  const probe = `const c = require(${JSON.stringify(join(dir, 'bin', 'hook-loader.cjs'))}).fromCache();
    process.stdout.write(c === null ? 'none' : c.script.cachedDataRejected ? 'rejected' : 'accepted');`;
  // Beside the data homes, never in the installation it asks about.
  const file = join(dirname(tempHome('code-cache-probe')), 'probe.cjs');
  writeFileSync(file, probe);
  return node(file, [], '').stdout as 'accepted' | 'rejected' | 'none';
}

/** Runs the copy's hook for one SessionStart and returns how many events its store holds. */
function keptEvents(install: { dir: string; bin: string }, session: string): number {
  const home = tempHome('code-cache-home');
  const run = node(install.bin, ['hook', 'codex', '--home', home], event(session, home));
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  const db = new Database(storeFiles(home).core, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM inbox WHERE event = 'SessionStart'").pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('the hook bundle code cache', () => {
  it('the build leaves one that V8 accepts for this very bundle', () => {
    const checkout = join(import.meta.dirname, '../..');
    assert.equal(cacheState(checkout), 'accepted');
    assert.equal(loaderOf(checkout).HOOK, join(checkout, 'dist', 'hook.cjs'));
  });

  it('is used only for the bundle it was made from; a damaged one is passed over; every event is kept', () => {
    const install = copyInstall(join(tempHome('code-cache'), 'install'));
    const { CACHE, HOOK } = loaderOf(install.dir);
    // The copied bundle is another file (inode, mtime): the checkout's cache does not apply.
    assert.equal(cacheState(install.dir), 'none');
    assert.equal(keptEvents(install, 'copied'), 1);

    // Made again for the copy, as its build would: accepted.
    const made = node(
      join(install.dir, 'bin', 'hook-loader.cjs'),
      ['codex', '--home', tempHome('code-cache-build')],
      event('build', '/'),
    );
    assert.equal(made.status, 0, made.stderr);
    assert.equal(cacheState(install.dir), 'accepted');
    assert.equal(keptEvents(install, 'cached'), 1);

    // V8's data damaged behind a valid header: V8 refuses it and compiles as usual.
    const good = readFileSync(CACHE);
    const damaged = Buffer.from(good);
    const header = 4 + damaged.readUInt32LE(0);
    for (let at = header; at < damaged.length; at += 7) damaged[at] = damaged[at]! ^ 0xff;
    writeFileSync(CACHE, damaged);
    assert.equal(cacheState(install.dir), 'rejected');
    assert.equal(keptEvents(install, 'damaged'), 1);

    // Not a cache at all: a plain require.
    writeFileSync(CACHE, 'garbage');
    assert.equal(keptEvents(install, 'garbage'), 1);

    // The bundle touched after the cache was made (a rebuild without its last step): passed over.
    writeFileSync(CACHE, good);
    assert.equal(cacheState(install.dir), 'accepted');
    const later = new Date(Date.now() + 5_000);
    utimesSync(HOOK, later, later);
    assert.equal(cacheState(install.dir), 'none');
    assert.equal(keptEvents(install, 'touched'), 1);
  });
});
