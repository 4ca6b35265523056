// Loads the hook bundle (dist/hook.cjs) with the V8 code cache the build leaves beside it
// (dist/hook.cjs.v8cache): a host starts a hook process for every event, and compiling the
// bundle — and, as it runs, the functions an event calls — costs each one about 7 ms of a
// ~50 ms Node start (measured: load 15 → 11 ms, SessionStart 17 → 13 ms). node:* only.
//
// The cache is used only for the exact file it was made from: its header names the bundle's size,
// mtime and inode, and V8 itself refuses data of another V8 version or flags (then it compiles as
// usual). Anything unexpected falls back to a plain require, whose errors the shim reports.
'use strict';
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const HOOK = join(__dirname, '..', 'dist', 'hook.cjs');
const CACHE = `${HOOK}.v8cache`;

/** What identifies the bundle the cache was made from. */
function identity(file) {
  const stats = statSync(file);
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}

/**
 * The bundle compiled as require wraps a CommonJS file, with `cachedData` when given. Written out
 * rather than node:module's wrap: loading node:module would cost the hook about 2 ms.
 */
function compile(cachedData) {
  const vm = require('node:vm');
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(HOOK, 'utf8')}\n});`;
  return new vm.Script(wrapped, {
    filename: HOOK,
    ...(cachedData ? { cachedData } : {}),
  });
}

/** Runs the compiled bundle as a CommonJS module and returns its exports. */
function run(script) {
  const module = { exports: {}, id: HOOK, filename: HOOK, loaded: false };
  // This file's own require: bin/ and dist/ are siblings, so every name resolves the same from both.
  script.runInThisContext().call(module.exports, module.exports, require, module, HOOK, dirname(HOOK));
  module.loaded = true;
  return module.exports;
}

/** The hook module from the code cache, or null when there is no cache for this very bundle. */
function fromCache() {
  let file;
  try {
    file = readFileSync(CACHE);
  } catch {
    return null;
  }
  const headerBytes = file.readUInt32LE(0);
  const header = JSON.parse(file.toString('utf8', 4, 4 + headerBytes));
  const now = identity(HOOK);
  if (header.size !== now.size || header.mtimeMs !== now.mtimeMs || header.ino !== now.ino) return null;
  return { script: compile(file.subarray(4 + headerBytes)) };
}

/** The hook module: through its code cache when there is a valid one, else a plain require. */
function loadHook() {
  try {
    const cached = fromCache();
    if (cached) return run(cached.script);
  } catch {
    // A damaged or foreign cache, or a bundle that cannot load: require says what is wrong.
  }
  return require(HOOK);
}

/**
 * The build's last step (scripts/bundle.mjs): compiles the bundle, runs one event through it so
 * that the functions an event calls are compiled too, and writes their code with the bundle's
 * identity. `args` are the hook's (`codex --home DIR`), with the event's payload on stdin.
 */
function writeHookCache(args) {
  const script = compile();
  const code = run(script).runHook(args);
  const data = script.createCachedData();
  const header = Buffer.from(JSON.stringify(identity(HOOK)), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length, 0);
  writeFileSync(CACHE, Buffer.concat([length, header, data]));
  return code;
}

module.exports = { loadHook, writeHookCache, HOOK, CACHE, fromCache };

// `node bin/hook-loader.cjs <hook args> < event.json`: the build writes the cache this way.
if (require.main === module) process.exit(writeHookCache(process.argv.slice(2)));
