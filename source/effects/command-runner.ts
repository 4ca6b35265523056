// The `command` runner: any executable, run with no shell in its own process group. The task's
// exact bytes go to stdin, the answer comes from stdout (bounded), stderr goes to a bounded log of
// the task. A time-out, an over-size answer, a non-zero exit, a signal or a process of its group
// still alive after it exits is a failed attempt with a fixed code, and the whole group is killed.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ExternalRunner, RunnerTask, RunOptions } from '../memory/runner.js';
import { screenRunnerTask } from '../memory/runner-input-lint.js';
import { runnerEnvironment, STDERR_LOG_MAX_BYTES, type CommandProfile } from './runner-profiles.js';

/** The fixed codes of a failed attempt; each starts the recorded reason. */
export type RunnerFailureCode =
  | 'runner-spawn-failed'
  | 'runner-timeout'
  | 'runner-output-over-size'
  | 'runner-exit-nonzero'
  | 'runner-signal'
  | 'runner-leftover-process'
  | 'runner-cancelled'
  | 'runner-tool-call'
  | 'runner-no-answer';

export class RunnerFailure extends Error {
  constructor(
    readonly code: RunnerFailureCode,
    detail: string,
    /** What it printed before a non-zero exit (a client may explain its exit there). */
    readonly stdout: Buffer | null = null,
  ) {
    super(`${code}: ${detail}`);
  }
}

/** How long after its exit a process of the group may still be on its way out (a zombie being reaped). */
const LEFTOVER_GRACE_MS = 100;

export interface ProcessSpec {
  argv: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  input: Buffer;
  timeoutMs: number;
  maxStdoutBytes: number;
  /** Where stderr goes (bounded); null drops it. */
  stderrLog: string | null;
  signal?: AbortSignal | undefined;
  /** Each whole stderr line (the first 4 KiB of it); a failure it returns ends the run at once. */
  watchStderr?: ((line: string) => RunnerFailure | null) | undefined;
}

const WATCHED_LINE_MAX = 4096;

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const killGroup = (pgid: number) => {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
};

