// The drain: turns inbox envelopes into sessions, turns and batches. It reads envelopes and
// transcript tails over its own read-only connection, parses them here (never on the writer
// thread), and submits each activation's step as one writer command. A parse, cursor or
// delivery-authentication failure isolates that activation with a recovery item while the other
// activations go on; SQLite, file I/O and capacity errors are raised as they are.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { CmError } from '../errors.js';
import { parseTranscriptFile } from '../hosts/transcript-file.js';
import { transcriptParser, type AnyTranscriptParser } from '../hosts/transcript-parsers.js';
import {
  TranscriptParseError,
  type CursorState,
  type ParseProgress,
  type TranscriptTurn,
} from '../hosts/transcript-model.js';
import {
  DRAIN_FIRST_STEP_MAX_BYTES,
  DRAIN_STEP_ASIDE_MAX_MS,
  DRAIN_STEP_ASIDE_POLL_MS,
  DRAIN_STEP_MAX_BYTES,
  DRAIN_STEP_MAX_ENVELOPES,
  HOOK_TAIL_CHUNK_BYTES,
} from '../limits.js';
import type { DrainReport } from '../api/capture.js';
import { recoveryIdText } from '../api/common.js';
import { checkedRecoveryId } from '../api/request-checks.js';
import {
  firstPendingEnvelope,
  nextActivation,
  readActivation,
  readPendingEnvelopes,
  readRecoveryItem,
  readTailChunks,
  readWatch,
  type ActivationRow,
  type EnvelopeRow,
  type WatchRow,
} from '../store/core/capture-reads.js';
import type { CaptureStepInput, StepOutcome } from '../store/core/capture-sessions.js';
import type { Db } from '../store/database.js';
import { RECOVERY_CODES, type RecoveryCode } from './recovery-codes.js';
import { StepMessages } from './step-messages.js';

/** How the engine reaches the writer: the writer client's `call`, narrowed to the two capture commands. */
export interface CaptureWriter {
  call(name: 'captureApplyStep', input: CaptureStepInput, transfer: ArrayBuffer[]): Promise<StepOutcome>;
  call(
    name: 'captureIsolate',
    input: { activationId: number; inboxId: number; code: string; detail: string; recoveryId: number | null },
  ): Promise<{ outcome: 'isolated'; recoveryId: number } | { outcome: 'stale' }>;
}

