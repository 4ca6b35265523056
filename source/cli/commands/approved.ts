// `memory sync | search | init` and `get`: the approved projection on the command line. sync goes
// to the running host or takes the lease for its own duration; search and get are reads (read-only
// without a host); init lays out a memory root and needs no store.
import { usageLine } from '../../screens/memory/usage-lines.js';
import { connect } from '../../client/connect.js';
import { previewSyncIn } from '../../client/local-memory.js';
import { initMemoryRootIn } from '../../client/memory-files.js';
import { CmError, EXIT } from '../../errors.js';
import type { MemoryEntryView, MemorySearchResult, MemorySyncResult } from '../../api/memory-views.js';
import { staleClaimPlace } from '../../memory/staleness.js';
import { visibleText } from '../../memory/visible-text.js';
import type { Output } from '../output.js';
import { fitLine, fitLines, preview } from '../output.js';
import { codePointColumns, textColumns } from '../../text-columns.js';
import { pageLimitFlag } from '../parse.js';
import { RESULTS_LIMIT_MAX } from '../../limits.js';
import { checkEntryIdArgument } from './entry-id.js';
import { counted } from '../../ground/count-text.js';

const scopesLine = (scopes: MemorySyncResult['scopes'] | MemorySearchResult['scopes']): string =>
  scopes
    .map((s) => `${s.scope}: generation ${s.generation}, ${s.coverage}, ${counted(s.entries, 'entry', 'entries')}`)
    .join('; ');

export async function memorySync(home: string, dryRun: boolean, out: Output): Promise<number> {
  if (dryRun) return memorySyncPreview(home, out);
  const connection = await connect(home, 'write');
  try {
    const result = await connection.app.memorySync({ cwd: process.cwd() });
    out.result({ ...result, dryRun: false }, () => {
      const lines = [
        `approved memory: generation ${result.generation}, coverage ${result.coverage}, ${counted(result.entries, 'entry', 'entries')} (${scopesLine(result.scopes)})`,
      ];
      for (const problem of result.problems) lines.push(`  ${problem.scope} ${problem.kind}: ${problem.message}`);
      if (result.coverage === 'partial')
        lines.push('the previous projection is kept for the partial scope(s); fix the files above and sync again');
      const anchors = result.anchors;
      // The run checks this worktree's entries against it and the user entries against the home
      // directory, counted together; outside git only the latter ran, and there is no worktree.
      const against = result.scopes.some((s) => s.scope === 'project')
        ? 'this worktree (user entries: your home directory)'
        : 'your home directory (user entries)';
      if (anchors?.state === 'verified')
        lines.push(
          `verified against ${against}: ${anchors.stale} of ${anchors.entries} entr${anchors.entries === 1 ? 'y' : 'ies'} stale${anchors.stale > 0 ? ' (memory search marks them; the session snapshot leaves them out)' : ''}`,
        );
      else if (anchors?.state === 'failed') lines.push(`verification failed: ${anchors.reason}`);
      return fitLines(lines.join('\n'));
    });
    // Partial: work remains (a file to fix or a change to catch up with).
    return result.coverage === 'complete' ? EXIT.ok : EXIT.incomplete;
  } finally {
    await connection.close();
  }
}

