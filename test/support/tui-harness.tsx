// Shared driving of the TUI in tests: render, key presses and unmount inside act(); waits poll
// the last frame with a deadline (no fixed sleeps). Frames are plain text (NO_COLOR theme).
import assert from 'node:assert/strict';
import { render } from 'ink-testing-library';
import * as React from 'react';
import type { Application } from '../../source/api/application.js';
import { App, type AppProps } from '../../source/screens/app.js';
import { themeFor } from '../../source/screens/widgets/theme.js';
import { textColumns } from '../../source/text-columns.js';

/**
 * React's act() exists in its development build only. Under NODE_ENV=production (the benchmarks:
 * the build a user runs) the work runs as it is and renders land on their own; waits poll anyway.
 */
export const act: (work: () => Promise<void>) => Promise<void> =
  (React as { act?: (work: () => Promise<void>) => Promise<void> }).act ?? ((work) => work());
if ((React as { act?: unknown }).act)
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export const KEY = {
  up: '\u001B[A',
  down: '\u001B[B',
  pageDown: '\u001B[6~',
  pageUp: '\u001B[5~',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  ctrlC: '\u0003',
  backspace: '\u007F',
};

export type View = ReturnType<typeof render>;

/**
 * Renders the App. No editor unless a test gives one (`editor`): the Memory screen's `e` never
 * opens the editor of whoever runs the tests.
 */
export async function mount(app: Application, home: string, extra: Partial<AppProps> = {}): Promise<View> {
  let view: View | undefined;
  await act(async () => {
    view = render(
      <App
        app={app}
        home={home}
        connection="in-process host"
        theme={themeFor({ NO_COLOR: '1' })}
        editor={{ env: {} }}
        {...extra}
      />,
    );
  });
  return view!;
}

export async function press(view: View, keys: string): Promise<void> {
  await act(async () => {
    view.stdin.write(keys);
  });
}

/** Types text one key at a time, as a person does (a multi-character write is a paste). */
export async function type(view: View, text: string): Promise<void> {
  for (const key of text) await press(view, key);
}

export async function unmount(view: View): Promise<void> {
  await act(async () => {
    view.unmount();
  });
}

/** Polls the last frame (inside act, so effects and timers flush) until `accept` holds or the deadline passes. */
export async function waitForFrame(
  view: View,
  what: string,
  accept: (frame: string) => boolean,
  timeoutMs = 8000,
  stepMs = 20,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = view.lastFrame() ?? '';
    if (accept(frame)) return frame;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last frame:\n${frame}`);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, stepMs));
    });
  }
}

export const waitForText = (view: View, text: string | RegExp, timeoutMs?: number) =>
  waitForFrame(
    view,
    String(text),
    (frame) => (typeof text === 'string' ? frame.includes(text) : text.test(frame)),
    timeoutMs,
  );

/** The real Application with some methods replaced; everything else goes to the real one. */
export function withOverrides(real: Application, overrides: Partial<Application>): Application {
  return new Proxy(real, {
    get: (target, property) =>
      property in overrides ? overrides[property as keyof Application] : Reflect.get(target, property),
  });
}

/** Every line of a frame within 80 columns and the frame within 24 rows: the smallest terminal supported. */
export function assertFits80x24(frame: string): void {
  const lines = frame.split('\n');
  assert.ok(lines.length <= 24, `${lines.length} rows:\n${frame}`);
  for (const line of lines) assert.ok(textColumns(line) <= 80, `wider than 80: ${line}`);
}

/** The terminal resized to `columns` × `rows` (the screen follows a resize). */
export async function resizeTo(view: View, columns: number, rows: number): Promise<void> {
  await act(async () => {
    Object.defineProperty(view.stdout, 'columns', { value: columns, configurable: true });
    Object.defineProperty(view.stdout, 'rows', { value: rows, configurable: true });
    (view.stdout as unknown as NodeJS.EventEmitter).emit('resize');
  });
}

/** ink-testing-library's terminal is 100 columns: narrowed to 80 (the screen follows a resize). */
export async function narrowTo80(view: View): Promise<void> {
  await act(async () => {
    Object.defineProperty(view.stdout, 'columns', { value: 80, configurable: true });
    (view.stdout as unknown as NodeJS.EventEmitter).emit('resize');
  });
}

/** The Agents screen's new-agent form at 80 columns, on an app with no agents yet. */
export async function openNewAgentForm(view: View): Promise<void> {
  await narrowTo80(view);
  await press(view, '3');
  await waitForText(view, 'no agents yet');
  await press(view, 'c');
  await waitForText(view, 'New agent');
}

/** The Memory screen's Entries view, before any search, with its search line open (`/`). */
export async function openSearchLine(view: View): Promise<string> {
  await press(view, '7');
  await waitForText(view, /\[Review\]/);
  await press(view, ']');
  await press(view, ']');
  await waitForText(view, /search: \(none yet\)/);
  await press(view, '/');
  return waitForText(view, /^search>/m);
}

/** The Memory screen's Extraction view ([ [ from Review: Usage is the last view), its runners listed. */
export async function openExtraction(view: View) {
  await press(view, '7');
  await waitForText(view, /\[Review\]/);
  await press(view, '[');
  await waitForText(view, /\[Usage\]/);
  await press(view, '[');
  await waitForText(view, /x extract · r runner builtin/);
  // r waits for the runners memory status lists.
  await waitForText(view, /ext: example-provider example-model/);
}
