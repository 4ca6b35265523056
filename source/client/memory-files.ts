// The files the memory half writes outside any store, in the caller's own process: a memory root
// laid out (`memory init`) and a repository's CLAUDE.md / AGENTS.md managed block (`memory
// assemble`). Neither needs a host or the lease: they touch the caller's worktree or data home, and
// read memory-state read-only at most.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { echoed } from '../echo-text.js';
import { CmError } from '../errors.js';
import { initMemoryRoot, memoryRootOf, USER_MEMORY_ROOT } from '../effects/memory-root.js';
import { resolveScope } from '../effects/repository.js';
import { MemoryFileError, memoryFileRefusalCode, readMemoryFile } from '../effects/safe-files.js';
import { ensureHome, storeFiles } from '../home.js';
import { applyAssemble, planAssemble } from '../pipeline/assemble.js';
import { assembleSkills, type SkillsAssembleResult } from '../pipeline/skills-assemble.js';

/**
 * `memory assemble`: the managed block of `cwd`'s repository for a provider's file, written unless
 * `dryRun`. The plan says what changed (or would): the file, the action, the diff, the entries.
 */
export function assembleIn(home: string, cwd: string, provider: string | undefined, dryRun: boolean) {
  const plan = planAssemble(storeFiles(home).memoryState, cwd, provider);
  if (!dryRun) applyAssemble(plan);
  const { target: _target, ...shown } = plan;
  return shown;
}

/**
 * `memory assemble --skills`: the approved work methods of `cwd`'s scope (or `scope`) as managed
 * skills for each provider (both without one), written unless `dryRun`.
 */
export function assembleSkillsIn(
  home: string,
  cwd: string,
  options: { provider: string | undefined; scope: string | undefined; dryRun: boolean },
): SkillsAssembleResult {
  return assembleSkills(storeFiles(home).memoryState, home, cwd, options);
}

export interface MemoryInitResult {
  scope: 'project' | 'user';
  /** The memory root's path. */
  path: string;
  readmeWritten: boolean;
  /** Dry run only: whether the real run would write the README. */
  wouldWriteReadme?: boolean;
  dryRun: boolean;
}

/**
 * `memory init`: lays out the memory root of the chosen scope (default: `cwd`'s worktree's, or the
 * user's outside git). With `dryRun` nothing is created, the data home included: it says where the
 * root is and whether its README would be written.
 */
export function initMemoryRootIn(
  home: string,
  cwd: string,
  scopeFlag: string | undefined,
  dryRun: boolean,
): MemoryInitResult {
  if (scopeFlag !== undefined && scopeFlag !== 'project' && scopeFlag !== 'user')
    throw new CmError('usage', `--scope must be project or user, not ${echoed(scopeFlag)}.`);
  const binding = resolveScope(cwd);
  const scope = (scopeFlag ?? binding.scope) as 'project' | 'user';
  if (scope === 'project' && binding.scope !== 'project') {
    throw new CmError(
      'usage',
      'The project scope needs a git worktree: run memory init inside one, or use --scope user.',
    );
  }
  const anchor = binding.scope === 'project' && scope === 'project' ? binding.rootRealpath : home;
  try {
    if (dryRun) {
      // A data home that does not exist yet holds no README: the real run would create both.
      const root = existsSync(anchor) ? memoryRootOf(scope, anchor) : null;
      const path = root ? [root.anchor, ...root.parts].join('/') : join(anchor, USER_MEMORY_ROOT);
      const wouldWriteReadme = root === null || readMemoryFile(root, 'README.md', 64 * 1024) === null;
      return { scope, path, readmeWritten: false, wouldWriteReadme, dryRun: true };
    }
    if (scope === 'user') ensureHome(home);
    const root = memoryRootOf(scope, anchor);
    const { readmeWritten } = initMemoryRoot(root, scope);
    return { scope, path: [root.anchor, ...root.parts].join('/'), readmeWritten, dryRun: false };
  } catch (error) {
    if (error instanceof MemoryFileError)
      throw new CmError(memoryFileRefusalCode(error), `${error.message}; nothing was written.`);
    throw error;
  }
}
