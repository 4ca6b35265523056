// A real terminal for an interactive client: a tmux server on its own socket (never the user's),
// one window of a fixed size, keys sent as a person types them and the screen read back.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { shellQuote } from './sandbox.js';

export interface TmuxSession {
  /** The visible screen, one string (trailing blanks trimmed per line). */
  screen(): string;
  /** Literal text, as typed. */
  type(text: string): void;
  /** tmux key names: `Enter`, `Escape`, `Down`… */
  press(...keys: string[]): void;
  /** Waits until `predicate(screen)` holds; on the deadline fails with what it waited for and the screen. */
  waitFor(what: string, predicate: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  /** True while the command in the window still runs. */
  alive(): boolean;
  /** Kills the tmux server of this session (and so its window). */
  close(): void;
}

export interface TmuxOptions {
  /** The socket lives here, so the server is ours alone. */
  readonly dir: string;
  readonly cwd: string;
  /** The whole environment of the command (built from scratch, as for the `-p` runs). */
  readonly env: Readonly<Record<string, string>>;
  readonly command: readonly string[];
  readonly columns?: number;
  readonly rows?: number;
}

export function startTmux(options: TmuxOptions): TmuxSession {
  const socket = join(options.dir, 'tmux.sock');
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const env = Object.entries(options.env).map(([key, value]) => `${key}=${value}`);
  // remain-on-exit: the pane (and its last screen) outlives the command, so an exit can be seen.
  const line = ['env', '-i', ...env, ...options.command].map(shellQuote).join(' ');
  tmux(
    'new-session',
    '-d',
    '-s',
    'live',
    '-x',
    String(options.columns ?? 120),
    '-y',
    String(options.rows ?? 40),
    '-c',
    options.cwd,
    line,
  );
  tmux('set-option', '-t', 'live', 'remain-on-exit', 'on');
  const session: TmuxSession = {
    screen: () => tmux('capture-pane', '-p', '-t', 'live').replace(/[ \t]+$/gm, ''),
    type: (text) => void tmux('send-keys', '-t', 'live', '-l', text),
    press: (...keys) => void tmux('send-keys', '-t', 'live', ...keys),
    async waitFor(what, predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const screen = session.screen();
        if (predicate(screen)) return screen;
        if (Date.now() > deadline)
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    alive: () => tmux('display-message', '-p', '-t', 'live', '#{pane_dead}').trim() === '0',
    close: () => {
      try {
        tmux('kill-server');
      } catch {
        // Already gone (the server exits with its last window).
      }
    },
  };
  return session;
}
