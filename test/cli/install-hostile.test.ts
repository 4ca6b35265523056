// `install` against client config files it must not take (issue 26, items 5 and 6), through the
// real bin on a temporary config dir: a file over the size bound is refused before it is read
// (exit 10), a file or directory without its owner's write permission is refused (exit 7) — and
// in both cases nothing at all is written.
//
// The tests may run as root, which the kernel lets write anything: install therefore judges
// writability by the mode bits and ownership (a file whose owner has no write bit is read-only to
// its user whoever runs the command), and these tests set exactly those bits.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CONFIG_FILE_MAX_BYTES } from '../../source/limits.js';
import { runCli } from '../support/cli.js';

const cleanEnv = (): NodeJS.ProcessEnv => ({ COMMON_MEMORY_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' });

/** Every file under `dir` with its bytes and mode: what "nothing written" compares. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stats = statSync(path);
    files[name] = `${(stats.mode & 0o7777).toString(8)} ${stats.isFile() ? readFileSync(path, 'utf8').length : 'dir'}`;
  }
  return files;
}

const claudeDir = (label: string): string => {
  const dir = join(mkdtempSync(join(tmpdir(), `inst-hostile-${label}-`)), 'claude');
  mkdirSync(dir);
  return dir;
};

describe('install refuses client config files it must not take', () => {
  it('a settings.json over CONFIG_FILE_MAX_BYTES is refused before it is read: exit 10, nothing written', async () => {
    const dir = claudeDir('size');
    const settings = join(dir, 'settings.json');
    // Valid JSON, so that only the size can be the reason.
    writeFileSync(settings, `{"padding": "${'x'.repeat(CONFIG_FILE_MAX_BYTES)}"}\n`);
    const before = snapshot(dir);
    const started = Date.now();
    const result = await runCli(['install', 'claude', '--claude-dir', dir, '--json'], { env: cleanEnv() });
    assert.equal(result.code, 10, result.stderr);
    const error = JSON.parse(result.stderr) as { error: { code: string; message: string } };
    assert.equal(error.error.code, 'limit_exceeded');
    assert.match(error.error.message, /settings\.json/);
    assert.match(error.error.message, new RegExp(`${CONFIG_FILE_MAX_BYTES}`));
    assert.deepEqual(snapshot(dir), before, 'nothing written, no backup, no .claude.json');
    assert.ok(Date.now() - started < 10_000);
  });

  it('a .claude.json over the bound is refused the same way', async () => {
    const dir = claudeDir('size-mcp');
    writeFileSync(join(dir, '.claude.json'), `{"padding": "${'y'.repeat(CONFIG_FILE_MAX_BYTES)}"}`);
    const before = snapshot(dir);
    const result = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(result.code, 10, result.stderr);
    assert.match(result.stderr, /\.claude\.json/);
    assert.deepEqual(snapshot(dir), before);
  });

  it('a read-only (0444) settings.json is refused, not replaced by rename: exit 7, naming the file and the fix', async () => {
    const dir = claudeDir('ro');
    const settings = join(dir, 'settings.json');
    writeFileSync(settings, '{"model": "opus"}\n');
    chmodSync(settings, 0o444);
    const before = snapshot(dir);
    const result = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /settings\.json/);
    assert.match(result.stderr, /read-only/);
    assert.match(result.stderr, /chmod u\+w/);
    assert.deepEqual(snapshot(dir), before, 'the file, its mode and the directory are as they were');
    assert.equal(statSync(settings).mode & 0o777, 0o444);
  });

  it('a read-only .claude.json is refused before settings.json is touched', async () => {
    const dir = claudeDir('ro-mcp');
    writeFileSync(join(dir, 'settings.json'), '{}\n');
    writeFileSync(join(dir, '.claude.json'), '{}\n');
    chmodSync(join(dir, '.claude.json'), 0o400);
    const before = snapshot(dir);
    const result = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /\.claude\.json/);
    assert.deepEqual(snapshot(dir), before);
  });

  it('a config directory without write permission is refused: exit 7, naming the directory', async () => {
    const dir = claudeDir('ro-dir');
    writeFileSync(join(dir, 'settings.json'), '{}\n');
    chmodSync(dir, 0o555);
    try {
      const before = snapshot(dir);
      const result = await runCli(['install', 'claude', '--claude-dir', dir], { env: cleanEnv() });
      assert.equal(result.code, 7, result.stderr);
      assert.match(result.stderr, new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.match(result.stderr, /directory/);
      assert.deepEqual(snapshot(dir), before);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it('--dry-run still shows the plan for a read-only file (it writes nothing anyway)', async () => {
    const dir = claudeDir('ro-dry');
    const settings = join(dir, 'settings.json');
    writeFileSync(settings, '{}\n');
    chmodSync(settings, 0o444);
    const result = await runCli(['install', 'claude', '--claude-dir', dir, '--dry-run'], { env: cleanEnv() });
    assert.equal(result.code, 0, result.stderr);
  });
});
