// The TUI at the sizes it supports: at 80×24 a line too long for the screen wraps (the scope
// chooser's option on Prepare & promote, the Status screen's counts and flush result) and the
// frame still fits; at 60×20 the key line keeps q quit when the screen's keys do not fit, and what
// 80 columns show on one line wraps or is shortened, never cut — each checked at 80×24 unchanged.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Application } from '../../source/api/application.js';
import { Host } from '../../source/host/host.js';
import { textColumns } from '../../source/text-columns.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import {
  absentDirs,
  fakeApp,
  hostStatus,
  memoryStatusWith,
  reviewCandidate,
  reviewQueue,
  serviceStatus,
} from '../support/tui-fakes.js';
import { KEY, mount, press, resizeTo, unmount, type View, waitForText, withOverrides } from '../support/tui-harness.js';

after(() => c.closeStores());

/**
 * The frame within `columns` × `rows`, no line cut; with `keysLeftOut` the key line may end its
 * screen's keys with `… · q quit` (60 columns), and no other line has a `…`.
 */
function assertFits(frame: string, columns: number, rows: number, keysLeftOut = false) {
  const lines = frame.split('\n');
  assert.ok(lines.length <= rows, `${lines.length} rows:\n${frame}`);
  for (const line of lines) assert.ok(textColumns(line) <= columns, `over ${columns} columns: ${line}`);
  const keys = lines.at(-1) ?? '';
  assert.doesNotMatch(lines.slice(0, -1).join('\n'), /…/, `a line is cut:\n${frame}`);
  assert.doesNotMatch(keysLeftOut ? keys.replace(/ · … · q quit$/, '') : keys, /…/, `the key line is cut:\n${frame}`);
}

/** The TUI over a real host in a new data home (its Application as `app` makes it), at `columns` × `rows`. */
async function onHost(
  name: string,
  size: [columns: number, rows: number],
  app: (real: Application) => Application,
  body: (view: View) => Promise<void>,
): Promise<void> {
  const home = tempHome(name);
  const host = await Host.start({ home, serve: false });
  const { dirs } = absentDirs(name);
  const view = await mount(app(host.application), home, { service: async () => null, integrations: dirs });
  try {
    await resizeTo(view, ...size);
    await body(view);
  } finally {
    await unmount(view);
    await host.stop();
  }
}

/** `text` matched as it is in a RegExp. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The frame's words in order, whatever line each is on. */
const words = (frame: string) => frame.replace(/\s+/g, ' ');

