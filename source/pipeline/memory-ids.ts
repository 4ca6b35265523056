// Candidate and plan IDs as people type them: the short form the TUI shows ("cand-557dbd08", the
// kind and eight hex digits) or any unique start of 4 characters or more stands for the whole ID,
// as operation and message IDs do. Resolved read-only in memory-state before a command is sent,
// so the writer and the API keep taking whole IDs.
import { echoed } from '../echo-text.js';
import { CmError } from '../errors.js';
import { ID_PREFIX_MIN } from '../limits.js';
import { hasIdPrefix, ID_PREFIX_HINT, resolveIdPrefix } from '../store/id-prefix.js';
import { consolidationTaskWithoutPatch } from '../store/memory/consolidation-reads.js';
import { withMemoryState } from '../store/memory/state-database.js';

const KINDS = {
  candidate: { table: 'candidates', column: 'candidate_id', noun: 'candidate', listed: 'memory review lists them' },
  plan: { table: 'promotion_journal', column: 'plan_id', noun: 'promotion plan', listed: 'memory prepare prints it' },
  patch: {
    table: 'consolidation_patches',
    column: 'task_id',
    noun: 'consolidation patch',
    listed: 'memory review lists them',
  },
} as const;

/** The whole ID `typed` names; not found when no ID of that kind starts with it. */
export function resolveMemoryId(memoryStatePath: string, kind: keyof typeof KINDS, typed: string): string {
  const { table, column, noun, listed } = KINDS[kind];
  const resolved = withMemoryState(
    memoryStatePath,
    () => null,
    (db) => (hasIdPrefix(db, table, column, typed) ? resolveIdPrefix(db, table, column, typed, noun) : null),
  );
  if (resolved === null) {
    if (kind === 'patch') patchlessTask(memoryStatePath, typed);
    // Quoted cut (echo-text.ts): an id is typed or pasted, and a message never grows with it.
    throw new CmError('not_found', `No ${noun} ${echoed(typed)} in memory: ${ID_PREFIX_HINT}; ${listed}.`);
  }
  return resolved;
}

/**
 * A patch id that names a consolidation task with no patch (`memory consolidate --json` gives the
 * task's id, which is its patch's once one is kept): said as what the task did, since "give the
 * whole ID" would send the person looking for a patch that was never kept.
 */
function patchlessTask(memoryStatePath: string, typed: string): void {
  if (typed.length < ID_PREFIX_MIN) return;
  const task = withMemoryState(
    memoryStatePath,
    () => undefined,
    (db) => consolidationTaskWithoutPatch(db, typed),
  );
  if (!task) return;
  throw new CmError(
    'not_found',
    task.status === 'submitted'
      ? `Consolidation task ${task.taskId} proposed nothing, so it kept no patch: there is nothing to prepare or review. memory consolidate makes a new task once the approved entries change.`
      : task.status === 'stale'
        ? `Consolidation task ${task.taskId} is stale (entries it covers changed since), so it has no patch: memory consolidate makes a new one.`
        : `Consolidation task ${task.taskId} has not been run yet, so it has no patch: memory consolidate runs it.`,
  );
}
