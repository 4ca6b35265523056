// A prompt sent on the Agents screen to an agent that is not running: the TUI says which key starts
// it, not the CLI command the host's message names (in the TUI, s starts the selected agent).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import { tempHome } from '../support/cli.js';
import { KEY, mount, press, type, unmount, waitForText } from '../support/tui-harness.js';

describe('Agents screen: a prompt to a stopped agent', () => {
  test('the error names the key that starts it', async () => {
    const home = tempHome('tui-not-running');
    const host = await Host.start({ home, serve: true });
    await host.application.createAgent({ name: 'idle', operationId: 'op-create-idle' });
    const view = await mount(host.application, home);
    try {
      await press(view, '3');
      await waitForText(view, /> idle\s/);
      await press(view, 'p');
      await type(view, 'hello');
      await press(view, KEY.enter);
      const frame = await waitForText(view, /agent_not_running/);
      assert.match(frame, /Esc, then s starts it/);
      assert.doesNotMatch(frame, /common-memory agent start/);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
