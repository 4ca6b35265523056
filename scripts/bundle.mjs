// Build step after tsc: the entry points as single files, because start-up is paid on every run.
// Node's ES module loader resolves, reads and compiles each module file on its own: the CLI with
// ink and react is several hundred files, and loading them took most of the TUI's first frame;
// one file is read once and compiled lazily.
//   dist/hook.cjs      — the hook fast path, CommonJS (loaded by require: no ES module loader at
//                        all). Hosts start it for every lifecycle event.
//   dist/cli/bundle.mjs — the CLI and the TUI. It stays one level below dist, like the modules
//                        it replaces, so paths it resolves from its own URL (the workers, the
//                        shim) stay the same.
//   dist/workers/<name>-thread.js — each worker thread in place of its tsc output: every host
//                        start (the TUI, session-drain, flush) starts three of them, each loading
//                        its modules again (measured: Host.start about 290 -> 200 ms).
// Native and worker-only packages stay external: better-sqlite3 (its addon) and pi (loaded by
// the agents worker).
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).pathname;
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: ['better-sqlite3', '@mariozechner/pi-coding-agent'],
};
// CommonJS dependencies call require(); an ES module has none of its own.
const esmRequire = {
  js: "import { createRequire as __cmCreateRequire } from 'node:module'; const require = __cmCreateRequire(import.meta.url);",
};

await build({ ...common, entryPoints: [dist('hook/main.js')], outfile: dist('hook.cjs'), format: 'cjs' });
await writeHookCodeCache();
/**
 * Ink's layout engine (yoga) instantiates its inline WebAssembly at start-up. When a global fetch
 * exists it fetches its own data: URL, which loads Node's whole fetch implementation first
 * (measured: about 60 ms of the TUI's first frame); without one it decodes the same bytes at once.
 * Its two `typeof fetch` tests are answered "undefined" in that one module; the build fails if
 * they are not found exactly (a new yoga-layout: look again).
 */
let yogaLoaderPatched = false;
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const tests = source.split('typeof fetch').length - 1;
      if (tests !== 2) throw new Error(`bundle: expected 2 "typeof fetch" tests in ${args.path}, found ${tests}`);
      yogaLoaderPatched = true;
      return { contents: source.replaceAll('typeof fetch', 'typeof undefined'), loader: 'js' };
    });
  },
};

// Chunks are named by their content: those of earlier builds would pile up (and be packed).
for (const name of await readdir(dist('cli'))) if (/^(chunk-|bundle\.)/.test(name)) await rm(dist(`cli/${name}`));
await build({
  ...common,
  plugins: [yogaWithoutFetch],
  // Less source to read and pre-parse (3.0 -> 2.2 MB; measured: the TUI's first frame about 13%
  // sooner). Identifiers are kept, so stack traces still name their functions.
  minifyWhitespace: true,
  minifySyntax: true,
  // Split at the dynamic imports: a plain command loads the entry chunk only, never the TUI (ink,
  // react, yoga) or the MCP server; they are chunks beside it, loaded when asked for. The chunks
  // sit in dist/cli like the entry, so paths resolved from import.meta.url stay the same.
  entryPoints: { bundle: dist('cli/main.js') },
  outdir: dist('cli'),
  splitting: true,
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  alias: { 'react-devtools-core': new URL('./stubs/react-devtools-core.mjs', import.meta.url).pathname },
  banner: esmRequire,
});
if (!yogaLoaderPatched)
  throw new Error("bundle: yoga-layout's wasm loader was not found; update the yoga-without-fetch plugin");

/**
 * dist/cli/main.cjs — the CLI without the TUI, as one CommonJS file that bin/code-cache.cjs loads
 * with V8's code cache: every command but the TUI (plain reads, `mcp`, `host`, `flush`…) is a
 * whole process that clients and scripts start in loops, and compiling the ES module chunks was
 * about a quarter of a plain read's process (V8's code cache is for scripts, not ES modules, in
 * Node 20). `commands/tui.js` is replaced by a stub that hands a TUI run to bundle.mjs whole.
 * `import.meta` is what an ES module would see from dist/cli (workers and the shim are found from
 * it); `resolve` finds a package's package.json, which is all the CLI asks it for (pi's bin).
 */
