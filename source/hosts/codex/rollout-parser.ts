// Strict, incremental parser for Codex CLI rollout files
// ($CODEX_HOME/sessions/…/rollout-<ts>-<thread>.jsonl, HOSTS.md 1.5).
//
// Turns: a turn runs from event_msg task_started (alias turn_started) to task_complete (alias
// turn_complete) or turn_aborted, keyed by turn_id. task_complete with `error` -> failed,
// turn_aborted -> interrupted, else settled. Resume appends to the same file, so a file holds any
// number of turns. A turn whose process died never gets a terminal record: it stays open (the
// caller decides what an open turn at session end means); later turns are still parsed.
//
// Evidence: only a user prompt. It is delivered up to three times — the response_item user message
// (content_item_kinds all `user.*`, provenance all `user`), the item_completed UserMessage UI copy
// (different id) and, in legacy rollouts, event_msg user_message. Each copy is matched to an
// earlier one of the same turn by text (first unmatched), so a prompt counts once; the message key
// is the id of the copy that came first. In paginated rollouts (0.171) every prompt must have both
// the response_item and the UserMessage copy by the time its turn ends, otherwise the two copies
// disagree and we fail instead of counting twice.
//
// Context: assistant output, tool calls and outputs, developer messages (harness instructions, hook
// additional context), harness user messages (environment context, turn-aborted marker, compaction
// summary), the compaction output and `compacted.message`. `compacted.replacement_history`
// replays earlier items with their original turn ids and is never read as messages.
//
// Ignored explicitly: world_state, turn_context, token_usage_record, retained_context,
// security_risk_score, realtime_item, inter_agent_communication(_metadata), the events and items
// listed in rollout-records.ts.

import {
  checkState,
  copyTurn,
  isObject,
  JsonlTranscriptParser,
  nonEmptyString,
  type Json,
  type LinePosition,
} from '../jsonl-cursor.js';
import type { CursorState, MessageKind, Role, TranscriptMessage, TranscriptTurn } from '../transcript-model.js';
import {
  CODEX_CONTENT_TYPES,
  CODEX_IGNORED_EVENTS,
  CODEX_IGNORED_ITEMS,
  CODEX_IGNORED_TURN_ITEMS,
  CODEX_LINE_TYPES,
  CODEX_MIN_CLI_VERSION,
  CODEX_TOOL_CALLS,
  CODEX_TOOL_OUTPUTS,
  CODEX_USER_INPUT_TYPES,
  parseStrictVersion,
  versionAtLeast,
} from './rollout-records.js';
import { ignoredRecordOrdinal, NO_ORDINAL, NOT_RECOGNISED } from './ignored-line.js';

export const CODEX_ROLLOUT_STATE_FORMAT = 'codex-rollout/1';

/** Where a copy of a user prompt came from. */
type DeliverySource = 'response_item' | 'item_completed' | 'user_message';

interface PromptCopies {
  text: string;
  sources: DeliverySource[];
}

interface CodexOpenTurn {
  turn: TranscriptTurn;
  prompts: PromptCopies[];
}

export interface CodexRolloutState extends CursorState {
  format: typeof CODEX_ROLLOUT_STATE_FORMAT;
  sessionKey: string | null;
  /** session_meta.history_mode; 'paginated' requires both prompt copies. */
  historyMode: string | null;
  lastOrdinal: number | null;
  openTurns: CodexOpenTurn[];
  pendingContext: TranscriptMessage[];
}

export function initialCodexRolloutState(): CodexRolloutState {
  return {
    format: CODEX_ROLLOUT_STATE_FORMAT,
    consumedBytes: 0,
    consumedLines: 0,
    sessionKey: null,
    historyMode: null,
    lastOrdinal: null,
    openTurns: [],
    pendingContext: [],
  };
}

interface LineContext extends LinePosition {
  record: Json;
  timestamp: string | null;
  /** `ordinal` when written, else the 0-based line index; used for ids of records without one. */
  ordinal: number;
}

