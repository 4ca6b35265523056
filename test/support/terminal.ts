// A person's terminal for end-to-end TUI runs: a pty from `script` (so stdin and stdout are TTYs),
// 80×24, and no CI markers (with them Ink prints only the last frame).
import { spawn, type ChildProcess } from 'node:child_process';
import { isCiMarker } from '../../source/cli/commands/tui.js';
import { shellQuote } from '../../source/shell-quote.js';

export function terminalEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, COLUMNS: '80', LINES: '24', ...extra };
  for (const key of Object.keys(env)) if (isCiMarker(key)) delete env[key];
  return env;
}

/** Runs `words` in a pty; `script -e` exits with the command's own status. stderr is the pty's too. */
export function spawnInTerminal(
  words: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): ChildProcess & {
  stdin: NonNullable<ChildProcess['stdin']>;
  stdout: NonNullable<ChildProcess['stdout']>;
  stderr: NonNullable<ChildProcess['stderr']>;
} {
  return spawn('script', ['-q', '-e', '-c', words.map(shellQuote).join(' '), '/dev/null'], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  }) as never;
}
