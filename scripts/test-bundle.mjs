// `npm test` runs each test file as one ES module built ahead by esbuild (its sources, the project's
// and the test's, in shared chunks; packages left to Node), not through tsx. tsx on Node 20 answers
// every import from a loader thread of its own, one message per module: the host's and the CLI's
// module graph cost about 2.3 s of CPU to load in each test process that way, against about 0.5 s
// from the built chunks, and hundreds of test processes load it (docs/development.md, "What the
// suite costs"). tsx itself compiles with esbuild, so what runs is the same code.
//
// What a module sees of itself is kept: `import.meta.url`, `dirname` and `filename` are the source
// file's, as under tsx, so paths found from a module (fixtures beside a test, dist/ and bin/ from the
// sources, a child script run with `--import tsx`) are found as before. JSON imported by a module is
// read from its own file when first used, as the CLI's bundles do (scripts/bundle.mjs): the
// poisoning lint's glossaries and weights are 11 MB that most test files never read.
//
// The files are written under node_modules/.cache (packages resolve from there as from the sources),
// in a directory of the run's own (runs side by side, a test of the runner within a run), built
// again at every run (about a second for all of them) and removed at its end.
import { mkdirSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'common-memory-tests');

/** A run killed before its end left its directory: removed once its process is gone. */
function removeLeftBehind() {
  let names = [];
  try {
    names = readdirSync(CACHE);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if (error.code === 'ESRCH') rmSync(join(CACHE, name), { recursive: true, force: true });
    }
  }
}

/** The module's own `import.meta` fields, as the source file's: written in as literals. */
const OWN_META = /\bimport\.meta\.(url|dirname|filename)\b/g;

const keepImportMeta = {
  name: 'keep-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.(?:ts|tsx|mts|mjs|js)$/ }, async (args) => {
      if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
      let text = await readFile(args.path, 'utf8');
      const own = { url: pathToFileURL(args.path).href, dirname: dirname(args.path), filename: args.path };
      text = text.replace(OWN_META, (_, field) => JSON.stringify(own[field]));
      const extension = args.path.slice(args.path.lastIndexOf('.') + 1);
      return { contents: text, loader: extension === 'tsx' ? 'tsx' : extension === 'ts' ? 'ts' : 'js' };
    });
  },
};

const jsonOnFirstUse = {
  name: 'json-on-first-use',
  setup(b) {
    b.onLoad({ filter: /\.json$/ }, (args) => {
      const value = JSON.parse(readFileSync(args.path, 'utf8'));
      const read = `JSON.parse(readFileSync(${JSON.stringify(args.path)}, 'utf8'))`;
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        return { contents: `import { readFileSync } from 'node:fs';\nexport default ${read};`, loader: 'js' };
      const keys = Object.keys(value);
      const getters = keys.map((key) => `get ${JSON.stringify(key)}() { return load()[${JSON.stringify(key)}]; }`);
      return {
        contents: [
          "import { readFileSync } from 'node:fs';",
          'let data;',
          `const load = () => (data ??= ${read});`,
          `export default { ${getters.join(', ')} };`,
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * Builds `files` (test files, relative to the repository) into this run's directory; returns each
 * file's module there, by the file's path as given, and `remove` for the run's end.
 */
export async function bundleTests(files) {
  removeLeftBehind();
  const made = join(CACHE, `run-${process.pid}`);
  rmSync(made, { recursive: true, force: true });
  mkdirSync(made, { recursive: true });
  // Named as Node names a module it runs (node_modules may be a link, in a worktree), so that the
  // runner knows each test file's events by their path.
  const out = realpathSync(made);
  await build({
    absWorkingDir: ROOT,
    entryPoints: files,
    outdir: out,
    outbase: ROOT,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    plugins: [keepImportMeta, jsonOnFirstUse],
    logLevel: 'warning',
  });
  await stop(); // esbuild's service process would otherwise stay for the whole run
  const modules = new Map();
  for (const file of files) modules.set(file, join(out, relative(ROOT, join(ROOT, file)).replace(/\.tsx?$/, '.mjs')));
  return { modules, remove: () => rmSync(out, { recursive: true, force: true }) };
}
