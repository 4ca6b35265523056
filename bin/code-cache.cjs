// Loads a CommonJS bundle of dist/ with the V8 code cache the build leaves beside it
// (<bundle>.v8cache): the hook and the plain CLI are whole processes that clients and scripts start
// in loops, and compiling a bundle — and, as it runs, the functions a run calls — is a large part
// of their start (measured for the hook: load 15 → 11 ms; for a plain CLI read, compiling the ES
// module chunks was about a quarter of the process). Each worker thread (dist/workers/*-thread.cjs)
// is a bundle run here too (runThread): every host start starts several, each compiling its bundle
// again without a cache.
//
// The cache is used only for the exact file it was made from: its header names the bundle's size,
// mtime and inode, and V8 itself refuses data of another V8 version or flags (then it compiles as
// usual). Anything unexpected falls back to a plain require, whose errors the shim reports.
// node:* only, and not node:module (loading it would cost the hook about 2 ms).
'use strict';
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');

/** What identifies the bundle the cache was made from. */
function identity(file) {
  const stats = statSync(file);
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}

/** The bundle compiled as require wraps a CommonJS file, with `cachedData` when given. */
function compile(file, cachedData) {
  const vm = require('node:vm');
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n});`;
  return new vm.Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
}

/** Runs the compiled bundle as a CommonJS module and returns its exports. */
function run(file, script) {
  const module = { exports: {}, id: file, filename: file, loaded: false };
  // This file's own require: bin/ and dist/ are siblings, so every name resolves the same from both.
  script.runInThisContext().call(module.exports, module.exports, require, module, file, dirname(file));
  module.loaded = true;
  return module.exports;
}

/** The compiled bundle from its code cache, or null when there is no cache for this very file. */
function fromCache(file) {
  let data;
  try {
    data = readFileSync(`${file}.v8cache`);
  } catch {
    return null;
  }
  const headerBytes = data.readUInt32LE(0);
  const header = JSON.parse(data.toString('utf8', 4, 4 + headerBytes));
  const now = identity(file);
  if (header.size !== now.size || header.mtimeMs !== now.mtimeMs || header.ino !== now.ino) return null;
  return compile(file, data.subarray(4 + headerBytes));
}

/** The bundle's exports: through its code cache when there is a valid one, else a plain require. */
function loadCached(file) {
  try {
    const script = fromCache(file);
    if (script) return run(file, script);
  } catch {
    // A damaged or foreign cache, or a bundle that cannot load: require says what is wrong.
  }
  return require(file);
}

/** Writes the code the script holds now (every function it has compiled) with the bundle's identity. */
function saveCodeCache(file, script) {
  const data = script.createCachedData();
  const header = Buffer.from(JSON.stringify(identity(file)), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length, 0);
  writeFileSync(`${file}.v8cache`, Buffer.concat([length, header, data]));
}

/**
 * A build step (scripts/bundle.mjs): compiles the bundle, calls `exercise(exports)` so that the
 * functions a run calls are compiled too, and writes their code with the bundle's identity.
 */
async function writeCodeCache(file, exercise) {
  const script = compile(file);
  const result = await exercise(run(file, script));
  saveCodeCache(file, script);
  return result;
}

/**
 * The name under which the build (scripts/cli-code-cache.cjs) tells the threads it starts that it
 * is making their caches (worker_threads environment data: never set by a user's environment), and
 * of the channel on which it asks a thread to write its cache before terminating it.
 */
const THREAD_CACHE = 'common-memory:thread-code-cache';

/**
 * Runs a worker thread's bundle (source/workers/start-worker.ts starts each thread with this):
 * compiled from its code cache when there is a valid one, else a plain require. The thread's own
 * errors are not caught here — its top level runs once, and its failure is the thread's 'error' as
 * with any worker. Returns what became of the cache: 'accepted', 'rejected' (V8 compiled as usual)
 * or 'none'.
 *
 * At build the thread answers the build's requests on the THREAD_CACHE channel by writing the code
 * it has compiled by then — what a host's thread runs, not only its top level — which includes the
 * code of the cache it started from, so that each run of the build's adds to the last. A shipped
 * thread never writes: the build's environment data is set in the build's process only.
 */
function runThread(file) {
  const threads = require('node:worker_threads');
  let script = null;
  try {
    script = fromCache(file);
  } catch {
    // A damaged or foreign cache: compiled as usual.
  }
  const state = script === null ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  if (threads.getEnvironmentData(THREAD_CACHE) === true) {
    script ??= compile(file);
    const channel = new threads.BroadcastChannel(THREAD_CACHE);
    channel.unref();
    channel.onmessage = ({ data }) => {
      if (data?.write !== threads.threadId) return;
      saveCodeCache(file, script);
      channel.postMessage({ written: threads.threadId });
    };
  }
  if (script === null) require(file);
  else run(file, script);
  return state;
}

/**
 * import() for a bundle loaded here: in Node 20, import() inside code compiled from a code cache
 * fails ("A dynamic import callback was not specified"), so a bundle asks this file, which Node
 * loaded itself, to do it.
 */
const importFile = (file) => import(require('node:url').pathToFileURL(file).href);

module.exports = { loadCached, writeCodeCache, fromCache, importFile, runThread, THREAD_CACHE };
