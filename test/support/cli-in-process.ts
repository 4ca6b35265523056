// The CLI called in this process (source/cli/main.ts `main(argv, streams)`), for tests of argument
// parsing, results and errors, where the process itself is not what is tested: no spawn, no bundle
// to load. Exit codes of the real process, stdin, signals and the hook's fast path stay with
// support/cli.ts `runCli`, which runs the shipped bin.
//
// It pays for reads (a read-only connection) and for calls to a running host (its HTTP API): a few
// milliseconds against about half a second of CPU per spawn. A command that writes without a host
// starts a local host here (about 0.25 s of CPU under `npm test`, whose hosts run their threads from
// dist/; about 1.4 s in a file run alone, under tsx) against 0.5–1.5 s for a spawn that writes: a
// test file keeps its first call of each command with `runCli`, for the real process's exit code.
import { main } from '../../source/cli/main.js';
import type { CliResult } from './cli.js';

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `main(args)` with captured stdout and stderr. `cwd` and `env` are the process's own for the
 * call's length (restored after), so calls are queued one after another within a test file; test
 * files run in processes of their own.
 */
export function runCliInProcess(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliResult> {
  const call = queue.then(() => runNow(args, options));
  queue = call.catch(() => undefined);
  return call;
}

async function runNow(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const streams = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  };
  const cwd = process.cwd();
  const saved = Object.entries(options.env ?? {}).map(([name]) => [name, process.env[name]] as const);
  for (const [name, value] of Object.entries(options.env ?? {})) setEnv(name, value);
  if (options.cwd) process.chdir(options.cwd);
  try {
    const code = await main(args, streams);
    return { code, signal: null, stdout, stderr };
  } finally {
    if (options.cwd) process.chdir(cwd);
    for (const [name, value] of saved) setEnv(name, value);
  }
}

function setEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
