// Build step after scripts/transpile.mjs: the entry points as single files, because start-up is paid on every run.
// Node's ES module loader resolves, reads and compiles each module file on its own: the CLI with
// ink and react is several hundred files, and loading them took most of the TUI's first frame;
// one file is read once and compiled lazily.
//   dist/hook.cjs      — the hook fast path, CommonJS (loaded by require: no ES module loader at
//                        all). Hosts start it for every lifecycle event.
//   dist/file-lint.cjs — the memory lint alone, required by the hook only when a memory file changed.
//   dist/cli/bundle.mjs — the CLI and the TUI. It stays one level below dist, like the modules
//                        it replaces, so paths it resolves from its own URL (the workers, the
//                        shim) stay the same.
//   dist/cli/main.cjs, read.cjs, mcp.cjs — the CLI without the TUI for every other command, the
//                        reads and `mcp` (CommonJS, each with its V8 code cache).
//   dist/workers/<name>-thread.cjs — each worker thread in place of its transpiled module (the
//                        <name>-thread.js it is built from is removed): every host start (the TUI,
//                        `host`, a write command) starts several, each loading its modules again
//                        (measured: Host.start about 290 -> 200 ms). CommonJS, each with its V8
//                        code cache, run by bin/code-cache.cjs (runThread): as an ES module a thread
//                        compiled its whole bundle at every start (about 200 ms of CPU each).
// Native and worker-only packages stay external: pi (loaded by the agents worker) everywhere, and
// better-sqlite3 in the ES module bundle; the CommonJS bundles carry its JavaScript (bundledSqlite)
// and load only its addon from its own build.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).pathname;

/**
 * zod as the code uses it: the `z` namespace of zod's classic API, without its 40-odd locales
 * (English is registered by the schemas themselves), `fromJSONSchema` and the `core` namespace
 * that re-exports them all. A `z` namespace keeps every export it re-exports, so importing `zod`
 * brought them all in (about half of a CLI bundle). `zod` and `zod/v4` resolve to this one
 * module, so there is one zod in each bundle. The build fails if zod's index changes
 * shape (a new zod: look again).
 */
