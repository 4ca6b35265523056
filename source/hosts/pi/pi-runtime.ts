// One generation of one agent: a `pi --mode rpc` child, one reader per pipe, and the prompt that is
// in flight. Every record the child writes is committed (journal + projection, one transaction)
// before anything acts on it; all writer calls of a runtime go through one queue, so settlement
// decided by a record and settlement decided by a timer can never interleave.
import { execa, type ResultPromise } from 'execa';
import { CmError } from '../../errors.js';
import { PI_ACCEPT_TIMEOUT_MS, PI_STOP_EXIT_MS, PI_STOP_SETTLE_MS } from '../../limits.js';
import { type AbortReceipt, abortReceiptOf, type PromptReceipt, promptReceiptOf } from '../../api/agents.js';
import { prepareAgentDir } from './agent-dir.js';
import { JsonlFramer, type FrameEvent } from '../../ground/jsonl-framer.js';
import { piArguments, type PiCommandLine } from './pi-command.js';
import { classifyPiRecord } from './pi-record.js';
import { encodePiCommand, newCommandId } from './prompt-encoding.js';
import type { IngestAnswer, PiStorePort, Settle } from './store-port.js';
import {
  advanceSettlement,
  settlementWait,
  startSettlement,
  type SettlementResult,
  type SettlementState,
} from './settlement.js';

export interface RuntimeDeps {
  /** The writer, as the port this runtime declares. */
  writer: PiStorePort;
  hostId: string;
  /** Resolved at each start, so a missing pi is a clear error at `agent start`, not at host start. */
  pi: () => PiCommandLine;
  /** Lowers the framer's record limit in drills. */
  maxRecordBytes?: number;
  /** The session-start memory snapshot for a cwd ('' for none); read once per generation. */
  snapshot?: (cwd: string) => string;
}

interface InFlight {
  operationId: string;
  piRequestId: string;
  state: SettlementState;
  barrierSent: boolean;
  graceTimer?: NodeJS.Timeout;
  acceptTimer?: NodeJS.Timeout;
  done: Promise<void>;
  finish: () => void;
  /** Its settlement is on its way to the store, which may have committed it before replying. */
  storing?: true;
}

/** Drills shorten the wait for a child that never answers (COMMON_MEMORY_DRILL_ACCEPT_MS). */
function acceptTimeoutMs(): number {
  const value = Number(process.env['COMMON_MEMORY_DRILL_ACCEPT_MS']);
  return Number.isSafeInteger(value) && value > 0 ? value : PI_ACCEPT_TIMEOUT_MS;
}

/** Maps a settlement result to the store's outcome; "no-answer" becomes interrupted, never an answer. */
function settleOf(inFlight: InFlight, result: SettlementResult): Settle | undefined {
  if (result.status !== 'settled') return undefined;
  return { operationId: inFlight.operationId, outcome: result.outcome.kind, detail: result };
}

export class PiRuntime {
  private queue: Promise<unknown> = Promise.resolve();
  private inFlight: InFlight | undefined;
  private stopReason: string | undefined;
  private faulted = false;
  private readonly readers: Promise<void>[] = [];
  private readonly ended: Promise<void>;

  private constructor(
    private readonly deps: RuntimeDeps,
    readonly agentId: string,
    readonly agentName: string,
    readonly generationId: string,
    private readonly child: ResultPromise<{
      stdin: 'pipe';
      stdout: 'pipe';
      stderr: 'pipe';
      buffer: false;
      reject: false;
    }>,
  ) {
    this.readers.push(this.read('stdout'), this.read('stderr'));
    this.ended = this.finalize();
  }

