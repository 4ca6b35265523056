// Whether a directory is inside a git worktree, found with a few file reads (no git process in the
// plain case): `memory status` verifies the entries of the worktree it runs in, and outside one it
// stays a read that takes no lease.
import { resolveScopeQuickly } from '../effects/repository.js';

export const insideWorktree = (cwd: string): boolean => resolveScopeQuickly(cwd).scope === 'project';
