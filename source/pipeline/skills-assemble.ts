// `memory assemble --skills`: the approved work methods of one scope written as managed agent
// skills where each client loads them (docs/agents.md, Skills):
//
//   scope    claude                                   codex
//   project  <worktree>/.claude/skills/<name>/        <worktree>/.agents/skills/<name>/
//   user     $CLAUDE_CONFIG_DIR or ~/.claude /skills/  ~/.agents/skills/<name>/
//
// The sources are read from the scope's memory files (a read-only scan: no store is needed). The
// plan is memory/skill-plan.ts's; its writes and removals are promotion-apply.ts's compare-and-
// swap steps: every target is checked against what the plan read before the first write, each is
// re-read before it is replaced or removed, and nothing follows a link.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CmError, lintRefusalCode } from '../errors.js';
import { sha256Hex } from '../ground/digests.js';
import { scanApprovedRoot } from '../effects/approved-projection.js';
import { memoryRootOf } from '../effects/memory-root.js';
import { applyPlanFile, applySession, driftedTargets, syncPlanDirectories } from '../effects/promotion-apply.js';
import { resolveScope, USER_SCOPE } from '../effects/repository.js';
import { MemoryFileError, type MemoryRoot, memoryRoot } from '../effects/safe-files.js';
import { readSkillFolders, removeEmptySkillFolder } from '../effects/skill-folders.js';
import { planSkills, type SkillPlan, type SkillSource, skillSourcesFromEntries } from '../memory/skill-plan.js';
import { withMemoryState } from '../store/memory/state-database.js';
import { readVerdicts, verdictFor } from '../store/memory/verdict-read.js';

export const SKILL_PROVIDERS = ['claude', 'codex'] as const;
export type SkillProvider = (typeof SKILL_PROVIDERS)[number];

export interface SkillsTarget {
  provider: SkillProvider;
  /** The skills directory: relative to the worktree (project) or absolute (user). */
  directory: string;
  skills: Array<{ name: string; action: 'create' | 'update' | 'remove'; sources: string[] }>;
  unchanged: Array<{ name: string; sources: string[] }>;
  kept: Array<{ name: string; sources: string[]; reason: 'edited' | 'other-files' }>;
  renamed: Array<{ wanted: string; name: string; sources: string[]; heldBy: 'user' | 'another source' | 'client' }>;
  diff: string;
}

export interface SkillsAssembleResult {
  scope: 'project' | 'user';
  /** Approved work methods of the scope that became skills. */
  methods: number;
  /**
   * Methods left out because this machine's last verification found them stale (a file, script or
   * symbol they name is gone): a skill is given to the model as true, so a stale one is not written
   * (and its skill, if any, removed) until the entry is revised or verified fresh again.
   */
  withheld: Array<{ entryId: string; reason: string }>;
  dryRun: boolean;
  targets: SkillsTarget[];
}

interface Destination {
  provider: SkillProvider;
  root: MemoryRoot;
  directory: string;
  /** The diff's path prefix: the directory relative to its anchor. */
  diffDirectory: string;
}

function providersOf(provider: string | undefined): SkillProvider[] {
  if (provider === undefined) return [...SKILL_PROVIDERS];
  if (provider === 'claude' || provider === 'codex') return [provider];
  throw new CmError(
    'usage',
    `--provider must be claude (.claude/skills) or codex (.agents/skills), or left out for both; got ${JSON.stringify(provider)}.`,
  );
}

function openRoot(anchor: string, path: string): MemoryRoot {
  try {
    return memoryRoot(anchor, path);
  } catch (error) {
    if (error instanceof MemoryFileError) throw new CmError('invalid_input', `${error.message}.`);
    throw error;
  }
}

