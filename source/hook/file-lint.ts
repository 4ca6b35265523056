// The memory lint for the SessionStart hook's follow of the memory files. The lint (its rules and
// the poisoning scorer's weights) is several times the hook's own size, and nearly every event
// reads no changed file: it is a bundle of its own beside the hook's (dist/file-lint.cjs, built
// from memory/file-lint.ts), required the first time a changed entry, scene or doctrine file must
// be read — a hand edit or a pull is linted before the snapshot gives it, like every other read.
import type { BrokenInstallError } from '../broken-install.js';
import { requireBeside } from '../bundle-beside.js';
import type { FileLint } from '../effects/approved-scan.js';

let loaded: FileLint | undefined;
let failure: BrokenInstallError | undefined;

/**
 * The lint, loaded on first use from beside the hook's bundle (the hook runs only as dist/hook.cjs).
 * Not through a V8 code cache as the hook's bundle is: its first use is mostly compiling its
 * regular expressions, which no code cache holds (measured: no difference in 8 pairs of runs).
 * A bundle that cannot be loaded throws (the follow then keeps the projection as last read: nothing
 * unlinted is given) and is kept for `loadFailure`, which the hook records for `status`.
 */
export const hookFileLint: FileLint = (path, text, lintPath) => {
  if (!loaded) {
    if (failure) throw failure;
    try {
      loaded = requireBeside<{ blockedFileProblem: FileLint }>('file-lint.cjs', 'the memory lint').blockedFileProblem;
    } catch (error) {
      failure = error as BrokenInstallError;
      throw failure;
    }
  }
  return loaded(path, text, lintPath);
};

/** Why the lint could not be loaded in this process, once it was needed; undefined when it loaded or was never needed. */
export const loadFailure = (): BrokenInstallError | undefined => failure;
