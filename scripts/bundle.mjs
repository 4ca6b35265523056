// Build step after tsc: the two entry points as single files, because start-up is paid on every
// run. Node's ES module loader resolves, reads and compiles each module file on its own: the CLI
// with ink and react is several hundred files, and loading them took most of the TUI's first
// frame; one file is read once and compiled lazily.
//   dist/hook.cjs      — the hook fast path, CommonJS (loaded by require: no ES module loader at
//                        all). Hosts start it for every lifecycle event.
//   dist/cli/bundle.mjs — the CLI and the TUI. It stays one level below dist, like the modules
//                        it replaces, so paths it resolves from its own URL (the workers, the
//                        shim) stay the same.
// Native and worker-only packages stay external: better-sqlite3 (its addon) and pi (loaded by
// the agents worker). The worker threads run the tsc output in dist/workers.
import { build } from 'esbuild';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).pathname;
const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning', external: ['better-sqlite3', '@mariozechner/pi-coding-agent'] };

await build({ ...common, entryPoints: [dist('hook/main.js')], outfile: dist('hook.cjs'), format: 'cjs' });
await build({
  ...common,
  entryPoints: [dist('cli/main.js')],
  outfile: dist('cli/bundle.mjs'),
  format: 'esm',
  alias: { 'react-devtools-core': new URL('./stubs/react-devtools-core.mjs', import.meta.url).pathname },
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __cmCreateRequire } from 'node:module'; const require = __cmCreateRequire(import.meta.url);" },
});
