import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { scanApprovedRoot } from '../../source/effects/approved-projection.js';
import {
  initMemoryRoot,
  MEMORY_ROOT_README,
  memoryRootOf,
  PROJECT_MEMORY_ROOT,
  USER_MEMORY_ROOT,
} from '../../source/effects/memory-root.js';
import { MemoryFileError } from '../../source/effects/safe-files.js';

it('init lays out a root with a README for teammates, keeps an edited one, and the scan sees no entries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-memory-root-'));
  try {
    const worktree = join(dir, 'worktree');
    const home = join(dir, 'home');
    mkdirSync(worktree);
    mkdirSync(home);
    assert.deepEqual(initMemoryRoot(memoryRootOf('project', worktree), 'project'), { readmeWritten: true });
    assert.deepEqual(initMemoryRoot(memoryRootOf('user', home), 'user'), { readmeWritten: true });
    const projectReadme = join(worktree, PROJECT_MEMORY_ROOT, 'README.md');
    assert.equal(readFileSync(projectReadme, 'utf8'), MEMORY_ROOT_README);
    assert.equal(statSync(projectReadme).mode & 0o777, 0o644 & ~process.umask());
    assert.equal(statSync(join(home, USER_MEMORY_ROOT, 'README.md')).mode & 0o777, 0o600);
    assert.equal(statSync(join(home, USER_MEMORY_ROOT)).mode & 0o777, 0o700);

    writeFileSync(projectReadme, 'our own words\n');
    assert.deepEqual(initMemoryRoot(memoryRootOf('project', worktree), 'project'), { readmeWritten: false });
    assert.equal(readFileSync(projectReadme, 'utf8'), 'our own words\n');
    const scan = scanApprovedRoot(memoryRootOf('project', worktree), 'project');
    assert.equal(scan.coverage, 'complete');
    assert.deepEqual(scan.entries, []);

    const linked = join(dir, 'linked');
    mkdirSync(join(linked, '.common-memory'), { recursive: true });
    symlinkSync(join(home, USER_MEMORY_ROOT), join(linked, PROJECT_MEMORY_ROOT));
    assert.throws(
      () => initMemoryRoot(memoryRootOf('project', linked), 'project'),
      (error: unknown) => error instanceof MemoryFileError && error.code === 'symlink',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
