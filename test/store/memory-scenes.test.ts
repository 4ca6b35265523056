// Scenes in the projection (memory-state v13) in process, on real files: the scan reads scene files
// with the entries and the sync keeps them with the ids that are approved entries of their scope;
// an unchanged scene file is taken from the projection, not read again; the snapshot read, `get`
// and search answer from the rows alone.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decodePreviousScan, scanApprovedRoot } from '../../source/effects/approved-projection.js';
import { memoryRootOf } from '../../source/effects/memory-root.js';
import { sleepSync } from '../../source/ground/sleep-sync.js';
import { MEMORY_SCAN_RACY_MS } from '../../source/limits.js';
import { blockedFileProblem } from '../../source/memory/file-lint.js';
import { formatConsolidationFile } from '../../source/memory/consolidation/scene-format.js';
import { followApproved } from '../../source/store/memory/approved-follow.js';
import { readProjection, storedEntriesByPath, storedScenesByPath } from '../../source/store/memory/approved-sync.js';
import { readScene, SCENE_BODIES_MAX_BYTES, searchScenes } from '../../source/store/memory/scene-reads.js';
import { readSnapshotScenes, snapshotFromState } from '../../source/store/memory/snapshot-read.js';
import { openMemoryStateReadOnly } from '../../source/store/memory/state-database.js';
import { tempHome } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';

const owner = { scope: 'project' as const, repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };

function setUp(label: string) {
  const home = tempHome(label);
  mkdirSync(home, { recursive: true });
  const worktree = join(home, '..', 'worktree');
  const root = projectRoot(worktree);
  // Bodies of 2 KiB: the scene's bodies pass SCENE_BODIES_MAX_BYTES before its 20th entry.
  for (let i = 0; i < 20; i++)
    writeEntry(root, `ci-${i}`, `CI rule ${i}`, `Rule ${i} for the pipeline.\n${'detail '.repeat(290)}\n`);
  writeEntry(root, 'other', 'Unrelated', 'Nothing to do with CI.');
  mkdirSync(join(root, 'scenes'), { recursive: true });
  const scene = (name: string, title: string, entries: string[], summary: string) =>
    writeFileSync(
      join(root, 'scenes', `${name}.md`),
      formatConsolidationFile({
        kind: 'scene',
        name,
        title,
        appliesWhen: 'editing CI',
        entries,
        extra: [],
        body: summary,
      }),
    );
  scene(
    'ci-pipeline',
    'The CI pipeline',
    [...Array.from({ length: 20 }, (_, i) => `ci-${i}`), 'gone'],
    'How CI runs.\n',
  );
  scene('empty-one', 'Nothing approved', ['gone'], 'Names only a retired entry.\n');
  return {
    statePath: join(home, 'memory-state.sqlite'),
    root,
    scene,
    target: { owner, root: () => memoryRootOf('project', worktree) },
  };
}

