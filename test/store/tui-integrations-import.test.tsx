// The Integrations screen offers the import of a client's stored conversations, at 80×24: m shows
// what it would bring in and writes nothing; only "y" imports, with its progress, then its report;
// the sessions are then in the store once, and the dry run then says nothing new would come in.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import { AUTO_EXTRACT_ENV } from '../../source/limits.js';
import { FIXTURES } from '../support/capture.js';
import { act, KEY, mount, press, unmount, waitForFrame, waitForText, type View } from '../support/tui-harness.js';

/** The screen as a terminal of 80 columns and 24 rows shows it. */
async function at80x24(view: View): Promise<void> {
  await act(async () => {
    Object.defineProperty(view.stdout, 'columns', { value: 80, configurable: true });
    Object.defineProperty(view.stdout, 'rows', { value: 24, configurable: true });
    view.stdout.emit('resize');
  });
}

function assertFits(frame: string) {
  for (const line of frame.split('\n')) assert.ok(line.length <= 80, `over 80 columns: ${line}`);
  assert.ok(frame.split('\n').length <= 24, `over 24 rows:\n${frame}`);
  assert.ok(!(frame.split('\n').at(-1) ?? '').endsWith('…'), `the help line is cut:\n${frame}`);
}

describe('Integrations screen: import', { timeout: 60_000 }, () => {
  let root: string;
  let host: Host;
  let piDir: string;
  const saved = process.env[AUTO_EXTRACT_ENV];

  before(async () => {
    process.env[AUTO_EXTRACT_ENV] = 'off';
    root = mkdtempSync(join(tmpdir(), 'cm-tui-import-'));
    piDir = join(root, 'pi-agent');
    const folder = join(piDir, 'sessions', '--home-user-project--');
    mkdirSync(folder, { recursive: true });
    for (const name of readdirSync(join(FIXTURES, 'pi', 'sessions'))) {
      const from = join(FIXTURES, 'pi', 'sessions', name);
      const header = JSON.parse(readFileSync(from, 'utf8').split('\n')[0]!) as { id: string };
      copyFileSync(from, join(folder, `2026-12-01T10-00-00-000Z_${header.id}.jsonl`));
    }
    host = await Host.start({ home: join(root, 'home'), serve: false });
  });
  after(async () => {
    await host.stop();
    await rm(root, { recursive: true, force: true });
    if (saved === undefined) delete process.env[AUTO_EXTRACT_ENV];
    else process.env[AUTO_EXTRACT_ENV] = saved;
  });

  test('pi: m shows what it would import and writes nothing; y imports it with progress; again, nothing new is stored', async () => {
    const view = await mount(host.application, join(root, 'home'), {
      integrations: { codexDir: join(root, 'codex'), claudeDir: join(root, 'claude'), piDir },
    });
    try {
      await at80x24(view);
      await press(view, '5');
      await waitForText(view, /\[5 Integrations\]/);
      await press(view, KEY.down);
      await press(view, KEY.down);
      let frame = await waitForText(view, /> pi\s/);
      assert.match(frame, /i\/Enter install · u uninstall · m import · r refresh · q quit/);
      assertFits(frame);

      await press(view, 'm');
      frame = await waitForText(view, 'import from pi: what it would bring in');
      assert.match(frame, /would import from pi:\s+4\s+session\(s\),\s+6\s+turn\(s\)/);
      assert.match(frame, /y import · Esc close/);
      assertFits(frame);
      assert.equal((await host.application.listSessions({ limit: 10 })).sessions.length, 0, 'm wrote nothing');

      await press(view, KEY.escape);
      await waitForFrame(view, 'the panel closed', (text) => !text.includes('what it would bring in'));
      assert.equal((await host.application.listSessions({ limit: 10 })).sessions.length, 0, 'Esc wrote nothing');

      await press(view, 'm');
      await waitForText(view, 'import from pi: what it would bring in');
      await press(view, 'y');
      frame = await waitForText(view, 'imported: pi');
      assert.match(frame, /imported from pi:\s+4\s+session\(s\),\s+6\s+turn\(s\)/);
      assertFits(frame);
      assert.ok(
        view.frames.some((f) => /importing from pi…/.test(f) && /import: \d+\/\d+ files · \d+ sessions/.test(f)),
        'its progress was shown',
      );
      const sessions = (await host.application.listSessions({ limit: 10 })).sessions;
      assert.equal(sessions.length, 4);

      await press(view, KEY.escape);
      await waitForFrame(view, 'the panel closed', (text) => !text.includes('imported: pi'));
      // The dry run looks at the store (read-only, beside the host): what was imported is said as
      // such and not offered again; y does nothing then.
      await press(view, 'm');
      frame = await waitForText(view, 'import from pi: what it would bring in');
      assert.match(frame, /would import from pi:\s+0\s+session\(s\),\s+0\s+turn\(s\)/);
      assert.match(frame, /already imported: 4 session\(s\) · captured live: 0 session\(s\)/);
      assert.match(frame, /Nothing new to import\./);
      assert.doesNotMatch(frame, /y import ·/);
      assertFits(frame);
      await press(view, 'y');
      await new Promise((done) => setTimeout(done, 300));
      assert.ok(!view.frames.at(-1)!.includes('importing from pi'), 'y imports nothing when nothing is new');
      assert.equal((await host.application.listSessions({ limit: 10 })).sessions.length, 4);
    } finally {
      await unmount(view);
    }
  });
});