const cjsImportMeta = `const __cmImportMeta = {
  url: require('node:url').pathToFileURL(__filename).href,
  resolve(name) {
    const { dirname, join } = require('node:path');
    for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
      const manifest = join(dir, 'node_modules', name, 'package.json');
      if (require('node:fs').existsSync(manifest)) return require('node:url').pathToFileURL(manifest).href;
    }
    throw Object.assign(new Error("Cannot find package '" + name + "'"), { code: 'ERR_MODULE_NOT_FOUND' });
  },
};`;
const stub = (name) => ({ path: new URL(`./stubs/${name}`, import.meta.url).pathname });
const tuiElsewhere = {
  name: 'tui-elsewhere',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/tui\.js$/ }, () => stub('tui-in-esm.cjs'));
  },
};
const mcpElsewhere = {
  name: 'mcp-elsewhere',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/mcp\/server\.js$/ }, () => stub('mcp-elsewhere.cjs'));
  },
};
const cjsOptions = {
  ...common,
  metafile: true,
  minifyWhitespace: true,
  minifySyntax: true,
  format: 'cjs',
  define: { 'import.meta': '__cmImportMeta' },
  banner: { js: cjsImportMeta },
};
// dist/cli/mcp.cjs is the same CLI with the MCP server, which only `mcp` runs (the shim sends it
// there): the SDK and the tool schemas are about a third of the CLI, read and compiled by no other
// command.
const cjs = await build({
  ...cjsOptions,
  entryPoints: [dist('cli/main.js')],
  outfile: dist('cli/main.cjs'),
  plugins: [tuiElsewhere, mcpElsewhere],
});
const mcp = await build({
  ...cjsOptions,
  entryPoints: [dist('cli/main.js')],
  outfile: dist('cli/mcp.cjs'),
  plugins: [tuiElsewhere],
});

const refuse = (result, file, pattern, what, home) => {
  const found = Object.keys(result.metafile.inputs).find((input) => pattern.test(input));
  if (found) throw new Error(`bundle: ${file} contains ${what} (${found}); it belongs to ${home} only`);
};
refuse(cjs, 'dist/cli/main.cjs', /node_modules\/(ink|react|yoga-layout)\//, 'the TUI', 'bundle.mjs');
refuse(mcp, 'dist/cli/mcp.cjs', /node_modules\/(ink|react|yoga-layout)\//, 'the TUI', 'bundle.mjs');
refuse(cjs, 'dist/cli/main.cjs', /node_modules\/@modelcontextprotocol\//, 'the MCP SDK', 'mcp.cjs');

for (const name of ['writer-thread', 'drain-thread', 'agents-thread', 'runners-thread', 'memory-files-thread']) {
  const file = dist(`workers/${name}.js`);
  // Bundled in place: only tsc output may be bundled, once.
  if ((await readFile(file, 'utf8')).includes('__cmCreateRequire'))
    throw new Error(`bundle: ${file} is already bundled; run "npm run build" (tsc first)`);
  await build({
    ...common,
    entryPoints: [file],
    outfile: file,
    allowOverwrite: true,
    format: 'esm',
    banner: esmRequire,
  });
}

// Last: the CLI's code cache runs commands that start the (bundled) worker threads.
execFileSync(process.execPath, [new URL('./cli-code-cache.cjs', import.meta.url).pathname], { stdio: 'inherit' });

/**
 * dist/hook.cjs.v8cache (bin/hook-loader.cjs): V8's code for the hook bundle and for what one
 * SessionStart event calls, made by running that event into a throwaway data home.
 */
async function writeHookCodeCache() {
  const home = await mkdtemp(join(tmpdir(), 'cm-hook-cache-'));
  try {
    const event = {
      session_id: 'build',
      transcript_path: null,
      cwd: home,
      hook_event_name: 'SessionStart',
      source: 'startup',
    };
    execFileSync(
      process.execPath,
      [new URL('../bin/hook-loader.cjs', import.meta.url).pathname, 'codex', '--home', home],
      {
        input: JSON.stringify(event),
        stdio: ['pipe', 'ignore', 'inherit'],
      },
    );
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