describe('the TUI at 80×24 and 60×20', { timeout: 120_000 }, () => {
  test("Prepare & promote: the scope chooser's option wraps rather than losing its end", async () => {
    const { home, dirs } = absentDirs('cm-small-prepare');
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        memoryReview: async () =>
          reviewQueue([
            reviewCandidate({ candidateId: 'cand-00000002', repository: 'a-rather-long-repository-name' }),
            reviewCandidate({ candidateId: 'cand-00000001', repository: 'another-repository' }),
          ]),
      }),
      home,
      { service: async () => null, integrations: dirs },
    );
    try {
      await resizeTo(view, 80, 24);
      await press(view, '7');
      await waitForText(view, /· 1 of 2/);
      await press(view, 'm');
      await press(view, KEY.down);
      await press(view, 'm');
      await waitForText(view, /2 marked/);
      await press(view, 'p');
      const frame = await waitForText(view, /2 candidates to promote/);
      assertFits(frame, 80, 24);
      assert.match(
        words(frame),
        /> project · each candidate's repository's \.common-memory\/memory, committed with git user · your own memory/,
      );
    } finally {
      await unmount(view);
    }
  });

  test('Status after f: the counts and an incomplete flush wrap within 80 columns', async () => {
    const withCounts = (real: Application) =>
      withOverrides(real, {
        captureStatus: async (request) => {
          const status = await real.captureStatus(request);
          return {
            ...status,
            host: {
              ...status.host,
              inbox: 1_234_567,
              watch: 1_234,
              isolated: 0,
              hookErrors: 12,
              lastHookError: { at: '2026-12-07T10:00:00.000Z', code: 'install_broken' },
            },
            queue: { ...status.queue, inboxPending: 1_234_567, inboxProcessed: 7_654_321, candidatesPending: 4_321 },
          };
        },
        flush: async (request) => ({
          ...(await real.flush(request)),
          complete: false,
          remaining: { buffered: 12_345, inbox: 1_234_567, watch: 1_234, isolated: 89 },
        }),
      });
    await onHost('tui-small-status', [80, 24], withCounts, async (view) => {
      await press(view, '4');
      await waitForText(view, /Processing status · mode local/);
      await press(view, 'f');
      const frame = await waitForText(view, /flush incomplete/, 60_000);
      assertFits(frame, 80, 24);
      const text = words(frame);
      // Wrapped between counts: the line ends at a count, and the next starts with one.
      assert.match(text, /isolated 0 (· )?hook errors 12 \(last install_broken\)/);
      assert.match(text, /batches ready 0 (· )?prompts pending 4321/);
      assert.match(
        text,
        /flush incomplete — left: buffered 12345 · inbox 1234567 · watch 1234 · isolated 89 · sealed 0 \(\d+\.\ds\)/,
      );
      assert.match(frame.split('\n').at(-1) ?? '', /d drain · f flush · q quit/);
    });
  });

  test('at 60×20 the key line ends with q quit on every screen, whatever keys it leaves out', async () => {
    await onHost(
      'tui-small-keys',
      [60, 20],
      (real) => real,
      async (view) => {
        for (const [key, shown] of [
          ['1', /\[1 Dashboard\]/],
          ['2', /\[2 History\]/],
          ['3', /\[3 Agents\]/],
          ['4', /\[4 Status\]/],
          ['5', /\[5 Integrations\]/],
          ['6', /\[6 Sessions\]/],
          ['7', /\[7 Memory\]/],
        ] as const) {
          await press(view, key);
          const frame = await waitForText(view, shown);
          const lines = frame.split('\n');
          assert.ok(lines.length <= 20, `${lines.length} rows:\n${frame}`);
          const keyLine = lines.at(-1) ?? '';
          assert.ok(textColumns(keyLine) <= 60, `over 60 columns: ${keyLine}`);
          // Alone where no other key acts (an empty Review queue: s and r are named under it).
          assert.match(keyLine, /(?:^|· )q quit$/, `screen ${key}: ${keyLine}`);
        }
      },
    );
  });

  test('Dashboard at 60×20: the Host and Service lines wrap under their label, the command whole on its line', async () => {
    const { home, dirs } = absentDirs('cm-small-dash');
    const view = await mount(fakeApp({ status: async () => hostStatus() }), home, {
      service: async () => serviceStatus(),
      integrations: dirs,
    });
    const labels = (frame: string) => {
      const lines = frame.split('\n');
      const top = lines.findIndex((line) => line.trim() === 'Dashboard');
      const bottom = lines.findIndex((line) => line.includes('refreshed'));
      // The label column: empty on a line that continues the one above.
      return lines
        .slice(top, bottom + 1)
        .map((line) => line.slice(0, 11).trim().split(/\s+/)[0])
        .join(',');
    };
    try {
      await resizeTo(view, 80, 24);
      let frame = await waitForText(view, /Service +not installed/);
      // 80 columns: one line each, as before.
      assert.match(frame, /^Host +in-process host · mode host · host host-000 · pid 4242$/m);
      assert.match(frame, /^Service +not installed · keep a host running: common-memory service install$/m);
      assert.equal(labels(frame), 'Dashboard,Store,Home,Host,Service,Started,,Heads,Ledger,,refreshed');
      assertFits(frame, 80, 24);
      await resizeTo(view, 60, 20);
      frame = await waitForText(view, /^ {11}common-memory service install$/m);
      assertFits(frame, 60, 20);
      assert.match(words(frame), /Host in-process host · mode host · host host-000 · pid 4242 Service not installed/);
      assert.match(frame, /^ {11}pid 4242$/m, 'a name stays with its value');
      assert.match(frame, /^Service +not installed · keep a host running:$/m);
      // Each line that wraps goes on under its text, its label column empty.
      assert.equal(labels(frame), 'Dashboard,Store,Home,Host,,Service,,Started,,Heads,Ledger,,refreshed');
    } finally {
      await unmount(view);
    }
  });

  test("Memory at 60×20: the views' line is shortened, never cut: every view and the keys between them", async () => {
    const { home, dirs } = absentDirs('cm-small-views');
    const view = await mount(
      fakeApp({ status: async () => hostStatus(), memoryReview: async () => reviewQueue([]) }),
      home,
      { service: async () => null, integrations: dirs },
    );
    // The line under the tabs (the header's two lines above it).
    const viewLine = (frame: string) => frame.split('\n')[2] ?? '';
    try {
      await resizeTo(view, 80, 24);
      await press(view, '7');
      let frame = await waitForText(view, /Nothing to review/);
      assert.equal(viewLine(frame), '[Review] Prepare & promote Entries Extraction Usage · ] next view · [ previous');
      await resizeTo(view, 60, 20);
      frame = await waitForText(view, /^\[Review\] Prepare /m);
      assertFits(frame, 60, 20, true);
      assert.equal(viewLine(frame), '[Review] Prepare Entries Extraction Usage · ] next · [ prev');
      await press(view, ']');
      frame = await waitForText(view, /^Review \[Prepare\] /m);
      assert.equal(viewLine(frame), 'Review [Prepare] Entries Extraction Usage · ] next · [ prev');
      assert.match(frame, /^Prepare & promote · scope project/m, "the view's heading names it in full");
    } finally {
      await unmount(view);
    }
  });

  test('Integrations at 60×20: a client too long for its line shows its state, the selected one its file too, under its marker', async () => {
    // Config dirs whose files fit a client's line at 80 columns, as before, not at 60: their root
    // 18 characters long wherever the temp dir is (/tmp, or the test run's own under it).
    const home = join(tmpdir(), 'cm-small-ints'.slice(0, Math.max(1, 17 - tmpdir().length)));
    const dirs = { codexDir: join(home, 'codex'), claudeDir: join(home, 'claude'), piDir: join(home, 'pi') };
    const view = await mount(fakeApp({ status: async () => hostStatus() }), home, {
      service: async () => null,
      integrations: dirs,
    });
    const path = (client: string) => new RegExp(`^ {2}${literal(join(home, client))}\\S*$`, 'm');
    try {
      await resizeTo(view, 80, 24);
      await press(view, '5');
      let frame = await waitForText(view, /^> Codex +not installed +\S+$/m);
      assert.match(frame, new RegExp(`^> Codex +not installed +${literal(join(home, 'codex'))}\\S*$`, 'm'));
      assert.match(frame, new RegExp(`^ {2}Claude Code +not installed +${literal(join(home, 'claude'))}\\S*$`, 'm'));
      assert.match(frame, new RegExp(`^ {2}pi +not installed +${literal(join(home, 'pi'))}\\S*$`, 'm'));
      assertFits(frame, 80, 24);
      await resizeTo(view, 60, 20);
      frame = await waitForText(view, /^> Codex +not installed$/m);
      assertFits(frame, 60, 20, true);
      assert.match(frame, path('codex'), "the selected client's file, whole, under its marker");
      // Every key of its own; the list's own keys (the arrows, Enter beside i) give way first.
      assert.equal(frame.split('\n').at(-1), 'i install · u uninstall · m import · r refresh · q quit');
      assert.match(frame, /^ {2}Claude Code +not installed$/m);
      assert.match(frame, /^ {2}pi +not installed$/m);
      await press(view, `${KEY.down}${KEY.down}`);
      frame = await waitForText(view, /^> pi +not installed$/m);
      assertFits(frame, 60, 20, true);
      assert.match(frame, path('pi'));
      assert.match(frame, /^ {2}Codex +not installed$/m);
      assert.doesNotMatch(frame, path('codex'));
    } finally {
      await unmount(view);
    }
  });

  test("Extraction at 60×20: the runner chooser's options are shortened, the selected one wraps in full under its marker", async () => {
    const { home, dirs } = absentDirs('cm-small-runners');
    const ext = {
      name: 'ext',
      offline: false,
      provider: 'p',
      model: 'm',
      endpoint: 'https://e.example/v1',
      budget: { runBytes: 1000, dayBytes: 5000 },
      sentToday: 0,
    };
    const view = await mount(
      fakeApp({
        status: async () => hostStatus(),
        memoryReview: async () => reviewQueue([]),
        memoryStatus: async () => memoryStatusWith([{ name: 'builtin', offline: true }, ext]),
      }),
      home,
      { service: async () => null, integrations: dirs },
    );
    const full = 'ext: p m at https://e.example/v1 · sent today 0 of 5000 bytes · 1000 a run';
    try {
      await resizeTo(view, 80, 24);
      await press(view, '7');
      await waitForText(view, /\[Review\]/);
      await press(view, '[');
      await waitForText(view, /\[Usage\]/);
      await press(view, '[');
      await waitForText(view, /ext: p m at/);
      await press(view, 'r');
      let frame = await waitForText(view, 'The runner for the next run (x):');
      assert.match(frame, /^> builtin: offline, nothing leaves this machine$/m);
      assert.ok(frame.split('\n').includes(`  ${full}`), `one line at 80 columns, as before:\n${frame}`);
      assertFits(frame, 80, 24);
      await resizeTo(view, 60, 20);
      frame = await waitForText(view, /^ {2}ext: p m at https:\/\/e\.example\/v1$/m);
      assertFits(frame, 60, 20, true);
      assert.match(frame, /^> builtin: offline, nothing leaves this machine$/m);
      // The keys that decide stay on the line: take the runner, or keep the one there was.
      assert.match(frame.split('\n').at(-1) ?? '', /Enter use this one · Esc keep builtin · q quit$/);
      await press(view, KEY.down);
      frame = await waitForText(view, /^> ext: p m at /m);
      assertFits(frame, 60, 20, true);
      const lines = frame.split('\n');
      const at = lines.findIndex((line) => line.startsWith('> ext: '));
      assert.equal(`${lines[at]} ${lines[at + 1]?.trim()}`, `> ${full}`, 'wrapped whole, under its marker');
      assert.match(lines[at + 1] ?? '', /^ {2}\S/);
    } finally {
      await unmount(view);
    }
  });
});
