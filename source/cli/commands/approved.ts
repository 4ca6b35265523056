// `memory sync | search | init` and `get`: the approved projection on the command line. sync goes
// to the running host or takes the lease for its own duration; search and get are reads (read-only
// without a host); init lays out a memory root and needs no store.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '../../client/connect.js';
import { CmError, EXIT } from '../../errors.js';
import { initMemoryRoot, memoryRootOf, USER_MEMORY_ROOT } from '../../effects/memory-root.js';
import { ensureHome, storeFiles } from '../../home.js';
import { previewSyncApproved } from '../../pipeline/approved-access.js';
import { resolveScope } from '../../effects/repository.js';
import { MemoryFileError, readMemoryFile } from '../../effects/safe-files.js';
import type { MemoryEntryView, MemorySearchResult, MemorySyncResult } from '../../protocol.js';
import type { Output } from '../output.js';
import { preview } from '../output.js';
import { wholeNumber } from './memory.js';

const scopesLine = (scopes: MemorySyncResult['scopes'] | MemorySearchResult['scopes']): string =>
  scopes
    .map(
      (s) => `${s.scope}: generation ${s.generation}, ${s.coverage}, ${s.entries} entr${s.entries === 1 ? 'y' : 'ies'}`,
    )
    .join('; ');

export async function memorySync(home: string, dryRun: boolean, out: Output): Promise<number> {
  if (dryRun) return memorySyncPreview(home, out);
  const connection = await connect(home, 'write');
  try {
    const result = await connection.app.memorySync({ cwd: process.cwd() });
    out.result({ ...result, dryRun: false }, () => {
      const lines = [
        `approved memory: generation ${result.generation}, coverage ${result.coverage}, ${result.entries} entries (${scopesLine(result.scopes)})`,
      ];
      for (const problem of result.problems) lines.push(`  ${problem.scope} ${problem.kind}: ${problem.message}`);
      if (result.coverage === 'partial')
        lines.push('the previous projection is kept for the partial scope(s); fix the files above and sync again');
      return lines.join('\n');
    });
    // Partial: work remains (a file to fix or a change to catch up with).
    return result.coverage === 'complete' ? EXIT.ok : EXIT.incomplete;
  } finally {
    await connection.close();
  }
}

/** `memory sync --dry-run`: the scan and what it would change, here and read-only (no host, no lease, no store). */
function memorySyncPreview(home: string, out: Output): number {
  const preview = previewSyncApproved(storeFiles(home).memoryState, home, process.cwd());
  const entries = (n: number) => `${n} entr${n === 1 ? 'y' : 'ies'}`;
  out.result({ ...preview, dryRun: true }, () => {
    const lines = ['Dry run — nothing was stored.'];
    for (const s of preview.scopes) {
      if (s.outcome === 'unchanged')
        lines.push(`${s.scope}: unchanged (${entries(s.entries)}, generation ${s.generation})`);
      else if (s.outcome === 'partial')
        lines.push(
          `${s.scope}: partial — the projection (${entries(s.current.entries)}) would be kept; fix the files below`,
        );
      else
        lines.push(
          `${s.scope}: would replace ${entries(s.current.entries)} with ${s.entries} (generation ${s.current.generation} → ${s.generation})`,
        );
    }
    for (const problem of preview.problems) lines.push(`  ${problem.scope} ${problem.kind}: ${problem.message}`);
    return lines.join('\n');
  });
  return preview.coverage === 'complete' ? EXIT.ok : EXIT.incomplete;
}

export async function memorySearch(
  home: string,
  words: string[],
  limit: string | undefined,
  out: Output,
): Promise<number> {
  const query = words.join(' ');
  if (query.trim() === '')
    throw new CmError('usage', 'Give words to search for, e.g. common-memory memory search "release checklist".');
  const connection = await connect(home, 'read');
  try {
    const result = await connection.app.memorySearch({
      query,
      cwd: process.cwd(),
      limit: wholeNumber(limit, '--limit'),
    });
    out.result(result, () => {
      const lines = result.results.map((r) => `${r.entryId}  ${r.scope.padEnd(7)} ${r.path}  ${preview(r.title, 60)}`);
      if (lines.length === 0) lines.push('no approved memory matches');
      lines.push(
        `(generation ${result.generation}, coverage ${result.coverage}${result.coverage === 'partial' ? ': run common-memory memory sync' : ''})`,
      );
      return lines.join('\n');
    });
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

export async function runGet(home: string, entryId: string | undefined, out: Output): Promise<number> {
  if (!entryId)
    throw new CmError('usage', 'Give an entry id, e.g. common-memory get use-pnpm (memory search lists them).');
  const connection = await connect(home, 'read');
  try {
    const entry: MemoryEntryView = await connection.app.memoryGet({ entryId, cwd: process.cwd() });
    out.result(entry, () =>
      [
        `${entry.id}: ${preview(entry.title, 100)}`,
        ...(entry.appliesWhen ? [`applies when: ${preview(entry.appliesWhen, 100)}`] : []),
        `sources: ${entry.sources.map((s) => `${s.scope}:${s.path}`).join(', ')}`,
        `sha256 ${entry.contentDigest}`,
        '',
        entry.body,
      ].join('\n'),
    );
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

/**
 * Lays out the memory root of the chosen scope (default: this worktree's, or the user's outside
 * git). With `dryRun` nothing is created, the data home included: it says where the root is and
 * whether its README would be written.
 */
export async function memoryInit(
  home: string,
  scopeFlag: string | undefined,
  dryRun: boolean,
  out: Output,
): Promise<number> {
  if (scopeFlag !== undefined && scopeFlag !== 'project' && scopeFlag !== 'user')
    throw new CmError('usage', '--scope must be project or user.');
  const binding = resolveScope(process.cwd());
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
      const readmeWritten = root === null || readMemoryFile(root, 'README.md', 64 * 1024) === null;
      out.result(
        { scope, path, readmeWritten: false, wouldWriteReadme: readmeWritten, dryRun: true },
        () =>
          `Dry run — nothing was written. The ${scope} memory root is ${path}; ${readmeWritten ? 'memory init would write its README.md' : 'it is already laid out (memory init would keep its README.md)'}.`,
      );
      return EXIT.ok;
    }
    if (scope === 'user') ensureHome(home);
    const root = memoryRootOf(scope, anchor);
    const { readmeWritten } = initMemoryRoot(root, scope);
    const path = [root.anchor, ...root.parts].join('/');
    out.result(
      { scope, path, readmeWritten, dryRun: false },
      () =>
        `${scope} memory root: ${path}${readmeWritten ? ' (README.md written)' : ' (already laid out; README.md kept)'}`,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof MemoryFileError) throw new CmError('invalid_input', `${error.message}; nothing was written.`);
    throw error;
  }
}
