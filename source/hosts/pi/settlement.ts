// Derives when one prompt is settled, and how it ended, from pi 0.73.1's stdout records.
//
// pi 0.73.1 has no agent_settled event (HOSTS.md 3.3, 3.5). One prompt can span several agent
// runs: after agent_end, pi may write auto_retry_start (retryable provider error) or
// compaction_start (auto-compaction) and then start another run. pi's agent-session.js writes
// those continuations in the same synchronous stretch as agent_end (only microtasks in between),
// so they always arrive before the answer to any command the runtime sends after it has read
// agent_end. That gives a deterministic confirmation instead of a guess:
//
//   settle-pending (after agent_end) is confirmed by the NEXT stdout record that is not a
//   continuation. The runtime makes sure a next record exists by writing a barrier command
//   (get_state) as soon as it sees settlementWait(state).kind === 'confirm': its response either
//   arrives after the continuation (and is then just a journal-only record), or confirms. If pi
//   stops talking, 'grace-elapsed' (PI_SETTLE_GRACE_MS) or 'stream-ended' confirm instead.
//
// Continuations in settle-pending: auto_retry_start → retry-wait; compaction_start → compacting;
// auto_retry_end (retries exhausted) and a lone compaction_end (overflow recovery refused) keep it
// pending, because pi's _checkCompaction may still follow in the same stretch.
//
// Phases:
//   awaiting-response --response ok--> accepted --agent_start--> running --agent_end--> settle-pending
//   awaiting-response --response !ok--> [rejected]
//   settle-pending --auto_retry_start--> retry-wait --agent_start--> running
//   retry-wait --auto_retry_end (cancelled by abort)--> settle-pending
//   settle-pending --compaction_start--> compacting --compaction_end{willRetry}--> awaiting-continue --agent_start--> running
//   compacting --compaction_end{!willRetry}--> settle-pending
//   settle-pending --any other record | grace-elapsed | stream-ended--> [settled]
//   any non-terminal phase --stream-ended--> [interrupted]
//   any protocol-fault record, frame-fault (oversized / invalid UTF-8 line) or impossible order --> [faulted]
//
// compaction_start/_end before the prompt response are pi's pre-prompt compaction check; they are
// consumed without changing phase. auto_retry_end{success:true} arrives inside the retried run,
// between its message_end and turn_end.
//
// The outcome is read, never inferred, from the stopReason of the LAST assistant message_end of
// the whole prompt (all runs): stop/length → answered, error → error, aborted → aborted; no
// assistant message, or a last message that asked for a tool (toolUse), → no-answer, which the
// store records as interrupted rather than as a made-up answer (seed 003 B, "settlement 无终局
// assistant → interrupted").
//
// The record that confirms settlement is not part of the prompt: the step says consumed:false and
// the runtime must route that record with no active operation (classifyPiRecord with
// activePromptId null), so e.g. an unexpected new run's message_end faults instead of being
// attributed to a finished prompt.

import type { PiRecord, PiStopReason } from './pi-record.js';
import { PI_SETTLE_GRACE_MS } from '../../limits.js';

export type SettlementPhase =
  | 'awaiting-response'
  | 'accepted'
  | 'running'
  | 'settle-pending'
  | 'retry-wait'
  | 'compacting'
  | 'awaiting-continue';

export type PromptOutcome =
  | { readonly kind: 'answered'; readonly stopReason: 'stop' | 'length' }
  | { readonly kind: 'error'; readonly errorMessage: string | null }
  | { readonly kind: 'aborted'; readonly errorMessage: string | null }
  | { readonly kind: 'no-answer'; readonly lastStopReason: 'toolUse' | null };

export type SettlementResult =
  | {
      readonly status: 'settled';
      readonly outcome: PromptOutcome;
      readonly confirmedBy: 'next-record' | 'grace-elapsed' | 'stream-ended';
    }
  | { readonly status: 'rejected'; readonly error: string | null }
  | { readonly status: 'interrupted'; readonly phase: SettlementPhase }
  | { readonly status: 'faulted'; readonly phase: SettlementPhase; readonly detail: string };

