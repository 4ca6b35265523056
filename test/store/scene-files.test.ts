// Reading a memory root's scene files on a real file system: scenes are parsed, and anything that
// is not a readable scene — a link, a malformed file, a doctrine, a name that is not its file's —
// is left out and named, never followed or guessed at.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { memoryRootOf } from '../../source/effects/memory-root.js';
import { readSceneFiles } from '../../source/effects/scene-files.js';
import { sha256Hex } from '../../source/ground/digests.js';

describe('scene files of a memory root', () => {
  it('reads scenes and names every file it leaves out', () => {
    const anchor = mkdtempSync(join(tmpdir(), 'cm-scene-files-'));
    try {
      const root = memoryRootOf('user', anchor);
      assert.deepEqual(readSceneFiles(root, 'user'), { scenes: [], problems: [] }, 'no scenes directory: nothing');
      const scenes = join(anchor, 'memory', 'scenes');
      mkdirSync(scenes, { recursive: true });
      const good = '---\nscene: testing\ntitle: Tests\nentries: ["a", "b"]\n---\nHow we test.\n';
      writeFileSync(join(scenes, 'testing.md'), good);
      writeFileSync(join(scenes, 'broken.md'), '---\nscene: broken\ntitle: x\n---\n');
      writeFileSync(join(scenes, 'principle.md'), '---\ndoctrine: principle\ntitle: x\ncites: ["a"]\n---\n');
      writeFileSync(join(scenes, 'other-name.md'), '---\nscene: renamed\ntitle: x\nentries: []\n---\n');
      writeFileSync(join(anchor, 'outside.md'), good);
      symlinkSync(join(anchor, 'outside.md'), join(scenes, 'linked.md'));
      writeFileSync(join(scenes, 'notes.txt'), 'not a scene file');
      const read = readSceneFiles(root, 'user');
      assert.deepEqual(
        read.scenes.map((scene) => [scene.path, scene.contentDigest, scene.parsed.file.name]),
        [['scenes/testing.md', sha256Hex(good), 'testing']],
      );
      assert.deepEqual(read.problems, [
        'scenes/broken.md:4: `entries` is required: an array of entry ids',
        'scenes/linked.md: a symbolic link; links are never followed',
        'scenes/other-name.md: its `scene` is "renamed"; the file is named <scene>.md',
        'scenes/principle.md: a doctrine file in scenes/',
      ]);
    } finally {
      rmSync(anchor, { recursive: true, force: true });
    }
  });

  it('names a blocked scene with the path memory lint takes where a person runs it', () => {
    const anchor = mkdtempSync(join(tmpdir(), 'cm-scene-files-'));
    try {
      const token = ['gh', 'p_', 'aB3dE5fG7hJ9kL1m', 'N3pQ5rS7tU9vW1xY3zA5'].join('');
      const leaky = `---\nscene: leaky\ntitle: CI\nentries: ["a"]\n---\nCI reads ${token}.\n`;
      for (const scope of ['project', 'user'] as const) {
        const root = memoryRootOf(scope, anchor);
        const scenes = join(anchor, ...(scope === 'project' ? ['.common-memory', 'memory'] : ['memory']), 'scenes');
        mkdirSync(scenes, { recursive: true });
        writeFileSync(join(scenes, 'leaky.md'), leaky);
        const [problem] = readSceneFiles(root, scope).problems;
        // From the worktree's root for a project file; whole for the data home's user root.
        const named = scope === 'project' ? '.common-memory/memory/scenes/leaky.md' : join(scenes, 'leaky.md');
        assert.ok(problem?.endsWith(`(common-memory memory lint ${named})`), problem);
        assert.ok(problem !== undefined);
        assert.ok(!problem.includes(token.slice(4, 20)), 'masked');
      }
    } finally {
      rmSync(anchor, { recursive: true, force: true });
    }
  });
});
