// Runs one real client as a child process: stdin from /dev/null (Codex exec otherwise
// waits for piped input), bounded output, and a hard deadline. The child gets its own
// process group so that on timeout we can end exactly what we started (the client, its
// hooks and its tool commands) by that group's id, never by name.
import { spawn } from 'node:child_process';

export interface ChildResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

export interface ChildOptions {
  readonly cwd: string;
  /** The complete environment: nothing is inherited from the test process. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** Output beyond this is dropped: a runaway client must not exhaust the test's memory. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** After the client exits, how long leftovers (a hook still holding stdout) may linger. */
const DRAIN_GRACE_MS = 2_000;

export function runChild(file: string, args: readonly string[], options: ChildOptions): Promise<ChildResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const pid = child.pid;
    if (pid === undefined) {
      child.once('error', reject);
      return;
    }
    const stdout = collector();
    const stderr = collector();
    child.stdout.on('data', stdout.push);
    child.stderr.on('data', stderr.push);

    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const timers: NodeJS.Timeout[] = [];
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-pid, signal);
      } catch {
        // ESRCH: the group is already gone.
      }
    };

    timers.push(
      setTimeout(() => {
        timedOut = true;
        killGroup('SIGTERM');
        timers.push(setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS));
      }, options.timeoutMs),
    );

    child.once('error', (error) => {
      timers.forEach(clearTimeout);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // Anything of ours still alive (e.g. a hook the client did not wait for) holds the
      // pipes open; give it a moment, then end it so that no test leaves processes behind.
      timers.push(setTimeout(() => killGroup('SIGKILL'), DRAIN_GRACE_MS));
    });
    child.once('close', () => {
      timers.forEach(clearTimeout);
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: Date.now() - started,
      });
    });
  });
}

function collector(): { push: (chunk: Buffer) => void; text: () => string } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    push: (chunk) => {
      if (size >= MAX_OUTPUT_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}
