// The Sessions screen over a real host: the list shows the first prompt, Enter opens the session's
// turns with the user's words, c shows the folded context, PgDn scrolls, Esc goes back.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import * as c from '../support/capture.js';
import { tempHome, waitFor } from '../support/cli.js';
import { queueSession } from '../support/memory-corpus.js';
import { assertFits80x24, KEY, mount, narrowTo80, press, unmount, waitForText } from '../support/tui-harness.js';

describe('Sessions screen', { timeout: 60_000 }, () => {
  test('list → open → context → scroll → back', async () => {
    const home = tempHome('tui-sessions');
    const transcript = c.copyTranscript(c.claudeTranscriptFixture('01-plain'), c.transcriptDir(home));
    c.replay(home, 'claude', c.hookFiles('claude', '01-plain'), transcript, 'proc-tui');
    assert.equal((await c.flush(home)).complete, true);
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await press(view, '6');
      await waitForText(view, /Sessions · 1 captured/);
      await waitForText(view, /› claude complete +\d{4}-\d\d-\d\d \d\d:\d\d {2}1 turn/);
      await waitForText(view, /"hello"/);
      await press(view, KEY.enter);
      // When it was typed (the transcript's own time), not when the drain sealed it.
      await waitForText(view, /Turn 1 · settled · 2026-11-30 20:57:55 UTC/);
      await waitForText(view, /you:\n +hello/);
      await waitForText(view, /1 answer, 8 harness lines folded \(c shows them\)/);
      await press(view, 'c');
      await waitForText(view, /lines 1–\d+ of \d+/);
      await waitForText(view, /system \(environment\):/);
      await press(view, KEY.pageDown);
      const scrolled = await waitForText(view, /lines (\d+)–\d+ of/);
      assert.doesNotMatch(scrolled, /lines 1–/, 'PgDn moved down a page');
      await press(view, KEY.escape);
      await waitForText(view, /Sessions · 1 captured/);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('a session read by `import` is marked imported, in the list and in its header', async () => {
    const home = tempHome('tui-sessions-imported');
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      const sessionsDir = join(home, '..', 'codex-sessions');
      mkdirSync(sessionsDir, { recursive: true });
      copyFileSync(c.rolloutFixture('a-simple-one-turn.jsonl'), join(sessionsDir, 'rollout-a.jsonl'));
      const { importId } = await host.application.captureImportStart({
        client: 'codex',
        root: sessionsDir,
        extract: false,
      });
      await waitFor('the import to end', async () => {
        const run = await host.application.captureImportRun({ importId });
        return run.state === 'running' || run.state === 'extracting' ? undefined : run;
      });
      await press(view, '6');
      await waitForText(view, /Sessions · 1 captured/);
      await waitForText(view, /› codex/);
      await waitForText(view, /^ +imported · "/m);
      await press(view, KEY.enter);
      await waitForText(view, /Session \S+ · codex \(imported\) · /);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});

describe('a long history', { timeout: 120_000 }, () => {
  test('left for another screen and shown again, it is where it was left: the session open, or the same one selected', async () => {
    const home = tempHome('tui-sessions-kept');
    for (let i = 0; i < 4; i += 1) queueSession(home, null, [`prompt number ${i} of the kept list`]);
    assert.equal((await c.flush(home)).complete, true);
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await press(view, '6');
      await waitForText(view, /› codex[^\n]*\n +"prompt number 3 /);
      await press(view, KEY.down.repeat(2));
      await waitForText(view, /› codex[^\n]*\n +"prompt number 1 /);
      await press(view, KEY.enter);
      await waitForText(view, /prompt number 1 of the kept list/);
      await press(view, '7');
      await waitForText(view, /\[7 Memory\]/);
      // A session captured meanwhile comes in above: the selection stays on its session.
      queueSession(home, null, ['prompt number 4 of the kept list']);
      assert.equal((await host.application.flush({})).complete, true);
      await press(view, '6');
      const back = await waitForText(view, /Turn 1 · /);
      assert.match(back, /prompt number 1 of the kept list/, 'the same session is open');
      await press(view, KEY.escape);
      await waitForText(view, /Sessions · 5 captured/);
      await waitForText(view, /› codex[^\n]*\n +"prompt number 1 /);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('every session is reachable, past the first page read: PgDn and ↓ go on to the oldest', async () => {
    const home = tempHome('tui-sessions-long');
    const count = 130;
    for (let i = 0; i < count; i += 1) queueSession(home, null, [`prompt number ${i} of the long history`]);
    assert.equal((await c.flush(home)).complete, true);
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await narrowTo80(view);
      await press(view, '6');
      await waitForText(view, new RegExp(`Sessions · ${count} captured`));
      await waitForText(view, /› codex[^\n]*\n +"prompt number 129 /);
      // The list reads a page at a time; the heading counts them all, so all of them can be reached.
      for (let i = 0; i < 40; i += 1) await press(view, KEY.pageDown);
      const end = await waitForText(view, /› codex[^\n]*\n +"prompt number 0 /);
      assertFits80x24(end);
      assert.match(end, /PgDn\/PgUp/, 'the help line names the page keys');
      await press(view, KEY.up);
      await waitForText(view, /› codex[^\n]*\n +"prompt number 1 /);
      await press(view, KEY.pageUp);
      await waitForText(view, /› codex[^\n]*\n +"prompt number (?:[2-9]|1\d) /);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});

describe('no sessions yet', { timeout: 60_000 }, () => {
  test('the empty list names each client it captures, pi too, and importing what was said before', async () => {
    const home = tempHome('tui-sessions-none');
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await narrowTo80(view);
      await press(view, '6');
      const frame = await waitForText(view, /Sessions · 0 captured/);
      const text = frame
        .split('\n')
        .map((line) => line.trim())
        .join(' ');
      assert.match(text, /common-memory install claude\|codex\|pi/);
      assert.match(text, /import what you said before: 5 Integrations, m/);
      assertFits80x24(frame);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});

describe('an opened session at 80 columns', { timeout: 60_000 }, () => {
  test('its heading keeps where the page is (lines a–b of n) when the session and its turn count are long', async () => {
    const home = tempHome('tui-sessions-heading');
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await narrowTo80(view);
      const projects = join(home, '..', 'claude-projects');
      mkdirSync(join(projects, 'project'), { recursive: true });
      const fixture = c.claudeTranscriptFixture('30-interactive');
      copyFileSync(fixture, join(projects, 'project', basename(fixture)));
      const { importId } = await host.application.captureImportStart({
        client: 'claude',
        root: projects,
        extract: false,
      });
      await waitFor('the import to end', async () => {
        const run = await host.application.captureImportRun({ importId });
        return run.state === 'running' || run.state === 'extracting' ? undefined : run;
      });
      await press(view, '6');
      await waitForText(view, /3 turns \(1 interrupted\)/);
      await press(view, KEY.enter);
      await waitForText(view, /Turn 3 · interrupted/);
      await press(view, 'c');
      const frame = await waitForText(view, /system \(environment\):/);
      assert.match(frame, /^Session \S+ · lines 1–\d+ of \d+ · claude \(imported\) · /m);
      assertFits80x24(frame);
      await press(view, KEY.pageDown);
      assert.doesNotMatch(await waitForText(view, /^Session \S+ · lines \d+–/m), /^Session \S+ · lines 1–/m);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});

describe('screen keys', { timeout: 30_000 }, () => {
  test('hidden characters in what was said are shown as ⟨U+XXXX⟩, in the list and in the opened session', async () => {
    const home = tempHome('tui-sessions-hidden');
    queueSession(home, null, ['Always\u200b run the linter.\u202e Then push\u202c before noon.']);
    assert.equal((await c.flush(home)).complete, true);
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await press(view, '6');
      const list = await waitForText(
        view,
        /"Always⟨U\+200B⟩ run the linter\.⟨U\+202E⟩ Then push⟨U\+202C⟩ before noon\."/,
      );
      assert.doesNotMatch(list, /[\u200b\u202e\u202c]/, 'the list never sends them to the terminal');
      await press(view, KEY.enter);
      const opened = await waitForText(
        view,
        /you:\n +Always⟨U\+200B⟩ run the linter\.⟨U\+202E⟩ Then push⟨U\+202C⟩ before noon\./,
      );
      assert.doesNotMatch(opened, /[\u200b\u202e\u202c]/, 'nor does the opened session');
    } finally {
      await unmount(view);
      await host.stop();
    }
  });

  test('Tab goes forward, Shift+Tab back (from the first screen to the last)', async () => {
    const home = tempHome('tui-shift-tab');
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, KEY.tab);
      await waitForText(view, /\[2 History\]/);
      await press(view, '\u001B[Z');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '\u001B[Z');
      await waitForText(view, /\[7 Memory\]/);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
