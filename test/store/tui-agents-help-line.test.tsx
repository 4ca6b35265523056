// The Agents screen's key line at 80 columns when the selected agent's generation was interrupted
// (pi died, the host restarted): it offers A abandon, and with t timeline it was 81 columns, so
// "q quit" was cut to "q qu…". An interrupted generation runs nothing to stop: x is not offered.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentView } from '../../source/api/agents.js';
import { Host } from '../../source/host/host.js';
import { tempHome } from '../support/cli.js';
import { mount, narrowTo80, press, unmount, waitForText, withOverrides } from '../support/tui-harness.js';

describe('Agents screen: the key line of an interrupted agent', { timeout: 60_000 }, () => {
  test('offers abandon, not stop, and ends with q quit in both feeds', async () => {
    const home = tempHome('tui-agents-help');
    const host = await Host.start({ home, serve: false });
    const agent = await host.application.createAgent({ name: 'crashed' });
    const interrupted: AgentView = {
      ...agent,
      generation: {
        generationId: 'g-1',
        number: 1,
        state: 'interrupted',
        pid: 4242,
        projectionError: null,
        endReason: 'pi exited unexpectedly',
      },
    };
    const app = withOverrides(host.application, { listAgents: async () => [interrupted] });
    const view = await mount(app, home);
    try {
      await narrowTo80(view);
      await press(view, '3');
      for (const other of ['t journal', 't timeline']) {
        const frame = await waitForText(view, other);
        const keys = frame.split('\n').find((line) => line.includes('A abandon')) ?? '';
        assert.match(keys, /q quit$/, keys);
        assert.doesNotMatch(keys, /x stop/);
        await press(view, 't');
      }
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
