// Keys typed while the TUI is busy reach Ink as one input ("12"). A run of screen keys goes to the
// last one's screen, as pressing them in turn would; any other run is not replayed as keys (a
// paste must never press a command key such as the Memory screen's "a").
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { after, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { mount, press, unmount, waitForText } from '../support/tui-harness.js';

after(() => c.closeStores());

test('screen keys typed together land on the last one; a chunk with other keys changes no screen', {
  timeout: 60_000,
}, async () => {
  const home = tempHome('tui-typeahead');
  const host = await Host.start({ home, serve: false });
  const view = await mount(host.application, home);
  try {
    await waitForText(view, /\[1 Dashboard\]/);
    await press(view, '124');
    await waitForText(view, /\[4 Status\]/);
    await press(view, '7');
    await waitForText(view, /\[7 Memory\]/);
    // "2a" is not all screen keys: nothing happens (not History, and no "a" on the Memory screen).
    await press(view, '2a');
    await press(view, '6');
    const frame = await waitForText(view, /\[6 Sessions\]/);
    assert.doesNotMatch(frame, /\[2 History\]/);
  } finally {
    await unmount(view);
    await host.stop();
    await rm(dirname(home), { recursive: true, force: true });
  }
});