export class CodexRolloutParser extends JsonlTranscriptParser<CodexRolloutState> {
  private session: string | null;
  private historyMode: string | null;
  private lastOrdinal: number | null;
  private readonly open = new Map<string, CodexOpenTurn>();
  private pending: TranscriptMessage[];

  constructor(state: CodexRolloutState = initialCodexRolloutState()) {
    checkState(state, CODEX_ROLLOUT_STATE_FORMAT);
    super(state);
    this.session = state.sessionKey;
    this.historyMode = state.historyMode;
    this.lastOrdinal = state.lastOrdinal;
    for (const entry of state.openTurns) {
      this.open.set(entry.turn.key, {
        turn: copyTurn(entry.turn),
        prompts: entry.prompts.map((p) => ({ text: p.text, sources: [...p.sources] })),
      });
    }
    this.pending = state.pendingContext.map((m) => ({ ...m }));
  }

  protected sessionKey(): string | null {
    return this.session;
  }

  protected openTurnsSnapshot(): TranscriptTurn[] {
    return [...this.open.values()].map((entry) => copyTurn(entry.turn));
  }

  protected pendingContextSnapshot(): TranscriptMessage[] {
    return this.pending.map((m) => ({ ...m }));
  }

  protected snapshot(consumedBytes: number, consumedLines: number): CodexRolloutState {
    return {
      format: CODEX_ROLLOUT_STATE_FORMAT,
      consumedBytes,
      consumedLines,
      sessionKey: this.session,
      historyMode: this.historyMode,
      lastOrdinal: this.lastOrdinal,
      openTurns: [...this.open.values()].map((entry) => ({
        turn: copyTurn(entry.turn),
        prompts: entry.prompts.map((p) => ({ text: p.text, sources: [...p.sources] })),
      })),
      pendingContext: this.pendingContextSnapshot(),
    };
  }

  protected skipIgnoredLine(buf: Buffer, start: number, end: number, at: LinePosition): boolean {
    // Before session_meta every line takes the full path, which reports the order error.
    if (this.session === null) return false;
    const ordinal = ignoredRecordOrdinal(buf, start, end);
    if (ordinal === NOT_RECOGNISED) return false;
    this.checkOrdinal(ordinal === NO_ORDINAL ? undefined : ordinal, at);
    return true;
  }

  protected handleLine(value: unknown, at: LinePosition): void {
    if (!isObject(value)) this.fail('transcript_invalid_record', at, 'line is not a JSON object');
    const type = value['type'];
    if (typeof type !== 'string') this.fail('transcript_invalid_record', at, 'line has no string type');
    if (!CODEX_LINE_TYPES.has(type)) this.fail('transcript_unknown_record', at, `unknown line type ${clip(type)}`);
    const payload = value['payload'];
    if (!isObject(payload)) this.fail('transcript_invalid_record', at, `${type} has no payload object`);
    const timestamp = value['timestamp'];
    if (timestamp !== undefined && typeof timestamp !== 'string')
      this.fail('transcript_invalid_record', at, 'timestamp is not a string');
    const ordinal = this.checkOrdinal(value['ordinal'], at);
    // Built field by field: an object spread here cost as much as the JSON.parse of the line.
    const ctx: LineContext = {
      line: at.line,
      byteOffset: at.byteOffset,
      record: value,
      timestamp: timestamp ?? null,
      ordinal,
    };

    if (this.session === null && type !== 'session_meta')
      this.fail('transcript_order', at, 'first line is not session_meta');
    switch (type) {
      case 'session_meta':
        this.sessionMeta(payload, ctx);
        break;
      case 'response_item':
        this.responseItem(payload, ctx);
        break;
      case 'event_msg':
        this.eventMsg(payload, ctx);
        break;
      case 'compacted':
        this.compacted(payload, ctx);
        break;
      default:
        // CODEX_IGNORED_LINE_TYPES: no user input, no lifecycle (most never get here: see
        // skipIgnoredLine).
        break;
    }
  }

