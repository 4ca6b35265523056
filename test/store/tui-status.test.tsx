// The Processing status screen over a real host: recovery items made by the real hook and drain
// code from recorded Codex data, paged twenty at a time, retried after a y/n question; drain and
// flush from the keyboard; and, with 10 000 open recovery items, bounded reads for every key
// (the key → frame time is a benchmark figure: npm run bench -- tui).
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { after, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { seedRecoveryItems } from '../support/recovery-seed.js';
import { KEY, mount, press, unmount, waitForFrame, waitForText, type View } from '../support/tui-harness.js';

after(() => c.closeStores());

async function openStatus(view: View): Promise<string> {
  await press(view, '4');
  return waitForText(view, /Processing status · mode local/);
}

/** The recovery IDs on screen, in order. */
const shownItems = (frame: string): string[] => [...frame.matchAll(/^[> ] (rec-\d+) /gm)].map((match) => match[1]!);
const selectedItem = (frame: string): string | undefined => /^> (rec-\d+) /m.exec(frame)?.[1];

describe('Processing status with 45 isolated sessions', { timeout: 120_000 }, () => {
  test('drain shows its result; items page 20 at a time with more and back; a retry asks first, fails keeping its ID, then recovers', async () => {
    const home = tempHome('tui-status');
    const fixture = c.rolloutFixture('d-failed-turn-http400.jsonl');
    const transcripts: string[] = [];
    for (let i = 0; i < 45; i++) {
      const transcript = c.copyTranscript(fixture, `${c.transcriptDir(home)}/${i}`);
      appendFileSync(transcript, 'not json\n');
      transcripts.push(transcript);
      // Session 1 keeps the recording's own session id, so repairing its transcript makes it valid again.
      c.replay(
        home,
        'codex',
        c.hookFiles('codex', 'd'),
        transcript,
        `proc-${i}`,
        i === 1 ? {} : { session_id: `session-${i}` },
      );
    }
    c.closeStores();
    const host = await Host.start({ home, serve: false });
    const view = await mount(host.application, home);
    try {
      let frame = await openStatus(view);
      frame = await waitForText(view, /Host\s+inbox \d+ · watch \d+ · isolated 0/);
      assert.match(frame, /Sessions · 45 in total/);
      assert.match(frame, /d drain · f flush · q quit/);

      await press(view, 'd');
      frame = await waitForText(view, /drain: \d+ steps · 0 turns sealed · 45 isolated \(\d+\.\ds\)/, 60_000);
      frame = await waitForText(view, /Recovery items · 1–20 of 45 · page 1 · more: PgDn/);
      assert.match(frame, /isolated 45/);
      assert.match(frame, /^> rec-1 +transcript_invalid_json +codex /m);

      const seen: string[] = [];
      seen.push(...(await collectPage(view, frame)));
      await press(view, KEY.pageDown);
      frame = await waitForText(view, /Recovery items · 21–40 of 45 · page 2 · more: PgDn/);
      assert.match(frame, /PgDn more · PgUp back/);
      seen.push(...(await collectPage(view, frame)));
      await press(view, KEY.pageDown);
      frame = await waitForText(view, /Recovery items · 41–45 of 45 · page 3$/m);
      seen.push(...(await collectPage(view, frame)));
      assert.equal(seen.length, 45);
      assert.equal(new Set(seen).size, 45, 'every item exactly once');
      await press(view, KEY.pageDown);
      await press(view, KEY.pageUp);
      frame = await waitForText(view, /Recovery items · 21–40 of 45 · page 2/);
      await press(view, 'g');
      frame = await waitForText(view, /Recovery items · 1–20 of 45 · page 1/);

      // Retry rec-2: Enter asks, n declines, Enter + y retries. Still broken: kept with the same ID.
      await press(view, KEY.down);
      await waitForText(view, /^> rec-2 /m);
      await press(view, KEY.enter);
      frame = await waitForText(view, /Retry rec-2 \(transcript_invalid_json, codex .+\)\? y retry · n cancel/);
      assert.match(frame, /y retry rec-2 · n\/Esc cancel/);
      await press(view, 'n');
      await waitForFrame(view, 'the question closed', (text) => !text.includes('Retry rec-2'));
      assert.equal((await host.application.captureStatus({})).recovery.items[1]?.attempts, 1, 'n retried nothing');
      await press(view, KEY.enter);
      await press(view, 'y');
      frame = await waitForText(view, /retry rec-2: still failing — kept as rec-2/, 30_000);
      frame = await waitForText(view, /^> rec-2 .* tries 2 /m);

      // Repair the transcript of rec-2's session (the second one hooked and drained) and retry again: consumed, 44 left.
      writeFileSync(transcripts[1]!, readFileSync(fixture));
      await press(view, KEY.enter);
      await press(view, 'y');
      await waitForText(view, /retry rec-2: recovered — the item is consumed/, 30_000);
      frame = await waitForText(view, /Recovery items · 1–20 of 44/);
      assert.ok(!shownItems(frame).includes('rec-2'));

      await press(view, 'f');
      frame = await waitForText(
        view,
        /flush incomplete — left: buffered 0 · inbox 0 · watch 0 · isolated 44 · sealed 0/,
        60_000,
      );
    } finally {
      await unmount(view);
      await host.stop();
      await rm(dirname(home), { recursive: true, force: true });
    }
  });
});

/** Moves the selection through the whole page (the window shows part of it) and returns every item ID seen. */
async function collectPage(view: View, frame: string): Promise<string[]> {
  const ids = new Set(shownItems(frame));
  let selected = selectedItem(frame);
  for (let step = 0; step < 25; step++) {
    await press(view, KEY.down);
    const next = await waitForFrame(view, 'the selection to settle', (text) => selectedItem(text) !== undefined);
    for (const id of shownItems(next)) ids.add(id);
    if (selectedItem(next) === selected) break; // the last item of the page
    selected = selectedItem(next);
  }
  for (let step = 0; step < 25; step++) await press(view, KEY.up);
  return [...ids];
}

/** Milliseconds are the benchmark's (npm run bench -- tui); here: each key shows its frame, with bounded reads. */
async function keyToFrame(view: View, key: string, what: string, accept: (frame: string) => boolean): Promise<void> {
  await press(view, key);
  await waitForFrame(view, what, accept, 5000, 1);
}

describe('Processing status with 10 000 recovery items', { timeout: 120_000 }, () => {
  test('each key shows its frame from one page of at most twenty; pages around it are read ahead, never the whole list', async () => {
    const home = tempHome('tui-status-10k');
    seedRecoveryItems(home, 10_000);
    const host = await Host.start({ home, serve: false });
    let calls = 0;
    let inFlight = 0;
    const pageSizes = new Set<number>();
    const app = new Proxy(host.application, {
      get: (target, property) =>
        property === 'captureStatus'
          ? async (request: { afterRecovery?: string }) => {
              calls += 1;
              inFlight += 1;
              try {
                const status = await target.captureStatus(request);
                pageSizes.add(status.recovery.items.length);
                return status;
              } finally {
                inFlight -= 1;
              }
            }
          : Reflect.get(target, property),
    });
    const view = await mount(app, home);
    // A person's keys come tens of milliseconds apart: let the read-ahead finish before the next key.
    const settled = () => waitForFrame(view, 'reads to finish', () => inFlight === 0, 5000, 1);
    try {
      await openStatus(view);
      let frame = await waitForText(view, /Recovery items · 1–20 of 10000 · page 1 · more: PgDn/);
      assert.ok(shownItems(frame).length <= 20);
      for (let i = 1; i < 20; i++) {
        await settled();
        await keyToFrame(view, KEY.down, `rec-${i + 1} selected`, (text) => selectedItem(text) === `rec-${i + 1}`);
      }
      const pageShown = (page: number) => (text: string) =>
        new RegExp(`${(page - 1) * 20 + 1}–${page * 20} of 10000 · page ${page}( |$)`, 'm').test(text);
      for (let page = 2; page <= 11; page++) {
        await settled();
        await keyToFrame(view, KEY.pageDown, `page ${page}`, pageShown(page));
      }
      for (let page = 10; page >= 1; page--) {
        await settled();
        await keyToFrame(view, KEY.pageUp, `page ${page} again`, pageShown(page));
      }
      // Keys back to back (a held PgDn): a page not read ahead yet waits for its own read.
      for (let page = 2; page <= 6; page++)
        await keyToFrame(view, KEY.pageDown, `page ${page} (burst)`, pageShown(page));
      await settled();
      frame = view.lastFrame() ?? '';
      assert.equal(shownItems(frame).length, 10, 'only the rows that fit are rendered');
      // The periodic refresh adds reads at its own pace, so their number is not asserted; their size is.
      assert.deepEqual([...pageSizes], [20], `every one of the ${calls} reads is one page of twenty, never the list`);
    } finally {
      await unmount(view);
      await host.stop();
      await rm(dirname(home), { recursive: true, force: true });
    }
  });
});
