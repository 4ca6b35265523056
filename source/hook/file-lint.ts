// The memory lint for the SessionStart hook's follow of the memory files. The lint (its rules and
// the poisoning scorer's weights) is several times the hook's own size, and nearly every event
// reads no changed file: it is a bundle of its own beside the hook's (dist/file-lint.cjs, built
// from memory/file-lint.ts), required the first time a changed entry, scene or doctrine file must
// be read — a hand edit or a pull is linted before the snapshot gives it, like every other read.
import { join } from 'node:path';
import type { FileLint } from '../effects/approved-scan.js';

let loaded: FileLint | undefined;

/**
 * The lint, loaded on first use from beside the hook's bundle (the hook runs only as dist/hook.cjs).
 * Not through a V8 code cache as the hook's bundle is: its first use is mostly compiling its
 * regular expressions, which no code cache holds (measured: no difference in 8 pairs of runs).
 */
export const hookFileLint: FileLint = (path, text, lintPath) => {
  loaded ??= (require(join(__dirname, 'file-lint.cjs')) as { blockedFileProblem: FileLint }).blockedFileProblem;
  return loaded(path, text, lintPath);
};