  private checkOrdinal(raw: unknown, at: LinePosition): number {
    if (raw === undefined) return at.line - 1;
    if (!Number.isSafeInteger(raw) || (raw as number) < 0)
      this.fail('transcript_invalid_record', at, 'ordinal is not a non-negative integer');
    const ordinal = raw as number;
    // Ordinals count lines; one that does not increase means lines were reordered or spliced.
    if (this.lastOrdinal !== null && ordinal <= this.lastOrdinal)
      this.fail('transcript_order', at, 'ordinal does not increase');
    this.lastOrdinal = ordinal;
    return ordinal;
  }

  private sessionMeta(payload: Json, ctx: LineContext): void {
    if (this.session !== null) this.fail('transcript_order', ctx, 'second session_meta');
    const id = payload['id'];
    if (!nonEmptyString(id)) this.fail('transcript_invalid_record', ctx, 'session_meta without id');
    const version = payload['cli_version'];
    const parsed = typeof version === 'string' ? parseStrictVersion(version) : null;
    if (parsed === null) this.fail('transcript_unsupported_version', ctx, 'cli_version is not a strict x.y.z version');
    if (!versionAtLeast(parsed, CODEX_MIN_CLI_VERSION))
      this.fail('transcript_unsupported_version', ctx, `cli_version below ${CODEX_MIN_CLI_VERSION.join('.')}`);
    const mode = payload['history_mode'];
    if (mode !== undefined && typeof mode !== 'string')
      this.fail('transcript_invalid_record', ctx, 'history_mode is not a string');
    this.session = id;
    this.historyMode = mode ?? null;
  }

  // ---- event_msg ----

  private eventMsg(payload: Json, ctx: LineContext): void {
    const type = payload['type'];
    if (typeof type !== 'string') this.fail('transcript_invalid_record', ctx, 'event_msg without type');
    switch (type) {
      case 'task_started':
      case 'turn_started':
        return this.startTurn(payload, ctx);
      case 'task_complete':
      case 'turn_complete':
        return this.completeTurn(payload, ctx);
      case 'turn_aborted': {
        const entry = this.terminalTurn(payload, ctx);
        return this.closeTurn(entry, 'interrupted', undefined, ctx);
      }
      case 'item_completed':
        return this.itemCompleted(payload, ctx);
      case 'user_message':
        return this.legacyUserMessage(payload, ctx);
      default:
        if (!CODEX_IGNORED_EVENTS.has(type))
          this.fail('transcript_unknown_record', ctx, `unknown event_msg type ${clip(type)}`);
    }
  }

  private startTurn(payload: Json, ctx: LineContext): void {
    const turnId = payload['turn_id'];
    if (!nonEmptyString(turnId)) this.fail('transcript_invalid_record', ctx, 'task_started without turn_id');
    if (this.open.has(turnId)) this.fail('transcript_order', ctx, 'task_started for a turn already open');
    // Context recorded between turns (a compaction) belongs to the turn it precedes.
    const turn: TranscriptTurn = {
      key: turnId,
      state: 'open',
      messages: this.pending,
      firstLine: ctx.line,
      lastLine: ctx.line,
    };
    this.pending = [];
    this.open.set(turnId, { turn, prompts: [] });
  }

  private completeTurn(payload: Json, ctx: LineContext): void {
    const entry = this.terminalTurn(payload, ctx);
    const error = payload['error'];
    if (error === undefined || error === null) return this.closeTurn(entry, 'settled', undefined, ctx);
    if (!isObject(error) || typeof error['message'] !== 'string')
      this.fail('transcript_invalid_record', ctx, 'task_complete error without message');
    this.closeTurn(entry, 'failed', error['message'], ctx);
  }

  /** Terminal records must name an open turn (seed 002: matching non-empty turn_id). */
  private terminalTurn(payload: Json, ctx: LineContext): CodexOpenTurn {
    const turnId = payload['turn_id'];
    if (!nonEmptyString(turnId)) this.fail('transcript_invalid_record', ctx, 'terminal event without turn_id');
    this.requireTimestamp(ctx);
    const entry = this.open.get(turnId);
    if (entry === undefined) this.fail('transcript_order', ctx, 'terminal event for a turn that is not open');
    return entry;
  }

