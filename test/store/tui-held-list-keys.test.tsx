// Keys typed ahead onto a list that is still being read: "2jj⏎" and "6jj⏎" typed at once reach
// History and Sessions before their rows. The moves and Enter wait for the rows and then act on
// them in order (widgets/held-list-keys.ts), so the third row opens, not the first; a list that
// loads empty drops them with a note. A real host with seeded sessions; its list reads are held
// back by a gate the test opens, so the keys arrive before the rows without any sleep.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Application } from '../../source/api/application.js';
import { Host } from '../../source/host/host.js';
import { rowsPerPage } from '../../source/screens/history/history.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { queueSession } from '../support/memory-corpus.js';
import { seedRecoveryItems } from '../support/recovery-seed.js';
import { KEY, mount, press, unmount, type View, waitForText, withOverrides } from '../support/tui-harness.js';

after(() => c.closeStores());

/** The Scheduler that Ink's React renders through: the one its reconciler loads, so the same instance. */
const reconciler = createRequire(import.meta.resolve('ink')).resolve('react-reconciler');
const scheduler = createRequire(reconciler)('scheduler') as {
  unstable_NormalPriority: number;
  unstable_scheduleCallback(priority: number, callback: () => void): unknown;
};

/** What a terminal answers to the TUI's DECRQM query when bracketed paste (mode 2004) is set. */
const PASTE_MODE_SET = '\u001b[?2004;1$y';

/** The real application with its session list and journal reads held until `open()`. */
function gated(real: Application) {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const app = withOverrides(real, {
    listSessions: async (request) => {
      await gate;
      return real.listSessions(request);
    },
    journal: async (request) => {
      await gate;
      return real.journal(request);
    },
  });
  return { app, open };
}

async function withHost(
  name: string,
  sessions: number,
  run: (host: Host, view: View, open: () => void) => Promise<void>,
) {
  const home = tempHome(name);
  for (let i = 0; i < sessions; i += 1) queueSession(home, null, [`prompt number ${i}`]);
  if (sessions > 0) assert.equal((await c.flush(home)).complete, true);
  const host = await Host.start({ home, serve: false });
  const { app, open } = gated(host.application);
  const view = await mount(app, home);
  try {
    await press(view, PASTE_MODE_SET);
    await run(host, view, open);
  } finally {
    await unmount(view);
    await host.stop();
    await rm(dirname(home), { recursive: true, force: true });
  }
}

/**
 * "2jj" and then Enter in two writes, outside act() as in the built TUI (React runs effects after the
 * frame, on its own schedule); the Enter goes in the moment the rows are on screen, before React's
 * effects after them. The third journal row must open. `before` runs just before "2jj" is typed.
 */
