// Hooks that cannot run — here Claude Code's, naming the shim of a clone that moved away — are
// told on the Dashboard with the command that repairs them, marked broken on the Integrations
// screen with the reason, and repaired there with i, y.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import { BIN_PATH } from '../../source/hosts/hook-config.js';
import { applyInstall, planInstall } from '../../source/hosts/integrations.js';
import type { ServiceStatus } from '../../source/service/service-manager.js';
import { serviceStatus } from '../support/tui-fakes.js';
import { KEY, mount, press, unmount, waitForFrame, waitForText } from '../support/tui-harness.js';

describe('hooks that cannot run, in the TUI', { timeout: 60_000 }, () => {
  let root: string;
  let home: string;
  let host: Host;
  let codexDir: string;
  let claudeDir: string;
  let gone: string;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'cm-tui-broken-'));
    home = join(root, 'home');
    codexDir = join(root, 'codex');
    claudeDir = join(root, 'claude');
    mkdirSync(codexDir);
    applyInstall(planInstall('claude', { configDir: claudeDir, home }));
    // The clone these hooks were installed from has moved away since.
    gone = join(root, 'moved-away', 'bin', 'common-memory.cjs');
    const settings = join(claudeDir, 'settings.json');
    writeFileSync(settings, readFileSync(settings, 'utf8').replaceAll(BIN_PATH, gone));
    host = await Host.start({ home, serve: false });
  });
  after(async () => {
    await host.stop();
    await rm(root, { recursive: true, force: true });
  });

  test('the Dashboard says they cannot run and how to repair them; Integrations repairs them with i, y', async () => {
    // The service line shares the screen with the warning (the probe is injected: no systemctl here).
    const service = async (): Promise<ServiceStatus> =>
      serviceStatus({ path: join(root, 'common-memory-host.service'), logPath: join(home, 'service.log') });
    const view = await mount(host.application, home, { integrations: { codexDir, claudeDir }, service });
    try {
      let frame = await waitForText(view, /Claude Code's hooks in .*settings\.json/);
      frame = await waitForText(view, /Service +not installed · keep a host running: common-memory service install/);
      assert.match(frame, /refreshed \d\d:\d\d:\d\d/, 'the whole Dashboard fits beside the warning');
      const flat = frame.replace(/\n/g, ' ');
      assert.match(flat, /cannot run: it runs .*moved-away.*which does not exist/);
      assert.match(frame, /install claude --claude-dir/, 'the repair command is shown');
      assert.ok(
        frame.split('\n').some((line) => line.includes(`${process.execPath} ${BIN_PATH} install claude`)),
        'the repair command is not split across lines',
      );

      await press(view, '5');
      frame = await waitForText(view, /Claude Code\s+broken \(i fixes\)/);
      await press(view, KEY.down);
      frame = await waitForText(view, /These hooks cannot run, nothing is captured: it runs/);
      await press(view, 'i');
      frame = await waitForText(view, 'install plan for claude');
      assert.match(frame.replace(/\n/g, ' '), /Outdated: it runs .*moved-away.*which does not exist/);
      assert.match(frame, /change: update 9/);
      await press(view, 'y');
      await waitForText(view, 'installed: claude');
      await press(view, KEY.escape);
      await waitForText(view, /Claude Code\s+installed/);

      await press(view, '1');
      await waitForFrame(
        view,
        'the Dashboard without the warning',
        (text) => text.includes('Dashboard') && !text.includes('cannot run'),
      );
    } finally {
      await unmount(view);
    }
  });
});
