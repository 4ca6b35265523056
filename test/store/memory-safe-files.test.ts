import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  MemoryFileError,
  memoryRoot,
  readMemoryFile,
  temporaryName,
  writeMemoryFile,
} from '../../source/effects/safe-files.js';

const ROOT_PATH = '.common-memory/memory';
const OPTIONS = { fileMode: 0o600, directoryMode: 0o700 };
const bytes = (text: string) => new TextEncoder().encode(text);

/** Every file below a directory, with its contents: what "nothing was written there" is checked against. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
    }
  }
  return out;
}

function expectError(run: () => unknown, code: string, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof MemoryFileError, `not a MemoryFileError: ${error}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
    return true;
  });
}

describe('safe memory files', () => {
  let dir: string;
  let worktree: string;
  let outside: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cm-safe-files-'));
    worktree = join(dir, 'worktree');
    outside = join(dir, 'outside');
    mkdirSync(worktree);
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.md'), 'outside\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes durably through a temporary file, makes the directories, and reads back the bytes', () => {
    const root = memoryRoot(worktree, ROOT_PATH);
    writeMemoryFile(root, 'work_fact/a.md', bytes('one\n'), OPTIONS);
    writeMemoryFile(root, 'work_fact/a.md', bytes('two\n'), OPTIONS);
    const file = join(worktree, ROOT_PATH, 'work_fact/a.md');
    assert.equal(readFileSync(file, 'utf8'), 'two\n');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(worktree, ROOT_PATH)).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(join(worktree, ROOT_PATH, 'work_fact')), ['a.md'], 'no temporary file is left');
    const read = readMemoryFile(root, 'work_fact/a.md', 1024);
    assert.equal(read?.bytes.toString(), 'two\n');
    assert.equal(read?.stamp.size, 4n);
    assert.equal(readMemoryFile(root, 'work_fact/missing.md', 1024), null);
    assert.equal(readMemoryFile(root, 'work_task/missing.md', 1024), null);
  });

  it('accepts an anchor reached through a link (its real path is the anchor)', () => {
    symlinkSync(worktree, join(dir, 'link-to-worktree'));
    const root = memoryRoot(join(dir, 'link-to-worktree'), ROOT_PATH);
    writeMemoryFile(root, 'work_fact/a.md', bytes('x\n'), OPTIONS);
    assert.equal(readFileSync(join(worktree, ROOT_PATH, 'work_fact/a.md'), 'utf8'), 'x\n');
  });

  for (const [where, link] of [
    ['the directory above the root', '.common-memory'],
    ['the root itself', '.common-memory/memory'],
    ['the type directory', '.common-memory/memory/work_fact'],
  ] as const) {
    it(`refuses a link at ${where}, writing nothing outside, and refuses to read through it`, () => {
      const parent = join(worktree, link, '..');
      mkdirSync(parent, { recursive: true });
      // The link points at a real directory, so following it would "work": it must not be followed.
      mkdirSync(join(outside, 'work_fact'), { recursive: true });
      writeFileSync(join(outside, 'work_fact', 'a.md'), 'outside entry\n');
      symlinkSync(outside, join(worktree, link));
      const before = tree(outside);
      const root = memoryRoot(worktree, ROOT_PATH);
      expectError(() => writeMemoryFile(root, 'work_fact/a.md', bytes('x\n'), OPTIONS), 'symlink', /symbolic link/);
      expectError(() => readMemoryFile(root, 'work_fact/a.md', 1024), 'symlink', /never follows links/);
      assert.deepEqual(tree(outside), before);
    });
  }

  it('refuses a target that is a link, and a planted link at the temporary name, writing nothing outside', () => {
    const root = memoryRoot(worktree, ROOT_PATH);
    writeMemoryFile(root, 'work_fact/a.md', bytes('inside\n'), OPTIONS);
    const typeDir = join(worktree, ROOT_PATH, 'work_fact');
    symlinkSync(join(outside, 'keep.md'), join(typeDir, 'b.md'));
    expectError(
      () => writeMemoryFile(root, 'work_fact/b.md', bytes('x\n'), OPTIONS),
      'symlink',
      /b\.md is a symbolic link/,
    );
    expectError(() => readMemoryFile(root, 'work_fact/b.md', 1024), 'symlink', /symbolic link/);
    // A link where the temporary file goes is removed (the link, not its target) and replaced.
    symlinkSync(join(outside, 'keep.md'), join(typeDir, temporaryName('a.md')));
    writeMemoryFile(root, 'work_fact/a.md', bytes('replaced\n'), OPTIONS);
    assert.equal(readFileSync(join(typeDir, 'a.md'), 'utf8'), 'replaced\n');
    assert.deepEqual(tree(outside), { 'keep.md': 'outside\n' });
  });

  it('refuses .., absolute paths, NUL and empty components before touching the disk', () => {
    const root = memoryRoot(worktree, ROOT_PATH);
    for (const [path, reason] of [
      ['../outside/keep.md', /"\.\."/],
      ['work_fact/../../x.md', /"\.\."/],
      [join(outside, 'keep.md'), /absolute/],
      ['work_fact/a\0.md', /NUL/],
      ['work_fact//a.md', /empty component/],
      ['work_fact\\a.md', /backslash/],
    ] as const) {
      expectError(() => writeMemoryFile(root, path, bytes('x\n'), OPTIONS), 'invalid_path', reason);
      expectError(() => readMemoryFile(root, path, 1024), 'invalid_path', reason);
    }
    expectError(() => memoryRoot(worktree, '../outside'), 'invalid_path', /"\.\."/);
    assert.equal(existsSync(join(worktree, '.common-memory')), false);
    assert.deepEqual(tree(outside), { 'keep.md': 'outside\n' });
  });

  it('refuses a file over the size cap, a FIFO and a directory where a file should be', () => {
    const root = memoryRoot(worktree, ROOT_PATH);
    writeMemoryFile(root, 'work_fact/big.md', new Uint8Array(2048), OPTIONS);
    expectError(
      () => readMemoryFile(root, 'work_fact/big.md', 1024),
      'too_large',
      /2048 bytes, over the 1024-byte limit/,
    );
    assert.equal(spawnSync('mkfifo', [join(worktree, ROOT_PATH, 'work_fact/fifo.md')]).status, 0);
    expectError(() => readMemoryFile(root, 'work_fact/fifo.md', 1024), 'not_regular_file', /not a regular file/);
    mkdirSync(join(worktree, ROOT_PATH, 'work_fact/dir.md'));
    expectError(
      () => writeMemoryFile(root, 'work_fact/dir.md', bytes('x'), OPTIONS),
      'not_regular_file',
      /not a regular file/,
    );
    writeFileSync(join(worktree, ROOT_PATH, 'work_task'), 'a file, not a directory');
    expectError(
      () => writeMemoryFile(root, 'work_task/a.md', bytes('x'), OPTIONS),
      'not_directory',
      /work_task is not a directory/,
    );
  });

  it('a crash before the rename leaves the target untouched; the next write replaces the leftover', () => {
    const root = memoryRoot(worktree, ROOT_PATH);
    writeMemoryFile(root, 'work_fact/a.md', bytes('old\n'), OPTIONS);
    assert.throws(() =>
      writeMemoryFile(root, 'work_fact/a.md', bytes('new\n'), {
        ...OPTIONS,
        beforeRename: () => {
          throw new Error('crash');
        },
      }),
    );
    const typeDir = join(worktree, ROOT_PATH, 'work_fact');
    assert.equal(readFileSync(join(typeDir, 'a.md'), 'utf8'), 'old\n');
    assert.equal(
      readFileSync(join(typeDir, temporaryName('a.md')), 'utf8'),
      'new\n',
      'the durable temporary file is left',
    );
    writeMemoryFile(root, 'work_fact/a.md', bytes('newer\n'), OPTIONS);
    assert.deepEqual(readdirSync(typeDir), ['a.md']);
    assert.equal(readFileSync(join(typeDir, 'a.md'), 'utf8'), 'newer\n');
  });

  it('detects a directory swapped for a link while writing and writes nothing outside', () => {
    const root = memoryRoot(worktree, ROOT_PATH);
    writeMemoryFile(root, 'work_fact/a.md', bytes('old\n'), OPTIONS);
    const typeDir = join(worktree, ROOT_PATH, 'work_fact');
    mkdirSync(join(outside, 'work_fact'));
    expectError(
      () =>
        writeMemoryFile(root, 'work_fact/a.md', bytes('new\n'), {
          ...OPTIONS,
          beforeRename: () => {
            renameSync(typeDir, join(worktree, ROOT_PATH, 'moved'));
            symlinkSync(join(outside, 'work_fact'), typeDir);
          },
        }),
      'changed',
      /work_fact changed while common-memory was using it/,
    );
    assert.deepEqual(tree(outside), { 'keep.md': 'outside\n' });
  });

  it('a read-only directory gives a clear error and writes nothing', () => {
    mkdirSync(join(worktree, ROOT_PATH), { recursive: true });
    chmodSync(join(worktree, ROOT_PATH), 0o555);
    chmodSync(dir, 0o755);
    // root ignores permission bits, so the write runs as an unprivileged user in a child process.
    const module = fileURLToPath(new URL('../../source/effects/safe-files.ts', import.meta.url));
    const script = `
      import { memoryRoot, writeMemoryFile } from ${JSON.stringify(module)};
      try {
        writeMemoryFile(memoryRoot(process.argv[1], '.common-memory/memory'), 'work_fact/a.md', new Uint8Array([120]),
          { fileMode: 0o644, directoryMode: 0o755 });
        console.log(JSON.stringify({ ok: true }));
      } catch (error) {
        console.log(JSON.stringify({ code: error.code, message: error.message }));
      }`;
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, worktree], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, TSX_TSCONFIG_PATH: undefined },
      timeout: 30_000,
      ...asUser,
    });
    assert.equal(child.status, 0, child.stderr);
    const result = JSON.parse(child.stdout.trim().split('\n').pop()!);
    assert.equal(result.code, 'not_writable', child.stdout);
    assert.match(
      result.message,
      /cannot create the directory \.common-memory\/memory\/work_fact: permission denied \(EACCES\).*read-only/,
    );
    assert.deepEqual(readdirSync(join(worktree, ROOT_PATH)), []);
  });
});
