// `memory assemble`: the session-start selection of a repository, written as a managed block into
// its CLAUDE.md (Claude Code) or AGENTS.md (Codex), for teammates and for hosts without our hooks.
// Only the repository's own entries go in: the file is committed and shared, and the user scope is
// private. Every byte outside the markers is kept (snapshot.ts spliceManagedBlock); the file is
// read and replaced without following a link (safe-files.ts), atomically, keeping its mode.
import { lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CmError } from '../errors.js';
import { echoed } from '../echo-text.js';
import { unifiedDiff } from '../ground/unified-diff.js';
import { withMemoryState } from '../store/memory/state-database.js';
import { resolveScope } from '../effects/repository.js';
import {
  MemoryFileError,
  memoryFileRefusalCode,
  memoryRoot,
  readMemoryFile,
  writeMemoryFile,
} from '../effects/safe-files.js';
import { spliceManagedBlock } from '../memory/snapshot.js';
import { snapshotFromState } from '../store/memory/snapshot-read.js';

export type AssembleProvider = 'claude' | 'codex';

export const ASSEMBLE_FILES: Record<AssembleProvider, string> = { claude: 'CLAUDE.md', codex: 'AGENTS.md' };

/** A CLAUDE.md / AGENTS.md is read whole; a larger one is refused, never cut. */
const INSTRUCTIONS_FILE_MAX_BYTES = 4 * 1024 * 1024;

const NOTHING_YET =
  'No approved notes for this repository yet: common-memory review → prepare → approve → promote, or write files in .common-memory/memory and run common-memory memory sync.';

export interface AssemblePlan {
  provider: AssembleProvider;
  /** The file's name in the worktree root (CLAUDE.md or AGENTS.md). */
  file: string;
  action: 'created' | 'appended' | 'replaced' | 'unchanged';
  entries: number;
  omitted: number;
  /** Unified diff of the file, before → after ("" when unchanged). */
  diff: string;
  /** Internal: where and what to write. */
  target: { anchor: string; name: string; text: string; mode: number | null };
}

export function planAssemble(memoryStatePath: string, cwd: string, provider: string | undefined): AssemblePlan {
  if (provider !== undefined && provider !== 'claude' && provider !== 'codex')
    throw new CmError('usage', `--provider must be claude (CLAUDE.md) or codex (AGENTS.md), not ${echoed(provider)}.`);
  if (provider === undefined)
    throw new CmError(
      'usage',
      'Say which file to write: --provider claude (CLAUDE.md) or --provider codex (AGENTS.md).',
    );
  const scope = resolveScope(cwd);
  if (scope.scope !== 'project')
    throw new CmError(
      'usage',
      'memory assemble writes into a repository: run it inside a git worktree (its root gets the file).',
    );
  const owner = { scope: 'project' as const, repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey };
  const snapshot = withMemoryState(
    memoryStatePath,
    () => null,
    (db) => snapshotFromState(db, [owner]),
  );
  const file = ASSEMBLE_FILES[provider];
  const root = memoryRoot(dirname(scope.rootRealpath), basename(scope.rootRealpath));
  const anchor = scope.rootRealpath;
  let existing: string | null = null;
  let mode: number | null = null;
  try {
    const read = readMemoryFile(root, file, INSTRUCTIONS_FILE_MAX_BYTES);
    if (read) {
      existing = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
      mode = lstatSync(join(anchor, file)).mode & 0o777;
    }
  } catch (error) {
    if (error instanceof MemoryFileError) throw new CmError(memoryFileRefusalCode(error), `${file}: ${error.message}.`);
    if (error instanceof TypeError) throw new CmError('invalid_input', `${file} is not valid UTF-8; fix it and retry.`);
    throw error;
  }
  const content = snapshot && snapshot.text !== '' ? snapshot.text : NOTHING_YET;
  const spliced = spliceManagedBlock(existing, content, file);
  if (!spliced.ok) throw new CmError('invalid_input', spliced.message);
  return {
    provider,
    file,
    action: spliced.action,
    entries: snapshot?.entryIds.length ?? 0,
    omitted: snapshot?.omitted ?? 0,
    diff: spliced.action === 'unchanged' ? '' : unifiedDiff(existing ?? '', spliced.text, `a/${file}`, `b/${file}`),
    target: { anchor, name: file, text: spliced.text, mode },
  };
}

/** Writes the plan's file (nothing when unchanged). */
export function applyAssemble(plan: AssemblePlan): void {
  if (plan.action === 'unchanged') return;
  const { anchor, name, text, mode } = plan.target;
  try {
    writeMemoryFile(memoryRoot(dirname(anchor), basename(anchor)), name, new TextEncoder().encode(text), {
      fileMode: mode ?? 0o644,
      directoryMode: 0o755,
    });
  } catch (error) {
    if (error instanceof MemoryFileError) throw new CmError(memoryFileRefusalCode(error), `${name}: ${error.message}.`);
    throw error;
  }
}
