// The TUI's Sessions list and session view read through the API, which masks what the secret lint
// finds: a token the user typed is never on screen, in the list or in the opened session.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { plantedToken, queueSession } from '../support/memory-corpus.js';
import { KEY, mount, press, unmount, waitForText } from '../support/tui-harness.js';

after(() => c.closeStores());

describe('Sessions screen masks secrets', { timeout: 60_000 }, () => {
  test('the list and the opened session show the token masked', async () => {
    const home = tempHome('tui-listing-mask');
    const token = plantedToken();
    queueSession(home, null, [`Log in with ${token} on the build box.`]);
    await c.flush(home);
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await press(view, '6');
      const list = await waitForText(view, /"Log in with ghp_…\[40 chars\] on the build box\."/);
      assert.ok(!list.includes(token.slice(4, 12)), list);
      await press(view, KEY.enter);
      const opened = await waitForText(view, /you:\n +Log in with ghp_…\[40 chars\] on the build box\./);
      assert.ok(!opened.includes(token.slice(4, 12)), opened);
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
