// Build step before the bundles (scripts/bundle.mjs): each module of source/ as JavaScript in dist/,
// one file for one, with its source map, and the JSON files the modules import beside them. esbuild
// strips the types file by file; it does not check them (`npm run typecheck` does, and CI runs it):
// tsc's emit took about 11 s of a clean install, this about 1 s. Safe file by file because
// tsconfig.base.json has `verbatimModuleSyntax` (every type-only import says so) and the sources use
// no const enums, namespaces or decorators.
import { cp, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const source = join(root, 'source');
const dist = join(root, 'dist');

const all = (await readdir(source, { recursive: true })).map((file) => join(source, file));
const modules = all.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
await build({
  entryPoints: modules,
  outdir: dist,
  outbase: source,
  bundle: false,
  platform: 'node',
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  tsconfig: join(root, 'tsconfig.build.json'),
  logLevel: 'warning',
});
for (const file of all.filter((file) => file.endsWith('.json'))) await cp(file, join(dist, relative(source, file)));
