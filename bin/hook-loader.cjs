// The hook bundle (dist/hook.cjs) through its V8 code cache (bin/code-cache.cjs): a host starts a
// hook process for every event, and compiling the bundle — and, as it runs, the functions an event
// calls — costs each one about 7 ms of a ~50 ms Node start (measured: load 15 → 11 ms,
// SessionStart 17 → 13 ms).
'use strict';
const { join } = require('node:path');
const { loadCached, writeCodeCache, fromCache } = require('./code-cache.cjs');

const HOOK = join(__dirname, '..', 'dist', 'hook.cjs');
const CACHE = `${HOOK}.v8cache`;

const loadHook = () => loadCached(HOOK);

/** The hook's compiled script from its cache, or null when there is none for this very bundle. */
function hookFromCache() {
  const script = fromCache(HOOK);
  return script ? { script } : null;
}

module.exports = { loadHook, HOOK, CACHE, fromCache: hookFromCache };

// `node bin/hook-loader.cjs <hook args> < event.json`: the build writes the cache by running one
// event, so that the functions an event calls are in it too.
if (require.main === module)
  writeCodeCache(HOOK, (hook) => hook.runHook(process.argv.slice(2))).then((code) => process.exit(code));
