// Full-screen entry: the alternate screen buffer and bracketed paste while the TUI runs, the
// user's terminal back afterwards — on q, Ctrl+C, SIGTERM/SIGHUP, a render error or a crash.
import { render, type Instance } from 'ink';
import type { Application } from '../api/application.js';
import { ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN } from './alternate-screen.js';
import { App } from './app.js';
import { ASK_BRACKETED_PASTE, BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from './keyboard/bracketed-paste.js';
import type { QuitReason, ShellEnvironment } from './shell/shell-context.js';

export interface RunTuiOptions {
  app: Application;
  home: string;
  connection: 'in-process host' | 'remote host';
  integrations?: ShellEnvironment['integrations'];
  onExit?: () => void;
  /** Rejects when what the TUI depends on failed (the host did not start): the TUI closes and rethrows. */
  failed?: Promise<never>;
  /** Called once, after the first frame is written: what the first frame does not need starts here. */
  onFirstFrame?: () => void;
}

/** Resolves with how the user quit (a signal counts as quit); rejects (with the terminal restored) if rendering failed. */
export async function runTui(options: RunTuiOptions): Promise<QuitReason> {
  const { stdout, stdin } = process;
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    // A shell left with bracketed paste on would get the markers around everything pasted into it.
    stdout.write(BRACKETED_PASTE_OFF + LEAVE_ALTERNATE_SCREEN);
    if (stdin.isTTY) stdin.setRawMode(false);
  };
  let instance: Instance | undefined;
  let signalled = false;
  let how: QuitReason = 'quit';
  // A signal ends the TUI like q does, so the caller still stops its host in order.
  const stopOnSignal = () => {
    signalled = true;
    instance?.unmount();
  };
  let failure: { error: unknown } | undefined;
  options.failed?.catch((error: unknown) => {
    failure = { error };
    instance?.unmount();
  });
  // Raw mode before the question whether pastes are bracketed (keyboard/bracketed-paste.ts): the
  // terminal's answer comes back as input, and a terminal in cooked mode would echo it on screen.
  if (stdin.isTTY) stdin.setRawMode(true);
  stdout.write(ENTER_ALTERNATE_SCREEN + BRACKETED_PASTE_ON + ASK_BRACKETED_PASTE);
  // Last resort: a crash that skips `finally` still leaves the user's terminal usable.
  process.once('exit', restore);
  // `on`, not `once`, and kept after a signal: Ink's and execa's signal-exit copies re-raise a
  // signal once they see no other listener, which killed the process (exit 143) while the caller
  // was still stopping its host. Observed in tmux with `kill -TERM`.
  process.on('SIGTERM', stopOnSignal);
  process.on('SIGHUP', stopOnSignal);
  try {
    let drawn = false;
    // Ctrl+C goes through the keyboard router like every key (exitOnCtrlC would bypass it).
    instance = render(
      <App
        app={options.app}
        home={options.home}
        connection={options.connection}
        integrations={options.integrations}
        onQuit={(reason) => (how = reason)}
      />,
      {
        exitOnCtrlC: false,
        // Ink calls this just before it writes the frame: the callback runs once that write is done.
        onRender: () => {
          if (drawn) return;
          drawn = true;
          if (options.onFirstFrame) setImmediate(options.onFirstFrame);
        },
      },
    );
    if (failure) instance.unmount();
    await instance.waitUntilExit();
    if (failure) throw failure.error;
    return how;
  } finally {
    instance?.cleanup();
    restore();
    process.off('exit', restore);
    if (!signalled) {
      process.off('SIGTERM', stopOnSignal);
      process.off('SIGHUP', stopOnSignal);
    }
    options.onExit?.();
  }
}