/** A failure that belongs to one activation's data (fixed code), as opposed to an environment failure. */
export class CaptureFault extends Error {
  constructor(
    readonly code: RecoveryCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

type AnyParser = AnyTranscriptParser;

/** Where the next step of an activation continues when it is planned before the previous one committed. */
interface Continuation {
  /** The last envelope of the previous step: the next step takes the envelopes after it. */
  afterId: number;
  /** The parser as the previous step left it (its state is the one that step saves), or none when it fed nothing. */
  parser: AnyParser | null;
  consumedBytes: number;
}

interface Plan {
  input: CaptureStepInput;
  /** The buffers the input holds (its bodies), moved to the writer with it. */
  transfer: ArrayBuffer[];
  firstInboxId: number;
  next: Continuation;
}

/** Steps a single drain call may take before it yields: a queue that keeps filling cannot hold a caller forever. */
const STEPS_PER_CALL = 10_000;

export class DrainEngine {
  /** The tail bytes being parsed; kept between steps (see feedEnvelopes). */
  private readonly scratch = { buffer: Buffer.alloc(0) };

  /** `lockWaiters`: how many hooks wait for the write lock now (ground/lock-waiters.ts). */
  constructor(
    private readonly reader: Db,
    private readonly writer: CaptureWriter,
    private readonly lockWaiters: () => number = () => 0,
  ) {}

  /** Drains every activation that is not isolated until the inbox has nothing left for it. */
  async drainAll(): Promise<DrainReport> {
    const report: DrainReport = { steps: 0, sealedTurns: 0, isolated: [], recovered: null };
    for (let i = 0; i < STEPS_PER_CALL && report.steps < STEPS_PER_CALL; i++) {
      const activationId = nextActivation(this.reader);
      if (activationId === undefined) break;
      await this.run(activationId, null, report, STEPS_PER_CALL - report.steps);
    }
    return report;
  }

  /** Retries exactly one recovery item: its activation's pending envelopes, with the transcript re-read when it still exists. */
  async recover(text: string): Promise<DrainReport> {
    const item = readRecoveryItem(this.reader, checkedRecoveryId(text));
    if (!item) throw new CmError('not_found', `No recovery item ${text}. Run "common-memory status" to list them.`);
    if (item.state !== 'open')
      throw new CmError('not_found', `Recovery item ${text} was already recovered; nothing to do.`);
    const report: DrainReport = { steps: 0, sealedTurns: 0, isolated: [], recovered: false };
    const ok = await this.run(item.activationId, item.recoveryId, report, 1);
    report.recovered = ok;
    // The rest of that activation's queue (beyond one step) flows normally now.
    if (ok) {
      const rest = await this.drainAll();
      report.steps += rest.steps;
      report.sealedTurns += rest.sealedTurns;
      report.isolated.push(...rest.isolated);
    }
    return report;
  }

  /**
   * Up to `maxSteps` steps of one activation, one transaction each, committed in order. Each step
   * is submitted as soon as it is planned, so the writer goes from one step to the next without
   * waiting for this thread: one step applies while the next waits in the writer's queue, and this
   * thread plans the one after them. A step submitted behind one that failed finds that step's
   * envelopes still pending and changes nothing (applyStep answers stale), so the run stops at the
   * first step that did not apply. Returns true when the last step taken was applied.
   */
  private async run(
    activationId: number,
    recoveryId: number | null,
    report: DrainReport,
    maxSteps: number,
  ): Promise<boolean> {
    const activation = readActivation(this.reader, activationId);
    if (!activation)
      throw new CmError('inconsistent', `Inbox envelopes name activation ${activationId}, which does not exist.`);
    let planned = await this.planOrIsolate(activation, recoveryId, null, report);
    if (planned === undefined) return false;
    const inFlight: Array<{ applying: Promise<StepOutcome>; firstInboxId: number }> = [];
    const settle = () => Promise.allSettled(inFlight.map((step) => step.applying));
    /** A fault in the data of the step after the last one planned: filed once the steps before it are in. */
    let fault: CaptureFault | undefined;
    let taken = 0;
    for (;;) {
      if (planned !== undefined) {
        // Only what is needed after submission is kept: the input (a whole step of messages) goes
        // with the call — its bodies moved, the rest serialised — and must not stay alive while the
        // next step is planned.
        const { firstInboxId, next: continuation } = planned;
        // Steps follow each other at once otherwise, and a hook (which must answer within its host's
        // deadline) would wait behind the whole run.
        if (taken > 0) await this.stepAside();
        inFlight.push({
          applying: this.writer.call('captureApplyStep', planned.input, planned.transfer),
          firstInboxId,
        });
        planned = undefined;
        taken += 1;
        // A recovery retry is exactly one step; the rest flows through drainAll afterwards.
        if (recoveryId === null && taken < maxSteps) {
          try {
            planned = await this.plan(activation, null, continuation);
          } catch (error) {
            if (!(error instanceof CaptureFault)) {
              await settle();
              throw error;
            }
            fault = error;
          }
        }
        // At most one step waits behind the one applying: two steps and the one being planned are
        // in memory at once.
        if (planned !== undefined && inFlight.length < 2) continue;
      }
      const step = inFlight.shift();
      if (step === undefined) break;
      let outcome: StepOutcome;
      try {
        outcome = await step.applying;
      } catch (error) {
        await settle();
        throw error;
      }
      report.steps += 1;
      if (outcome.outcome !== 'applied') {
        await settle();
        if (outcome.outcome === 'rejected')
          await this.isolate(activation, step.firstInboxId, outcome.code, outcome.detail, recoveryId, report);
        return false;
      }
      report.sealedTurns += outcome.sealed;
    }
    if (fault !== undefined) {
      const inboxId = firstPendingEnvelope(this.reader, activationId);
      if (inboxId !== undefined) await this.isolate(activation, inboxId, fault.code, fault.detail, null, report);
    }
    return true;
  }

  /**
   * While hooks wait for the write lock, no step is submitted: they take it in turn as their busy
   * handlers wake. At most DRAIN_STEP_ASIDE_MAX_MS, so hooks that keep coming still let the drain on.
   */
  private async stepAside(): Promise<void> {
    const until = performance.now() + DRAIN_STEP_ASIDE_MAX_MS;
    while (this.lockWaiters() > 0 && performance.now() < until)
      await new Promise((resolve) => setTimeout(resolve, DRAIN_STEP_ASIDE_POLL_MS));
  }

  /** Plans a step; a fault in the activation's data is filed as a recovery item instead. */
  private async planOrIsolate(
    activation: ActivationRow,
    recoveryId: number | null,
    from: Continuation | null,
    report: DrainReport,
  ): Promise<Plan | undefined> {
    try {
      return await this.plan(activation, recoveryId, from);
    } catch (error) {
      if (!(error instanceof CaptureFault)) throw error;
      const inboxId = firstPendingEnvelope(this.reader, activation.activationId);
      if (inboxId !== undefined) await this.isolate(activation, inboxId, error.code, error.detail, recoveryId, report);
      return undefined;
    }
  }

  private async isolate(
    activation: ActivationRow,
    inboxId: number,
    code: RecoveryCode,
    detail: string,
    recoveryId: number | null,
    report: DrainReport,
  ): Promise<void> {
    const result = await this.writer.call('captureIsolate', {
      activationId: activation.activationId,
      inboxId,
      code,
      detail: detail.slice(0, 1000),
      recoveryId,
    });
    if (result.outcome === 'isolated') report.isolated.push(recoveryIdText(result.recoveryId));
  }

  /**
   * The next step of an activation: from the store, or (`from`) continuing a step that is still
   * being applied — then the envelopes after it and its parser.
   */
  private async plan(
    activation: ActivationRow,
    recoveryId: number | null,
    from: Continuation | null,
  ): Promise<Plan | undefined> {
    // A recovery retry is one step of the usual size; a run's first step is a small one.
    const maxBytes = from === null && recoveryId === null ? DRAIN_FIRST_STEP_MAX_BYTES : DRAIN_STEP_MAX_BYTES;
    const envelopes = readPendingEnvelopes(
      this.reader,
      activation.activationId,
      DRAIN_STEP_MAX_ENVELOPES,
      maxBytes,
      from?.afterId ?? 0,
    );
    const first = envelopes[0];
    const last = envelopes[envelopes.length - 1];
    if (!first || !last) return undefined;
    // A session ends at SessionEnd; a subagent's own activation (store/core/inbox-writes.ts) at its SubagentStop.
    const subagent = activation.hostSessionId.includes(':agent-');
    const ended = envelopes.some((e) => e.event === 'SessionEnd' || (subagent && e.event === 'SubagentStop'));
    const watch = activation.watchId === null ? undefined : readWatch(this.reader, activation.watchId);
    const base = { activationId: activation.activationId, envelopeIds: envelopes.map((e) => e.id), recoveryId };
    const fed = envelopes.some((e) => e.tailState !== 'none' && e.tailState !== 'missing');
    if (!watch || (!fed && recoveryId === null)) {
      const { turns, messages, transfer } = new StepMessages().finish();
      return {
        firstInboxId: first.id,
        input: { ...base, watch: null, turns, messages, incompleteKeys: [], bufferedTurns: ended ? 0 : null },
        transfer,
        next: { afterId: last.id, parser: from?.parser ?? null, consumedBytes: from?.consumedBytes ?? 0 },
      };
    }
    // Continuing: the saved cursor is the one the previous step will have written.
    const parser = from?.parser ?? makeParser(activation, watch);
    const fromBytes = from?.parser ? from.consumedBytes : watch.consumedBytes;
    const step = new StepMessages();
    const onClosed = (turn: TranscriptTurn) => step.add(turn);
    // pi's event stream exists only in the envelopes: a recovery re-reads those.
    const progress =
      recoveryId !== null && activation.client !== 'pi'
        ? await this.fromFile(parser, watch, envelopes, onClosed)
        : feedEnvelopes(this.reader, this.scratch, parser, watch.watchId, fromBytes, envelopes, onClosed);
    if (progress.sessionKey !== null && progress.sessionKey !== activation.hostSessionId) {
      throw new CaptureFault(
        'transcript_session_mismatch',
        `the transcript belongs to another session than the hook payload`,
      );
    }
    // A subagent that stopped is finished: its transcript holds its whole work, sealed as settled.
    const finishedSubagent = subagent && ended;
    if (finishedSubagent) for (const turn of progress.openTurns) step.add(turn);
    // Delivery authentication (every evidence prompt must match a UserPromptSubmit candidate) is
    // the writer's, inside the step's transaction: it sees exactly the candidates earlier steps
    // delivered, however far this thread planned ahead.
    const { turns, messages, transfer } = step.finish();
    return {
      firstInboxId: first.id,
      input: {
        ...base,
        watch: {
          watchId: watch.watchId,
          fromBytes,
          toBytes: progress.consumedBytes,
          state: JSON.stringify(progress.state),
        },
        turns,
        messages,
        incompleteKeys: ended && !finishedSubagent ? progress.openTurns.map((t) => t.key) : [],
        bufferedTurns: ended ? 0 : progress.openTurns.length,
      },
      transfer,
      next: { afterId: last.id, parser, consumedBytes: progress.consumedBytes },
    };
  }

  /** Recovery: the transcript as it is now (the user may have repaired it), else the bytes the hooks kept. */
  private async fromFile(
    parser: AnyParser,
    watch: WatchRow,
    envelopes: EnvelopeRow[],
    onClosed: (turn: TranscriptTurn) => void,
  ): Promise<ParseProgress<CursorState>> {
    let exists = true;
    try {
      // Non-blocking: the path came from a hook payload, and a FIFO would block open() for good.
      const handle = await open(watch.transcriptPath, constants.O_RDONLY | constants.O_NONBLOCK);
      const regular = (await handle.stat()).isFile();
      await handle.close();
      if (!regular)
        throw new CaptureFault(
          'transcript_unreadable',
          'the transcript path is not a regular file (a FIFO, device or directory); it is not read',
        );
    } catch (error) {
      if (error instanceof CaptureFault) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // file I/O errors are raised, never filed as a bad session
      exists = false;
    }
    if (!exists)
      return feedEnvelopes(this.reader, this.scratch, parser, watch.watchId, watch.consumedBytes, envelopes, onClosed);
    const result = await parseTranscriptFile(watch.transcriptPath, parser, { onClosed });
    if (result.failure) throw faultOf(result.failure);
    return result;
  }
}

function makeParser(activation: ActivationRow, watch: WatchRow): AnyParser {
  let state: unknown = null;
  if (watch.parserState !== null) {
    try {
      state = JSON.parse(watch.parserState);
    } catch {
      throw new CaptureFault('transcript_invalid_state', 'the saved parser state is not JSON');
    }
  }
  try {
    return transcriptParser(activation.client, watch.transcriptPath, state);
  } catch (error) {
    if (error instanceof TranscriptParseError) throw faultOf(error);
    throw error;
  }
}

/**
 * Bytes gathered before each parser call. Per-call costs (the parser's state snapshot: for Claude
 * every uuid seen so far) stay small against the parse, and the buffer stays small enough to keep.
 */
const FEED_BYTES = 4 * HOOK_TAIL_CHUNK_BYTES;

/**
 * Feeds the tails the hooks kept, in envelope order, from `fromBytes`. Tails are read one bounded
 * row at a time into `scratch` (a line may span rows), which is reused from step to step: fresh
 * multi-MiB buffers cost a page fault per page, and the step never holds a tail whole.
 */
function feedEnvelopes(
  reader: Db,
  scratch: { buffer: Buffer },
  parser: AnyParser,
  watchId: number,
  fromBytes: number,
  envelopes: EnvelopeRow[],
  onClosed: (turn: TranscriptTurn) => void,
): ParseProgress<CursorState> {
  let consumed = fromBytes;
  let last: ParseProgress<CursorState> | undefined;
  let filled = 0; // bytes in the buffer not yet consumed
  const feed = () => {
    last = parser.feed(scratch.buffer.subarray(0, filled), onClosed);
    if (last.failure) throw faultOf(last.failure);
    const used = last.consumedBytes - consumed;
    scratch.buffer.copy(scratch.buffer, 0, used, filled);
    filled -= used;
    consumed = last.consumedBytes;
  };
  for (const envelope of envelopes) {
    switch (envelope.tailState) {
      case 'none':
      case 'missing':
        continue; // no transcript bytes in this event (a transcript gone at hook time adds nothing)
      case 'over_limit':
        throw new CaptureFault(
          'transcript_tail_over_limit',
          `envelope ${envelope.id}: the transcript grew by more than a hook may copy at once`,
        );
      case 'cursor_mismatch':
        throw new CaptureFault(
          'transcript_cursor_mismatch',
          `envelope ${envelope.id}: the transcript was shorter than the bytes already captured (replaced or truncated)`,
        );
      case 'unreadable':
        throw new CaptureFault(
          'transcript_unreadable',
          `envelope ${envelope.id}: the hook could not read the transcript`,
        );
      case 'captured':
        break;
    }
    if (envelope.watchId !== watchId)
      throw new CaptureFault(
        'transcript_cursor_mismatch',
        `envelope ${envelope.id} belongs to another transcript than its session`,
      );
    const from = envelope.tailFrom ?? 0;
    const to = envelope.tailTo ?? from;
    if (to <= consumed) continue; // already applied (a recovery re-read the file past it)
    if (from > consumed)
      throw new CaptureFault(
        'transcript_cursor_mismatch',
        `envelope ${envelope.id}: bytes ${consumed}..${from} of the transcript were never captured`,
      );
    let skip = consumed - from; // bytes of this tail a recovery already applied
    for (const chunk of readTailChunks(reader, envelope.id)) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      const piece = skip > 0 ? chunk.subarray(skip) : chunk;
      skip = 0;
      if (filled + piece.length > scratch.buffer.length) {
        const grown = Buffer.allocUnsafe(Math.max(FEED_BYTES + HOOK_TAIL_CHUNK_BYTES, 2 * (filled + piece.length)));
        scratch.buffer.copy(grown, 0, 0, filled);
        scratch.buffer = grown;
      }
      piece.copy(scratch.buffer, filled);
      filled += piece.length;
      // Only when a line ended: a line longer than the buffer is not rescanned for every row.
      if (filled >= FEED_BYTES && piece.lastIndexOf(0x0a) !== -1) feed();
    }
    if (filled > 0) feed();
    if (consumed !== to || filled !== 0)
      throw new CaptureFault(
        'transcript_cursor_mismatch',
        `envelope ${envelope.id}: its tail does not end at a line boundary`,
      );
  }
  // A very long line grew the buffer: not kept for the steps after.
  if (scratch.buffer.length > 2 * (FEED_BYTES + HOOK_TAIL_CHUNK_BYTES)) scratch.buffer = Buffer.alloc(0);
  last ??= parser.feed(new Uint8Array(0));
  if (last.failure) throw faultOf(last.failure);
  return last;
}

export function faultOf(error: TranscriptParseError): CaptureFault {
  const code = RECOVERY_CODES.has(error.code) ? error.code : 'transcript_invalid_record';
  return new CaptureFault(code, `line ${error.line} (byte ${error.byteOffset}): ${error.detail}`);
}
