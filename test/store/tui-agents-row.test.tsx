// The Agents screen's feed: [ and ] choose a row (the newest by default, marked >), Enter opens
// that row in full — not the whole feed — and v its raw JSON. The feed's rows come from a
// replaced timeline read over a real host; no pi runs.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import type { Page } from '../../source/api/common.js';
import type { TimelineRow } from '../../source/api/history.js';
import { tempHome } from '../support/cli.js';
import { KEY, mount, press, unmount, waitForFrame, waitForText, withOverrides } from '../support/tui-harness.js';

const WORDS = ['first question', 'first answer', 'second question', 'second answer'];

describe('Agents screen: one row in full', { timeout: 60_000 }, () => {
  test('Enter opens the selected row; [ ] move the selection; v shows that row raw; Esc returns', async () => {
    const home = tempHome('tui-agents-row');
    const host = await Host.start({ home, serve: false });
    const agent = await host.application.createAgent({ name: 'helper' });
    const rows: TimelineRow[] = WORDS.map((text, index) => ({
      sequence: index + 1,
      messageId: `m-${index + 1}`,
      agentId: agent.agentId,
      generationId: null,
      operationId: `op-${Math.floor(index / 2) + 1}`,
      role: index % 2 === 0 ? 'user' : 'assistant',
      payload: { role: index % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text }] },
      sourceJournalSequence: index + 1,
      recordedAt: '2026-08-01T09:30:00.000Z',
    }));
    const app = withOverrides(host.application, {
      timeline: async (request): Promise<Page<TimelineRow>> => {
        const page = rows.filter((row) => row.sequence > request.after);
        return {
          storeId: (await host.application.status()).storeId,
          stream: 'timeline',
          agentId: request.agentId ?? null,
          rows: page,
          nextAfter: page.at(-1)?.sequence ?? request.after,
          head: rows.length,
        };
      },
    });
    const view = await mount(app, home);
    try {
      await press(view, '3');
      let frame = await waitForText(view, 'second answer');
      assert.match(frame, /^> +4 +assistant +second answer/m, 'the newest row is selected');

      await press(view, KEY.enter);
      frame = await waitForText(view, /#4 assistant/);
      assert.match(frame, /second answer/);
      for (const other of WORDS.slice(0, 3)) assert.ok(!frame.includes(other), `${other} is another row`);
      await press(view, 'v');
      frame = await waitForText(view, /"messageId": "m-4"/);
      assert.ok(!frame.includes('"m-3"'), 'the raw JSON is the one row');
      await press(view, KEY.escape);
      await waitForText(view, /Timeline of helper/);

      await press(view, '[');
      await press(view, '[');
      frame = await waitForText(view, /^> +2 +assistant +first answer/m);
      await press(view, KEY.enter);
      frame = await waitForText(view, /#2 assistant/);
      assert.match(frame, /first answer/);
      assert.ok(!frame.includes('second answer'), 'only the chosen row');
      await press(view, KEY.escape);
      await press(view, ']');
      await waitForFrame(view, 'row 3 selected', (text) => /^> +3 +user +second question/m.test(text));
    } finally {
      await unmount(view);
      await host.stop();
      await rm(dirname(home), { recursive: true, force: true });
    }
  });
});
