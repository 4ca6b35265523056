// A colour escape pasted into the TUI (a line copied from a coloured log, `\e[31m…\e[0m`), or a key
// Ink cannot name with Ctrl held (Ctrl+F1 in xterm, `\e[1;5P`), used to throw inside Ink's input
// hook and kill the process, and with it the in-process host. In process, with a fake Application.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isUnnamedCtrlSequence } from '../../source/screens/keyboard/unnamed-keys.js';
import { absentDirs, fakeApp, hostStatus } from '../support/tui-fakes.js';
import { KEY, mount, openNewAgentForm, press, type, unmount, waitForText } from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-pasted-escapes');
const status = hostStatus();

describe('escape sequences typed or pasted into the TUI', () => {
  test('a pasted coloured line and Ctrl+F1 are ignored; the keys after them still work', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    const view = await mount(fakeApp({ status: async () => status, listAgents: async () => [] }), HOME, {
      integrations: DIRS,
    });
    try {
      await openNewAgentForm(view);
      await press(view, 'red\u001b[31mtext\u001b[0m');
      await press(view, '\u001b[1;5P');
      await type(view, '2');
      await waitForText(view, /name: redtext2/);
      await press(view, KEY.escape);
      await press(view, '2');
      await waitForText(view, /History/);
      assert.deepEqual(uncaught.map(String), [], 'nothing thrown');
    } finally {
      process.off('uncaughtException', record);
      await unmount(view);
    }
  });

  test('only the sequences Ink cannot name are dropped: arrows, pages, Shift+Tab and Ctrl+arrows stay keys', () => {
    for (const dropped of ['\u001b[31m', '\u001b[0m', '\u001b[1;5P', '\u001b[31;5~', '\u001b[[1;5H'])
      assert.ok(isUnnamedCtrlSequence(dropped), JSON.stringify(dropped));
    for (const kept of [
      '\u001b[A',
      '\u001b[1;5A',
      '\u001b[5~',
      '\u001b[6~',
      '\u001b[Z',
      '\u001b',
      'q',
      '\u001b[2J',
      '\u001b[99;5u',
    ])
      assert.ok(!isUnnamedCtrlSequence(kept), JSON.stringify(kept));
  });
});