/** `memory sync --dry-run`: the scan and what it would change, here and read-only (no host, no lease, no store). */
function memorySyncPreview(home: string, out: Output): number {
  const preview = previewSyncIn(home, process.cwd());
  const entries = (n: number) => counted(n, 'entry', 'entries');
  // No entry in the files and none stored: a sync would only record an empty first generation.
  const empty = (s: (typeof preview.scopes)[number]) =>
    s.outcome === 'replaced' && s.entries === 0 && s.current.entries === 0;
  out.result({ ...preview, dryRun: true }, () => {
    const lines = [
      preview.scopes.every(empty)
        ? 'Dry run — nothing was stored. Nothing to sync: no memory file holds an approved entry, and none is stored. Entries come from candidates you promote: run common-memory memory review.'
        : 'Dry run — nothing was stored.',
    ];
    for (const s of preview.scopes) {
      if (empty(s)) lines.push(`${s.scope}: nothing to sync (no entries in its memory files, none stored)`);
      else if (s.outcome === 'unchanged')
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
    return fitLines(lines.join('\n'), '  ', ['common-memory memory review']);
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
  const results = pageLimitFlag(limit, RESULTS_LIMIT_MAX);
  const connection = await connect(home, 'read');
  try {
    const result = await connection.app.memorySearch({ query, cwd: process.cwd(), limit: results });
    out.result(result, () => {
      // Fits 80 columns: the id, scope and title, wrapped under the title; the path on a line of
      // its own below (a slug can make it wider than a line, and a cut path cannot be copied).
      const lines = result.results.flatMap((r) => {
        const head = `${r.entryId}  ${r.scope.padEnd(7)} `;
        const kind =
          r.kind === 'scene'
            ? `[scene of ${r.entries ?? 0} notes] `
            : r.kind === 'doctrine'
              ? `[doctrine citing ${r.entries ?? 0} notes] `
              : '';
        return [
          ...fitLine(`${head}${kind}${preview(r.title, 60)}`, ' '.repeat(textColumns(head))),
          `  ${r.path}`,
          ...(r.stale ? fitLine(`  ${preview(r.staleNote ?? 'may be stale', Number.MAX_SAFE_INTEGER)}`) : []),
        ];
      });
      if (lines.length === 0) lines.push('no approved memory matches');
      // A plan stopped part-way is finished by promote, not by sync (which lists every file left out).
      const sync = result.coverage === 'partial' && !result.unfinishedPlan ? ': run common-memory memory sync' : '';
      lines.push(`(generation ${result.generation}, coverage ${result.coverage}${sync})`);
      if (result.coverage === 'partial') lines.push(partialLine(result));
      return lines.join('\n');
    });
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

/**
 * Why coverage is partial, as --json's `reason` says it, in one line of at most 80 columns: a plan
 * stopped part-way by the command that finishes it (the reason itself is longer than a line);
 * any other reason cut to fit, the whole of it in --json and in memory sync.
 */
function partialLine(result: MemorySearchResult): string {
  if (result.unfinishedPlan) return `partial: a plan stopped part-way; run memory promote ${result.unfinishedPlan}`;
  return fitColumns(`partial: ${visibleText(result.reason ?? 'the memory files could not all be read')}`, 80);
}

/** `text` cut to at most `width` terminal columns, ending in … when cut. */
function fitColumns(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if (textColumns(flat) <= width) return flat;
  let cut = '';
  let columns = 0;
  for (const char of flat) {
    columns += codePointColumns(char);
    if (columns > width - 1) break;
    cut += char;
  }
  return `${cut}…`;
}

export async function runGet(home: string, entryId: string | undefined, out: Output): Promise<number> {
  // Whitespace only is no id (the read trims one): refused before any store is opened.
  if (!entryId?.trim())
    throw new CmError('usage', 'Give an entry id, e.g. common-memory get use-pnpm (memory search lists them).');
  checkEntryIdArgument(entryId, '');
  const connection = await connect(home, 'read');
  try {
    const entry: MemoryEntryView = await connection.app.memoryGet({ entryId, cwd: process.cwd() });
    out.result(entry, () =>
      [
        `${entry.id}: ${preview(entry.title, 100)}`,
        ...(entry.scene
          ? [
              `scene of ${entry.scene.entries.length} note${entry.scene.entries.length === 1 ? '' : 's'} (get <id> reads one)`,
            ]
          : []),
        ...(entry.doctrine
          ? [
              `doctrine citing ${entry.doctrine.cites.length} note${entry.doctrine.cites.length === 1 ? '' : 's'} (get <id> reads one)`,
            ]
          : []),
        ...(entry.appliesWhen ? [`applies when: ${preview(entry.appliesWhen, 100)}`] : []),
        ...(entry.doctrine && entry.stale
          ? [
              'NOT GIVEN AS TRUE: the notes it rests on changed since it was written:',
              ...entry.doctrine.basisChanged.map((change) => `  - ${preview(change, 100)}`),
            ]
          : []),
        ...(entry.stale && !entry.doctrine
          ? [
              `STALE: a claim it makes about ${staleClaimPlace(entry.sources.slice(0, 1).map((s) => s.scope))} does not hold:`,
              ...(entry.failedAnchors ?? []).map((failed) => `  - ${preview(failed.reason, 100)}`),
            ]
          : []),
        `sources: ${entry.sources.map((s) => `${s.scope}:${s.path}`).join(', ')}`,
        `sha256 ${entry.contentDigest}`,
        ...(entry.usage ? [usageLine(entry.usage)] : []),
        '',
        visibleText(entry.body),
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
  const result = initMemoryRootIn(home, process.cwd(), scopeFlag, dryRun);
  const { scope, path } = result;
  // The root's path on a line of its own when it does not fit the 80 columns, with no sign stuck to
  // it: a ';' after it went with the path a person copied.
  out.result(result, () =>
    fitLines(
      result.dryRun
        ? `Dry run — nothing was written. The ${scope} memory root is ${path} ${result.wouldWriteReadme ? 'and memory init would write its README.md' : 'and is already laid out (memory init would keep its README.md)'}.`
        : `${scope} memory root: ${path}${result.readmeWritten ? ' (README.md written)' : ' (already laid out; README.md kept)'}`,
      '',
    ),
  );
  return EXIT.ok;
}
