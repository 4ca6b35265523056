// The strict parser of the event stream common-memory's pi extension records (one JSON line per
// event, source/hook/pi-capture.ts): pi interactions → turns → messages, for the drain.
//
// One turn is one interaction: from the run that the user's prompt starts to its settlement. pi
// 0.73.1 has no agent_settled event (HOSTS.md 3.5), so settlement is derived from what the stream
// says, as source/hosts/pi/settlement.ts does for driven agents:
// - agent_end whose last assistant message ended with `error` may be followed by pi's auto-retry or
//   an overflow compaction, both of which start a new run with no user message: the turn waits.
//   The next agent_start continues it; the next input or user message, or the session's end,
//   settles it as failed.
// - any other agent_end settles it: stop/length → settled; aborted → interrupted; no assistant
//   answer, or a last message that asked for a tool → interrupted (never a made-up answer).
// Tool loops (several assistant/toolResult messages in one run), retries, compaction and a steer
// therefore stay inside one turn; a follow-up delivered once the answer stopped starts its own. Its key is the stamp of its first user message (message-parts.ts), the key
// the session-file parser (session-parser.ts) gives the same turn, so an import never stores it twice.
//
// Evidence: a user message counts as what the user typed only when its text is exactly an input
// the extension saw (by digest, source interactive or rpc). A user message that is not — a prompt
// template or skill pi expanded, a message an extension sent — is context. Everything else is
// context, thinking is ignored, and an unknown event type, role or content block fails closed.
import { sha256Hex } from '../../ground/digests.js';
import {
  checkState,
  copyTurn,
  isObject,
  JsonlTranscriptParser,
  type Json,
  type LinePosition,
} from '../jsonl-cursor.js';
import type { CursorState, MessageKind, Role, TranscriptMessage, TranscriptTurn } from '../transcript-model.js';
import { piBlockText, piOtherParts, piTurnKey, type PiReject, type PiRejectCode } from './message-parts.js';

export const PI_EVENTS_STATE_FORMAT = 'common-memory/pi-events/1';

/** Inputs waiting for the user message they became; bounded (an input pi handled itself never arrives). */
const PENDING_INPUTS_MAX = 32;

export interface PiEventsState extends CursorState {
  open: TranscriptTurn | null;
  /** The open turn's runs ended with an error: it waits for a retry or for what comes next. */
  awaitingRetry: boolean;
  /** The last assistant message's stopReason in the open turn. */
  lastStop: string | null;
  lastError: string | null;
  running: boolean;
  inputs: string[];
  pendingContext: TranscriptMessage[];
  /** The stamp of the last turn keyed by its user message (absent in states saved before keys were). */
  lastKeyMs?: number | null;
}

export function initialPiEventsState(): PiEventsState {
  return {
    format: PI_EVENTS_STATE_FORMAT,
    consumedBytes: 0,
    consumedLines: 0,
    open: null,
    awaitingRetry: false,
    lastStop: null,
    lastError: null,
    running: false,
    inputs: [],
    pendingContext: [],
    lastKeyMs: null,
  };
}

const SESSION_EVENTS = new Set(['session_start', 'session_shutdown', 'session_compact']);

export class PiEventParser extends JsonlTranscriptParser<PiEventsState> {
  private open: TranscriptTurn | null;
  private awaitingRetry: boolean;
  private lastStop: string | null;
  private lastError: string | null;
  private running: boolean;
  private inputs: string[];
  private pending: TranscriptMessage[];
  private lastKeyMs: number | null;

  constructor(state: PiEventsState = initialPiEventsState()) {
    checkState(state, PI_EVENTS_STATE_FORMAT);
    super(state);
    this.open = state.open === null ? null : copyTurn(state.open);
    this.awaitingRetry = state.awaitingRetry;
    this.lastStop = state.lastStop;
    this.lastError = state.lastError;
    this.running = state.running;
    this.inputs = [...state.inputs];
    this.pending = state.pendingContext.map((m) => ({ ...m }));
    this.lastKeyMs = state.lastKeyMs ?? null;
  }

  protected sessionKey(): string | null {
    return null; // the stream is per activation: it cannot belong to another session
  }

  protected openTurnsSnapshot(): TranscriptTurn[] {
    return this.open === null ? [] : [copyTurn(this.open)];
  }

  protected pendingContextSnapshot(): TranscriptMessage[] {
    return this.pending.map((m) => ({ ...m }));
  }

  protected snapshot(consumedBytes: number, consumedLines: number): PiEventsState {
    return {
      format: PI_EVENTS_STATE_FORMAT,
      consumedBytes,
      consumedLines,
      open: this.open === null ? null : copyTurn(this.open),
      awaitingRetry: this.awaitingRetry,
      lastStop: this.lastStop,
      lastError: this.lastError,
      running: this.running,
      inputs: [...this.inputs],
      pendingContext: this.pending.map((m) => ({ ...m })),
      lastKeyMs: this.lastKeyMs,
    };
  }

  protected handleLine(value: unknown, at: LinePosition): void {
    if (!isObject(value) || typeof value['type'] !== 'string')
      this.fail('transcript_invalid_record', at, 'an event line without a type');
    const type = value['type'];
    if (SESSION_EVENTS.has(type)) return;
    switch (type) {
      case 'SessionEnd':
        if (this.awaitingRetry) this.close('failed');
        return;
      case 'input':
        return this.onInput(value, at);
      case 'agent_start':
        if (this.awaitingRetry) this.awaitingRetry = false;
        else if (this.open === null) this.start(at);
        this.running = true;
        return;
      case 'agent_end':
        return this.onAgentEnd(at);
      case 'message_end':
        return this.onMessage(value, at);
      default:
        this.fail('transcript_unknown_record', at, `unknown pi event type ${JSON.stringify(type).slice(0, 80)}`);
    }
  }

