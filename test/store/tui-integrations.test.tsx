// The Integrations screen against temporary Codex, Claude and pi config dirs (never the real home):
// plan, read the diff, apply only with "y", see the result and the Codex trust how-to; the
// user's own settings survive; a refused plan cannot be applied; a file changed after planning is
// not overwritten.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import { KEY, mount, press, unmount, waitForFrame, waitForText, type View } from '../support/tui-harness.js';

describe('Integrations screen', { timeout: 60_000 }, () => {
  let root: string;
  let host: Host;
  let codexDir: string;
  let claudeDir: string;
  let piDir: string;
  const userSettings = {
    model: 'my-own-model',
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo my own hook' }] }] },
  };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'cm-tui-integrations-'));
    codexDir = join(root, 'codex');
    claudeDir = join(root, 'claude');
    mkdirSync(codexDir);
    mkdirSync(claudeDir);
    piDir = join(root, 'pi-agent');
    mkdirSync(piDir);
    writeFileSync(join(claudeDir, 'settings.json'), `${JSON.stringify(userSettings, null, 2)}\n`);
    host = await Host.start({ home: join(root, 'home'), serve: false });
  });
  after(async () => {
    await host.stop();
    await rm(root, { recursive: true, force: true });
  });

  const open = async (): Promise<View> => {
    const view = await mount(host.application, join(root, 'home'), { integrations: { codexDir, claudeDir, piDir } });
    await press(view, '5');
    await waitForText(view, /\[5 Integrations\]/);
    return view;
  };

  /** Scrolls the panel a page at a time until `text` is on screen. */
  async function scrollTo(view: View, text: string): Promise<string> {
    for (let page = 0; page < 20; page++) {
      const frame = view.lastFrame() ?? '';
      if (frame.includes(text)) return frame;
      await press(view, KEY.pageDown);
    }
    return waitForText(view, text, 100);
  }

  test('Codex: the plan shows a diff and the trust how-to; nothing is written until y; then installed', async () => {
    const view = await open();
    const hooksFile = join(codexDir, 'hooks.json');
    try {
      let frame = await waitForText(view, `> Codex        not installed     ${hooksFile}`);
      assert.match(frame, /Claude Code\s+not installed/);
      await press(view, 'i');
      frame = await waitForText(view, /install plan for codex · lines 1–\d+ of \d+/);
      assert.match(frame, /change: add \d+ \(SessionStart/);
      assert.match(frame, /y writes this change/);
      assert.match(frame, /\+\+\+ .*hooks\.json/);
      assert.match(frame, /y apply install · Esc close/);
      frame = await scrollTo(
        view,
        'Codex hook trust: Codex reads these hooks but silently does not run them until you trust them.',
      );
      assert.ok(!existsSync(hooksFile), 'planning and scrolling wrote nothing');

      await press(view, KEY.escape);
      await waitForFrame(view, 'the panel closed', (text) => !text.includes('install plan for codex'));
      assert.ok(!existsSync(hooksFile), 'Esc wrote nothing');

      await press(view, 'i');
      await waitForText(view, 'install plan for codex');
      await press(view, 'y');
      frame = await waitForText(view, 'installed: codex');
      assert.match(frame, new RegExp(`wrote ${hooksFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      await scrollTo(view, 'common-memory does not trust them for you');
      await waitForText(view, `> Codex        installed         ${hooksFile}`);
      const written = JSON.parse(readFileSync(hooksFile, 'utf8')) as { hooks: Record<string, unknown> };
      assert.ok(Object.keys(written.hooks).includes('SessionStart'));
      await press(view, KEY.escape);
      await waitForText(view, 'Codex runs these hooks only once you trust them: i shows how');

      // Installing again is a plan with nothing to write; y has nothing to apply.
      await press(view, 'i');
      frame = await waitForText(view, 'Already installed: nothing to write.');
      assert.ok(!frame.includes('y apply'));
      await press(view, KEY.escape);
    } finally {
      await unmount(view);
    }
  });

  test('Claude Code: install and uninstall keep the user’s own settings and hooks', async () => {
    const settingsFile = join(claudeDir, 'settings.json');
    const view = await open();
    try {
      await press(view, KEY.down);
      await waitForText(view, /> Claude Code\s+not installed/);
      await press(view, 'i');
      let frame = await waitForText(view, 'install plan for claude');
      await press(view, 'y');
      frame = await waitForText(view, 'installed: claude');
      assert.match(frame, /backup of the previous file:\s/);
      await press(view, KEY.escape);
      await waitForText(view, /> Claude Code\s+installed/);
      let settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as typeof userSettings;
      assert.equal(settings.model, 'my-own-model');
      assert.ok(JSON.stringify(settings.hooks.Stop).includes('echo my own hook'));
      assert.ok(JSON.stringify(settings.hooks).includes('common-memory'));

      await press(view, 'u');
      frame = await waitForText(view, 'uninstall plan for claude');
      assert.match(frame, /change: remove \d+/);
      await press(view, 'y');
      await waitForText(view, 'uninstalled: claude');
      await press(view, KEY.escape);
      await waitForText(view, /> Claude Code\s+not installed/);
      settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as typeof userSettings;
      assert.equal(settings.model, 'my-own-model');
      assert.ok(JSON.stringify(settings.hooks).includes('echo my own hook'));
      assert.ok(!JSON.stringify(settings.hooks).includes('common-memory'));
    } finally {
      await unmount(view);
    }
  });

  test('a file changed after planning is not overwritten; a refused plan cannot be applied', async () => {
    const settingsFile = join(claudeDir, 'settings.json');
    const view = await open();
    try {
      await press(view, KEY.down);
      await press(view, 'i');
      await waitForText(view, 'install plan for claude');
      const changed = `${JSON.stringify({ ...userSettings, theme: 'dark' }, null, 2)}\n`;
      writeFileSync(settingsFile, changed);
      await press(view, 'y');
      const frame = await waitForText(view, /apply claude: error config_conflict: /);
      assert.ok(!frame.includes('install plan for claude'), 'the stale plan is closed');
      assert.equal(readFileSync(settingsFile, 'utf8'), changed, 'the newer file is untouched');

      writeFileSync(settingsFile, '{ "model": "my-own-model", broken');
      await press(view, 'r');
      await waitForText(view, /> Claude Code\s+blocked \(install would be refused\)/);
      await press(view, 'i');
      const refused = await waitForText(view, /REFUSED \(invalid_json\)/);
      assert.ok(!refused.includes('y apply'));
      await press(view, 'y');
      assert.equal(
        readFileSync(settingsFile, 'utf8'),
        '{ "model": "my-own-model", broken',
        'y applies nothing when refused',
      );
    } finally {
      await unmount(view);
    }
  });

  test("pi: the extension entry is planned, written only with y, and removed again, keeping the user's settings byte for byte", async () => {
    const settingsFile = join(piDir, 'settings.json');
    const own = '{\n  "defaultProvider": "my-provider",\n  "defaultModel": "my-model"\n}\n';
    writeFileSync(settingsFile, own);
    const view = await open();
    try {
      await press(view, KEY.down);
      await press(view, KEY.down);
      await waitForText(view, /> pi\s+not installed\s+\S*settings\.json/);
      await press(view, 'i');
      let frame = await scrollTo(view, 'pi-extension/common-memory.js');
      assert.match(frame, /install plan for pi/);
      assert.match(frame, /change: add the extension/);
      assert.equal(readFileSync(settingsFile, 'utf8'), own, 'nothing is written by planning');
      await press(view, 'y');
      frame = await waitForText(view, 'installed: pi');
      assert.match(frame, /backup of the previous file:\s/);
      await press(view, KEY.escape);
      await waitForText(view, /> pi\s+installed/);
      const installed = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
      assert.equal(installed['defaultProvider'], 'my-provider');
      assert.equal((installed['extensions'] as string[]).length, 1);
      assert.match((installed['extensions'] as string[])[0]!, /pi-extension[\\/]common-memory\.js$/);
      assert.ok(existsSync((installed['extensions'] as string[])[0]!), 'the entry names the shipped extension file');

      await press(view, 'u');
      await waitForText(view, 'uninstall plan for pi');
      await press(view, 'y');
      await waitForText(view, 'uninstalled: pi');
      await press(view, KEY.escape);
      await waitForText(view, /> pi\s+not installed/);
      assert.equal(readFileSync(settingsFile, 'utf8'), own, 'uninstall gives the user their bytes back');
    } finally {
      await unmount(view);
    }
  });
});
