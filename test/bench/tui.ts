// TUI figures (PRODUCT.md Targets): the shipped `common-memory` in a real terminal (a pty from
// `script`, 80×24, no CI markers), from the process start to the first frame (the Dashboard drawn)
// and to the first frame with the in-process host's data; then `q`. Beside it, the floor: bare
// `node` started the same way until its first byte. Then key → frame on Processing status with
// 10 000 open recovery items, rendered in process (ink's test renderer, no terminal).
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Host } from '../../source/host/host.js';
import { BIN, tempHome } from '../support/cli.js';
import { seedRecoveryItems } from '../support/recovery-seed.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';
import { act, KEY, mount, press, unmount, waitForFrame, type View } from '../support/tui-harness.js';
import { type Figure, median, report } from './measure.js';

/** Milliseconds from spawn until each marker first appears in the terminal's output. */
function timeToMarkers(
  command: string[],
  env: NodeJS.ProcessEnv,
  markers: string[],
  quit: string | null,
): Promise<number[]> {
  const start = process.hrtime.bigint();
  const child = spawnInTerminal(command, env);
  const seen: number[] = [];
  let output = '';
  let quitting = false;
  child.stdin.on('error', () => undefined); // the TUI may be gone by the time a key arrives
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`markers not seen: ${markers.slice(seen.length).join(', ')}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      while (seen.length < markers.length && output.includes(markers[seen.length]!))
        seen.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (seen.length === markers.length && quit !== null && !quitting) {
        quitting = true;
        child.stdin.write(quit);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (seen.length === markers.length) resolve(seen);
      else reject(new Error(`exited before ${markers.slice(seen.length).join(', ')}`));
    });
  });
}

/** Milliseconds from writing `key` until the frame satisfies `accept` (polled every millisecond). */
export async function keyToFrame(
  view: View,
  key: string,
  what: string,
  accept: (frame: string) => boolean,
): Promise<number> {
  const started = performance.now();
  await press(view, key);
  await waitForFrame(view, what, accept, 5000, 1);
  return performance.now() - started;
}

/** Lets `ms` pass with effects and timers flushed (inside act), as between two keys of a person. */
export const pause = (ms: number) =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
  });

/** Selection moves and page keys on Processing status over a host whose store holds 10 000 open recovery items. */
async function statusKeys(): Promise<Figure[]> {
  const home = tempHome('bench-tui-status');
  seedRecoveryItems(home, 10_000);
  const host = await Host.start({ home, serve: false });
  const view = await mount(host.application, home);
  const selected = (frame: string) => /^> (rec-\d+) /m.exec(frame)?.[1];
  const pageShown = (page: number) => (text: string) =>
    new RegExp(`${(page - 1) * 20 + 1}–${page * 20} of 10000 · page ${page}( |$)`, 'm').test(text);
  const moves: number[] = [];
  const pages: number[] = [];
  try {
    await press(view, '4');
    await waitForFrame(view, 'the first page', pageShown(1), 10_000);
    for (let round = 0; round < 3; round++) {
      for (let i = 2; i <= 20; i++)
        moves.push(
          await keyToFrame(
            view,
            KEY.down,
            `rec-${round * 20 + i} selected`,
            (text) => selected(text) === `rec-${round * 20 + i}`,
          ),
        );
      // A person's keys come tens of milliseconds apart: the next page has been read ahead.
      await pause(100);
      pages.push(await keyToFrame(view, KEY.pageDown, `page ${round + 2}`, pageShown(round + 2)));
      await pause(100);
    }
    for (let page = 3; page >= 1; page--) {
      pages.push(await keyToFrame(view, KEY.pageUp, `page ${page} again`, pageShown(page)));
      await pause(100);
    }
  } finally {
    await unmount(view);
    await host.stop();
    await rm(dirname(home), { recursive: true, force: true });
  }
  const excludes = 'from writing the key to the frame, in process; excludes seeding the store and the host start';
  return [
    {
      name: `status key → frame, selection move with 10k recovery items (median of ${moves.length}; ${excludes})`,
      value: `${median(moves).toFixed(1)} ms (max ${Math.max(...moves).toFixed(1)} ms)`,
      target: '<= 50 ms',
      met: median(moves) <= 50,
    },
    {
      name: `status key → frame, PgDn/PgUp with 10k recovery items, 100 ms between keys (median of ${pages.length}; same)`,
      value: `${median(pages).toFixed(1)} ms (max ${Math.max(...pages).toFixed(1)} ms)`,
      target: '<= 50 ms',
      met: median(pages) <= 50,
    },
  ];
}

/** The first frame and the first frame with the host's data, beside bare node's first byte (median of 7). */
export async function firstFrameFigures(): Promise<Figure[]> {
  const home = tempHome('bench-tui');
  mkdirSync(home, { recursive: true });
  const env = terminalEnv({ COMMON_MEMORY_HOME: home });
  await timeToMarkers([process.execPath, BIN], env, ['Dashboard', 'mode host'], 'q'); // creates the store once
  const frame: number[] = [];
  const data: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < 7; i++) {
    const [first, withData] = await timeToMarkers([process.execPath, BIN], env, ['Dashboard', 'mode host'], 'q');
    frame.push(first!);
    data.push(withData!);
    floor.push(
      (await timeToMarkers([process.execPath, '-e', 'process.stdout.write("ready")'], env, ['ready'], null))[0]!,
    );
  }
  const ratio = median(frame) / median(floor);
  return [
    {
      name: 'TUI first frame, in-process host starting (median of 7)',
      value: `${median(frame).toFixed(0)} ms`,
      floor: `${median(floor).toFixed(0)} ms bare node, first byte`,
      ratio,
      target: '<= 500 ms and <= 3x',
      met: median(frame) <= 500 && ratio <= 3,
      id: 'tui.first-frame',
      better: 'lower',
    },
    {
      name: "TUI first frame with the host's data (median of 7)",
      value: `${median(data).toFixed(0)} ms`,
      floor: `${median(floor).toFixed(0)} ms bare node, first byte`,
      ratio: median(data) / median(floor),
      target: '<= 800 ms',
      met: median(data) <= 800,
      id: 'tui.first-frame-data',
      better: 'lower',
    },
  ];
}

export async function runTuiBench(): Promise<Figure[]> {
  const figures = [...(await firstFrameFigures()), ...(await statusKeys())];
  report(figures);
  return figures;
}
