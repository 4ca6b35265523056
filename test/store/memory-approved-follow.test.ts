// The projection following the files (approved-follow.ts) in process: a change is read
// incrementally (only the changed file), a bound that is hit keeps the previous projection and
// says why, the hook's large-root bound trusts settled directories, and the host's watcher follows
// a burst of changes once, after it settles.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decodePreviousScan, type FileLint, scanApprovedRoot } from '../../source/effects/approved-projection.js';
import { formatConsolidationFile } from '../../source/memory/consolidation/scene-format.js';
import { memoryRootOf } from '../../source/effects/memory-root.js';
import { sleepSync } from '../../source/ground/sleep-sync.js';
import { MEMORY_SCAN_RACY_MS } from '../../source/limits.js';
import { MemoryRootWatcher } from '../../source/host/memory-watch.js';
import { type FollowTarget, followApproved } from '../../source/store/memory/approved-follow.js';
import { readProjection, storedEntriesByPath } from '../../source/store/memory/approved-sync.js';
import { openMemoryStateReadOnly } from '../../source/store/memory/state-database.js';
import { tempHome } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { blockedFileProblem } from '../../source/memory/file-lint.js';

const owner = { scope: 'project' as const, repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };

function setUp(label: string, count: number): { statePath: string; worktree: string; target: FollowTarget } {
  const home = tempHome(label);
  mkdirSync(home, { recursive: true });
  const worktree = join(home, '..', 'worktree');
  mkdirSync(worktree, { recursive: true });
  for (let i = 0; i < count; i++) writeEntry(projectRoot(worktree), `e-${i}`, `Entry ${i}`, `Body ${i}.`);
  return {
    statePath: join(home, 'memory-state.sqlite'),
    worktree,
    target: { owner, root: () => memoryRootOf('project', worktree) },
  };
}

/** The stored entries' titles by id, read straight from memory-state (no follow). */
function storedTitles(statePath: string): Record<string, string> {
  const state = openMemoryStateReadOnly(statePath)!;
  try {
    const titles: Record<string, string> = {};
    for (const entry of storedEntriesByPath(state.db, owner).values())
      titles[entry.frontmatter['id'] as string] = entry.frontmatter['title'] as string;
    return titles;
  } finally {
    state.db.close();
  }
}

/** Files and directories older than the racy window, as in a repository committed a while ago. */
const settle = () => sleepSync(MEMORY_SCAN_RACY_MS + 50);