  /** Starts a new generation: the generation row first, then the child, then `running`. */
  static async start(deps: RuntimeDeps, agent: string): Promise<PiRuntime> {
    const pi = deps.pi();
    const generation = await deps.writer.call('beginGeneration', { agent, hostId: deps.hostId });
    prepareAgentDir(generation.agentDir, generation.piConfigDir);
    const snapshot = deps.snapshot?.(generation.agentDir) ?? '';
    const child = execa(pi.command, [...pi.args, ...piArguments(generation.model, snapshot)], {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      buffer: false,
      reject: false,
      cleanup: true,
      cwd: generation.agentDir,
      env: { PI_CODING_AGENT_DIR: generation.agentDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1' },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', () => resolve());
        child.once('error', reject);
      });
    } catch (error) {
      await deps.writer.call('retireGeneration', {
        generationId: generation.generationId,
        orderly: false,
        reason: `pi could not start: ${(error as Error).message}`,
        exitCode: null,
        signal: null,
      });
      throw new CmError(
        'runtime_failed',
        `Could not start pi (${pi.command}): ${(error as Error).message}. Install it, or point COMMON_MEMORY_PI_COMMAND at it.`,
      );
    }
    await deps.writer.call('markGenerationRunning', { generationId: generation.generationId, pid: child.pid! });
    return new PiRuntime(deps, generation.agentId, agent, generation.generationId, child);
  }

  get busy(): boolean {
    return this.inFlight !== undefined;
  }

  /**
   * Resolves when the prompt in flight is released, if its settlement is already on its way to the
   * store (which may have settled it, its reply not here yet); undefined when none is.
   */
  settling(): Promise<void> | undefined {
    const inFlight = this.inFlight;
    return inFlight?.storing ? Promise.race([inFlight.done, this.ended]) : undefined;
  }

  get stopping(): boolean {
    return this.stopReason !== undefined;
  }

  /** Resolves when the child is gone, its readers joined and the generation retired. */
  whenEnded(): Promise<void> {
    return this.ended;
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private write(line: string): void {
    if (!this.child.stdin.writable)
      throw new CmError('runtime_failed', `pi of agent ${this.agentName} no longer reads its input.`);
    this.child.stdin.write(line);
  }

  // ---- prompts -------------------------------------------------------------------------------

  /** Admission and attempt. The caller (AgentManager) reserved the agent before calling. */
  async prompt(operationId: string, text: string): Promise<PromptReceipt> {
    if (this.stopping) throw new CmError('agent_state', `Agent ${this.agentName} is stopping.`);
    const piRequestId = newCommandId('prompt');
    const line = encodePiCommand({ type: 'prompt', id: piRequestId, message: text });
    const admission = await this.deps.writer.call('admitPrompt', {
      agent: this.agentId,
      text,
      operationId,
      piRequestId,
    });
    const receipt = promptReceiptOf(admission);
    // A replay returns the original receipt; the prompt is never sent twice.
    if (admission.replayed) return receipt;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const inFlight: InFlight = {
      operationId,
      piRequestId,
      state: startSettlement(piRequestId),
      barrierSent: false,
      done,
      finish,
    };
    this.inFlight = inFlight;
    try {
      await this.enqueue(() => this.deps.writer.call('markAttempted', { operationId }));
      this.write(line);
    } catch (error) {
      // Admitted but not (certainly) sent: the generation stops and its retirement interrupts the
      // operation. Never resent; a retry with the same operation ID returns the admission receipt.
      this.release(inFlight);
      void this.requestStop(`prompt could not be sent: ${(error as Error).message}`, false);
      throw error;
    }
    inFlight.acceptTimer = setTimeout(
      () => void this.enqueue(() => this.giveUpUnanswered(operationId)),
      acceptTimeoutMs(),
    );
    return receipt;
  }

  /** Abort is pinned (by the store) to the prompt active at its admission; only that prompt is aborted. */
  async abort(operationId: string | undefined): Promise<AbortReceipt> {
    const receipt = await this.deps.writer.call('requestAbort', {
      agent: this.agentId,
      ...(operationId ? { operationId } : {}),
    });
    if (!receipt.replayed && this.inFlight?.operationId === receipt.targetOperationId)
      this.write(encodePiCommand({ type: 'abort', id: newCommandId('abort') }));
    return abortReceiptOf(receipt);
  }

  private async giveUpUnanswered(operationId: string): Promise<void> {
    if (this.inFlight?.operationId !== operationId || this.inFlight.state.accepted) return;
    await this.requestStop('pi did not accept the prompt in time', false);
  }

  // ---- readers ---------------------------------------------------------------------------------

  private async read(stream: 'stdout' | 'stderr'): Promise<void> {
    const framer = new JsonlFramer(this.deps.maxRecordBytes ? { maxRecordBytes: this.deps.maxRecordBytes } : {});
    try {
      for await (const chunk of this.child[stream] as AsyncIterable<Buffer>) {
        for (const event of framer.push(chunk)) await this.enqueue(() => this.ingest(stream, event));
      }
    } catch {
      // A read error ends the stream like EOF; what was delivered before it is already committed.
    }
    for (const event of framer.end()) await this.enqueue(() => this.ingest(stream, event));
  }

  private async ingest(stream: 'stdout' | 'stderr', event: FrameEvent): Promise<void> {
    let settle: Settle | undefined;
    const inFlight = this.inFlight;
    let next: SettlementState | undefined;
    if (stream === 'stdout' && inFlight && inFlight.state.result === null) {
      const input =
        event.kind === 'record'
          ? ({
              kind: 'record',
              record: classifyPiRecord(event.text, { activePromptId: inFlight.piRequestId }),
            } as const)
          : ({ kind: 'frame-fault', detail: `${event.kind} stdout line` } as const);
      const step = advanceSettlement(inFlight.state, input);
      next = step.state;
      // A record that confirms settlement belongs to no operation: settle first, in the same transaction.
      if (!step.consumed && step.state.result) settle = settleOf(inFlight, step.state.result);
      if (settle) inFlight.storing = true;
    }
    let result: IngestAnswer;
    try {
      result = await this.deps.writer.call('ingestPiRecord', {
        generationId: this.generationId,
        stream,
        ordinal: event.ordinal,
        frame: event.kind,
        byteLength: event.byteLength,
        // The evidence names the limit that was really applied, not the default.
        ...(event.kind === 'oversized' ? { limit: event.limit } : {}),
        ...(event.kind === 'record' ? { text: event.text } : {}),
        ...(event.kind === 'truncated' && event.text !== null ? { text: event.text } : {}),
        ...(event.kind === 'invalid-utf8' || (event.kind === 'truncated' && event.text === null)
          ? { bytes: event.bytes.toString('base64') }
          : {}),
        ...(settle ? { settle } : {}),
      });
    } catch (error) {
      // Storage failed: nothing of this record is committed. Stop rather than go on with a hole.
      void this.requestStop(`storing a pi record failed: ${(error as Error).message}`, false);
      return;
    }
    // The settlement moves only on committed evidence: a record that could not be stored never
    // happened as far as the prompt is concerned, so it can never lead to a claimed answer.
    if (inFlight && next) inFlight.state = next;
    if (result.stopGeneration) {
      this.faulted = true;
      void this.requestStop(
        result.projectionFailure ? `projection failed: ${result.projectionFailure}` : `${event.kind} stdout line`,
        false,
      );
    }
    if (inFlight) await this.afterRecord(inFlight, settle !== undefined);
  }

  /** What the settlement needs next: finished, a barrier to confirm, or more records. */
  private async afterRecord(inFlight: InFlight, settledByRecord: boolean): Promise<void> {
    const wait = settlementWait(inFlight.state);
    if (inFlight.state.accepted && inFlight.acceptTimer) {
      clearTimeout(inFlight.acceptTimer);
      inFlight.acceptTimer = undefined;
    }
    if (wait.kind === 'done') {
      if (!settledByRecord) {
        const settle = settleOf(inFlight, wait.result);
        if (settle) {
          inFlight.storing = true;
          await this.storeSettlement(settle);
        } else if (wait.result.status === 'faulted' || wait.result.status === 'interrupted')
          void this.requestStop(`prompt ${wait.result.status}`, false);
      }
      this.release(inFlight);
      return;
    }
    if (wait.kind === 'confirm' && !inFlight.barrierSent) {
      // pi writes its continuations (auto_retry_start, compaction_start) before it reads our next
      // command, so the barrier's answer — or anything else — confirms settlement (settlement.ts).
      inFlight.barrierSent = true;
      try {
        this.write(encodePiCommand({ type: 'get_state', id: newCommandId('get_state') }));
      } catch {
        // stdin closed: the stream end will confirm.
      }
      inFlight.graceTimer = setTimeout(() => void this.enqueue(() => this.graceElapsed(inFlight)), wait.graceMs);
    } else if (wait.kind !== 'confirm') {
      inFlight.barrierSent = false;
    }
  }

  /**
   * A settlement that cannot be stored is not claimed: the generation stops, and retiring it
   * records the prompt as interrupted. The failure never escapes into the runtime's queue, where
   * it would leave the prompt in flight and the agent busy for good.
   */
  private async storeSettlement(settle: Settle): Promise<void> {
    try {
      await this.deps.writer.call('settlePrompt', settle);
    } catch (error) {
      void this.requestStop(`storing the settlement failed: ${(error as Error).message}`, false);
    }
  }

  private async graceElapsed(inFlight: InFlight): Promise<void> {
    if (this.inFlight !== inFlight || inFlight.state.result !== null) return;
    inFlight.state = advanceSettlement(inFlight.state, { kind: 'grace-elapsed' }).state;
    await this.afterRecord(inFlight, false);
  }

  private release(inFlight: InFlight): void {
    clearTimeout(inFlight.graceTimer);
    clearTimeout(inFlight.acceptTimer);
    if (this.inFlight === inFlight) this.inFlight = undefined;
    inFlight.finish();
  }

  // ---- stop and end ------------------------------------------------------------------------------

  /** Orderly stop: close admission, let a prompt in flight abort and settle, close stdin, reap, join. */
  async stop(reason = 'stopped by request'): Promise<void> {
    await this.requestStop(reason, true);
    await this.ended;
  }

  private async requestStop(reason: string, orderly: boolean): Promise<void> {
    if (this.stopReason !== undefined) return;
    this.stopReason = orderly ? reason : `${reason} (not orderly)`;
    await this.deps.writer
      .call('markGenerationStopping', { generationId: this.generationId, reason })
      .catch(() => undefined);
    const inFlight = this.inFlight;
    if (orderly && inFlight && !this.faulted) {
      try {
        this.write(encodePiCommand({ type: 'abort', id: newCommandId('abort') }));
        await Promise.race([inFlight.done, new Promise((resolve) => setTimeout(resolve, PI_STOP_SETTLE_MS).unref())]);
      } catch {
        // stdin already closed
      }
    }
    // pi exits at once on stdin EOF (HOSTS.md 3.4); a child that does not gets SIGTERM, then SIGKILL.
    this.child.stdin.end();
    const exited = this.child.then(() => true);
    const timeout = (ms: number) => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref());
    if (!(await Promise.race([exited, timeout(PI_STOP_EXIT_MS)]))) {
      this.child.kill('SIGTERM');
      if (!(await Promise.race([exited, timeout(PI_STOP_EXIT_MS)]))) this.child.kill('SIGKILL');
    }
  }

  /** After the child exits and both readers are joined: settle or interrupt what is left, then retire. */
  private async finalize(): Promise<void> {
    const result = await this.child;
    await Promise.all(this.readers);
    await this.enqueue(async () => {
      const inFlight = this.inFlight;
      if (inFlight && inFlight.state.result === null) {
        inFlight.state = advanceSettlement(inFlight.state, { kind: 'stream-ended' }).state;
        const settle = inFlight.state.result ? settleOf(inFlight, inFlight.state.result) : undefined;
        if (settle) await this.storeSettlement(settle);
      }
      if (inFlight) this.release(inFlight);
      const orderly =
        this.stopReason !== undefined &&
        !this.stopReason.endsWith('(not orderly)') &&
        !this.faulted &&
        result.exitCode === 0;
      await this.deps.writer.call('retireGeneration', {
        generationId: this.generationId,
        orderly,
        reason: this.stopReason ?? 'pi exited unexpectedly',
        exitCode: result.exitCode ?? null,
        signal: result.signal ?? null,
      });
    });
  }
}
