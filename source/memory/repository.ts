// Which repository a session belongs to, from its cwd: the git common directory and the worktree
// root, both by realpath, and the common directory's device and inode. Two worktrees of one
// repository share the repository key; a cwd outside git belongs to the user scope. Never the
// cwd's basename. The keys are digests: absolute paths stay in memory-state and leave it never.
import { execFileSync } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { sha256Hex } from '../ground/digests.js';

export interface RepositoryBinding {
  scope: 'project';
  repositoryKey: string;
  worktreeKey: string;
  /** Sensitive: stored in memory-state only. */
  rootRealpath: string;
  rootRealpathDigest: string;
  commonDirectoryIdentity: { device: string; inode: string };
}

export interface UserScope {
  scope: 'user';
  repositoryKey: string;
  worktreeKey: string;
}

export type Scope = RepositoryBinding | UserScope;

/** The keys of the user scope: one for every session outside git. */
export const USER_SCOPE: UserScope = {
  scope: 'user',
  repositoryKey: sha256Hex('common-memory user scope@1'),
  worktreeKey: sha256Hex('common-memory user scope@1'),
};

/** The environment git runs in: nothing that could point it at another repository or run a helper. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
  };
  if (process.env['HOME']) env['HOME'] = process.env['HOME'];
  return env;
}

function gitLines(cwd: string): string[] | undefined {
  try {
    const out = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir', '--show-toplevel'], {
      cwd,
      env: gitEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
      maxBuffer: 64 * 1024,
    });
    const lines = out.split('\n').filter((line) => line.length > 0);
    return lines.length === 2 ? lines : undefined;
  } catch {
    return undefined; // not a repository, inside .git, no git, or a cwd that no longer exists
  }
}

/** The binding of a cwd; the user scope when it is not (or no longer) inside a git worktree. */
export function resolveScope(cwd: string | null | undefined): Scope {
  if (!cwd || !isAbsolute(cwd)) return USER_SCOPE;
  const lines = gitLines(cwd);
  if (!lines) return USER_SCOPE;
  try {
    const commonDir = realpathSync(resolve(cwd, lines[0]!));
    const root = realpathSync(resolve(cwd, lines[1]!));
    const stat = statSync(commonDir, { bigint: true });
    const device = String(stat.dev);
    const inode = String(stat.ino);
    const repositoryKey = sha256Hex(`common-memory repository@1\0${device}\0${inode}\0${commonDir}`);
    return {
      scope: 'project',
      repositoryKey,
      worktreeKey: sha256Hex(`common-memory worktree@1\0${repositoryKey}\0${root}`),
      rootRealpath: root,
      rootRealpathDigest: sha256Hex(root),
      commonDirectoryIdentity: { device, inode },
    };
  } catch {
    return USER_SCOPE;
  }
}

/** Resolves each distinct cwd once (planning looks at many sessions of the same few directories). */
export function scopeResolver(): (cwd: string | null | undefined) => Scope {
  const cache = new Map<string, Scope>();
  return (cwd) => {
    if (!cwd) return USER_SCOPE;
    let scope = cache.get(cwd);
    if (!scope) cache.set(cwd, (scope = resolveScope(cwd)));
    return scope;
  };
}

/** What may leave memory-state: the keys and digests, never a path. */
export function publicScope(scope: Scope): { scope: 'project' | 'user'; repositoryKey: string; worktreeKey: string } {
  return { scope: scope.scope, repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey };
}