  private onInput(value: Json, at: LinePosition): void {
    const digest = value['digest'];
    if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest))
      this.fail('transcript_invalid_record', at, 'input without a digest');
    if (this.awaitingRetry) this.close('failed');
    // What an extension sent is not what the user typed.
    if (value['source'] === 'extension') return;
    this.inputs.push(digest);
    if (this.inputs.length > PENDING_INPUTS_MAX) this.inputs.shift();
  }

  private onAgentEnd(at: LinePosition): void {
    if (this.open === null || !this.running) this.fail('transcript_order', at, 'agent_end outside a run');
    this.running = false;
    if (this.lastStop === 'error') this.awaitingRetry = true;
    else if (this.lastStop === 'stop' || this.lastStop === 'length') this.close('settled');
    else this.close('interrupted');
  }

  private start(at: LinePosition): void {
    this.open = { key: `i${at.line}`, state: 'open', messages: this.pending, firstLine: at.line, lastLine: at.line };
    this.pending = [];
    this.lastStop = null;
    this.lastError = null;
  }

  private close(state: 'settled' | 'failed' | 'interrupted'): void {
    const turn = this.open!;
    turn.state = state;
    if (state === 'failed' && this.lastError !== null) turn.error = this.lastError;
    this.emitClosed(turn);
    this.open = null;
    this.awaitingRetry = false;
    this.running = false;
  }

  private onMessage(value: Json, at: LinePosition): void {
    const message = value['message'];
    if (!isObject(message) || typeof message['role'] !== 'string')
      this.fail('transcript_invalid_record', at, 'message_end without a message role');
    const role = message['role'];
    if (role === 'user' && this.awaitingRetry) this.close('failed');
    // A follow-up pi delivers in the same run once the answer stopped: the answered prompt's turn
    // is settled, and the follow-up starts its own (as pi's session file shows them: two turns).
    if (
      role === 'user' &&
      this.open !== null &&
      this.running &&
      (this.lastStop === 'stop' || this.lastStop === 'length')
    ) {
      this.close('settled');
      this.start(at);
      this.running = true;
    }
    // A message the capture kept without its content (over its bound): a marker in place of the body.
    const omitted = omittedMarker(message, at, this.rejecter);
    if (omitted !== null) message['content'] = [{ type: 'text', text: omitted }];
    if (role === 'user' && this.open === null) this.start(at);
    const add = (messageRole: Role, kind: MessageKind, text: string, index = 0, evidence = false): void => {
      if (text.length === 0) return;
      const timestamp = typeof message['timestamp'] === 'number' ? new Date(message['timestamp']).toISOString() : null;
      const entry: TranscriptMessage = {
        key: `l${at.line}.${index}`,
        role: messageRole,
        classification: evidence ? 'evidence' : 'context',
        kind,
        text,
        line: at.line,
        timestamp,
      };
      if (this.open === null) this.pending.push(entry);
      else {
        this.open.messages.push(entry);
        this.open.lastLine = at.line;
      }
    };
    if (role === 'user') {
      const text = piBlockText(message['content'], at, this.rejecter);
      this.keyTurn(message);
      const found = this.inputs.indexOf(sha256Hex(text));
      if (found !== -1) {
        this.inputs.splice(found, 1);
        add('user', 'prompt', text, 0, true);
      } else if (this.inputs.length > 0) {
        // The oldest input pi did not deliver as typed: it was expanded (a template or skill) into this.
        this.inputs.shift();
        add('user', 'command', text);
      } else add('user', 'harness', text);
      return;
    }
    const { parts, stop, error } = piOtherParts(message, at, this.rejecter);
    for (const part of parts) add(part.role, part.kind, part.text, part.index);
    if (role === 'assistant') {
      this.lastStop = stop;
      this.lastError = error;
    }
  }

  /**
   * The open turn's first user message gives it its key (piTurnKey): the identity an import of
   * pi's session file gives the same turn. A run no user message started keeps its line key.
   */
  private keyTurn(message: Json): void {
    if (this.open === null || !this.open.key.startsWith('i')) return;
    const keyed = piTurnKey(message, this.lastKeyMs);
    if (keyed === null) return;
    this.open.key = keyed.key;
    this.lastKeyMs = keyed.ms;
  }

  private readonly rejecter = (code: PiRejectCode, at: LinePosition, detail: string): never =>
    this.fail(code, at, detail);
}

/** The body that stands for a content the capture did not keep, or null when the content is there. */
function omittedMarker(message: Json, at: LinePosition, reject: PiReject): string | null {
  const omitted = message['omittedContent'];
  if (omitted === undefined) return null;
  if (
    !isObject(omitted) ||
    typeof omitted['contentBytes'] !== 'number' ||
    typeof omitted['contentSha256'] !== 'string' ||
    message['content'] !== undefined
  )
    reject('transcript_invalid_record', at, 'a malformed omittedContent');
  return `[${omitted['contentBytes']} bytes of content over the capture bound, not kept; sha256 ${omitted['contentSha256']}]`;
}
