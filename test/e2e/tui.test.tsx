// The TUI over a real in-process host: frames are asserted as plain text, every render, key
// press and unmount runs inside act(), and waits poll the frame with a deadline (no fixed sleeps).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CmError } from '../../source/errors.js';
import { Host } from '../../source/host/host.js';
import { textColumns } from '../../source/text-columns.js';
import {
  KEY,
  mount,
  narrowTo80,
  press,
  unmount,
  waitForFrame,
  waitForText,
  withOverrides,
  type View,
} from '../support/tui-harness.js';

interface Harness {
  home: string;
  host: Host;
  stop(): Promise<void>;
}

async function startHost(): Promise<Harness> {
  const home = await mkdtemp(join(tmpdir(), 'cm-tui-'));
  // Serving, as the TUI's own host does: it opens the journal with host.started, which these tests page through.
  const host = await Host.start({ home, serve: true });
  return {
    home,
    host,
    async stop() {
      await host.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
}

function rowSequences(frame: string): number[] {
  return frame
    .split('\n')
    .map((line) => /^\s*(\d+) {2}\S/.exec(line)?.[1])
    .filter((value): value is string => value !== undefined)
    .map(Number);
}

async function appendNotes(host: Host, count: number, prefix = 'note'): Promise<void> {
  for (let index = 1; index <= count; index += 1) await host.application.appendNote({ text: `${prefix} ${index}` });
}

async function openHistory(view: View): Promise<string> {
  await press(view, '2');
  return waitForText(view, /Journal · page 1 · #\d+–#\d+/);
}

describe('TUI over a real host', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHost();
  });
  after(async () => {
    await harness.stop();
  });

  test('dashboard shows store, host and heads, and follows new rows', async () => {
    const status = await harness.host.application.status();
    const view = await mount(harness.host.application, harness.home);
    try {
      const frame = await waitForText(view, `journal ${status.heads.journal} · timeline`);
      assert.match(frame, new RegExp(`store ${status.storeId.slice(0, 8)} · in-process host · up`));
      assert.ok(frame.includes(status.storeId), 'full store ID on the dashboard');
      assert.ok(frame.includes(`pid ${process.pid}`));
      assert.ok(frame.includes(`host ${status.hostId.slice(0, 8)}`));
      assert.match(frame, /Heads\s+journal \d+ · timeline 0/);
      assert.match(frame, /2 history · q quit/);
      await harness.host.application.appendNote({ text: 'seen by the dashboard' });
      await waitForText(view, `journal ${status.heads.journal + 1} · timeline`, 5000);
    } finally {
      await unmount(view);
    }
  });

  test('history toggles between journal and timeline', async () => {
    const view = await mount(harness.host.application, harness.home);
    try {
      const journal = await openHistory(view);
      assert.ok(journal.includes('host.started'));
      assert.match(journal, /\[2 History\]/);
      await press(view, 't');
      const timeline = await waitForText(view, 'Timeline · page 1');
      assert.ok(timeline.includes('no timeline rows yet'));
      assert.match(timeline, /t journal · /);
      await press(view, 't');
      await waitForText(view, /Journal · page 1 · #1–/);
    } finally {
      await unmount(view);
    }
  });

  test('q quits; Ctrl+C quits even while a note is being typed', async () => {
    let quits = 0;
    const view = await mount(harness.host.application, harness.home, { onQuit: () => (quits += 1) });
    try {
      await waitForText(view, 'Heads ');
      await press(view, 'q');
      assert.equal(quits, 1);
    } finally {
      await unmount(view);
    }
    const typing = await mount(harness.host.application, harness.home, { onQuit: () => (quits += 1) });
    try {
      await openHistory(typing);
      await press(typing, 'n');
      await waitForText(typing, 'note>');
      await press(typing, 'q');
      assert.equal(quits, 1, 'q is text while typing');
      await press(typing, KEY.ctrlC);
      assert.equal(quits, 2);
    } finally {
      await unmount(typing);
    }
  });
});

describe('history paging over 250 notes', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHost();
    await appendNotes(harness.host, 250);
  });
  after(async () => {
    await harness.stop();
  });

  test('forward to the end and back again: every row once, pages identical both ways', async () => {
    const view = await mount(harness.host.application, harness.home);
    try {
      let frame = await openHistory(view);
      const forward: number[][] = [];
      const nextKeys = [KEY.pageDown, ' ', '\u001B[C']; // PgDn, space, →
      for (let page = 1; ; page += 1) {
        const rows = rowSequences(frame);
        assert.ok(rows.length > 0, `page ${page} has rows`);
        forward.push(rows);
        if (frame.includes('· end')) break;
        assert.ok(page < 50, 'paging ends');
        await press(view, nextKeys[page % nextKeys.length]!);
        frame = await waitForText(view, new RegExp(`page ${page + 1} · #\\d+–#\\d+`));
      }
      assert.ok(forward.length > 2, 'more than two pages');
      const seen = forward.flat();
      assert.deepEqual(
        seen,
        Array.from({ length: 251 }, (_, index) => index + 1),
        'rows 1..251, none skipped or repeated',
      );

      const backKeys = [KEY.pageUp, 'b', '\u001B[D']; // PgUp, b, ←
      for (let page = forward.length - 1; page >= 1; page -= 1) {
        await press(view, backKeys[page % backKeys.length]!);
        frame = await waitForText(view, new RegExp(`page ${page} · #\\d+–#\\d+`));
        assert.deepEqual(rowSequences(frame), forward[page - 1], `page ${page} again`);
      }
      await press(view, KEY.pageUp);
      assert.match(view.lastFrame() ?? '', /page 1 · #1–/, 'back stops at the first page');
      await press(view, KEY.pageDown);
      await press(view, KEY.pageDown);
      await waitForText(view, /page 3 · #\d+–/);
      await press(view, 'g');
      await waitForText(view, /page 1 · #1–/);
    } finally {
      await unmount(view);
    }
  });

  test('left for another screen and shown again, History is where it was: the same stream, page and row', async () => {
    const view = await mount(harness.host.application, harness.home);
    /** The selected row as Enter opens it in full, then Esc. */
    const selectedInFull = async () => {
      await press(view, KEY.enter);
      const full = await waitForText(view, 'Journal row in full');
      await press(view, KEY.escape);
      await waitForText(view, /Journal · page 3/);
      return full.split('\n').slice(3, -1).join('\n');
    };
    try {
      await openHistory(view);
      await press(view, KEY.pageDown);
      await press(view, KEY.pageDown);
      const third = await waitForText(view, /page 3 · #\d+–#\d+/);
      await press(view, KEY.down.repeat(2));
      const selected = await selectedInFull();
      await press(view, '1');
      await waitForText(view, /\[1 Dashboard\]/);
      await press(view, '2');
      const back = await waitForText(view, /Journal · page 3 · #\d+–#\d+/);
      assert.deepEqual(rowSequences(back), rowSequences(third), 'the same rows');
      assert.equal(await selectedInFull(), selected, 'the same row selected');
      await press(view, KEY.pageUp);
      await waitForText(view, /page 2 · #\d+–/);
    } finally {
      await unmount(view);
    }
  });

  test('follow reads to the head, then shows a row appended later', async () => {
    const view = await mount(harness.host.application, harness.home);
    try {
      await narrowTo80(view);
      await openHistory(view);
      await press(view, 'f');
      const head = (await harness.host.application.status()).heads.journal;
      const frame = await waitForText(view, new RegExp(`#${head} · head ${head} · end · following`));
      // The heading says it follows; the help line names f stop and, at 80 columns, every key to q quit.
      const help = frame.split('\n').at(-1) ?? '';
      assert.match(help, /^t timeline · .*f stop · .*q quit$/);
      assert.ok(textColumns(help) <= 80, help);
      await harness.host.application.appendNote({ text: 'appended later by another writer' });
      await waitForText(view, 'appended later by another writer', 5000);
      await press(view, 'f');
      const stopped = await waitForFrame(
        view,
        'following off',
        (text) => !text.includes('· following') && !text.includes('following ·'),
      );
      assert.match(stopped, /f follow/);
    } finally {
      await unmount(view);
    }
  });
});

describe('note input', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHost();
  });
  after(async () => {
    await harness.stop();
  });

  test('a typed note is saved, its receipt shown, and it appears in the journal', async () => {
    let quits = 0;
    const view = await mount(harness.host.application, harness.home, { onQuit: () => (quits += 1) });
    try {
      await openHistory(view);
      await press(view, 'n');
      await waitForText(view, 'Enter save note · Esc cancel · Ctrl+C quit');
      for (const key of 'hello') await press(view, key);
      await press(view, ' from tmux? no, the test: q t 2');
      await press(view, KEY.backspace);
      await press(view, '3');
      await waitForText(view, 'note> hello from tmux? no, the test: q t 3');
      // Backspaces that arrive in one chunk (a held key over ssh or tmux) each delete a character.
      await press(view, 'XYZ');
      await waitForText(view, 'note> hello from tmux? no, the test: q t 3XYZ');
      await press(view, KEY.backspace.repeat(3));
      await waitForText(view, /note> hello from tmux\? no, the test: q t 3\s*\n/);
      assert.equal(quits, 0, 'q typed into the note does not quit');
      await press(view, KEY.enter);
      const frame = await waitForText(view, /note saved: journal #2 · operation [0-9a-f]{8}/);
      await waitForText(view, 'hello from tmux? no, the test: q t 3');
      assert.match(frame, /Journal · page 1/, 't typed into the note did not toggle the stream');
      const page = await harness.host.application.journal({ after: 1, limit: 10 });
      assert.equal(page.rows.length, 1);
      assert.deepEqual(page.rows[0]?.payload, { text: 'hello from tmux? no, the test: q t 3' });
    } finally {
      await unmount(view);
    }
  });

  test('text and Enter arriving in one write (fast typing) save the note; Enter is not turned into a space', async () => {
    const view = await mount(harness.host.application, harness.home);
    try {
      await openHistory(view);
      await press(view, 'n');
      await waitForText(view, 'Enter save note · Esc cancel · Ctrl+C quit');
      await press(view, 'typed in one go\r');
      await waitForText(view, /note saved: journal #\d+ · operation [0-9a-f]{8}/);
      const rows = (await harness.host.application.journal({ after: 0, limit: 100 })).rows;
      assert.deepEqual(rows.at(-1)?.payload, { text: 'typed in one go' });
    } finally {
      await unmount(view);
    }
  });

  test('Esc cancels the note without writing', async () => {
    const view = await mount(harness.host.application, harness.home);
    try {
      await openHistory(view);
      const before = (await harness.host.application.status()).heads.journal;
      await press(view, 'n');
      await press(view, 'never saved');
      await waitForText(view, 'note> never saved');
      await press(view, KEY.escape);
      await waitForFrame(view, 'input closed', (frame) => !frame.includes('note>') && frame.includes('n note'));
      assert.equal((await harness.host.application.status()).heads.journal, before);
    } finally {
      await unmount(view);
    }
  });
});

describe('a failing Application', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHost();
  });
  after(async () => {
    await harness.stop();
  });

  test('a rejected note is shown in one line; a retry of the same text reuses its operation ID', async () => {
    const operationIds: (string | undefined)[] = [];
    const real = harness.host.application;
    const failing = withOverrides(real, {
      appendNote: async (input) => {
        operationIds.push(input.operationId);
        if (operationIds.length === 3) throw new Error('socket hang up');
        throw new CmError('storage_failed', 'The disk is full. Free some space and retry.');
      },
    });
    const view = await mount(failing, harness.home);
    try {
      await openHistory(view);
      await press(view, 'n');
      await press(view, 'doomed');
      await press(view, KEY.enter);
      await waitForText(view, 'note: error storage_failed: The disk is full. Free some space and retry.');
      assert.ok((view.lastFrame() ?? '').includes('note> doomed'), 'the text stays for a retry');
      await press(view, KEY.enter);
      await waitForFrame(view, 'second attempt', () => operationIds.length === 2);
      assert.ok(operationIds[0], 'the TUI chose an operation ID');
      assert.equal(operationIds[1], operationIds[0], 'a retry of the same submission keeps its operation ID');
      await waitForText(view, 'note: error storage_failed');
      await press(view, KEY.backspace);
      await press(view, 'D');
      await press(view, KEY.enter);
      await waitForText(view, 'note: error internal: socket hang up');
      assert.notEqual(operationIds[2], operationIds[0], 'different text is a new submission');
      await press(view, KEY.escape);
      const closed = await waitForFrame(view, 'input closed', (frame) => !frame.includes('note>'));
      assert.ok(!closed.includes('error'), 'Esc clears the note error');
      await press(view, 't');
      await waitForText(view, 'Timeline · page 1');
    } finally {
      await unmount(view);
    }
  });

  test('History: the selected row opens in full, wrapped at word boundaries; v shows its raw JSON; Esc returns', async () => {
    const long = `${'remember to run '.repeat(8)}common-memory-install-with-a-very-long-unbroken-word-here and the end`;
    await harness.host.application.appendNote({ text: 'short one' });
    await harness.host.application.appendNote({ text: long });
    const view = await mount(harness.host.application, harness.home);
    try {
      await press(view, '2');
      let frame = await waitForText(view, /Journal · page 1 · .* end/);
      const rows = rowSequences(frame);
      // Select the last row (the long note): one ↓ per row above it.
      for (let index = 1; index < rows.length; index += 1) await press(view, KEY.down);
      await press(view, KEY.enter);
      frame = await waitForText(view, 'Journal row in full');
      assert.match(frame, /client\.note/);
      assert.ok(frame.includes('common-memory-install-with-a-very-long-unbroken-word-here'), 'the long word is whole');
      assert.ok(frame.replace(/\s+/g, ' ').includes(long.trim()), 'the whole text is there, broken only between words');
      await press(view, 'v');
      frame = await waitForText(view, '"kind": "client.note"');
      assert.match(frame, /Journal row in full · raw/);
      await press(view, KEY.escape);
      await waitForText(view, /Journal · page 1/);
    } finally {
      await unmount(view);
    }
  });

  test('an error too long for its line says so; e opens it in full, line breaks kept', async () => {
    const real = harness.host.application;
    const message = `The host answered with something long: ${'detail '.repeat(20)}\nSecond line: what to do next.`;
    const down = withOverrides(real, {
      status: async () => Promise.reject(new CmError('host_unreachable', message)),
    });
    const view = await mount(down, harness.home);
    try {
      let frame = await waitForText(view, /status: error host_unreachable: The host answered.*· e in full/);
      assert.doesNotMatch(frame, /Second line/);
      await press(view, 'e');
      frame = await waitForText(view, 'Second line: what to do next.');
      assert.match(frame, /status: error host_unreachable/);
      await press(view, KEY.escape);
      await waitForText(view, /· e in full/);
    } finally {
      await unmount(view);
    }
  });

  test('a failing status is shown on the dashboard and in the header, and the app keeps running', async () => {
    const real = harness.host.application;
    const down = withOverrides(real, {
      status: async () => Promise.reject(new CmError('host_unreachable', 'No host answers on port 1234.')),
    });
    const view = await mount(down, harness.home);
    try {
      const frame = await waitForText(view, 'status: error host_unreachable: No host answers on port 1234.');
      assert.match(frame, /in-process host · down \(host_unreachable\)/);
      await openHistory(view);
    } finally {
      await unmount(view);
    }
  });
});