export interface SettlementState {
  readonly promptId: string;
  readonly phase: SettlementPhase;
  /** Set once; later input is refused. */
  readonly result: SettlementResult | null;
  readonly accepted: boolean;
  readonly agentRuns: number;
  readonly retryStarts: number;
  /** delayMs of the last auto_retry_start: how long pi sleeps before the next attempt. */
  readonly retryDelayMs: number;
  readonly assistantMessages: number;
  readonly lastAssistant: { readonly stopReason: PiStopReason; readonly errorMessage: string | null } | null;
}

export type SettlementInput =
  | { readonly kind: 'record'; readonly record: PiRecord }
  /** The framer refused a stdout line (oversized, invalid UTF-8): the generation stops. */
  | { readonly kind: 'frame-fault'; readonly detail: string }
  | { readonly kind: 'grace-elapsed' }
  | { readonly kind: 'stream-ended' };

export interface SettlementStep {
  readonly state: SettlementState;
  /** False when the record arrived after the prompt settled and belongs to no operation. */
  readonly consumed: boolean;
}

/** What the runtime must arrange while a prompt is not terminal. */
export type SettlementWait =
  | { readonly kind: 'records' }
  /** Send a barrier command now, and feed 'grace-elapsed' if no record arrives within graceMs. */
  | { readonly kind: 'confirm'; readonly graceMs: number }
  /** pi sleeps delayMs before the next attempt; a runtime deadline should allow for it. */
  | { readonly kind: 'retry-backoff'; readonly delayMs: number }
  | { readonly kind: 'done'; readonly result: SettlementResult };

export function startSettlement(promptId: string): SettlementState {
  return {
    promptId,
    phase: 'awaiting-response',
    result: null,
    accepted: false,
    agentRuns: 0,
    retryStarts: 0,
    retryDelayMs: 0,
    assistantMessages: 0,
    lastAssistant: null,
  };
}

export function outcomeOf(state: SettlementState): PromptOutcome {
  const last = state.lastAssistant;
  if (last === null) return { kind: 'no-answer', lastStopReason: null };
  switch (last.stopReason) {
    case 'stop':
    case 'length':
      return { kind: 'answered', stopReason: last.stopReason };
    case 'error':
      return { kind: 'error', errorMessage: last.errorMessage };
    case 'aborted':
      return { kind: 'aborted', errorMessage: last.errorMessage };
    case 'toolUse':
      return { kind: 'no-answer', lastStopReason: 'toolUse' };
  }
}

const withResult = (state: SettlementState, result: SettlementResult): SettlementState => ({ ...state, result });
const moveTo = (state: SettlementState, phase: SettlementPhase): SettlementState => ({ ...state, phase });
const faulted = (state: SettlementState, detail: string): SettlementStep => ({
  state: withResult(state, { status: 'faulted', phase: state.phase, detail }),
  consumed: true,
});
const settled = (
  state: SettlementState,
  confirmedBy: 'next-record' | 'grace-elapsed' | 'stream-ended',
): SettlementState => withResult(state, { status: 'settled', outcome: outcomeOf(state), confirmedBy });