  private closeTurn(
    entry: CodexOpenTurn,
    state: 'settled' | 'failed' | 'interrupted',
    error: string | undefined,
    ctx: LineContext,
  ): void {
    if (this.historyMode === 'paginated') {
      for (const prompt of entry.prompts) {
        if (!prompt.sources.includes('response_item') || !prompt.sources.includes('item_completed')) {
          this.fail('transcript_invalid_record', ctx, 'prompt copies (response_item, UserMessage) do not match');
        }
      }
    }
    const turn = entry.turn;
    turn.state = state;
    if (error !== undefined) turn.error = error;
    turn.lastLine = ctx.line;
    this.open.delete(turn.key);
    this.emitClosed(turn);
  }

  private itemCompleted(payload: Json, ctx: LineContext): void {
    const turnId = payload['turn_id'];
    if (!nonEmptyString(turnId)) this.fail('transcript_invalid_record', ctx, 'item_completed without turn_id');
    const item = payload['item'];
    if (!isObject(item) || typeof item['type'] !== 'string')
      this.fail('transcript_invalid_record', ctx, 'item_completed without item type');
    const itemType = item['type'];
    if (itemType !== 'UserMessage') {
      if (!CODEX_IGNORED_TURN_ITEMS.has(itemType))
        this.fail('transcript_unknown_record', ctx, `unknown item type ${clip(itemType)}`);
      return;
    }
    const entry = this.open.get(turnId);
    if (entry === undefined) this.fail('transcript_order', ctx, 'UserMessage for a turn that is not open');
    const id = item['id'];
    if (!nonEmptyString(id)) this.fail('transcript_invalid_record', ctx, 'UserMessage without id');
    const content = item['content'];
    if (!Array.isArray(content)) this.fail('transcript_invalid_record', ctx, 'UserMessage content is not an array');
    const parts: string[] = [];
    for (const input of content) {
      if (!isObject(input) || typeof input['type'] !== 'string')
        this.fail('transcript_invalid_record', ctx, 'UserMessage input without type');
      if (!CODEX_USER_INPUT_TYPES.has(input['type']))
        this.fail('transcript_unknown_record', ctx, `unknown user input type ${clip(input['type'])}`);
      if (input['type'] === 'text') {
        if (typeof input['text'] !== 'string') this.fail('transcript_invalid_record', ctx, 'text input without text');
        parts.push(input['text']);
      }
    }
    this.requireTimestamp(ctx);
    this.deliver(entry, 'item_completed', parts.join('\n'), id, ctx);
  }

  /** Older rollouts: the prompt as event_msg user_message (no id; optional turn_id). */
  private legacyUserMessage(payload: Json, ctx: LineContext): void {
    const message = payload['message'];
    if (typeof message !== 'string') this.fail('transcript_invalid_record', ctx, 'user_message without message');
    const turnId = payload['turn_id'];
    let entry: CodexOpenTurn | undefined;
    if (turnId === undefined || turnId === null) entry = this.singleOpenTurn(ctx, 'user_message');
    else if (nonEmptyString(turnId)) entry = this.open.get(turnId);
    if (entry === undefined) this.fail('transcript_order', ctx, 'user_message outside an open turn');
    this.requireTimestamp(ctx);
    this.deliver(entry, 'user_message', message, `${entry.turn.key}#${ctx.ordinal}`, ctx);
  }

  /** Counts a prompt once: a copy matches the first earlier prompt of the turn with the same text that lacks this source. */
  private deliver(entry: CodexOpenTurn, source: DeliverySource, text: string, key: string, ctx: LineContext): void {
    entry.turn.lastLine = ctx.line;
    for (const prompt of entry.prompts) {
      if (prompt.text === text && !prompt.sources.includes(source)) {
        prompt.sources.push(source);
        return;
      }
    }
    entry.prompts.push({ text, sources: [source] });
    entry.turn.messages.push({
      key,
      role: 'user',
      classification: 'evidence',
      kind: 'prompt',
      text,
      line: ctx.line,
      timestamp: ctx.timestamp,
    });
  }

  // ---- response_item ----

