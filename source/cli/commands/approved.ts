// `memory sync | search | init` and `get`: the approved projection on the command line. sync goes
// to the running host or takes the lease for its own duration; search and get are reads (read-only
// without a host); init lays out a memory root and needs no store.
import { mkdirSync } from 'node:fs';
import { connect } from '../../client/connect.js';
import { CmError, EXIT } from '../../errors.js';
import { initMemoryRoot, memoryRootOf } from '../../memory/memory-root.js';
import { resolveScope } from '../../memory/repository.js';
import { MemoryFileError } from '../../memory/safe-files.js';
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

export async function memorySync(home: string, out: Output): Promise<number> {
  const connection = await connect(home, 'write');
  try {
    const result = await connection.app.memorySync({ cwd: process.cwd() });
    out.result(result, () => {
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

/** Lays out the memory root of the chosen scope (default: this worktree's, or the user's outside git). */
export async function memoryInit(home: string, scopeFlag: string | undefined, out: Output): Promise<number> {
  if (scopeFlag !== undefined && scopeFlag !== 'project' && scopeFlag !== 'user')
    throw new CmError('usage', '--scope must be project or user.');
  const binding = resolveScope(process.cwd());
  const scope = scopeFlag ?? binding.scope;
  if (scope === 'project' && binding.scope !== 'project') {
    throw new CmError(
      'usage',
      'The project scope needs a git worktree: run memory init inside one, or use --scope user.',
    );
  }
  const anchor = binding.scope === 'project' && scope === 'project' ? binding.rootRealpath : home;
  if (scope === 'user') mkdirSync(home, { recursive: true, mode: 0o700 });
  try {
    const root = memoryRootOf(scope as 'project' | 'user', anchor);
    const { readmeWritten } = initMemoryRoot(root, scope as 'project' | 'user');
    const path = [root.anchor, ...root.parts].join('/');
    out.result(
      { scope, path, readmeWritten },
      () =>
        `${scope} memory root: ${path}${readmeWritten ? ' (README.md written)' : ' (already laid out; README.md kept)'}`,
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof MemoryFileError) throw new CmError('invalid_input', `${error.message}; nothing was written.`);
    throw error;
  }
}