async function enterAsRowsRender(name: string, before: () => void = () => {}) {
  await withHost(name, 0, async (host, view, open) => {
    for (let i = 0; i < 4; i += 1)
      await host.application.appendNote({ text: `note number ${i}`, operationId: `op-note-${i}` });
    const third = (await host.application.journal({ after: 0, limit: 10 })).rows[2]!;
    const global = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const actEnvironment = global.IS_REACT_ACT_ENVIRONMENT;
    try {
      global.IS_REACT_ACT_ENVIRONMENT = false;
      before();
      view.stdin.write('2jj');
      const deadline = Date.now() + 8000;
      const until = async (accept: (frame: string) => boolean) => {
        while (!accept(view.lastFrame() ?? '') && Date.now() < deadline)
          await new Promise((resolve) => setImmediate(resolve));
      };
      await until((frame) => frame.includes('[2 History]'));
      open();
      await until((frame) => frame.includes('note number 0'));
      view.stdin.write('\r');
      await until((frame) => frame.includes('Journal row in full'));
      assert.match(view.lastFrame() ?? '', new RegExp(`#${third.sequence} ${third.kind}`));
    } finally {
      global.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });
}

describe('moves typed ahead onto a list still loading', { timeout: 60_000 }, () => {
  test('Sessions: 6jj⏎ opens the third session once the list is read', async () => {
    await withHost('tui-held-sessions', 4, async (host, view, open) => {
      const third = (await host.application.listSessions({ limit: 100 })).sessions[2]!;
      await press(view, '6jj\r');
      await waitForText(view, /\[6 Sessions\]/);
      open();
      await waitForText(view, `Session ${third.sessionKey.slice(0, 12)}`);
    });
  });

  test('History: 2jj⏎ opens the third journal row once the page is read', async () => {
    await withHost('tui-held-history', 0, async (host, view, open) => {
      for (let i = 0; i < 4; i += 1)
        await host.application.appendNote({ text: `note number ${i}`, operationId: `op-note-${i}` });
      const page = await host.application.journal({ after: 0, limit: 10 });
      assert.ok(page.rows.length >= 3, 'the notes wrote several journal rows');
      await press(view, '2jj\r');
      await waitForText(view, /\[2 History\]/);
      open();
      const frame = await waitForText(view, 'Journal row in full');
      assert.match(frame, new RegExp(`#${page.rows[2]!.sequence} ${page.rows[2]!.kind}`));
    });
  });

  test('History: a page key typed ahead reads that page first, and the moves after it land on its rows', async () => {
    await withHost('tui-held-page', 0, async (host, view, open) => {
      const limit = rowsPerPage(24); // the test terminal has no rows: 24 is assumed
      for (let i = 0; i < limit + 5; i += 1)
        await host.application.appendNote({ text: `note number ${i}`, operationId: `op-note-${i}` });
      const first = await host.application.journal({ after: 0, limit });
      const second = await host.application.journal({ after: first.nextAfter, limit });
      await press(view, `2${KEY.pageDown}j\r`);
      await waitForText(view, /\[2 History\]/);
      open();
      const frame = await waitForText(view, 'Journal row in full');
      assert.match(frame, new RegExp(`#${second.rows[1]!.sequence} ${second.rows[1]!.kind}`));
    });
  });

  test('an Enter that arrives on its own right as the rows render is kept after the held moves', async () => {
    await enterAsRowsRender('tui-held-split');
  });

  test('a key typed ahead waits for a render React put off past its time slice', async () => {
    // A loaded machine, made certain: React work that outlasts the Scheduler's 5 ms slice is
    // queued first, so the Scheduler yields after it and renders what "2" changed in a later
    // turn of the event loop. The j's must still reach History, not the screen 2 left.
    await enterAsRowsRender('tui-held-slice', () =>
      scheduler.unstable_scheduleCallback(scheduler.unstable_NormalPriority, () => {
        const until = performance.now() + 20;
        while (performance.now() < until);
      }),
    );
  });

  test('a list that loads empty drops the keys with a note', async () => {
    await withHost('tui-held-empty', 0, async (_host, view, open) => {
      await press(view, '6jj\r');
      await waitForText(view, /\[6 Sessions\]/);
      open();
      await waitForText(view, 'No captured sessions yet');
      await waitForText(view, '3 keys typed while the list loaded were dropped: it has no rows');
    });
  });

  test('Status: 4jj selects the third recovery item once the page is read', async () => {
    const home = tempHome('tui-held-status');
    seedRecoveryItems(home, 25);
    const host = await Host.start({ home, serve: false });
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const real = host.application;
    const app = withOverrides(real, {
      captureStatus: async (request) => {
        await gate;
        return real.captureStatus(request);
      },
    });
    const view = await mount(app, home);
    try {
      const third = (await real.captureStatus({})).recovery.items[2]!;
      await press(view, PASTE_MODE_SET);
      await press(view, '4jj');
      await waitForText(view, /\[4 Status\]/);
      open();
      await waitForText(view, new RegExp(`^> ${third.id} `, 'm'));
    } finally {
      await unmount(view);
      await host.stop();
      await rm(dirname(home), { recursive: true, force: true });
    }
  });
});