  private responseItem(payload: Json, ctx: LineContext): void {
    const type = payload['type'];
    if (typeof type !== 'string') this.fail('transcript_invalid_record', ctx, 'response_item without type');
    if (CODEX_IGNORED_ITEMS.has(type)) return;
    const isCall = CODEX_TOOL_CALLS.has(type);
    const isOutput = CODEX_TOOL_OUTPUTS.has(type);
    if (type !== 'message' && !isCall && !isOutput)
      this.fail('transcript_unknown_record', ctx, `unknown response_item type ${clip(type)}`);
    const entry = this.itemTurn(payload, ctx);
    const id = payload['id'];
    const key = nonEmptyString(id) ? id : `${entry.turn.key}#${ctx.ordinal}`;
    if (type === 'message') return this.message(payload, entry, key, ctx);
    const text = isCall ? toolCallText(payload) : toolOutputText(payload);
    this.push(entry, {
      key,
      role: isCall ? 'assistant' : 'tool',
      classification: 'context',
      kind: isCall ? 'tool_call' : 'tool_result',
      text,
      line: ctx.line,
      timestamp: ctx.timestamp,
    });
  }

  /** response_item turn: internal_chat_message_metadata_passthrough.turn_id, else the only open turn. */
  private itemTurn(payload: Json, ctx: LineContext): CodexOpenTurn {
    const passthrough = payload['internal_chat_message_metadata_passthrough'];
    const turnId = isObject(passthrough) ? passthrough['turn_id'] : undefined;
    if (turnId === undefined || turnId === null) return this.singleOpenTurn(ctx, 'response_item');
    if (!nonEmptyString(turnId)) this.fail('transcript_invalid_record', ctx, 'response_item turn_id is not a string');
    const entry = this.open.get(turnId);
    if (entry === undefined) this.fail('transcript_order', ctx, 'response_item for a turn that is not open');
    return entry;
  }

  private singleOpenTurn(ctx: LineContext, what: string): CodexOpenTurn {
    if (this.open.size !== 1)
      this.fail('transcript_order', ctx, `${what} without turn_id and not exactly one open turn`);
    return this.open.values().next().value as CodexOpenTurn;
  }

  private message(payload: Json, entry: CodexOpenTurn, key: string, ctx: LineContext): void {
    const role = payload['role'];
    const content = payload['content'];
    if (!Array.isArray(content)) this.fail('transcript_invalid_record', ctx, 'message content is not an array');
    const parts: string[] = [];
    for (const item of content) {
      if (!isObject(item) || typeof item['type'] !== 'string')
        this.fail('transcript_invalid_record', ctx, 'content item without type');
      const itemType = item['type'];
      if (!CODEX_CONTENT_TYPES.has(itemType))
        this.fail('transcript_unknown_record', ctx, `unknown content type ${clip(itemType)}`);
      if (itemType === 'input_text' || itemType === 'output_text') {
        if (typeof item['text'] !== 'string') this.fail('transcript_invalid_record', ctx, 'text content without text');
        parts.push(item['text']);
      }
    }
    const text = parts.join('\n');
    const passthrough = payload['internal_chat_message_metadata_passthrough'];
    const kinds = isObject(passthrough) ? passthrough['content_item_kinds'] : undefined;
    if (kinds !== undefined && (!Array.isArray(kinds) || !kinds.every((k) => typeof k === 'string'))) {
      this.fail('transcript_invalid_record', ctx, 'content_item_kinds is not a string array');
    }
    const kindList = (kinds ?? []) as string[];
    const context = (role: Role, kind: MessageKind): TranscriptMessage => ({
      key,
      role,
      classification: 'context',
      kind,
      text,
      line: ctx.line,
      timestamp: ctx.timestamp,
    });
    switch (role) {
      case 'user': {
        const provenances = provenanceTypes(passthrough);
        if (provenances === null) this.fail('transcript_invalid_record', ctx, 'content_item_metadata is malformed');
        const userKinds = kindList.length > 0 && kindList.every((k) => k.startsWith('user.'));
        const userProvenance = provenances.length > 0 && provenances.every((p) => p === 'user');
        if (userKinds && userProvenance) {
          this.requireTimestamp(ctx);
          return this.deliver(entry, 'response_item', text, key, ctx);
        }
        // Half-user metadata would make us guess whether the user wrote it.
        if (kindList.some((k) => k.startsWith('user.')) || provenances.includes('user')) {
          this.fail('transcript_invalid_record', ctx, 'user message with mixed user and harness metadata');
        }
        return this.push(entry, context('user', harnessKind(kindList)));
      }
      case 'developer':
        return this.push(
          entry,
          context('developer', kindList.some((k) => k.startsWith('hooks.')) ? 'hook_context' : 'instructions'),
        );
      case 'assistant': {
        const metadata = ctx.record['metadata'];
        const compaction = isObject(metadata) && metadata['compaction_output'] === true;
        return this.push(entry, context('assistant', compaction ? 'compaction_summary' : 'answer'));
      }
      default:
        this.fail('transcript_unknown_record', ctx, `unknown message role ${clip(String(role))}`);
    }
  }

