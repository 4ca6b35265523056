// Where approved memory lives: per scope, a memory root below a trusted anchor, and what
// `memory init` lays out there. The project root is committed by the user with git and shared
// with teammates; the user root is private (0600 files, 0700 directories) in the data home.

import { type MemoryRoot, memoryRoot, readMemoryFile, type WriteOptions, writeMemoryFile } from './safe-files.js';

export type MemoryScopeName = 'project' | 'user';

/** The project memory root, relative to the worktree's root. */
export const PROJECT_MEMORY_ROOT = '.common-memory/memory';
/** The user memory root, relative to the data home. */
export const USER_MEMORY_ROOT = 'memory';

/** The memory root of a scope: `anchor` is the worktree's root (project) or the data home (user). */
export const memoryRootOf = (scope: MemoryScopeName, anchor: string): MemoryRoot =>
  memoryRoot(anchor, scope === 'project' ? PROJECT_MEMORY_ROOT : USER_MEMORY_ROOT);

/** File and directory modes per scope: the user scope is private; project files are committed and shared. */
export const writeModesFor = (scope: MemoryScopeName): Pick<WriteOptions, 'fileMode' | 'directoryMode'> =>
  scope === 'user' ? { fileMode: 0o600, directoryMode: 0o700 } : { fileMode: 0o644, directoryMode: 0o755 };

export const MEMORY_ROOT_README = `# Reviewed memory for coding agents

Each file here is one note that a person reviewed and approved with common-memory
(\`common-memory memory review\`, \`prepare\`, \`approve\`, \`promote\`). Agents working in this
repository receive the highest-priority notes when a session starts, as reference data.

- \`<type>/<slug>.md\`: type is work_fact, work_task, work_method or work_artifact.
- The file starts with a frontmatter block between \`---\` lines: one \`key: value\` per field, the
  value in JSON (a string may go without quotes; arrays and objects may span lines). Fields: id,
  type, title, appliesWhen, priority (0-100), confidence, evidence, created, supersedes. Then the
  note itself in Markdown.
- Edit, add or delete files by hand as you like; keep \`id\` stable. \`common-memory memory sync\`
  picks up the change and reports a malformed file with its line.
- common-memory never commits: review the change and commit it with git.
`;

/** Lays out an empty memory root with its README (kept if it exists). Returns whether the README was written. */
export function initMemoryRoot(root: MemoryRoot, scope: MemoryScopeName): { readmeWritten: boolean } {
  if (readMemoryFile(root, 'README.md', 64 * 1024)) return { readmeWritten: false };
  writeMemoryFile(root, 'README.md', new TextEncoder().encode(MEMORY_ROOT_README), writeModesFor(scope));
  return { readmeWritten: true };
}
