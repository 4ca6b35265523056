// The worker threads' V8 code caches (bin/code-cache.cjs, runThread): each thread is a CommonJS
// bundle (dist/workers/<name>-thread.cjs) that the build leaves with a cache holding what a host's
// thread runs, not only its top level (scripts/cli-code-cache.cjs). A thread started as
// source/workers/start-worker.ts starts it loads through that cache; a cache of another bundle
// (copied, touched), a damaged one or none at all is passed over and the thread works as before;
// and nothing run from the shipped build writes a cache into dist.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { gitRepo, tempHome } from '../support/cli.js';
import { copyInstall } from '../support/copied-install.js';

const CHECKOUT = join(import.meta.dirname, '../..');
const THREADS = ['writer-thread', 'drain-thread', 'agents-thread', 'runners-thread', 'memory-files-thread'];
const bundleOf = (dir: string, name: string) => join(dir, 'dist', 'workers', `${name}.cjs`);

/** Runs `node <script> <args>` in a plain Node (no tsx), from `cwd`. */
const node = (script: string, args: string[], cwd?: string) =>
  spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    ...(cwd ? { cwd } : {}),
  });

/** Writes a probe script beside the data homes, never in the installation it asks about. */
function probe(name: string, source: string): string {
  const file = join(dirname(tempHome(`thread-cache-${name}`)), `${name}.cjs`);
  writeFileSync(file, source);
  return file;
}

/**
 * Starts the writer thread of the installation in `dir` exactly as start-worker.ts does (a worker
 * evaluating `runThread(<bundle>)`, no execArgv), with a fresh data home; reports what the loader
 * made of the cache and whether the thread said it was ready.
 */
function startWriter(dir: string): { cache: string; ready: string } {
  const home = tempHome('thread-cache-writer');
  mkdirSync(home, { recursive: true });
  const loader = JSON.stringify(join(dir, 'bin', 'code-cache.cjs'));
  const bundle = JSON.stringify(bundleOf(dir, 'writer-thread'));
  const script = probe(
    'start-writer',
    `const { Worker } = require('node:worker_threads');
    const source = 'const cache = require(' + ${JSON.stringify(loader)} + ').runThread(' + ${JSON.stringify(bundle)} + ');'
      + 'require("node:worker_threads").parentPort.postMessage({ cache });';
    const worker = new Worker(source, { eval: true, execArgv: [], workerData: {
      corePath: ${JSON.stringify(join(home, 'core.sqlite'))},
      memoryStatePath: ${JSON.stringify(join(home, 'memory-state.sqlite'))},
    } });
    const seen = {};
    worker.on('message', (message) => {
      if (message.cache) seen.cache = message.cache;
      if (message.type) seen.ready = message.type;
      if (seen.cache && seen.ready) {
        process.stdout.write(JSON.stringify(seen));
        void worker.terminate();
      }
    });
    worker.on('error', (error) => { process.stderr.write(String(error)); process.exitCode = 1; });`,
  );
  const run = node(script, []);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { cache: string; ready: string };
}

/** What the loader makes of each thread's cache, asked in a plain Node. */
function cacheStates(dir: string): Record<string, string> {
  const loader = JSON.stringify(join(dir, 'bin', 'code-cache.cjs'));
  const script = probe(
    'states',
    `const { fromCache } = require(${loader});
    const states = {};
    for (const name of ${JSON.stringify(THREADS)}) {
      let script;
      try { script = fromCache(require('node:path').join(${JSON.stringify(join(dir, 'dist', 'workers'))}, name + '.cjs')); }
      catch { states[name] = 'unreadable'; continue; }
      states[name] = script === null ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
    }
    process.stdout.write(JSON.stringify(states));`,
  );
  const run = node(script, []);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, string>;
}

const all = (state: string) => Object.fromEntries(THREADS.map((name) => [name, state]));