/** One bounded run of a process in its own group; resolves its stdout or rejects with a RunnerFailure. */
export function runProcess(spec: ProcessSpec): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const [program, ...args] = spec.argv;
    let log: number | null = null;
    let logged = 0;
    let dropped = 0;
    if (spec.stderrLog) {
      try {
        mkdirSync(dirname(spec.stderrLog), { recursive: true, mode: 0o700 });
        log = openSync(spec.stderrLog, 'w', 0o600);
        chmodSync(spec.stderrLog, 0o600);
      } catch (error) {
        reject(new RunnerFailure('runner-spawn-failed', `cannot write its log: ${(error as Error).message}`));
        return;
      }
    }
    const child = spawn(program!, args, {
      env: spec.env,
      cwd: spec.cwd,
      detached: true, // its own process group: everything it starts is reaped with it
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: RunnerFailure | null = null;
    let settled = false;
    const fail = (error: RunnerFailure) => {
      failure ??= error;
      if (child.pid) killGroup(child.pid);
    };
    const timer = setTimeout(
      () => fail(new RunnerFailure('runner-timeout', `no answer within ${spec.timeoutMs} ms`)),
      spec.timeoutMs,
    );
    const onAbort = () => fail(new RunnerFailure('runner-cancelled', 'the run was cancelled'));
    spec.signal?.addEventListener('abort', onAbort);
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      if (log !== null) {
        if (dropped > 0) writeSync(log, `\n[${dropped} more bytes of stderr dropped]\n`);
        closeSync(log);
      }
      outcome();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > spec.maxStdoutBytes) {
        fail(new RunnerFailure('runner-output-over-size', `stdout passed ${spec.maxStdoutBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    let partial = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (spec.watchStderr) {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop()!.slice(0, WATCHED_LINE_MAX);
        for (const line of lines) {
          const found = spec.watchStderr(line.slice(0, WATCHED_LINE_MAX));
          if (found) fail(found);
        }
      }
      if (log === null) return;
      const room = Math.max(0, STDERR_LOG_MAX_BYTES - logged);
      if (room > 0) writeSync(log, chunk.subarray(0, room));
      logged += Math.min(room, chunk.length);
      dropped += chunk.length - Math.min(room, chunk.length);
    });
    child.stdin.on('error', () => undefined); // a runner that never reads its task fails by its exit, not by EPIPE
    child.stdin.end(spec.input);
    child.on('error', (error) =>
      finish(() => reject(new RunnerFailure('runner-spawn-failed', `cannot start ${program}: ${error.message}`))),
    );
    child.on('exit', (code, signal) => {
      const pgid = child.pid!;
      // A process it left behind (a background job) is a violation: the group is killed, the answer unused.
      const judge = () => {
        if (!failure && groupAlive(pgid))
          failure = new RunnerFailure(
            'runner-leftover-process',
            'a process it started was still running after it exited',
          );
        killGroup(pgid);
        if (!failure && signal) failure = new RunnerFailure('runner-signal', `it was killed by ${signal}`);
        const exitFailure = () =>
          new RunnerFailure('runner-exit-nonzero', `it exited with status ${code}`, Buffer.concat(chunks));
        // stdout may still hold buffered bytes: wait for its end (the group is dead, so it ends now).
        const done = () =>
          finish(() => {
            if (!failure && code !== 0) failure = exitFailure();
            return failure ? reject(failure) : resolve(Buffer.concat(chunks));
          });
        if (child.stdout.readableEnded || child.stdout.destroyed) done();
        else child.stdout.once('close', done);
      };
      if (groupAlive(pgid)) setTimeout(judge, LEFTOVER_GRACE_MS);
      else judge();
    });
  });
}

/** The per-task stderr log directory of a data home (created 0700 at the first log). */
export const runnerLogDirectory = (home: string): string => join(home, 'runner-logs');

/** The stderr log file of a task: its id, made safe as a file name. */
export const taskLogName = (taskId: string) => `${taskId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120)}.stderr.log`;

/**
 * The exact bytes a command runner receives on stdin for a task: its JSON (and the context turns
 * granted), with every blocking secret replaced by `[secret:<rule>]` (a task already screened is unchanged).
 */
export const commandInput = (task: RunnerTask): Buffer => {
  const work = screenRunnerTask(task).work;
  return Buffer.from(
    JSON.stringify(
      work.kind === 'extraction' && work.context?.length
        ? { ...work.task, conversationContext: work.context.map(({ turnKey, text }) => ({ turnKey, text })) }
        : work.task,
    ),
    'utf8',
  );
};

/** A runner without its conformance probe (runner-registry.ts adds it: the probe runs runners itself). */
export type BareExternalRunner = Omit<ExternalRunner, 'conformanceKey' | 'probe'>;

export function commandRunner(profile: CommandProfile, logDir: string | null): BareExternalRunner {
  return {
    name: profile.name,
    offline: false,
    profile,
    input: commandInput,
    async send(input: Buffer, work: RunnerTask, options: RunOptions): Promise<string> {
      const argv = profile.argv.map((word) =>
        word.replaceAll('{taskKind}', work.kind).replaceAll('{taskId}', work.task.taskId),
      );
      const out = await runProcess({
        argv,
        env: runnerEnvironment(profile),
        input,
        timeoutMs: profile.timeoutMs,
        maxStdoutBytes: Math.min(profile.maxStdoutBytes, options.maxOutputBytes),
        stderrLog: logDir ? join(logDir, taskLogName(work.task.taskId)) : null,
        signal: options.signal,
      });
      return out.toString('utf8');
    },
    run(work: RunnerTask, options: RunOptions) {
      return this.send(commandInput(work), work, options);
    },
  };
}
