// Memory read in the caller's own process, with no host and no lease: memory-state (and the
// ledger) opened read-only for each call, exactly as a host's reads would see them — a running
// host changes nothing, these reads never go through its writer. The MCP server answers its read
// tools with them, and the CLI resolves typed IDs and previews a sync before anything is sent.
import { homeReadProblem, storeFiles } from '../home.js';
import { approvedViewAt, memoryGetAt, memorySearchAt, previewSyncApproved } from '../pipeline/approved-access.js';
import { resolveMemoryId } from '../pipeline/memory-ids.js';
import { ledgerStatusAt } from '../store/ledger/ledger-status.js';

/**
 * memory-state's path, once the data home can be looked into. A home that is a file (or cannot be
 * listed) would otherwise read as one with no memory-state yet: `get` would answer "not found" and
 * a search nothing, where the CLI, which connects first, says the home is unusable.
 */
function memoryStateOf(home: string): string {
  const problem = homeReadProblem(home);
  if (problem) throw problem;
  return storeFiles(home).memoryState;
}

/** The approved entries of `cwd`'s scopes (its worktree's and the user's) that match `query`. */
export const searchApprovedIn = (home: string, cwd: string, query: string, limit?: number) =>
  memorySearchAt(memoryStateOf(home), cwd, query, limit);

/** One approved entry of `cwd`'s scopes, whole; `findIds` ends a not-found message (where to look ids up). */
export const approvedEntryIn = (home: string, cwd: string, entryId: string, findIds?: string) =>
  memoryGetAt(memoryStateOf(home), cwd, entryId, findIds);

/**
 * What a status shows of memory from `cwd`: its scopes' projections, the candidates, the ledger.
 * memory-status (and the runner profiles' schemas behind it) is loaded here only: `get` and search
 * are whole processes that scripts and agents start in loops.
 */
export async function memoryOverviewIn(home: string, cwd: string) {
  const files = storeFiles(home);
  memoryStateOf(home);
  const { memoryStatusAt } = await import('../pipeline/memory-status.js');
  const memory = memoryStatusAt(files.memoryState, false, null);
  const ledger = ledgerStatusAt(files.ledger, files.ledgerHealth);
  return { approved: approvedViewAt(files.memoryState, cwd), memory, ledger };
}

/**
 * A candidate or plan ID as a person typed it (the short form the TUI shows, or any unique start)
 * as the whole ID the API takes; not found when none starts with it.
 */
export const wholeMemoryId = (home: string, kind: 'candidate' | 'plan' | 'patch', typed: string): string =>
  resolveMemoryId(storeFiles(home).memoryState, kind, typed);

/**
 * `memory sync --dry-run`: what a sync from `cwd` would change, scanned here and compared with the
 * stored projection; nothing is stored and no file or store is created.
 */
export const previewSyncIn = (home: string, cwd: string) =>
  previewSyncApproved(storeFiles(home).memoryState, home, cwd);

/**
 * `memory promote --dry-run`: each file of the plan as promote would find it now, read here from
 * the files (promote marks an interrupted plan's files in the journal only as it closes).
 */
export async function promotePreviewIn(home: string, planId: string) {
  const { promotePreviewAt } = await import('../pipeline/promotion.js');
  return promotePreviewAt(storeFiles(home).memoryState, home, planId);
}
