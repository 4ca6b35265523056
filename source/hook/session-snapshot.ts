// The session-start snapshot as a hook gives it (Claude Code's and Codex's SessionStart, pi's
// session start): memory-state brought up to date with the memory files within the hook's budget,
// each changed file linted before it is given. A lint that cannot be loaded leaves the notes as
// last read in full (the snapshot says coverage partial, and why) and is recorded for `status`.
import { storeFiles } from '../home.js';
import { MEMORY_FOLLOW_HOOK_BUDGET_MS, MEMORY_FOLLOW_HOOK_FILE_STAMPS_MAX } from '../limits.js';
import { readSessionSnapshot } from '../store/memory/snapshot-read.js';
import { cliCommand } from './cli-command.js';
import { recordFailure } from './failures.js';
import { hookFileLint, loadFailure } from './file-lint.js';
import type { HookArgs } from './hook-args.js';

/** The snapshot's text for `cwd` ('' when nothing applies); throws what reading memory-state throws. */
export function hookSnapshotText(args: HookArgs, instance: string, cwd: string | null): string {
  const { text } = readSessionSnapshot(
    storeFiles(args.home).memoryState,
    cwd,
    cliCommand(args.home, args.shim),
    undefined,
    {
      home: args.home,
      budgetMs: MEMORY_FOLLOW_HOOK_BUDGET_MS,
      fileStampsUpTo: MEMORY_FOLLOW_HOOK_FILE_STAMPS_MAX,
      lintFile: hookFileLint,
    },
  );
  const lintMissing = loadFailure();
  if (lintMissing) recordFailure(args, instance, lintMissing, undefined, 'snapshot');
  return text;
}