  private push(entry: CodexOpenTurn, message: TranscriptMessage): void {
    entry.turn.messages.push(message);
    entry.turn.lastLine = message.line;
  }

  // ---- compacted ----

  /** The summary is context; replacement_history replays old items and is never read as messages. */
  private compacted(payload: Json, ctx: LineContext): void {
    const message = payload['message'];
    if (typeof message !== 'string') this.fail('transcript_invalid_record', ctx, 'compacted without message');
    const history = payload['replacement_history'];
    if (history !== undefined && history !== null && !Array.isArray(history))
      this.fail('transcript_invalid_record', ctx, 'replacement_history is not an array');
    if (message.length === 0) return;
    const summary: TranscriptMessage = {
      key: `compacted#${ctx.ordinal}`,
      role: 'system',
      classification: 'context',
      kind: 'compaction_summary',
      text: message,
      line: ctx.line,
      timestamp: ctx.timestamp,
    };
    // Compaction runs inside the turn that triggered it; outside any turn it waits for the next one.
    let latest: CodexOpenTurn | undefined;
    for (const entry of this.open.values()) latest = entry;
    if (latest === undefined) this.pending.push(summary);
    else this.push(latest, summary);
  }

  /** Evidence and terminal records must carry a valid timestamp (seed 002). */
  private requireTimestamp(ctx: LineContext): void {
    if (ctx.timestamp === null || Number.isNaN(Date.parse(ctx.timestamp)))
      this.fail('transcript_invalid_record', ctx, 'missing or invalid timestamp');
  }
}

function provenanceTypes(passthrough: unknown): string[] | null {
  if (!isObject(passthrough)) return [];
  const metadata = passthrough['content_item_metadata'];
  if (metadata === undefined || metadata === null) return [];
  if (!Array.isArray(metadata)) return null;
  const types: string[] = [];
  for (const entry of metadata) {
    if (!isObject(entry)) return null;
    const provenance = entry['provenance'];
    if (provenance === undefined || provenance === null) continue;
    if (!isObject(provenance) || typeof provenance['type'] !== 'string') return null;
    types.push(provenance['type']);
  }
  return types;
}

function harnessKind(kinds: string[]): MessageKind {
  if (kinds.some((k) => k.startsWith('environments.'))) return 'environment';
  if (kinds.some((k) => k.startsWith('hooks.'))) return 'hook_context';
  if (kinds.some((k) => k.startsWith('compaction.'))) return 'compaction_summary';
  return 'harness';
}

function toolCallText(payload: Json): string {
  const name = typeof payload['name'] === 'string' ? payload['name'] : String(payload['type']);
  const args = payload['arguments'] ?? payload['input'] ?? payload['action'];
  return `${name} ${typeof args === 'string' ? args : JSON.stringify(args ?? null)}`;
}

function toolOutputText(payload: Json): string {
  const output = payload['output'];
  return typeof output === 'string' ? output : JSON.stringify(output ?? null);
}

/** Discriminators from the file go into error details; keep them short and printable. */
function clip(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}
