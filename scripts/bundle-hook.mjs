// Build step after tsc: the hook fast path as one CommonJS file, dist/hook.cjs.
//
// Why: hosts start a hook process for every lifecycle event, so its start-up is paid on every turn.
// Node's ES module loader costs about 15 ms more than require() even for an empty file, and each
// further module file adds a resolve and a read; one CommonJS file loaded by the CommonJS shim
// (bin/common-memory.cjs) pays neither. better-sqlite3 stays external: it loads its native addon.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../dist/hook/main.js', import.meta.url).pathname],
  outfile: new URL('../dist/hook.cjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['better-sqlite3'],
  sourcemap: true,
  logLevel: 'warning',
});
