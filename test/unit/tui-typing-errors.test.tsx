// An error shown while a text input has the keyboard (the new-agent form, a note) cannot offer "e in
// full": e is a letter typed into the field, and the error goes when the input closes. So there the
// message is wrapped whole, and e stays text. In process, with a fake Application at 80 columns.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CmError } from '../../source/errors.js';
import { absentDirs, fakeApp, hostStatus } from '../support/tui-fakes.js';
import {
  assertFits80x24,
  KEY,
  mount,
  narrowTo80,
  openNewAgentForm,
  press,
  type,
  unmount,
  waitForFrame,
  waitForText,
} from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-typing-errors');
const status = hostStatus();

/** The frame's lines joined with spaces: a wrapped message read as one text. */
const joined = (frame: string) =>
  frame
    .split('\n')
    .map((line) => line.trim())
    .join(' ');

describe('an error shown while typing', () => {
  test('the new-agent form: a model that is not provider/id is said whole; e is typed into the field', async () => {
    const view = await mount(fakeApp({ status: async () => status, listAgents: async () => [] }), HOME, {
      integrations: DIRS,
    });
    try {
      await openNewAgentForm(view);
      await type(view, 'a1');
      await press(view, KEY.tab);
      await type(view, 'bogus');
      await press(view, KEY.enter);
      const frame = await waitForFrame(view, 'the whole message', (shown) => joined(shown).includes('not "bogus".'));
      assert.match(joined(frame), /as pi names models \(e\.g\. anthropic\/claude-sonnet-4-5 or ollama\/llama3\.1:8b\)/);
      assert.doesNotMatch(frame, /e in full/, 'e is a letter in a form');
      assertFits80x24(frame);
      await press(view, 'e');
      await waitForText(view, /model \(provider\/id, optional\): boguse/);
    } finally {
      await unmount(view);
    }
  });

  test('a note the host refused: the message is said whole; e is typed into the note', async () => {
    const refusal =
      'No common-memory host answers for /home/someone/.common-memory: the host on 127.0.0.1:40000 did not answer. This screen reconnects by itself once a host runs again.';
    const view = await mount(
      fakeApp({
        status: async () => status,
        appendNote: async () => {
          throw new CmError('host_unreachable', refusal);
        },
      }),
      HOME,
      { integrations: DIRS },
    );
    try {
      await narrowTo80(view);
      await press(view, '2');
      await waitForText(view, /n note/);
      await press(view, 'n');
      await waitForText(view, 'note>');
      await type(view, 'x');
      await press(view, KEY.enter);
      const frame = await waitForFrame(view, 'the whole message', (shown) =>
        joined(shown).includes('once a host runs again.'),
      );
      assert.ok(joined(frame).includes(`note: error host_unreachable: ${refusal}`), frame);
      assert.doesNotMatch(frame, /e in full/);
      assertFits80x24(frame);
      await press(view, 'e');
      await waitForText(view, 'note> xe');
    } finally {
      await unmount(view);
    }
  });
});
