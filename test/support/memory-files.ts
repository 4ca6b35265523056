// Approved entries as canonical Markdown files, the way a person or `promote` leaves them in a
// memory root: what memory tests write before `memory sync` projects them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { formatEntry, type MemoryEntry } from '../../source/memory/entry-format.js';

export interface EntryOptions {
  type?: MemoryEntry['type'];
  priority?: number;
  appliesWhen?: string | null;
}

/** The canonical text of an entry (formatEntry), with the fields a test rarely cares about filled in. */
export function entryText(id: string, title: string, body: string, options: EntryOptions = {}): string {
  const entry: MemoryEntry = {
    id,
    type: options.type ?? 'work_method',
    title,
    appliesWhen: options.appliesWhen === undefined ? 'working in this repository' : options.appliesWhen,
    priority: options.priority ?? 50,
    confidence: 'high',
    evidence: { summary: 'written by the test' },
    created: '2026-11-30',
    supersedes: [],
    extra: [],
    body,
  };
  return formatEntry(entry);
}

/** Writes the entry as `<root>/<type>/<id>.md`. */
export function writeEntry(root: string, id: string, title: string, body: string, options: EntryOptions = {}): void {
  const path = join(root, options.type ?? 'work_method', `${id}.md`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, entryText(id, title, body, options));
}

/** The project memory root of a worktree and the user memory root of a data home. */
export const projectRoot = (worktree: string) => join(worktree, '.common-memory', 'memory');
export const userRoot = (home: string) => join(home, 'memory');

/** The line of an entry that names a file and a script of its repository (anchor verification tests). */
export const LEGACY_CONFIG_LINE =
  'Configuration is loaded by `src/legacy/config.ts`; run `pnpm run lint:legacy` after editing it.';

/**
 * Writes, in the git worktree `repo`, the file and the script an entry `legacyId` names
 * (LEGACY_CONFIG_LINE) and an entry `keptId` that names nothing, and commits them: removing
 * `src/legacy/config.ts` and the script makes `legacyId` stale.
 */
export function writeLegacyConfigRepository(
  repo: string,
  commit: (...args: string[]) => unknown,
  entries: { legacyId: string; legacyTitle: string; keptId: string },
): void {
  mkdirSync(join(repo, 'src', 'legacy'), { recursive: true });
  writeFileSync(join(repo, 'src', 'legacy', 'config.ts'), 'export function loadConfig() {}\n');
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: { 'lint:legacy': 'true' } }));
  writeEntry(projectRoot(repo), entries.legacyId, entries.legacyTitle, LEGACY_CONFIG_LINE);
  writeEntry(projectRoot(repo), entries.keptId, 'Keep reviews small', 'Keep each review under 400 lines.');
  commit('add', '--all');
  commit('commit', '-q', '-m', 'start');
}

/**
 * The approved entries the consolidation tests share: jest, vitest (which supersedes jest: a
 * retirement), three migration rules (a scene) and, with `duplicates`, two wordings of one CI rule
 * (a merge).
 */
export function writeConsolidationEntries(root: string, options: { duplicates?: boolean } = {}): void {
  writeEntry(root, 'jest', 'Run the unit tests with jest', 'Use `pnpm jest` for the unit suite.');
  const vitest = entryText(
    'vitest',
    'Vitest runs the unit suite now',
    'The unit suite moved from jest to vitest.\n',
  ).replace('created: "2026-11-30"\n', 'created: "2026-11-30"\nsupersedes: ["jest"]\n');
  writeFileSync(join(root, 'work_method', 'vitest.md'), vitest);
  writeEntry(
    root,
    'mig-1',
    'Migrations are plain SQL files',
    'Write each database migration by hand in migrations/*.sql.',
  );
  writeEntry(
    root,
    'mig-2',
    'Never edit a merged migration',
    'A database migration in migrations/ is never edited once merged.',
  );
  writeEntry(
    root,
    'mig-3',
    'Fix a migration with a new migration',
    'A broken database migration in migrations/ gets a follow-up migration.',
  );
  if (!options.duplicates) return;
  writeEntry(
    root,
    'ci-1',
    'CI lints with biome before the unit tests',
    'The CI workflow runs `pnpm biome check` and then the unit tests.',
  );
  writeEntry(root, 'ci-2', 'Biome lint runs in CI before tests', 'CI runs `pnpm biome check` before the unit tests.');
}

/**
 * Makes `directory` unwritable (on) or writable again (off), for the user running the tests: root
 * ignores permission bits, so as root the immutable attribute stops it instead.
 */
export function lockDirectory(directory: string, on: boolean): void {
  if (process.getuid?.() === 0) execFileSync('chattr', [on ? '+i' : '-i', directory]);
  else execFileSync('chmod', [on ? '0555' : '0755', directory]);
}
