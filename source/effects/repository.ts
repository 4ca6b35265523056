// Which repository a session belongs to, from its cwd: the git common directory and the worktree
// root, both by realpath, and the common directory's device and inode. Two worktrees of one
// repository share the repository key; a cwd outside git belongs to the user scope. Never the
// cwd's basename. The keys are digests: absolute paths stay in memory-state and leave it never.
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { CmError } from '../errors.js';
import { sha256Hex } from '../ground/digests.js';
import { childProcess } from '../ground/lazy-builtin.js';

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
const USER_SCOPE_KEY = sha256Hex('common-memory user scope@1');
export const USER_SCOPE: UserScope = { scope: 'user', repositoryKey: USER_SCOPE_KEY, worktreeKey: USER_SCOPE_KEY };

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
    // Loaded here, not at import: the SessionStart hook reaches git only for an unusual layout.
    const out = childProcess().execFileSync(
      'git',
      ['rev-parse', '--path-format=absolute', '--git-common-dir', '--show-toplevel'],
      {
        cwd,
        env: gitEnv(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5000,
        maxBuffer: 64 * 1024,
      },
    );
    const lines = out.split('\n').filter((line) => line.length > 0);
    return lines.length === 2 ? lines : undefined;
  } catch {
    return undefined; // not a repository, inside .git, no git, or a cwd that no longer exists
  }
}

/**
 * The git blob a file has in the worktree's HEAD commit: its OID; null when HEAD holds no such
 * file (never committed, or no commit yet); undefined when git could not tell (no git, a timeout).
 * One git process: for a command a person runs (memory retire), never a hot path.
 */
export function blobAtHead(worktreeRoot: string, pathFromRoot: string): string | null | undefined {
  try {
    const out = childProcess().execFileSync('git', ['rev-parse', '-q', '--verify', `HEAD:${pathFromRoot}`], {
      cwd: worktreeRoot,
      env: gitEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
      maxBuffer: 64 * 1024,
    });
    return out.trim() || undefined;
  } catch (error) {
    // `--verify -q` exits 1, silently, for a name that resolves to nothing: HEAD has no such file.
    return (error as { status?: number | null }).status === 1 ? null : undefined;
  }
}

/** The binding of a git common directory and a worktree root, both already real paths. */
function bindingOf(commonDir: string, root: string): RepositoryBinding {
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
}

/** The binding of a cwd; the user scope when it is not (or no longer) inside a git worktree. */
export function resolveScope(cwd: string | null | undefined): Scope {
  if (!cwd || !isAbsolute(cwd)) return USER_SCOPE;
  const lines = gitLines(cwd);
  if (!lines) return USER_SCOPE;
  try {
    return bindingOf(realpathSync(resolve(cwd, lines[0]!)), realpathSync(resolve(cwd, lines[1]!)));
  } catch {
    return USER_SCOPE;
  }
}

/**
 * `cwd`'s scope for a command that takes --scope: the project memory asked for outside a git worktree
 * is refused (a usage error; `nothing` ends it: what was not done), before anything is read or stored.
 * `resolve`: resolveScopeQuickly where no git process is wanted (the same binding).
 */
export function scopeAsked(
  cwd: string,
  asked: 'project' | 'user' | undefined,
  nothing = '',
  resolve: (cwd: string) => Scope = resolveScope,
): Scope {
  const here = resolve(cwd);
  if (asked === 'project' && here.scope !== 'project')
    throw new CmError(
      'usage',
      `${cwd} is not inside a git worktree: there is no project memory here. Run it in the repository, or use --scope user.${nothing}`,
    );
  return here;
}

/** A git config that moves the worktree or makes the repository bare: git's own answer is needed. */
const UNUSUAL_CONFIG = /^\s*(?:worktree\s*=|bare\s*=\s*(?:true|yes|on|1)\s*$)/im;

/**
 * The same binding as resolveScope, found the way git discovers a repository (the nearest `.git`
 * directory or `gitdir:` file above the cwd, its `commondir`) with a few file reads instead of a
 * git process: the SessionStart hook runs this on its fast path. Whatever is not the plain case —
 * a cwd inside a git directory, a symlinked or unreadable `.git`, a repository git would not open
 * (no HEAD, another owner, a bare or moved worktree in its config), a filesystem boundary on the
 * way up — is left to git itself.
 */
export function resolveScopeQuickly(cwd: string | null | undefined): Scope {
  if (!cwd || !isAbsolute(cwd)) return USER_SCOPE;
  const askGit = () => resolveScope(cwd);
  let dir: string;
  let device: number;
  try {
    dir = realpathSync(cwd);
    device = statSync(dir).dev;
  } catch {
    return USER_SCOPE;
  }
  for (;;) {
    if (basename(dir) === '.git') return askGit();
    const dotGit = join(dir, '.git');
    let found: ReturnType<typeof lstatSync> | undefined;
    try {
      found = lstatSync(dotGit);
    } catch {
      found = undefined;
    }
    if (found) {
      try {
        let gitDir = dotGit;
        if (found.isFile()) {
          const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
          if (!pointer) return askGit();
          gitDir = resolve(dir, pointer[1]!.trim());
        } else if (!found.isDirectory()) return askGit();
        let commonDir = gitDir;
        if (existsSync(join(gitDir, 'commondir')))
          commonDir = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
        commonDir = realpathSync(commonDir);
        if (!existsSync(join(gitDir, 'HEAD'))) return askGit();
        if (UNUSUAL_CONFIG.test(readFileSync(join(commonDir, 'config'), 'utf8'))) return askGit();
        if (typeof process.getuid === 'function' && statSync(commonDir).uid !== process.getuid()) return askGit();
        return bindingOf(commonDir, dir);
      } catch {
        return askGit();
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return USER_SCOPE;
    try {
      if (statSync(parent).dev !== device) return askGit();
    } catch {
      return askGit();
    }
    dir = parent;
  }
}

/**
 * Resolves each distinct cwd once (planning looks at many sessions of the same few directories),
 * by file reads where they suffice: a git process per directory and run was most of a small run.
 */
export function scopeResolver(): (cwd: string | null | undefined) => Scope {
  const cache = new Map<string, Scope>();
  return (cwd) => {
    if (!cwd) return USER_SCOPE;
    let scope = cache.get(cwd);
    if (!scope) cache.set(cwd, (scope = resolveScopeQuickly(cwd)));
    return scope;
  };
}

/** What may leave memory-state: the keys and digests, never a path. */
/** What memory-state keeps of a project scope to name and find its worktree (null for the user scope). */
export function bindingRecord(
  scope: Scope,
): { rootRealpath: string; rootRealpathDigest: string; device: string; inode: string } | null {
  return scope.scope === 'project'
    ? {
        rootRealpath: scope.rootRealpath,
        rootRealpathDigest: scope.rootRealpathDigest,
        device: scope.commonDirectoryIdentity.device,
        inode: scope.commonDirectoryIdentity.inode,
      }
    : null;
}

export function publicScope(scope: Scope): { scope: 'project' | 'user'; repositoryKey: string; worktreeKey: string } {
  return { scope: scope.scope, repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey };
}
