// `node scripts/build-stamp.mjs clear|write|check`: the digest of everything the build reads, so that
// `npm test` and `npm run bench` build only when the build is missing or older than its inputs.
// CI's clean install builds once (`prepare`), and the test command's `pretest` built the same tree
// again right after (about 15 s of a run that must stay short). `write` (the build's last step)
// leaves the digest in dist/ (its first step, `clear`, removes the old one, so that a build cut short
// leaves none); `check` exits 0 when dist/ holds the digest of the inputs as they are
// now, else 1 and says why, and the caller builds. Content, not mtimes: a checkout, a stash or a
// copy changes mtimes without changing what the build would make, and an edit within the same
// second must still count.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const stampFile = (root) => join(root, 'dist', 'build-inputs.sha256');

/** The build's inputs: its sources, its scripts and configuration, the locked dependencies it bundles. */
const INPUTS = [
  'source',
  'bin',
  'scripts/transpile.mjs',
  'scripts/bundle.mjs',
  'scripts/cli-code-cache.cjs',
  'scripts/stubs',
  'tsconfig.base.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];

function files(root, path) {
  const full = join(root, path);
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOTDIR') return [path];
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return entries.flatMap((entry) =>
    entry.isDirectory() ? files(root, join(path, entry.name)) : entry.isFile() ? [join(path, entry.name)] : [],
  );
}

/** One digest over each input's path and bytes, and the Node that builds (its code caches are V8's own). */
export function inputsDigest(root = ROOT) {
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  for (const file of INPUTS.flatMap((path) => files(root, path)).sort()) {
    const bytes = readFileSync(join(root, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/** Why dist/ is not the build of the sources as they are now, or null when it is. */
export function staleBuild(root = ROOT) {
  let built;
  try {
    built = readFileSync(stampFile(root), 'utf8').trim();
  } catch {
    return 'dist/ holds no build stamp';
  }
  return built === inputsDigest(root) ? null : 'the sources changed since dist/ was built';
}

/** The digest of the inputs as they are now, left in dist/ (which the build has made). */
export const writeStamp = (root = ROOT) => writeFileSync(stampFile(root), `${inputsDigest(root)}\n`);

const runAsScript = import.meta.filename === process.argv[1];
const command = runAsScript ? process.argv[2] : undefined;
if (command === 'clear') {
  rmSync(stampFile(ROOT), { force: true });
} else if (command === 'write') {
  writeStamp();
} else if (command === 'check') {
  const stale = staleBuild();
  process.stderr.write(
    `build: ${stale ? `${stale}; building` : 'dist/ is the build of these sources; not built again'}\n`,
  );
  process.exit(stale ? 1 : 0);
} else if (runAsScript) {
  process.stderr.write('usage: node scripts/build-stamp.mjs clear|write|check\n');
  process.exit(2);
}