function destinations(
  scope: 'project' | 'user',
  worktree: string | null,
  providers: SkillProvider[],
  env: NodeJS.ProcessEnv,
): Destination[] {
  return providers.map((provider): Destination => {
    if (scope === 'project') {
      const directory = provider === 'claude' ? '.claude/skills' : '.agents/skills';
      return { provider, root: openRoot(worktree!, directory), directory, diffDirectory: directory };
    }
    const home = env['HOME'] || homedir();
    if (provider === 'codex') {
      const root = openRoot(home, '.agents/skills');
      return { provider, root, directory: join(root.anchor, '.agents', 'skills'), diffDirectory: '.agents/skills' };
    }
    const configDir = env['CLAUDE_CONFIG_DIR'];
    if (configDir) {
      if (!existsSync(configDir))
        throw new CmError(
          'invalid_input',
          `CLAUDE_CONFIG_DIR is ${configDir}, which does not exist; start Claude Code once or fix the variable.`,
        );
      const root = openRoot(configDir, 'skills');
      return { provider, root, directory: join(root.anchor, 'skills'), diffDirectory: 'skills' };
    }
    const root = openRoot(home, '.claude/skills');
    return { provider, root, directory: join(root.anchor, '.claude', 'skills'), diffDirectory: '.claude/skills' };
  });
}

interface Sources {
  sources: SkillSource[];
  withheld: Array<{ entryId: string; reason: string }>;
}

function sourcesOf(
  scope: 'project' | 'user',
  anchor: string,
  memoryStatePath: string,
  owner: { repositoryKey: string; worktreeKey: string },
): Sources {
  let root: MemoryRoot;
  try {
    root = memoryRootOf(scope, anchor);
  } catch (error) {
    if (error instanceof MemoryFileError)
      throw new CmError('invalid_input', `The ${scope} memory root: ${error.message}.`);
    throw error;
  }
  const scan = scanApprovedRoot(root, scope);
  if (scan.coverage !== 'complete') {
    const first = scan.problems[0];
    throw new CmError(
      'invalid_input',
      `The ${scope} memory files could not all be read${first ? ` (${first.path || 'the root'}: ${first.message})` : ''}, ` +
        'so no skill is written or removed: fix them (common-memory memory sync lists each problem) and run again.',
    );
  }
  // The last verification's verdicts, read-only; none (no store, or one that cannot be read) leaves
  // every method in, as the snapshot does without verification.
  const methods = scan.entries.filter((entry) => entry.type === 'work_method');
  let read: ReturnType<typeof readVerdicts> | null;
  try {
    read = withMemoryState(
      memoryStatePath,
      () => null,
      (db) => readVerdicts(db, [owner], { entryIds: methods.map((entry) => entry.id) }),
    );
  } catch {
    read = null;
  }
  const withheld: Sources['withheld'] = [];
  const given = scan.entries.filter((entry) => {
    const verdict = read ? verdictFor(read, entry.id, entry.contentDigest) : null;
    if (verdict?.verdict !== 'stale' || verdict.failed.length === 0) return true;
    withheld.push({ entryId: entry.id, reason: verdict.failed[0]!.reason });
    return false;
  });
  return { sources: skillSourcesFromEntries(given), withheld };
}