describe('following the memory files', () => {
  it('reads only the changed file; the others come from the projection', () => {
    const { statePath, worktree, target } = setUp('follow-incremental', 20);
    settle();
    assert.deepEqual(followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 }).partial, []);
    writeEntry(projectRoot(worktree), 'e-3', 'Entry 3 edited', 'New body.');
    rmSync(join(projectRoot(worktree), 'work_method', 'e-4.md'));

    const state = openMemoryStateReadOnly(statePath)!;
    const read: string[] = [];
    let scan: ReturnType<typeof scanApprovedRoot>;
    try {
      const stored = storedEntriesByPath(state.db, owner);
      const previous = decodePreviousScan(readProjection(state.db, owner)!.scan_json!)!;
      scan = scanApprovedRoot(memoryRootOf('project', worktree), 'project', {
        previous,
        known: (path, digest) => {
          const entry = stored.get(path);
          if (!entry || entry.contentDigest !== digest) return undefined;
          const front = entry.frontmatter as Record<string, unknown>;
          return { ...front, extra: Object.entries(front['extra'] ?? {}), body: entry.body } as never;
        },
        afterRead: (path) => read.push(path),
      });
    } finally {
      state.db.close();
    }
    assert.deepEqual(read, ['work_method/e-3.md']);
    assert.equal(scan.coverage, 'complete');
    assert.equal(scan.entries.length, 19);

    const followed = followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 });
    assert.deepEqual(followed, { stored: ['project'], partial: [] });
    const titles = storedTitles(statePath);
    assert.equal(titles['e-3'], 'Entry 3 edited');
    assert.equal(titles['e-4'], undefined);
    assert.equal(Object.keys(titles).length, 19);
  });

  it('re-reads racily clean files but lints only bytes it has not stored (the hook loads no lint for them)', () => {
    const { statePath, worktree, target } = setUp('follow-racy', 4);
    mkdirSync(join(projectRoot(worktree), 'scenes'), { recursive: true });
    const scene = (summary: string) =>
      writeFileSync(
        join(projectRoot(worktree), 'scenes', 'area.md'),
        formatConsolidationFile({
          kind: 'scene',
          name: 'area',
          title: 'The area',
          appliesWhen: 'working on it',
          entries: ['e-0', 'e-1'],
          extra: [],
          body: summary,
        }),
      );
    scene('How the area is done.\n');
    const linted: string[] = [];
    const lintFile: FileLint = (path, text, lintPath) => {
      linted.push(lintPath ?? path);
      return blockedFileProblem(path, text, lintPath);
    };
    assert.deepEqual(followApproved(statePath, [target], { lintFile, budgetMs: 5000 }).partial, []);
    // Into a memory-state not made yet: the scan that finds files worth making it for is the one stored.
    assert.deepEqual(linted.toSorted(), [...new Set(linted)].sort(), 'a first reading lints each file once');
    assert.equal(new Set(linted).size, 5, 'a first reading lints every file');
    // Still within the racy window of that reading: every file is read again, none linted again.
    linted.length = 0;
    assert.deepEqual(followApproved(statePath, [target], { lintFile, budgetMs: 5000 }), { stored: [], partial: [] });
    assert.equal(linted.length, 0, linted.join(', '));
    // Bytes that changed are linted, entry and scene alike.
    writeEntry(projectRoot(worktree), 'e-2', 'Entry 2 edited', 'New body.');
    scene('How the area is done now.\n');
    followApproved(statePath, [target], { lintFile, budgetMs: 5000 });
    assert.deepEqual(linted.map((path) => path.replace(/^.*memory\//, '')).sort(), [
      'scenes/area.md',
      'work_method/e-2.md',
    ]);
    assert.equal(storedTitles(statePath)['e-2'], 'Entry 2 edited');
  });

  it('past its bound keeps the previous projection and says why; the next follow completes', () => {
    const { statePath, worktree, target } = setUp('follow-bound', 3);
    followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 });
    writeEntry(projectRoot(worktree), 'e-9', 'Entry 9', 'Body 9.');
    settle();
    const late = followApproved(statePath, [target], {
      lintFile: blockedFileProblem,
      budgetMs: -1,
      fileStampsUpTo: 1000,
    });
    assert.equal(late.partial.length, 1);
    assert.match(late.partial[0]!.reason, /took longer than allowed.*memory sync/);
    assert.equal(storedTitles(statePath)['e-9'], undefined, 'the previous projection stands');
    // The next session start does not spend its bound on the same directories again, and says why.
    const again = followApproved(statePath, [target], {
      lintFile: blockedFileProblem,
      budgetMs: 5000,
      fileStampsUpTo: 1000,
    });
    assert.match(again.partial[0]!.reason, /not all read within the time a session start allows/);
    assert.equal(storedTitles(statePath)['e-9'], undefined);
    // A read (no such bound) reads them all.
    assert.deepEqual(followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 }).partial, []);
    assert.equal(storedTitles(statePath)['e-9'], 'Entry 9');
  });

  it("above the hook's file bound, settled directories end the check; reads check every file", () => {
    const { statePath, worktree, target } = setUp('follow-large', 5);
    settle();
    followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 });
    // The directories' stamps are kept once they are older than the racy window.
    settle();
    followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 });
    appendFileSync(join(projectRoot(worktree), 'work_method', 'e-1.md'), 'Appended.\n');
    // The hook's bound (here 2 files) takes the settled directories as an unchanged root.
    assert.deepEqual(
      followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000, fileStampsUpTo: 2 }),
      {
        stored: [],
        partial: [],
      },
    );
    // A read checks every file's stamp and stores the write.
    assert.deepEqual(followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 }).stored, [
      'project',
    ]);
    // A new file changes the directory: seen within the bound too.
    writeEntry(projectRoot(worktree), 'e-7', 'Entry 7', 'Body 7.');
    assert.deepEqual(
      followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000, fileStampsUpTo: 2 }).stored,
      ['project'],
    );
    assert.equal(storedTitles(statePath)['e-7'], 'Entry 7');
  });

  it('never throws: a damaged memory-state is a reason', () => {
    const { statePath, target } = setUp('follow-damaged', 1);
    mkdirSync(statePath); // a directory where the file should be
    const followed = followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 1000 });
    assert.equal(followed.partial.length, 1);
    assert.match(followed.partial[0]!.reason, /memory-state could not be brought up to date/);
  });

  it("the host's watcher follows a burst of changes once, after it settles", async () => {
    const { statePath, worktree, target } = setUp('follow-watch', 2);
    followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 });
    const calls: string[] = [];
    const watcher = new MemoryRootWatcher((cwd) => {
      calls.push(cwd);
      return followApproved(statePath, [target], { lintFile: blockedFileProblem, budgetMs: 5000 });
    }, 150);
    try {
      watcher.watch([{ path: projectRoot(worktree), cwd: worktree }]);
      assert.deepEqual(watcher.watched(), [projectRoot(worktree)]);
      for (let i = 10; i < 15; i++) writeEntry(projectRoot(worktree), `e-${i}`, `Entry ${i}`, `Body ${i}.`);
      rmSync(join(projectRoot(worktree), 'work_method', 'e-0.md'));
      const until = Date.now() + 5000;
      while (Date.now() < until && (calls.length === 0 || Object.keys(storedTitles(statePath)).length !== 6))
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(calls.length, 1, 'one follow for the burst');
      const titles = storedTitles(statePath);
      assert.deepEqual(Object.keys(titles).sort(), ['e-1', 'e-10', 'e-11', 'e-12', 'e-13', 'e-14']);
      // A root that does not exist is not watched (the reads' own check still follows it).
      watcher.watch([{ path: join(worktree, 'nowhere'), cwd: worktree }]);
      assert.deepEqual(watcher.watched(), [projectRoot(worktree)]);
    } finally {
      watcher.close();
    }
    assert.deepEqual(watcher.watched(), []);
  });
});