describe('scenes in the projection', () => {
  it('are stored with the ids that are approved, and read back by snapshot, get and search without a file', () => {
    const { statePath, target } = setUp('scenes-store');
    const followed = followApproved(statePath, [target], { budgetMs: 10_000, lintFile: blockedFileProblem });
    assert.deepEqual(followed.partial, []);
    const state = openMemoryStateReadOnly(statePath)!;
    try {
      const stored = [...storedScenesByPath(state.db, owner).values()].map((s) => [s.name, s.entries.length]);
      assert.deepEqual(stored.sort(), [
        ['ci-pipeline', 21],
        ['empty-one', 1],
      ]);
      // The snapshot reads only scenes that hold an approved entry.
      const scenes = readSnapshotScenes(state.db, [owner]);
      assert.deepEqual(
        scenes.map((s) => [s.sceneId, s.entryIds.length]),
        [['scene:ci-pipeline', 20]],
      );
      // 21 entries with 2 KiB bodies pass a 2 KiB budget: the scene is indexed.
      const snapshot = snapshotFromState(state.db, [owner], 2048, 'cm');
      assert.deepEqual(snapshot.scenes, ['scene:ci-pipeline']);
      assert.match(snapshot.text, /- \[scene:ci-pipeline\] \(project scene, 20 notes\) title: "The CI pipeline"/);
      assert.ok(snapshot.bytes <= 2048);
      const scene = readScene(state.db, [owner], 'scene:ci-pipeline')!;
      assert.equal(scene.entries.length, 20);
      assert.deepEqual(scene.missing, ['gone']);
      const bodies = scene.entries.filter((e) => e.body !== undefined);
      assert.ok(bodies.length > 0 && bodies.length < 20, `${bodies.length} bodies`);
      assert.equal(scene.bodiesLeftOut, 20 - bodies.length);
      assert.ok(bodies.reduce((sum, e) => sum + Buffer.byteLength(e.body!), 0) <= SCENE_BODIES_MAX_BYTES);
      assert.equal(readScene(state.db, [owner], 'ci-0'), undefined, 'an entry id is not a scene id');
      assert.deepEqual(
        searchScenes(state.db, [owner], 'pipeline', 5).map((h) => h.sceneId),
        ['scene:ci-pipeline'],
      );
      assert.deepEqual(searchScenes(state.db, [owner], 'the and', 5), [], 'common words match nothing');
      assert.deepEqual(
        searchScenes(state.db, [owner], 'retired', 5),
        [],
        'a scene with no approved entry is not found',
      );
    } finally {
      state.db.close();
    }
  });

  it('takes an unchanged scene file from the projection and reads a changed one', () => {
    const { statePath, root, scene, target } = setUp('scenes-reuse');
    // Files written well before the first reading: none is "racily clean" to the next one.
    sleepSync(MEMORY_SCAN_RACY_MS + 100);
    followApproved(statePath, [target], { budgetMs: 10_000, lintFile: blockedFileProblem });
    sleepSync(MEMORY_SCAN_RACY_MS + 100);
    scene('empty-one', 'Now about CI', ['ci-0'], 'Changed.\n');
    const state = openMemoryStateReadOnly(statePath)!;
    const reads: string[] = [];
    try {
      const previous = decodePreviousScan(readProjection(state.db, owner)!.scan_json!)!;
      const stored = storedScenesByPath(state.db, owner);
      const scan = scanApprovedRoot(memoryRootOf('project', join(root, '..', '..')), 'project', {
        previous,
        known: () => undefined,
        knownScene: (path, digest) => (stored.get(path)?.contentDigest === digest ? stored.get(path) : undefined),
        afterRead: (path) => reads.push(path),
      });
      assert.equal(scan.coverage, 'complete');
      assert.ok(reads.includes('scenes/empty-one.md'));
      assert.ok(!reads.includes('scenes/ci-pipeline.md'), 'the unchanged scene is not read');
      assert.deepEqual(scan.scenes.map((s) => s.title).sort(), ['Now about CI', 'The CI pipeline']);
    } finally {
      state.db.close();
    }
  });

  it('a follow lints every file it reads: a scene or an entry with a secret is left out and named, the rest stand', () => {
    const { statePath, root, scene, target } = setUp('scenes-lint');
    const stored = () => {
      const state = openMemoryStateReadOnly(statePath)!;
      try {
        return {
          scenes: [...storedScenesByPath(state.db, owner).values()].map((s) => s.name).sort(),
          entries: [...storedEntriesByPath(state.db, owner).keys()].filter((p) => /ci-1\d?\.md$/.test(p)).sort(),
          leftOut: decodePreviousScan(readProjection(state.db, owner)!.scan_json!)!
            .leftOut?.map((p) => [p.path, p.kind])
            .sort(),
        };
      } finally {
        state.db.close();
      }
    };
    followApproved(statePath, [target], { budgetMs: 10_000, lintFile: blockedFileProblem });
    assert.deepEqual(stored().scenes, ['ci-pipeline', 'empty-one']);
    const token = ['gh', 'p_', 'aB3dE5fG7hJ9kL1m', 'N3pQ5rS7tU9vW1xY3zA5'].join('');
    scene('leaky', 'Leaky', ['ci-0'], `Uses ${token.slice(0, 15)}\n${token.slice(15)} in CI.\n`);
    // An entry edited by hand after it was projected: neither its new text nor its old is given.
    writeEntry(root, 'ci-1', 'CI rule 1', `The deploy key is ${token} for now.`);
    const followed = followApproved(statePath, [target], { budgetMs: 10_000, lintFile: blockedFileProblem });
    assert.deepEqual(followed.partial, [], 'a blocked file does not make the projection partial');
    const after = stored();
    assert.deepEqual(after.scenes, ['ci-pipeline', 'empty-one'], 'the blocked scene stays out');
    assert.deepEqual(
      after.entries,
      Array.from({ length: 10 }, (_, i) => `work_method/ci-1${i}.md`),
      'the blocked entry is gone from the projection, its neighbours stand',
    );
    assert.deepEqual(after.leftOut, [
      ['scenes/leaky.md', 'blocked'],
      ['work_method/ci-1.md', 'blocked'],
    ]);
  });
});
