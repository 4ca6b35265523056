// The drain: turns inbox envelopes into sessions, turns and batches. It reads envelopes and
// transcript tails over its own read-only connection, parses them here (never on the writer
// thread), and submits each activation's step as one writer command. A parse, cursor or
// delivery-authentication failure isolates that activation with a recovery item while the other
// activations go on; SQLite, file I/O and capacity errors are raised as they are.
import { open } from 'node:fs/promises';
import { CmError } from '../errors.js';
import { textDigest } from '../hook/identity.js';
import { ClaudeTranscriptParser, claudeTranscriptMode, initialClaudeTranscriptState, type ClaudeTranscriptState } from '../hosts/claude/transcript-parser.js';
import { CodexRolloutParser, initialCodexRolloutState, type CodexRolloutState } from '../hosts/codex/rollout-parser.js';
import { parseTranscriptFile, type TranscriptFeeder } from '../hosts/transcript-file.js';
import { TranscriptParseError, type CursorState, type ParseProgress, type TranscriptTurn } from '../hosts/transcript-model.js';
import { DRAIN_STEP_MAX_BYTES, DRAIN_STEP_MAX_ENVELOPES } from '../limits.js';
import { parseRecoveryId, recoveryIdText, type DrainReport } from '../protocol.js';
import {
  findCandidate,
  firstPendingEnvelope,
  nextActivation,
  readActivation,
  readPendingEnvelopes,
  readRecoveryItem,
  readWatch,
  type ActivationRow,
  type EnvelopeRow,
  type WatchRow,
} from '../store/capture-reads.js';
import type { CaptureStepInput, StepOutcome } from '../store/capture-sessions.js';
import type { Db } from '../store/database.js';
import { RECOVERY_CODES, type RecoveryCode } from './recovery-codes.js';

/** How the engine reaches the writer: the writer client's `call`, narrowed to the two capture commands. */
export interface CaptureWriter {
  call(name: 'captureApplyStep', input: CaptureStepInput): Promise<StepOutcome>;
  call(name: 'captureIsolate', input: { activationId: number; inboxId: number; code: string; detail: string; recoveryId: number | null }): Promise<{ outcome: 'isolated'; recoveryId: number } | { outcome: 'stale' }>;
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

type AnyParser = TranscriptFeeder<CursorState> & { readonly state: CursorState };

interface Plan {
  input: CaptureStepInput;
  firstInboxId: number;
}

/** Steps a single drain call may take before it yields: a queue that keeps filling cannot hold a caller forever. */
const STEPS_PER_CALL = 10_000;

export class DrainEngine {
  constructor(
    private readonly reader: Db,
    private readonly writer: CaptureWriter,
  ) {}

  /** Drains every activation that is not isolated until the inbox has nothing left for it. */
  async drainAll(): Promise<DrainReport> {
    const report: DrainReport = { steps: 0, sealedTurns: 0, isolated: [], recovered: null };
    for (let i = 0; i < STEPS_PER_CALL; i++) {
      const activationId = nextActivation(this.reader);
      if (activationId === undefined) break;
      await this.step(activationId, null, report);
    }
    return report;
  }