export function advanceSettlement(state: SettlementState, input: SettlementInput): SettlementStep {
  if (state.result !== null) throw new Error(`settlement of ${state.promptId} is already ${state.result.status}`);
  if (input.kind === 'stream-ended') {
    if (state.phase === 'settle-pending') return { state: settled(state, 'stream-ended'), consumed: true };
    return { state: withResult(state, { status: 'interrupted', phase: state.phase }), consumed: true };
  }
  if (input.kind === 'frame-fault') return faulted(state, input.detail);
  if (input.kind === 'grace-elapsed') {
    // A timer that fires late for a phase that moved on is harmless.
    if (state.phase !== 'settle-pending') return { state, consumed: true };
    return { state: settled(state, 'grace-elapsed'), consumed: true };
  }
  const record = input.record;
  const route = record.route;
  const event = record.event;
  if (state.phase === 'settle-pending' && !isContinuation(record)) {
    return { state: settled(state, 'next-record'), consumed: false };
  }
  if (route.kind === 'protocol-fault') return faulted(state, `${route.fault}: ${route.detail}`);
  if (event === null) return faulted(state, 'record without routing fields');

  switch (event.type) {
    case 'response':
      if (route.kind !== 'lifecycle') return { state, consumed: true };
      if (state.phase !== 'awaiting-response') return faulted(state, `second prompt response (${route.evidence})`);
      if (route.evidence === 'rejected')
        return { state: withResult(state, { status: 'rejected', error: event.error }), consumed: true };
      return { state: { ...state, phase: 'accepted', accepted: true }, consumed: true };
    case 'agent_start':
      if (state.phase !== 'accepted' && state.phase !== 'retry-wait' && state.phase !== 'awaiting-continue') {
        return faulted(state, `agent_start in phase ${state.phase}`);
      }
      return { state: { ...state, phase: 'running', agentRuns: state.agentRuns + 1 }, consumed: true };
    case 'agent_end':
      if (state.phase !== 'running') return faulted(state, `agent_end in phase ${state.phase}`);
      return { state: moveTo(state, 'settle-pending'), consumed: true };
    case 'message_end':
      if (state.phase !== 'running')
        return faulted(state, `message_end (${event.message.role}) in phase ${state.phase}`);
      if (event.message.role !== 'assistant') return { state, consumed: true };
      return {
        state: {
          ...state,
          assistantMessages: state.assistantMessages + 1,
          lastAssistant: { stopReason: event.message.stopReason, errorMessage: event.message.errorMessage },
        },
        consumed: true,
      };
    case 'auto_retry_start':
      if (state.phase !== 'settle-pending') return faulted(state, `auto_retry_start in phase ${state.phase}`);
      return {
        state: { ...state, phase: 'retry-wait', retryStarts: state.retryStarts + 1, retryDelayMs: event.delayMs },
        consumed: true,
      };
    case 'auto_retry_end':
      // Cancelled during the backoff sleep (abort): the run is over unless compaction follows.
      if (state.phase === 'retry-wait') return { state: moveTo(state, 'settle-pending'), consumed: true };
      // success:true inside the retried run; success:false after the last agent_end (settle-pending).
      return { state, consumed: true };
    case 'compaction_start':
      if (state.phase === 'awaiting-response') return { state, consumed: true };
      if (state.phase !== 'settle-pending') return faulted(state, `compaction_start in phase ${state.phase}`);
      return { state: moveTo(state, 'compacting'), consumed: true };
    case 'compaction_end':
      if (state.phase === 'awaiting-response' || state.phase === 'settle-pending') return { state, consumed: true };
      if (state.phase !== 'compacting') return faulted(state, `compaction_end in phase ${state.phase}`);
      return { state: moveTo(state, event.willRetry ? 'awaiting-continue' : 'settle-pending'), consumed: true };
    default:
      // turn_*, message_start/update, tool_execution_*, queue_update, other responses, …:
      // journal evidence that does not move the prompt.
      return { state, consumed: true };
  }
}

function isContinuation(record: PiRecord): boolean {
  const type = record.route.kind === 'protocol-fault' ? null : record.event?.type;
  return (
    type === 'auto_retry_start' || type === 'auto_retry_end' || type === 'compaction_start' || type === 'compaction_end'
  );
}

export function settlementWait(state: SettlementState): SettlementWait {
  if (state.result !== null) return { kind: 'done', result: state.result };
  if (state.phase === 'settle-pending') return { kind: 'confirm', graceMs: PI_SETTLE_GRACE_MS };
  if (state.phase === 'retry-wait') return { kind: 'retry-backoff', delayMs: state.retryDelayMs };
  return { kind: 'records' };
}