const zodClassic = join(dirname(createRequire(import.meta.url).resolve('zod/package.json')), 'v4', 'classic');
const zodDropped = [/^export \* as core from /, /^export \* as locales from /, /^export \{ fromJSONSchema \} from /];
const leanZod = {
  name: 'lean-zod',
  setup(b) {
    b.onResolve({ filter: /^zod(\/v4)?$/ }, () => ({ path: 'zod', namespace: 'lean-zod' }));
    b.onResolve({ filter: /^lean-zod-external$/ }, () => ({ path: 'external', namespace: 'lean-zod' }));
    b.onLoad({ filter: /^zod$/, namespace: 'lean-zod' }, () => ({
      contents:
        "import * as z from 'lean-zod-external';\nexport * from 'lean-zod-external';\nexport { z, z as default };\n",
      resolveDir: zodClassic,
      loader: 'js',
    }));
    b.onLoad({ filter: /^external$/, namespace: 'lean-zod' }, async () => {
      const lines = (await readFile(join(zodClassic, 'external.js'), 'utf8')).split('\n');
      const kept = lines.filter((line) => !zodDropped.some((pattern) => pattern.test(line)));
      if (lines.length - kept.length !== zodDropped.length)
        throw new Error(`bundle: zod's classic index (${zodClassic}/external.js) changed; update the lean-zod plugin`);
      return { contents: kept.join('\n'), resolveDir: zodClassic, loader: 'js' };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: ['better-sqlite3', '@mariozechner/pi-coding-agent'],
  plugins: [leanZod],
};
// CommonJS dependencies call require(); an ES module has none of its own.
const esmRequire = {
  js: "import { createRequire as __cmCreateRequire } from 'node:module'; const require = __cmCreateRequire(import.meta.url);",
};

/**
 * The CommonJS bundles (the hook, the CLI's, the threads) carry better-sqlite3's JavaScript: loaded
 * from node_modules it was a dozen files resolved, read and compiled at every start (4–5.6 ms of
 * each hook process), and in a bundle it is compiled from the code cache. Its addon is still
 * loaded from its own build (source/store/database.ts: nativeBinding); `bindings`, which searches
 * for the addon when none is given, stays external.
 */
const bundledSqlite = { external: ['bindings', '@mariozechner/pi-coding-agent'] };
await build({
  ...common,
  ...bundledSqlite,
  entryPoints: [dist('hook/main.js')],
  outfile: dist('hook.cjs'),
  format: 'cjs',
});
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
  plugins: [leanZod, yogaWithoutFetch],
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
 * dist/cli/{main,read,mcp}.cjs — the CLI without the TUI, as CommonJS files that bin/code-cache.cjs
 * loads with V8's code cache: every command but the TUI (plain reads, `mcp`, `host`, `flush`…) is
 * a whole process that clients and scripts start in loops, and compiling the ES module chunks was
 * about a quarter of a plain read's process (V8's code cache is for scripts, not ES modules, in
 * Node 20). Each is the whole CLI entry with some commands' modules (onlyCommands below);
 * `commands/tui.js` is replaced by a stub that hands a TUI run to bundle.mjs whole.
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
const stub = (name) => new URL(`./stubs/${name}`, import.meta.url).pathname;

/**
 * The poisoning scorer's weights (source/memory/poison-scorer-weights.json, about a sixth of a CLI
 * bundle) and the glossaries of the other languages (source/memory/gloss/*.json, 7.2 MB) read from
 * dist/memory when the lint first asks for them, not inlined: only a lint reads them (poison-scorer.ts
 * and poison-gloss.ts build their tables on first use, a glossary only for a note in its language),
 * and every command of the bundle would read and compile them. `from` is where the bundle's own file
 * lies, relative to dist.
 */
// The build copies the JSON as written, indented (1.3 MB): compact, it is half the bytes the first lint of
// every process (a SessionStart hook's included) reads and parses.
const weightsPath = dist('memory/poison-scorer-weights.json');
await writeFile(weightsPath, JSON.stringify(JSON.parse(await readFile(weightsPath, 'utf8'))));

const weightsBeside = (from) => ({
  name: 'weights-beside',
  setup(b) {
    b.onLoad({ filter: /[\\/]memory[\\/](?:poison-scorer-weights|gloss[\\/][a-z]+)\.json$/ }, async (args) => {
      const keys = Object.keys(JSON.parse(await readFile(args.path, 'utf8')));
      const file = JSON.stringify(relative(dirname(dist(from)), args.path));
      const getters = keys.map((key) => `  get ${key}() { return load().${key}; },`).join('\n');
      return {
        contents: `let data;\nconst load = () => (data ??= JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, ${file}), 'utf8')));\nmodule.exports = {\n${getters}\n};\n`,
        loader: 'js',
      };
    });
  },
});

/**
 * The poisoning lint (its rules, their tables and the scorer: most of a CLI bundle's start-up)
 * loaded from dist/poison-lint.cjs on the first text linted, not at every start
 * (source/memory/poison-lint-beside.ts): memory-lint.js's import of it is answered with that
 * loader. `from` is where the bundle's own file lies, relative to dist.
 */
const poisonLintBeside = (from) => ({
  name: 'poison-lint-beside',
  setup(b) {
    b.onResolve({ filter: /^\.\/poison-lint\.js$/ }, (args) =>
      args.importer === dist('memory/memory-lint.js')
        ? { path: 'poison-lint', namespace: 'poison-lint-beside' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'poison-lint-beside' }, () => ({
      contents: `import { lintPoisoningBeside } from './poison-lint-beside.js';\nexport const lintPoisoning = lintPoisoningBeside(${JSON.stringify(relative(dirname(dist(from)), dist('poison-lint.cjs')))});\n`,
      resolveDir: dist('memory'),
      loader: 'js',
    }));
  },
});

/**
 * A CLI bundle with only some commands' modules: a module that source/cli loads by import() (a
 * command's module, the MCP server, the lint rules) and `keeps` does not name is replaced by a
 * stub with the same exports, each of which hands the run over whole to the bundle that has it —
 * the TUI to bundle.mjs, the MCP server to mcp.cjs, any other to main.cjs — so no object of one
 * bundle ever meets another's code. The shim sends each command to the bundle that has it; a run
 * that reaches a stub anyway (a flag before the command word) is still answered.
 */
const onlyCommands = (keeps, { tui = false } = {}) => ({
  name: 'only-commands',
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !args.importer.startsWith(dist('cli/'))) return undefined;
      const module = relative(dist(''), join(args.resolveDir, args.path));
      if (module === 'cli/commands/tui.js') return tui ? undefined : { path: stub('tui-in-esm.cjs') };
      if (keeps(module)) return undefined;
      if (module === 'mcp/server.js') return { path: stub('mcp-elsewhere.cjs') };
      return { path: dist(module), namespace: 'hand-over' };
    });
    b.onLoad({ filter: /.*/, namespace: 'hand-over' }, async (args) => {
      const names = exportedNames(await readFile(args.path, 'utf8'));
      if (names.length === 0) throw new Error(`bundle: no exports found in ${args.path}; update exportedNames`);
      const lines = names.map((name) => `exports.${name} = handOver;`).join('\n');
      return {
        contents: `'use strict';\nconst { handOver } = require(${JSON.stringify(stub('main-elsewhere.cjs'))});\n${lines}\n`,
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
});

/** The names a transpiled module exports (`export [async] function|const|class NAME`, `export { a, b as c }`). */
function exportedNames(source) {
  const names = new Set();
  for (const match of source.matchAll(/^export (?:async )?(?:function\*? |const |let |class )([\w$]+)/gm))
    names.add(match[1]);
  for (const match of source.matchAll(/^export \{([^}]*)\}/gm))
    for (const item of match[1].split(','))
      if (item.trim() && !item.trim().startsWith('type '))
        names.add(
          item
            .trim()
            .split(/\s+as\s+/)
            .pop(),
        );
  return [...names];
}

const cjsOptions = {
  ...common,
  ...bundledSqlite,
  metafile: true,
  minifyWhitespace: true,
  minifySyntax: true,
  format: 'cjs',
  define: { 'import.meta': '__cmImportMeta' },
  banner: { js: cjsImportMeta },
};
// dist/file-lint.cjs: the memory lint alone, which the hook requires only when a memory file it
// follows changed (source/hook/file-lint.ts): the hook's own bundle stays a fraction of its size.
await build({
  ...cjsOptions,
  entryPoints: [dist('memory/file-lint.js')],
  outfile: dist('file-lint.cjs'),
  plugins: [leanZod, weightsBeside('file-lint.cjs')],
});
// dist/poison-lint.cjs: the poisoning lint alone, which the CLI's bundles and the threads require
// on the first text they lint (poisonLintBeside).
await build({
  ...cjsOptions,
  entryPoints: [dist('memory/poison-lint.js')],
  outfile: dist('poison-lint.cjs'),
  plugins: [leanZod, weightsBeside('poison-lint.cjs')],
});
const cliBundle = (file, keeps) =>
  build({
    ...cjsOptions,
    entryPoints: [dist('cli/main.js')],
    outfile: dist(file),
    plugins: [leanZod, weightsBeside(file), poisonLintBeside(file), onlyCommands(keeps)],
  });
/** The command modules (and their lazily loaded parts) of the reads that scripts and agents call in loops. */
const READ_MODULES = new Set(
  ['sessions', 'approved', 'memory-group', 'memory', 'lookup', 'history'].map((name) => `cli/commands/${name}.js`),
);
// dist/cli/main.cjs: every command but the TUI and the MCP server.
const cjs = await cliBundle('cli/main.cjs', (module) => module !== 'mcp/server.js');
// dist/cli/read.cjs: the reads only (shim: READS). No TUI, no MCP server, no install (toml-patch),
// no lint, promotion or extraction runs: what `sessions --json`, `get` or `memory review` reads and
// compiles at each start.
const read = await cliBundle('cli/read.cjs', (module) => READ_MODULES.has(module));
// CM_BUNDLE_METAFILE=<dir>: the read and MCP bundles' esbuild metafiles, to see what a start loads.
if (process.env.CM_BUNDLE_METAFILE)
  await writeFile(join(process.env.CM_BUNDLE_METAFILE, 'read.meta.json'), JSON.stringify(read.metafile));
// dist/cli/mcp.cjs: the MCP server, which only `mcp` runs: its protocol and tool schemas, and no
// command module.
const mcp = await cliBundle('cli/mcp.cjs', (module) => module === 'mcp/server.js');
if (process.env.CM_BUNDLE_METAFILE)
  await writeFile(join(process.env.CM_BUNDLE_METAFILE, 'mcp.meta.json'), JSON.stringify(mcp.metafile));

/**
 * dist/workers/<name>-thread.cjs from the transpiled dist/workers/<name>-thread.js, which is then removed:
 * there is one file per thread, the one source/workers/start-worker.ts starts. Built as the CLI
 * bundles are (CommonJS, `import.meta` as from dist/workers, the scorer's table read from
 * dist/memory); scripts/cli-code-cache.cjs writes each one's code cache.
 */
const THREADS = ['writer-thread', 'drain-thread', 'agents-thread', 'runners-thread', 'memory-files-thread'];
const threads = [];
for (const name of THREADS) {
  const file = dist(`workers/${name}.js`);
  if (!existsSync(file)) throw new Error(`bundle: ${file} (the transpiled module) is missing; run "npm run build"`);
  // A cache of an earlier build would be passed over (another file); none is clearer until the last step writes it.
  await rm(dist(`workers/${name}.cjs.v8cache`), { force: true });
  const result = await build({
    ...cjsOptions,
    entryPoints: [file],
    outfile: dist(`workers/${name}.cjs`),
    plugins: [leanZod, weightsBeside(`workers/${name}.cjs`), poisonLintBeside(`workers/${name}.cjs`)],
  });
  await rm(file);
  await rm(`${file}.map`, { force: true });
  threads.push([result, `dist/workers/${name}.cjs`]);
}
/**
 * dist/cli/tui.cjs — the CLI with the TUI (ink, react, yoga) and no MCP server, as CommonJS that
 * the shim loads with V8's code cache (scripts/cli-code-cache.cjs writes it by drawing a first
 * frame): as ES module chunks every TUI start compiled them (Node 20 keeps no code cache for ES
 * modules). CommonJS cannot wait at its top level, so two modules that do are made synchronous:
 * yoga's loader instantiates its inline WebAssembly at once (new WebAssembly.Module/Instance
 * through Emscripten's instantiateWasm), and ink's reconciler drops the awaits it makes only under
 * DEV=true (React devtools and its own package.json for them). Each patch fails the build when
 * the text it replaces is not found exactly (a new yoga-layout or ink: look again).
 */
const exactly = (source, from, to, file) => {
  const found = source.split(from).length - 1;
  if (found !== 1) throw new Error(`bundle: expected one ${JSON.stringify(from)} in ${file}, found ${found}`);
  return source.replace(from, to);
};
const tuiWithoutTopLevelAwait = {
  name: 'tui-without-top-level-await',
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const sync = [
        'const yogaModule = {',
        '  instantiateWasm(imports, done) {',
        '    const url = yogaModule.cmWasmUrl;',
        "    const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');",
        '    done(new WebAssembly.Instance(new WebAssembly.Module(bytes), imports));',
        '    return {};',
        '  },',
        '};',
        'loadYoga(yogaModule);',
        "if (!yogaModule.calledRun) throw new Error('yoga-layout did not start synchronously');",
        'const Yoga = wrapAssembly(yogaModule);',
      ].join('\n');
      return {
        contents: exactly(source, 'const Yoga = wrapAssembly(await loadYoga());', sync, args.path),
        loader: 'js',
      };
    });
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      // The loader's inline data: URL, handed to instantiateWasm above through the module object.
      const contents = exactly(source, 'var H;H="data:', 'var H;H=h.cmWasmUrl="data:', args.path);
      return { contents, loader: 'js' };
    });
    b.onLoad({ filter: /ink[\\/]build[\\/]reconciler\.js$/ }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      source = exactly(source, "await import('./devtools.js');", '', args.path);
      source = exactly(source, 'await loadPackageJson()', '{ name: undefined, version: undefined }', args.path);
      return { contents: source, loader: 'js' };
    });
  },
};
const tui = await build({
  ...cjsOptions,
  entryPoints: [dist('cli/main.js')],
  outfile: dist('cli/tui.cjs'),
  alias: { 'react-devtools-core': new URL('./stubs/react-devtools-core.mjs', import.meta.url).pathname },
  plugins: [
    leanZod,
    weightsBeside('cli/tui.cjs'),
    poisonLintBeside('cli/tui.cjs'),
    tuiWithoutTopLevelAwait,
    onlyCommands((module) => module !== 'mcp/server.js', { tui: true }),
  ],
});
// What the bundle's file holds: the inputs that left code in it (a module parsed and shaken out whole left none).
const refuse = (result, file, pattern, what, home) => {
  const inputs = Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : [])),
  );
  const found = inputs.find((input) => pattern.test(input));
  if (found) throw new Error(`bundle: ${file} contains ${what} (${found}); it belongs to ${home} only`);
};
const TUI = /node_modules\/(ink|react|yoga-layout)\//;
const cjsBundles = [[cjs, 'dist/cli/main.cjs'], [read, 'dist/cli/read.cjs'], [mcp, 'dist/cli/mcp.cjs'], ...threads];
for (const [result, file] of cjsBundles) {
  refuse(result, file, TUI, 'the TUI', 'bundle.mjs');
  refuse(
    result,
    file,
    /node_modules\/zod\/v4\/locales\/(?!en\.js|index\.js)/,
    "zod's locales",
    'zod (lean-zod leaves them out)',
  );
  refuse(
    result,
    file,
    /node_modules\/zod\/v4\/classic\/from-json-schema/,
    "zod's fromJSONSchema",
    'zod (lean-zod leaves it out)',
  );
  // The weights' and glossaries' modules in the file are the few lines weights-beside writes, not the tables.
  for (const output of Object.values(result.metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      if (/(?:poison-scorer-weights|gloss\/[a-z]+)\.json$/.test(input) && bytesInOutput > 2000)
        throw new Error(
          `bundle: ${file} contains ${input} (${bytesInOutput} bytes); the lint's tables belong to dist/memory`,
        );
}
// The poisoning lint's modules are dist/poison-lint.cjs's alone; the loader that requires it stays.
const POISON_LINT = /memory\/(poison-(?!lint-beside)[\w-]+|official-installers)\.js$/;
for (const [result, file] of [...cjsBundles, [tui, 'dist/cli/tui.cjs']])
  refuse(result, file, POISON_LINT, 'the poisoning lint', 'dist/poison-lint.cjs (poisonLintBeside)');
refuse(
  tui,
  'dist/cli/tui.cjs',
  /node_modules\/zod\/v4\/locales\/(?!en\.js|index\.js)/,
  "zod's locales",
  'zod (lean-zod leaves them out)',
);
refuse(tui, 'dist/cli/tui.cjs', /node_modules\/@modelcontextprotocol\//, 'the MCP SDK', 'the tests');
// The SDK is the tests' reference for the protocol (test/unit/mcp-protocol.test.ts), not shipped code.
for (const [result, file] of cjsBundles)
  refuse(result, file, /node_modules\/@modelcontextprotocol\//, 'the MCP SDK', 'the tests');
// A thread runs compiled from its code cache, where import() has no loader in Node 20 ("A dynamic
// import callback was not specified"): a thread that needs an ES module asks bin/code-cache.cjs's
// importFile, as the CLI's TUI stub does.
for (const [result, file] of threads)
  for (const output of Object.values(result.metafile.outputs))
    for (const imported of output.imports)
      if (imported.kind === 'dynamic-import')
        throw new Error(
          `bundle: ${file} calls import(${imported.path}); load it through bin/code-cache.cjs importFile`,
        );
refuse(read, 'dist/cli/read.cjs', /node_modules\/@decimalturn\/toml-patch\//, 'toml-patch', 'main.cjs (install)');
refuse(mcp, 'dist/cli/mcp.cjs', /node_modules\/@decimalturn\/toml-patch\//, 'toml-patch', 'main.cjs (install)');

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
