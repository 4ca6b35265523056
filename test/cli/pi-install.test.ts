// install / uninstall pi: common-memory's extension in pi's settings.json → extensions, planned and
// applied transactionally, keeping every other setting byte for byte.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { applyPiExtension, PI_EXTENSION_PATH, planPiExtension } from '../../source/hosts/pi/extension-install.js';
import { runCli } from '../support/cli.js';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
function piDir(settings?: string): string {
  const root = mkdtempSync(join(tmpdir(), 'cm-pi-install-'));
  roots.push(root);
  const dir = join(root, 'agent');
  mkdirSync(dir);
  if (settings !== undefined) writeFileSync(join(dir, 'settings.json'), settings);
  return dir;
}
const read = (dir: string) => readFileSync(join(dir, 'settings.json'), 'utf8');

/** A user's settings, laid out by hand, with an extension of their own. */
const USER =
  '{\n    "defaultProvider": "fake",\n    "defaultModel":"fake-model",\n    "extensions": ["/home/me/my-ext.ts"],\n    "retry": { "enabled": false }\n}\n';

describe('install pi', () => {
  it('the shipped extension file exists next to the bin', () => {
    assert.ok(existsSync(PI_EXTENSION_PATH), PI_EXTENSION_PATH);
  });

  it("adds our path after the user's extensions, keeps every other setting byte for byte, and is idempotent", () => {
    const dir = piDir(USER);
    const plan = planPiExtension('install', { piDir: dir });
    assert.equal(plan.change, 'add');
    assert.deepEqual(plan.refusals, []);
    const result = applyPiExtension(plan);
    assert.equal(result.written, true);
    assert.ok(
      result.backupPath !== null && readFileSync(result.backupPath, 'utf8') === USER,
      'the previous file is kept',
    );
    const text = read(dir);
    assert.ok(text.includes('"defaultModel":"fake-model"'), text);
    assert.ok(text.includes('"retry": { "enabled": false }'), text);
    assert.deepEqual(JSON.parse(text).extensions, ['/home/me/my-ext.ts', PI_EXTENSION_PATH]);
    const again = planPiExtension('install', { piDir: dir });
    assert.equal(again.change, 'unchanged');
    assert.equal(applyPiExtension(again).written, false);
    assert.equal(read(dir), text);
  });

  it('uninstall removes only ours and gives back the original bytes', () => {
    const dir = piDir(USER);
    applyPiExtension(planPiExtension('install', { piDir: dir }));
    applyPiExtension(planPiExtension('uninstall', { piDir: dir }));
    assert.equal(read(dir), USER);
    assert.equal(planPiExtension('uninstall', { piDir: dir }).change, 'unchanged');
  });

  it('a file without a list gets one as its last member; uninstall takes it away again', () => {
    for (const original of [
      '{\n  "defaultProvider": "fake",\n  "defaultModel": "fake-model"\n}\n',
      '{"defaultModel":"m"}',
    ]) {
      const dir = piDir(original);
      applyPiExtension(planPiExtension('install', { piDir: dir }));
      assert.deepEqual(JSON.parse(read(dir)), { ...JSON.parse(original), extensions: [PI_EXTENSION_PATH] });
      assert.ok(read(dir).startsWith(original.replace(/\n?\}\n?$/, '')), read(dir));
      applyPiExtension(planPiExtension('uninstall', { piDir: dir }));
      assert.equal(read(dir), original);
    }
  });

  it("an earlier installation's path is rewritten in place", () => {
    const dir = piDir('{"extensions":["/old/lib/node_modules/common-memory/pi-extension/common-memory.js","/x.ts"]}\n');
    const plan = planPiExtension('install', { piDir: dir });
    assert.equal(plan.change, 'update');
    applyPiExtension(plan);
    assert.deepEqual(JSON.parse(read(dir)).extensions, [PI_EXTENSION_PATH, '/x.ts']);
  });

  it('a missing file is created; invalid JSON and a non-list "extensions" are refused and change nothing', () => {
    const fresh = piDir();
    applyPiExtension(planPiExtension('install', { piDir: fresh }));
    assert.deepEqual(JSON.parse(read(fresh)), { extensions: [PI_EXTENSION_PATH] });
    for (const bad of ['{"extensions": ', '{"extensions": "/x.ts"}\n']) {
      const dir = piDir(bad);
      const plan = planPiExtension('install', { piDir: dir });
      assert.equal(plan.refusals.length, 1);
      assert.throws(() => applyPiExtension(plan), /nothing was written/);
      assert.equal(read(dir), bad);
      assert.deepEqual(readdirSync(dir), ['settings.json']);
    }
  });

  it('the CLI: --dry-run shows the diff and writes nothing; install and uninstall with --json', async () => {
    const dir = piDir(USER);
    const env = { COMMON_MEMORY_HOME: '', PI_CODING_AGENT_DIR: '' };
    const dry = await runCli(['install', 'pi', '--pi-dir', dir, '--dry-run'], { env });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Would add the extension/);
    assert.match(dry.stdout, /\+.*pi-extension\/common-memory\.js/);
    assert.equal(read(dir), USER);
    const installed = await runCli(['--json', 'install', 'pi', '--pi-dir', dir], { env });
    assert.equal(installed.code, 0, installed.stderr);
    assert.deepEqual([JSON.parse(installed.stdout).change, JSON.parse(installed.stdout).written], ['add', true]);
    const removed = await runCli(['--json', 'uninstall', 'pi', '--pi-dir', dir], { env });
    assert.equal(JSON.parse(removed.stdout).change, 'remove');
    assert.equal(read(dir), USER);
    const wrongFlag = await runCli(['install', 'pi', '--claude-dir', dir], { env });
    assert.equal(wrongFlag.code, 2);
  });
});
