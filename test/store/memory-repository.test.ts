import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resolveScope, resolveScopeQuickly, USER_SCOPE } from '../../source/effects/repository.js';

const root = mkdtempSync(join(tmpdir(), 'memory-repository-'));
after(() => rmSync(root, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );

function repository(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'first');
  return dir;
}

describe('repository binding from a session cwd', () => {
  it('two worktrees of one repository share the repository key and differ in the worktree key', () => {
    const main = repository('one');
    git(main, 'worktree', 'add', '-q', join(root, 'one-feature'), '-b', 'feature');
    const a = resolveScope(main);
    const b = resolveScope(join(root, 'one-feature'));
    assert.equal(a.scope, 'project');
    assert.equal(b.scope, 'project');
    assert.equal(a.repositoryKey, b.repositoryKey);
    assert.notEqual(a.worktreeKey, b.worktreeKey);
    assert.match(a.repositoryKey, /^[0-9a-f]{64}$/);
  });

  it('a subdirectory and a symlinked path resolve to the same binding; another repository does not', () => {
    const main = repository('two');
    mkdirSync(join(main, 'src', 'deep'), { recursive: true });
    symlinkSync(main, join(root, 'two-link'));
    const top = resolveScope(main);
    assert.deepEqual(resolveScope(join(main, 'src', 'deep')), top);
    assert.deepEqual(resolveScope(join(root, 'two-link')), top);
    const other = resolveScope(repository('three'));
    assert.notEqual(other.repositoryKey, top.repositoryKey);
  });

  it('the same basename in two places is two repositories (never the cwd basename)', () => {
    const a = repository('x/app');
    const b = repository('y/app');
    assert.notEqual(resolveScope(a).repositoryKey, resolveScope(b).repositoryKey);
  });

  it('outside git, a missing cwd, a relative or no cwd: the user scope', () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    assert.deepEqual(resolveScope(plain), USER_SCOPE);
    assert.deepEqual(resolveScope(join(root, 'gone')), USER_SCOPE);
    assert.deepEqual(resolveScope('relative/dir'), USER_SCOPE);
    assert.deepEqual(resolveScope(null), USER_SCOPE);
  });

  it('the keys carry no path', () => {
    const main = repository('four');
    const scope = resolveScope(main);
    assert.ok(!scope.repositoryKey.includes('four') && !scope.worktreeKey.includes('four'));
  });

  it('the quick resolution (file reads, no git process) gives exactly what git gives, in every case tried', () => {
    const main = repository('five');
    mkdirSync(join(main, 'src', 'deep'), { recursive: true });
    git(main, 'worktree', 'add', '-q', join(root, 'five-feature'), '-b', 'feature');
    mkdirSync(join(root, 'five-feature', 'lib'), { recursive: true });
    symlinkSync(join(main, 'src'), join(root, 'five-src-link'));
    // A submodule-style `.git` file pointing at a git directory kept elsewhere.
    const sub = repository('six');
    const moved = join(root, 'six-gitdir');
    git(sub, 'init', '-q', `--separate-git-dir=${moved}`);
    // A moved worktree in the config, a bare repository and a broken pointer: git decides.
    const odd = repository('seven');
    git(odd, 'config', 'core.worktree', join(root, 'seven-elsewhere'));
    mkdirSync(join(root, 'seven-elsewhere'), { recursive: true });
    const bare = join(root, 'eight.git');
    git(root, 'init', '-q', '--bare', bare);
    const broken = join(root, 'nine');
    mkdirSync(broken);
    writeFileSync(join(broken, '.git'), 'not a pointer\n');
    const plain = join(root, 'plain-quick');
    mkdirSync(plain);
    const cases = [
      main,
      join(main, 'src', 'deep'),
      join(main, '.git'),
      join(main, '.git', 'refs'),
      join(root, 'five-feature'),
      join(root, 'five-feature', 'lib'),
      join(root, 'five-src-link'),
      sub,
      odd,
      bare,
      broken,
      plain,
      join(root, 'gone'),
      'relative/dir',
      null,
    ];
    for (const cwd of cases) assert.deepEqual(resolveScopeQuickly(cwd), resolveScope(cwd), String(cwd));
    assert.equal(resolveScopeQuickly(join(main, 'src', 'deep')).scope, 'project');
    assert.equal(resolveScopeQuickly(sub).scope, 'project');
  });
});
