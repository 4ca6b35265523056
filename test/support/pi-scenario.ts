// Drives the real pi 0.73.1 (installed by `common-memory install pi`, see installed-pi.ts) in print
// or RPC mode for the capture scenarios, and reads what common-memory captured of it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { CaptureStatus } from '../../source/api/capture.js';
import { runCli } from './cli.js';
import { PI_BIN } from './pi-agent-dir.js';

/** The scenario extension (a reload command and odd tools), loaded with -e beside the installed one. */
export const TEST_EXTENSION = fileURLToPath(new URL('./pi-test-extension.mjs', import.meta.url));

/** pi offline against the fake provider, with nothing of the machine's own pi resources. */
export const PI_BASE_ARGS = [
  '--offline',
  '--provider',
  'fake',
  '--model',
  'fake-model',
  '--no-skills',
  '--no-prompt-templates',
  '--no-themes',
  '--no-context-files',
];

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningPi {
  child: ChildProcess;
  exited: Promise<Exited>;
}

export function startPi(args: string[], options: SpawnOptions & { env: NodeJS.ProcessEnv; cwd: string }): RunningPi {
  const child = spawn(PI_BIN, [...PI_BASE_ARGS, ...args], { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin!.on('error', () => {}); // EPIPE after a kill is expected
  const exited = new Promise<Exited>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, exited };
}

/** pi -p with the prompts, one session, stdin closed; resolves when pi exited. */
export async function runPrint(
  args: string[],
  prompts: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<Exited> {
  const pi = startPi([...args, '-p', ...prompts], options);
  pi.child.stdin!.end();
  return pi.exited;
}

/** pi --mode rpc: JSONL commands on stdin, events on stdout (split on LF only, HOSTS.md 3.3). */
export class RpcPi {
  readonly running: RunningPi;
  readonly events: Array<Record<string, unknown>> = [];
  #buffer = '';
  #waiters: Array<() => void> = [];

  constructor(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }) {
    this.running = startPi(['--mode', 'rpc', ...args], options);
    this.running.child.stdout!.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('utf8');
      let at: number;
      while ((at = this.#buffer.indexOf('\n')) !== -1) {
        const line = this.#buffer.slice(0, at);
        this.#buffer = this.#buffer.slice(at + 1);
        try {
          this.events.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          this.events.push({ type: 'unparsed', line });
        }
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  send(command: Record<string, unknown>): void {
    this.running.child.stdin!.write(`${JSON.stringify(command)}\n`);
  }

  /** Resolves with the first event from `from` on that matches; fails after timeoutMs naming `what`. */
  async waitEvent(
    what: string,
    match: (event: Record<string, unknown>) => boolean,
    from = 0,
    timeoutMs = 30_000,
  ): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.findIndex((e, i) => i >= from && match(e));
      if (found !== -1) return found;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; last events: ${JSON.stringify(this.events.slice(-3))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends a prompt and waits until pi is idle again (its state says so after the last agent_end). */
  async prompt(message: string, timeoutMs = 30_000): Promise<void> {
    const from = this.events.length;
    const id = `prompt-${from}`;
    this.send({ type: 'prompt', id, message });
    const answered = await this.waitEvent(`the response to ${id}`, (e) => e['id'] === id, from, timeoutMs);
    assert.equal(this.events[answered]!['success'], true, JSON.stringify(this.events[answered]));
    await this.idle(answered, timeoutMs);
  }

  /** Waits until pi reports it is not streaming (an auto-retry's backoff counts as busy: polled). */
  async idle(from = this.events.length, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await this.waitEvent('an agent_end', (e) => e['type'] === 'agent_end', from, timeoutMs);
    for (;;) {
      const at = this.events.length;
      const id = `state-${at}`;
      this.send({ type: 'get_state', id });
      const answer = await this.waitEvent(`get_state ${id}`, (e) => e['id'] === id, at, timeoutMs);
      const data = this.events[answer]!['data'] as { isStreaming: boolean; isCompacting: boolean };
      const retrying =
        this.events.slice(from).some((e) => e['type'] === 'auto_retry_start') &&
        !this.events.slice(from).some((e) => e['type'] === 'auto_retry_end');
      if (!data.isStreaming && !data.isCompacting && !retrying) return;
      if (Date.now() > deadline) throw new Error('timed out waiting for pi to be idle');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGKILL this pi (by its pid) unless it already exited: for a test's finally. */
  kill(): void {
    const child = this.running.child;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  /** Closes stdin (pi exits with 0 at EOF) and waits for the exit. */
  async close(timeoutMs = 15_000): Promise<Exited> {
    this.running.child.stdin!.end();
    const timer = setTimeout(() => this.running.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.running.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

export function rows(home: string, sql: string, ...params: unknown[]): Record<string, unknown>[] {
  const db = new Database(join(home, 'core.sqlite'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

export async function status(home: string): Promise<CaptureStatus> {
  const result = await runCli(['--json', '--home', home, 'status']);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as CaptureStatus;
}

export interface Captured {
  status: CaptureStatus;
  /** The bodies of evidence messages (what the user typed, as pi delivered it), in order. */
  evidence: string[];
  /** kind:body of every captured message, in order. */
  messages: Array<{ kind: string; role: string; body: string }>;
  hookErrors: Array<Record<string, unknown>>;
}

/** Drains what the extension recorded and reads the result back. */
export async function drainAndRead(home: string): Promise<Captured> {
  const drained = await runCli(['--json', '--home', home, 'session-drain']);
  assert.equal(drained.code, 0, drained.stderr);
  const messages = rows(home, 'SELECT kind, role, body FROM capture_messages ORDER BY message_id') as Array<{
    kind: string;
    role: string;
    body: string;
  }>;
  const evidence = rows(
    home,
    "SELECT body FROM capture_messages WHERE classification = 'evidence' ORDER BY message_id",
  ).map((r) => r['body'] as string);
  const errorsFile = join(home, 'hook-errors.jsonl');
  const hookErrors = existsSync(errorsFile)
    ? readFileSync(errorsFile, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
  return { status: await status(home), evidence, messages, hookErrors };
}

/** The system prompt of a chat-completions request body the fake server recorded. */
export const systemPrompt = (body: unknown): string => {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const system = messages.find((m) => m.role === 'system' || m.role === 'developer');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
};