/** Plans every provider's skills for `cwd`'s scope; applies them unless `dryRun`. */
export function assembleSkills(
  memoryStatePath: string,
  home: string,
  cwd: string,
  options: {
    provider?: string | undefined;
    scope?: string | undefined;
    dryRun: boolean;
    /** Called between the plans and the first write: tests change a folder here to prove the check. */
    beforeApply?: () => void;
  },
  env: NodeJS.ProcessEnv = process.env,
): SkillsAssembleResult {
  const providers = providersOf(options.provider);
  if (options.scope !== undefined && options.scope !== 'project' && options.scope !== 'user')
    throw new CmError('usage', '--scope must be project (this repository) or user (your own skills).');
  const binding = resolveScope(cwd);
  const scope = (options.scope as 'project' | 'user' | undefined) ?? (binding.scope === 'project' ? 'project' : null);
  if (scope === null)
    throw new CmError(
      'usage',
      'This directory is not in a git worktree: run it inside a repository for its skills, or pass --scope user for yours.',
    );
  if (scope === 'project' && binding.scope !== 'project')
    throw new CmError(
      'usage',
      '--scope project writes into a repository: run it inside a git worktree, or pass --scope user.',
    );
  const worktree = binding.scope === 'project' ? binding.rootRealpath : null;
  const anchor = scope === 'user' ? home : worktree!;
  const owner =
    scope === 'user' || binding.scope !== 'project'
      ? { repositoryKey: USER_SCOPE.repositoryKey, worktreeKey: USER_SCOPE.worktreeKey }
      : { repositoryKey: binding.repositoryKey, worktreeKey: binding.worktreeKey };
  const { sources, withheld } = existsSync(anchor)
    ? sourcesOf(scope, anchor, memoryStatePath, owner)
    : { sources: [], withheld: [] };

  const planned: Array<{ destination: Destination; plan: SkillPlan }> = [];
  for (const destination of destinations(scope, worktree, providers, env)) {
    let folders: ReturnType<typeof readSkillFolders>;
    try {
      folders = readSkillFolders(destination.root);
    } catch (error) {
      if (error instanceof MemoryFileError) throw new CmError('invalid_input', `${error.message}.`);
      throw error;
    }
    const result = planSkills({ sources, folders, scope, directory: destination.diffDirectory });
    if (!result.ok)
      throw new CmError(
        result.reason === 'too_large' ? 'limit_exceeded' : lintRefusalCode(result.reason),
        `Refused: ${result.message}. Nothing was written.`,
      );
    planned.push({ destination, plan: result.plan });
  }
  if (!options.dryRun) {
    options.beforeApply?.();
    for (const one of planned) apply(one.destination, one.plan, scope);
  }
  return {
    scope,
    methods: sources.length,
    withheld,
    dryRun: options.dryRun,
    targets: planned.map(({ destination, plan }) => ({
      provider: destination.provider,
      directory: destination.directory,
      skills: plan.changes.map((change) => ({ name: change.name, action: change.action, sources: change.sourceIds })),
      unchanged: plan.unchanged.map(({ name, sourceIds }) => ({ name, sources: sourceIds })),
      kept: plan.kept.map(({ name, sourceIds, reason }) => ({ name, sources: sourceIds, reason })),
      renamed: plan.renamed.map(({ wanted, name, sourceIds, heldBy }) => ({
        wanted,
        name,
        sources: sourceIds,
        heldBy,
      })),
      diff: plan.diff,
    })),
  };
}

/** Writes and removes a plan's files: all of them checked first, so a folder changed since the plan voids it whole. */
function apply(destination: Destination, plan: SkillPlan, scope: 'project' | 'user'): void {
  if (plan.changes.length === 0) return;
  const encoder = new TextEncoder();
  const steps = plan.changes.map((change) => {
    const content = encoder.encode(change.content);
    return {
      path: change.path,
      action: change.action,
      content,
      targetBlobHash: change.targetBlobHash,
      sanitizedContentDigest: sha256Hex(content),
    };
  });
  try {
    const session = applySession();
    const drifted = driftedTargets(destination.root, { files: steps }, session);
    if (drifted.length > 0)
      throw new CmError(
        'operation_conflict',
        `${destination.directory}/${drifted[0]} changed while the skills were planned; nothing was written there — run the command again.`,
      );
    for (const step of steps) {
      const outcome = applyPlanFile(destination.root, scope, step, {}, session);
      if (outcome.outcome === 'drift')
        throw new CmError(
          'operation_conflict',
          `${destination.directory}/${step.path} changed while the skills were written; it was kept — run the command again.`,
        );
    }
    syncPlanDirectories(destination.root, { files: steps }, session);
    for (const change of plan.changes)
      if (change.action === 'remove' && change.removeFolder) removeEmptySkillFolder(destination.root, change.name);
  } catch (error) {
    if (error instanceof MemoryFileError)
      throw new CmError('invalid_input', `${destination.directory}: ${error.message}.`);
    throw error;
  }
}
