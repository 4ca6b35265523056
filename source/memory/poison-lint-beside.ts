// The poisoning lint as the bundled CLI, TUI and threads load it: from a bundle of its own
// (dist/poison-lint.cjs), on the first text linted. scripts/bundle.mjs puts this in place of
// poison-lint.js where memory-lint.js imports it, so a process that lints nothing (`get`,
// `sessions`, `memory review`, a host's threads until a candidate arrives) neither reads nor
// compiles the rules and never builds their tables. The sources and their tests import
// poison-lint.js itself.
import { requireBeside } from '../bundle-beside.js';
import type { lintPoisoning as LintPoisoning } from './poison-lint.js';

/** lintPoisoning, loaded from `file` (relative to the running bundle) when first called. */
export function lintPoisoningBeside(file: string): typeof LintPoisoning {
  let loaded: typeof LintPoisoning | undefined;
  return (text, options) => {
    loaded ??= requireBeside<{ lintPoisoning: typeof LintPoisoning }>(file, 'the poisoning lint').lintPoisoning;
    return loaded(text, options);
  };
}
