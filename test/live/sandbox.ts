// A throw-away world for one live scenario: a HOME, the client's config dir inside it and a
// workspace cwd, plus the environment the client runs in. The environment is built from
// scratch (not inherited) so that no real API key, proxy or user config can leak in, and
// every "phone home" switch the clients document is off.
import { mkdtemp, mkdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SandboxPaths {
  /** Everything below this is removed by cleanup(). */
  readonly root: string;
  /** HOME of the client (and of its hooks). */
  readonly home: string;
  /** The session cwd (the "project"). */
  readonly cwd: string;
}

export interface Sandbox extends SandboxPaths {
  cleanup(): Promise<void>;
}

/** Extra environment for the client and, through it, for its hooks. */
export type EnvOption = Readonly<Record<string, string>> | ((paths: SandboxPaths) => Readonly<Record<string, string>>);

/** The command a hook config runs; a function gets the event name (e.g. to pass it as argv). */
export type HookCommand = string | ((event: string) => string);

/** Set CM_LIVE_KEEP=1 to keep sandboxes for inspection after a run. */
export const KEEP_ENV = 'CM_LIVE_KEEP';
/**
 * Where sandboxes are created (default: the OS temp dir). Codex refuses to create its PATH
 * helper aliases under /tmp (a stderr warning, harmless for these tests); point this
 * elsewhere to get the exact non-temp behaviour.
 */
export const TMPDIR_ENV = 'CM_LIVE_TMPDIR';

export async function makeSandbox(prefix: string): Promise<Sandbox> {
  // realpath: the clients canonicalise cwd (Claude derives the project slug from it).
  const base = process.env[TMPDIR_ENV] || tmpdir();
  await mkdir(base, { recursive: true });
  const root = await realpath(await mkdtemp(join(base, `cm-live-${prefix}-`)));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  return {
    root,
    home,
    cwd,
    cleanup: async () => {
      if (process.env[KEEP_ENV] === '1') return;
      // A client's own background writer (Claude Code's session files) may still be finishing a
      // write after the client exited: rmdir then meets ENOTEMPTY, and a retry succeeds.
      await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

export function resolveEnv(option: EnvOption | undefined, paths: SandboxPaths): Record<string, string> {
  if (option === undefined) return {};
  return { ...(typeof option === 'function' ? option(paths) : option) };
}

/**
 * The base of every client environment. PATH starts with this node's directory so that a
 * hook command `node …` runs the same Node as the tests.
 */
export function baseEnv(home: string): Record<string, string> {
  return {
    PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    USER: process.env['USER'] ?? 'user',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: tmpdir(),
  };
}

export function hookCommandFor(command: HookCommand, event: string): string {
  return typeof command === 'string' ? command : command(event);
}

/** POSIX single-quote quoting: the hook command string is run through a shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