  /** Retries exactly one recovery item: its activation's pending envelopes, with the transcript re-read when it still exists. */
  async recover(text: string): Promise<DrainReport> {
    const recoveryId = parseRecoveryId(text);
    const item = recoveryId === undefined ? undefined : readRecoveryItem(this.reader, recoveryId);
    if (!item) throw new CmError('not_found', `No recovery item ${text}. Run "common-memory status" to list them.`);
    if (item.state !== 'open') throw new CmError('not_found', `Recovery item ${text} was already recovered; nothing to do.`);
    const report: DrainReport = { steps: 0, sealedTurns: 0, isolated: [], recovered: false };
    const ok = await this.step(item.activationId, item.recoveryId, report);
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

  /** One transaction for one activation. Returns true when the step was applied. */
  private async step(activationId: number, recoveryId: number | null, report: DrainReport): Promise<boolean> {
    const activation = readActivation(this.reader, activationId);
    if (!activation) throw new CmError('inconsistent', `Inbox envelopes name activation ${activationId}, which does not exist.`);
    let plan: Plan | undefined;
    try {
      plan = await this.plan(activation, recoveryId);
    } catch (error) {
      if (!(error instanceof CaptureFault)) throw error;
      const inboxId = firstPendingEnvelope(this.reader, activationId);
      if (inboxId === undefined) return false;
      await this.isolate(activation, inboxId, error.code, error.detail, recoveryId, report);
      return false;
    }
    if (!plan) return false;
    report.steps += 1;
    const outcome = await this.writer.call('captureApplyStep', plan.input);
    if (outcome.outcome === 'applied') {
      report.sealedTurns += outcome.sealed;
      return true;
    }
    if (outcome.outcome === 'rejected') await this.isolate(activation, plan.firstInboxId, outcome.code, outcome.detail, recoveryId, report);
    return false;
  }

  private async isolate(activation: ActivationRow, inboxId: number, code: RecoveryCode, detail: string, recoveryId: number | null, report: DrainReport): Promise<void> {
    const result = await this.writer.call('captureIsolate', { activationId: activation.activationId, inboxId, code, detail: detail.slice(0, 1000), recoveryId });
    if (result.outcome === 'isolated') report.isolated.push(recoveryIdText(result.recoveryId));
  }

  private async plan(activation: ActivationRow, recoveryId: number | null): Promise<Plan | undefined> {
    const envelopes = readPendingEnvelopes(this.reader, activation.activationId, DRAIN_STEP_MAX_ENVELOPES, DRAIN_STEP_MAX_BYTES);
    const first = envelopes[0];
    if (!first) return undefined;
    const ended = envelopes.some((e) => e.event === 'SessionEnd');
    const watch = activation.watchId === null ? undefined : readWatch(this.reader, activation.watchId);
    const base = { activationId: activation.activationId, envelopeIds: envelopes.map((e) => e.id), recoveryId };
    const fed = envelopes.some((e) => e.tailState !== 'none' && e.tailState !== 'missing');
    if (!watch || (!fed && recoveryId === null)) {
      return { firstInboxId: first.id, input: { ...base, watch: null, turns: [], incompleteKeys: [], bufferedTurns: ended ? 0 : null } };
    }
    const parser = makeParser(activation, watch);
    const progress = recoveryId !== null ? await this.fromFile(parser, watch, envelopes) : feedEnvelopes(parser, watch, envelopes);
    if (progress.sessionKey !== null && progress.sessionKey !== activation.hostSessionId) {
      throw new CaptureFault('transcript_session_mismatch', `the transcript belongs to another session than the hook payload`);
    }
    const turns = this.authenticate(activation, progress.turns);
    return {
      firstInboxId: first.id,
      input: {
        ...base,
        watch: { watchId: watch.watchId, fromBytes: watch.consumedBytes, toBytes: progress.consumedBytes, state: JSON.stringify(progress.state) },
        turns,
        incompleteKeys: ended ? progress.openTurns.map((t) => t.key) : [],
        bufferedTurns: ended ? 0 : progress.openTurns.length,
      },
    };
  }

  /** Recovery: the transcript as it is now (the user may have repaired it), else the bytes the hooks kept. */
  private async fromFile(parser: AnyParser, watch: WatchRow, envelopes: EnvelopeRow[]): Promise<ParseProgress<CursorState>> {
    let exists = true;
    try {
      await (await open(watch.transcriptPath, 'r')).close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // file I/O errors are raised, never filed as a bad session
      exists = false;
    }
    if (!exists) return feedEnvelopes(parser, watch, envelopes);
    const result = await parseTranscriptFile(watch.transcriptPath, parser);
    if (result.failure) throw faultOf(result.failure);
    return result;
  }

  /** Delivery authentication: every evidence prompt must match a UserPromptSubmit candidate exactly. */
  private authenticate(activation: ActivationRow, turns: TranscriptTurn[]): CaptureStepInput['turns'] {
    const lastUsed = new Map<string, number>();
    return turns.map((turn) => ({
      key: turn.key,
      state: turn.state === 'open' ? 'settled' : turn.state,
      error: turn.error ?? null,
      messages: turn.messages.map((m) => {
        let candidateId: number | null = null;
        if (m.classification === 'evidence') {
          const turnRef = activation.client === 'codex' ? turn.key : null;
          const digest = textDigest(m.text);
          const found = findCandidate(this.reader, activation.client, activation.hostSessionId, digest, turnRef, lastUsed.get(digest) ?? 0);
          if (found === undefined) {
            throw new CaptureFault('delivery_unconfirmed', `turn ${turn.key}: the user message at line ${m.line} matches no prompt a UserPromptSubmit hook recorded`);
          }
          lastUsed.set(digest, found);
          candidateId = found;
        }
        return { key: m.key, role: m.role, classification: m.classification, kind: m.kind, text: m.text, line: m.line, timestamp: m.timestamp, candidateId };
      }),
    }));
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
    if (activation.client === 'codex') return new CodexRolloutParser((state as CodexRolloutState | null) ?? initialCodexRolloutState()) as unknown as AnyParser;
    return new ClaudeTranscriptParser((state as ClaudeTranscriptState | null) ?? initialClaudeTranscriptState(claudeTranscriptMode(watch.transcriptPath))) as unknown as AnyParser;
  } catch (error) {
    if (error instanceof TranscriptParseError) throw faultOf(error);
    throw error;
  }
}

/** Feeds the tails the hooks kept, in envelope order, from the watch's cursor. */
function feedEnvelopes(parser: AnyParser, watch: WatchRow, envelopes: EnvelopeRow[]): ParseProgress<CursorState> {
  let consumed = watch.consumedBytes;
  let last: ParseProgress<CursorState> | undefined;
  const turns: TranscriptTurn[] = [];
  for (const envelope of envelopes) {
    switch (envelope.tailState) {
      case 'none':
      case 'missing':
        continue; // no transcript bytes in this event (a transcript gone at hook time adds nothing)
      case 'over_limit':
        throw new CaptureFault('transcript_tail_over_limit', `envelope ${envelope.id}: the transcript grew by more than a hook may copy at once`);
      case 'cursor_mismatch':
        throw new CaptureFault('transcript_cursor_mismatch', `envelope ${envelope.id}: the transcript was shorter than the bytes already captured (replaced or truncated)`);
      case 'unreadable':
        throw new CaptureFault('transcript_unreadable', `envelope ${envelope.id}: the hook could not read the transcript`);
      case 'captured':
        break;
    }
    if (envelope.watchId !== watch.watchId) throw new CaptureFault('transcript_cursor_mismatch', `envelope ${envelope.id} belongs to another transcript than its session`);
    const from = envelope.tailFrom ?? 0;
    const to = envelope.tailTo ?? from;
    if (to <= consumed) continue; // already applied (a recovery re-read the file past it)
    if (from > consumed) throw new CaptureFault('transcript_cursor_mismatch', `envelope ${envelope.id}: bytes ${consumed}..${from} of the transcript were never captured`);
    const bytes = (envelope.tail ?? Buffer.alloc(0)).subarray(consumed - from);
    last = parser.feed(bytes);
    if (last.failure) throw faultOf(last.failure);
    turns.push(...last.turns);
    consumed = last.consumedBytes;
    if (consumed !== to) throw new CaptureFault('transcript_cursor_mismatch', `envelope ${envelope.id}: its tail does not end at a line boundary`);
  }
  last ??= parser.feed(new Uint8Array(0));
  if (last.failure) throw faultOf(last.failure);
  return { ...last, turns };
}

function faultOf(error: TranscriptParseError): CaptureFault {
  const code = RECOVERY_CODES.has(error.code) ? error.code : 'transcript_invalid_record';
  return new CaptureFault(code, `line ${error.line} (byte ${error.byteOffset}): ${error.detail}`);
}
