// The approved projection's scan as every caller but the SessionStart hook uses it: approved-scan.ts
// with the memory lint (secrets, poisoning) on every file it reads, so one whose text holds a
// secret or an instruction to the model is left out and named (`blocked`), as consolidation leaves
// it out. The hook's follow imports approved-scan.ts itself and loads the lint only when a file
// changed (hook/file-lint.ts): the lint is too heavy for every event.
import { blockedFileProblem } from '../memory/file-lint.js';
import {
  type MemoryScope,
  type ProjectionScan,
  type ScanOptions,
  scanApprovedRoot as scanRoot,
} from './approved-scan.js';
import type { MemoryRoot } from './safe-files.js';

export * from './approved-scan.js';

/** Scans a memory root (approved-scan.ts), linting the files it reads. */
export function scanApprovedRoot(
  root: MemoryRoot,
  scope: MemoryScope,
  options: Omit<ScanOptions, 'lintFile'> & Partial<Pick<ScanOptions, 'lintFile'>> = {},
): ProjectionScan {
  return scanRoot(root, scope, { lintFile: blockedFileProblem, ...options });
}
