// A minimal stand-in for the future pi runtime, for tests: spawns a child (real pi or fake-pi),
// frames stdout/stderr with one reader per pipe, classifies every stdout record with the active
// prompt, drives the settlement machine (barrier command + grace timer), and never kills anything
// but its own child, by pid.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { frameStream, type FrameEvent } from '../../source/ground/jsonl-framer.js';
import { classifyPiRecord, type PiRecord } from '../../source/hosts/pi/pi-record.js';
import { encodePiCommand, encodePrompt, newCommandId, type PiCommand } from '../../source/hosts/pi/prompt-encoding.js';
import {
  advanceSettlement,
  settlementWait,
  startSettlement,
  type SettlementInput,
  type SettlementState,
} from '../../source/hosts/pi/settlement.js';

export interface ObservedRecord {
  readonly ordinal: number;
  readonly record: PiRecord;
  /** The prompt id the record was routed to, or null. */
  readonly promptId: string | null;
}

export interface PromptRun {
  readonly promptId: string;
  readonly state: SettlementState;
  /** The records routed while this prompt was active (in wire order). */
  readonly records: readonly ObservedRecord[];
  /** The barrier commands sent for it. */
  readonly barrierIds: readonly string[];
}

export interface PiChildOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly maxRecordBytes?: number;
  readonly graceMs?: number;
}

interface Active {
  state: SettlementState;
  readonly records: ObservedRecord[];
  readonly barrierIds: string[];
  readonly done: (run: PromptRun) => void;
  grace: NodeJS.Timeout | null;
  onRecord: ((observed: ObservedRecord) => void) | undefined;
}

export class PiChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  /** Every stdout frame event, in order. */
  readonly stdoutFrames: FrameEvent[] = [];
  readonly stderrFrames: FrameEvent[] = [];
  /** Every classified stdout record, in order. */
  readonly records: ObservedRecord[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly stdoutDone: Promise<void>;
  #active: Active | null = null;
  #graceMs: number | undefined;

  constructor(options: PiChildOptions) {
    const child = spawn(options.command, [...options.args], {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (child.pid === undefined) throw new Error(`could not spawn ${options.command}`);
    this.child = child;
    this.pid = child.pid;
    this.#graceMs = options.graceMs;
    this.exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    child.stdin.on('error', () => {}); // EPIPE after the child died is expected in fault tests
    const frameOptions = options.maxRecordBytes === undefined ? {} : { maxRecordBytes: options.maxRecordBytes };
    this.stdoutDone = (async () => {
      for await (const event of frameStream(child.stdout, frameOptions)) this.#onStdout(event);
      this.#feed({ kind: 'stream-ended' });
    })();
    void (async () => {
      for await (const event of frameStream(child.stderr, frameOptions)) this.stderrFrames.push(event);
    })();
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  send(command: PiCommand): void {
    this.child.stdin.write(encodePiCommand(command));
  }

  /** Sends a prompt and resolves when its settlement is terminal. */
  prompt(message: string, onRecord?: (observed: ObservedRecord) => void): Promise<PromptRun> {
    if (this.#active !== null) throw new Error('a prompt is already active');
    const { id, line } = encodePrompt(message);
    return new Promise<PromptRun>((resolve) => {
      this.#active = { state: startSettlement(id), records: [], barrierIds: [], done: resolve, grace: null, onRecord };
      this.child.stdin.write(line);
    });
  }

  /** The prompt id currently active, if any. */
  get activePromptId(): string | null {
    return this.#active?.state.promptId ?? null;
  }

  /** SIGKILL this child only, by its pid. */
  killHard(): void {
    if (this.alive) process.kill(this.pid, 'SIGKILL');
  }

  async close(timeoutMs = 5000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.killHard(), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  #onStdout(event: FrameEvent): void {
    this.stdoutFrames.push(event);
    if (event.kind === 'record') {
      const active = this.#active;
      let record = classifyPiRecord(event.text, { activePromptId: active?.state.promptId ?? null });
      if (active !== null) {
        const consumed = this.#feed({ kind: 'record', record });
        // The record that confirmed settlement belongs to no operation: route it again without one.
        if (!consumed) record = classifyPiRecord(event.text, { activePromptId: null });
        const observed = { ordinal: event.ordinal, record, promptId: consumed ? active.state.promptId : null };
        if (consumed) active.records.push(observed);
        this.records.push(observed);
        active.onRecord?.(observed);
      } else {
        this.records.push({ ordinal: event.ordinal, record, promptId: null });
      }
      return;
    }
    if (event.kind === 'truncated') return; // the stream is ending; stream-ended follows
    this.#feed({ kind: 'frame-fault', detail: `${event.kind} line #${event.ordinal} (${event.byteLength} bytes)` });
  }

  /** Feeds the active settlement; returns whether the input was consumed by it. */
  #feed(input: SettlementInput): boolean {
    const active = this.#active;
    if (active === null) return false;
    const step = advanceSettlement(active.state, input);
    active.state = step.state;
    if (active.grace !== null && active.state.phase !== 'settle-pending') {
      clearTimeout(active.grace);
      active.grace = null;
    }
    const wait = settlementWait(active.state);
    if (wait.kind === 'done') {
      if (active.grace !== null) clearTimeout(active.grace);
      this.#active = null;
      active.done({
        promptId: active.state.promptId,
        state: active.state,
        records: active.records,
        barrierIds: active.barrierIds,
      });
    } else if (wait.kind === 'confirm' && active.grace === null) {
      // Make the "next record" come: pi answers this after any continuation it already wrote.
      const id = newCommandId('get_state');
      active.barrierIds.push(id);
      if (this.alive && this.child.stdin.writable) this.send({ type: 'get_state', id });
      active.grace = setTimeout(() => {
        if (this.#active === active) {
          active.grace = null;
          this.#feed({ kind: 'grace-elapsed' });
        }
      }, this.#graceMs ?? wait.graceMs);
    }
    return step.consumed;
  }
}

/** Rejects after ms, for bounding awaits in tests. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
    }),
  ]);
}