/** The copy's bin: a note (the writer thread) and, unless only the writer is asked about, a sync (the memory files thread too). */
function threadsWork(install: { bin: string }, repo: string, home: string, writerOnly = false): void {
  const noted = node(install.bin, ['note', 'a note through the threads', '--home', home]);
  assert.equal(noted.status, 0, noted.stderr);
  assert.match(noted.stdout, /^noted: journal #\d+/);
  if (writerOnly) return;
  const synced = node(install.bin, ['memory', 'sync', '--json', '--home', home], repo);
  assert.equal(synced.status, 0, synced.stderr);
  assert.equal(JSON.parse(synced.stdout).coverage, 'complete');
}

describe('the worker threads run through their code caches', () => {
  it('the build leaves a cache V8 accepts for each thread, and the writer started as a host starts it loads through it', () => {
    assert.deepEqual(cacheStates(CHECKOUT), all('accepted'));
    assert.deepEqual(startWriter(CHECKOUT), { cache: 'accepted', ready: 'ready' });
  });

  it("the writer's cache holds more than its top level: what the build's commands ran in it", () => {
    // The code V8 has once the writer's top level has run (its database opened and migrated), no command served.
    const bundle = bundleOf(CHECKOUT, 'writer-thread');
    const home = tempHome('thread-cache-top');
    mkdirSync(home, { recursive: true });
    const script = probe(
      'top-level',
      `const { Worker } = require('node:worker_threads');
      const source = \`
        const vm = require('node:vm');
        const file = ${JSON.stringify(bundle)};
        const code = require('node:fs').readFileSync(file, 'utf8');
        const script = new vm.Script('(function (exports, require, module, __filename, __dirname) { ' + code + '\\\\n});', { filename: file });
        const module = { exports: {} };
        script.runInThisContext().call(module.exports, module.exports, require('node:module').createRequire(file), module, file, require('node:path').dirname(file));
        setTimeout(() => require('node:worker_threads').parentPort.postMessage({ bytes: script.createCachedData().length }), 200);
      \`;
      const worker = new Worker(source, { eval: true, execArgv: [], workerData: {
        corePath: ${JSON.stringify(join(home, 'core.sqlite'))},
        memoryStatePath: ${JSON.stringify(join(home, 'memory-state.sqlite'))},
      } });
      worker.on('message', (message) => {
        if (message.bytes) { process.stdout.write(String(message.bytes)); void worker.terminate(); }
      });`,
    );
    const run = node(script, []);
    assert.equal(run.status, 0, run.stderr);
    const topLevel = Number(run.stdout);
    const built = statSync(`${bundle}.v8cache`).size;
    assert.ok(topLevel > 100_000, `the top level's code: ${topLevel} bytes`);
    // What the build's commands add is the functions they ran (about 80 KB): a fixed amount, while the
    // top level grows with every rule the lint compiles at load, so a ratio to it shrank below its
    // bound as the rules grew. A cache of the top level alone would add nothing.
    assert.ok(
      built - topLevel > 40_000,
      `the build's cache (${built} bytes) against the top level's code (${topLevel}): ${built - topLevel} bytes more`,
    );
  });

  it('a cache of another bundle, a damaged one or none is passed over; the threads work; the bin writes none', () => {
    const install = copyInstall(join(tempHome('thread-cache'), 'install'));
    const home = tempHome('thread-cache-home');
    const repo = gitRepo(home, 'repo');
    // The copied bundles are other files (inode, mtime): the checkout's caches do not apply.
    assert.deepEqual(cacheStates(install.dir), all('none'));
    assert.deepEqual(startWriter(install.dir), { cache: 'none', ready: 'ready' });
    threadsWork(install, repo, home, true);

    // Made again for the copy, as its build would: accepted.
    mkdirSync(join(install.dir, 'scripts'));
    cpSync(join(CHECKOUT, 'scripts', 'cli-code-cache.cjs'), join(install.dir, 'scripts', 'cli-code-cache.cjs'));
    const made = node(join(install.dir, 'scripts', 'cli-code-cache.cjs'), []);
    assert.equal(made.status, 0, made.stderr);
    assert.deepEqual(cacheStates(install.dir), all('accepted'));
    const writerCache = `${bundleOf(install.dir, 'writer-thread')}.v8cache`;
    const good = readFileSync(writerCache);
    const mtimes = THREADS.map((name) => statSync(`${bundleOf(install.dir, name)}.v8cache`).mtimeMs);
    threadsWork(install, repo, home);
    assert.deepEqual(
      THREADS.map((name) => statSync(`${bundleOf(install.dir, name)}.v8cache`).mtimeMs),
      mtimes,
      'a run of the shipped bin rewrote a cache',
    );

    // V8's data damaged behind a valid header: V8 refuses it and compiles as usual.
    const damaged = Buffer.from(good);
    for (let at = 4 + damaged.readUInt32LE(0); at < damaged.length; at += 7) damaged[at] = damaged[at]! ^ 0xff;
    writeFileSync(writerCache, damaged);
    assert.equal(cacheStates(install.dir)['writer-thread'], 'rejected');
    assert.deepEqual(startWriter(install.dir), { cache: 'rejected', ready: 'ready' });
    threadsWork(install, repo, home, true);

    // Not a cache at all: a plain require.
    writeFileSync(writerCache, 'garbage');
    assert.equal(cacheStates(install.dir)['writer-thread'], 'unreadable');
    assert.deepEqual(startWriter(install.dir), { cache: 'none', ready: 'ready' });
    threadsWork(install, repo, home, true);

    // The bundle touched after the cache was made (a rebuild without its last step): passed over.
    writeFileSync(writerCache, good);
    const later = new Date(Date.now() + 5_000);
    utimesSync(bundleOf(install.dir, 'writer-thread'), later, later);
    assert.equal(cacheStates(install.dir)['writer-thread'], 'none');
    threadsWork(install, repo, home, true);

    // No cache at all: the threads run, and none is written in its place.
    for (const name of THREADS) rmSync(`${bundleOf(install.dir, name)}.v8cache`);
    threadsWork(install, repo, home);
    for (const name of THREADS)
      assert.ok(!existsSync(`${bundleOf(install.dir, name)}.v8cache`), `${name}: a cache was written at run time`);
  });
});
