// The approved projection's scan as every caller but the SessionStart hook uses it: approved-scan.ts
// with the memory lint (secrets, poisoning) on scene and doctrine files, so one whose text holds a
// secret or an instruction to the model is left out and named (`blocked`), as consolidation leaves
// it out. The hook's follow imports approved-scan.ts itself: the lint is too heavy for every event.
import { blockedFileProblem } from '../memory/consolidation/patch-content.js';
import {
  type MemoryScope,
  type ProjectionScan,
  type ScanOptions,
  scanApprovedRoot as scanRoot,
} from './approved-scan.js';
import type { MemoryRoot } from './safe-files.js';

export * from './approved-scan.js';

/** Scans a memory root (approved-scan.ts), linting its scene and doctrine files. */
export function scanApprovedRoot(root: MemoryRoot, scope: MemoryScope, options: ScanOptions = {}): ProjectionScan {
  return scanRoot(root, scope, { lintFile: blockedFileProblem, ...options });
}
