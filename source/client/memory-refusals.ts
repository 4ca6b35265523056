// What a memory command that writes refuses at once, refused here, read-only, before it connects:
// taking the data home's lease starts the memory threads, which create memory-state.sqlite, so bad
// input — an unknown runner, task, session or entry, a window over the maximum, project memory
// outside a git worktree — would otherwise leave a file behind its error. Each check is the one the
// command makes (the host makes it again), with its message and exit code. What cannot be told
// here — a data home that cannot be read, a store or memory-state of another schema version, or
// damaged — is left to the command, which says it as before.
import { existsSync } from 'node:fs';
import type { MemoryConsolidateRequest, MemoryExtractRequest, MemoryRetireRequest } from '../api/memory.js';
import { resolveScopeQuickly, scopeAsked } from '../effects/repository.js';
import { refuseUnknownRunner } from '../effects/runner-profiles.js';
import { CmError } from '../errors.js';
import { homeReadProblem, storeFiles } from '../home.js';
import { refuseRunRequest } from '../memory/run-request.js';
import { offlineNeedsNoProbe } from '../memory/runner.js';
import { type Db, openDatabase } from '../store/database.js';
import { withMemoryState } from '../store/memory/state-database.js';

/** Whether the checks can read the data home: one that cannot is the connection's to report. */
const readable = (home: string): boolean => homeReadProblem(home) === null;

/** `read` over memory-state, read-only; `missing()` without one; undefined when it cannot be read here. */
function fromMemoryState<T>(home: string, missing: () => T, read: (db: Db) => T): T | undefined {
  try {
    return withMemoryState(storeFiles(home).memoryState, missing, read);
  } catch (error) {
    // Another schema version (the command migrates it) or a damaged file (the command says so).
    if (error instanceof CmError && error.code === 'memory_unavailable') return undefined;
    throw error;
  }
}

/**
 * `memory extract`: what the run would refuse before it plans anything — its runner, its options,
 * its window, its sessions (looked up as `session <key>` looks one up).
 */
export async function refuseExtractRun(home: string, request: MemoryExtractRequest): Promise<void> {
  if (!readable(home)) return;
  const { readLastUntil } = await import('../store/memory/memory-reads.js');
  // The session reads are loaded only for a run given sessions.
  const sessions = request.sessions ? await capturedSessions(home) : () => {};
  refuseRunRequest(request, {
    runner: (named) => refuseUnknownRunner(home, named),
    // A manual run's window starts where the last manual run of the caller's scope ended.
    lastUntil: () =>
      fromMemoryState(
        home,
        () => null,
        (db) => readLastUntil(db, false, resolveScopeQuickly(request.cwd)),
      ) ?? null,
    sessions,
  });
}

/** Refuses a session key no captured session of the store has (nor a unique start of one). */
async function capturedSessions(home: string): Promise<(keys: readonly string[]) => void> {
  const { noCapturedSession, resolveSessionKeys } = await import('../store/core/turn-source.js');
  const { isCurrentStore } = await import('./read-only-application.js');
  return (keys) => {
    const core = storeFiles(home).core;
    // No store: no session was captured. A store of an older schema is the command's to migrate.
    if (!existsSync(core)) {
      if (keys.length > 0) throw noCapturedSession(keys[0]!);
      return;
    }
    if (!isCurrentStore(core)) return;
    const db = openDatabase(core, { readonly: true });
    try {
      resolveSessionKeys(db, keys);
    } finally {
      db.close();
    }
  };
}

/** `memory reverify-runner`: a runner the data home does not have, or the offline one (no probe). */
export function refuseReverify(home: string, runner: string): void {
  if (!readable(home)) return;
  refuseUnknownRunner(home, runner);
  if (runner === 'builtin') throw offlineNeedsNoProbe(runner);
}

/** `memory consolidate`: a runner the data home does not have; the project memory asked for outside a worktree. */
export function refuseConsolidation(
  home: string,
  request: Pick<MemoryConsolidateRequest, 'scope' | 'runner' | 'cwd'>,
): void {
  if (!readable(home)) return;
  refuseUnknownRunner(home, request.runner);
  scopeAsked(request.cwd, request.scope, '', resolveScopeQuickly);
}

/** `memory retire`: an entry no file of the memory roots holds (or both roots do); no project memory here. */
export async function refuseRetirement(home: string, request: MemoryRetireRequest): Promise<void> {
  if (!readable(home)) return;
  (await import('../pipeline/promotion.js')).retirementTarget(home, request);
}

/** `memory retry`: a task memory-state does not hold — none at all without a memory-state. */
export async function refuseRetry(home: string, taskId: string): Promise<void> {
  if (!readable(home)) return;
  const { hasMemoryTask, noMemoryTask } = await import('../store/memory/task-store.js');
  // Undefined: a memory-state this process cannot read; the command says why.
  const held = fromMemoryState(
    home,
    () => false,
    (db) => hasMemoryTask(db, taskId),
  );
  if (held === false) throw noMemoryTask(taskId);
}
