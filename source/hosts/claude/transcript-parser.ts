// Strict, incremental parser for Claude Code 2.1.332 transcripts
// (<config>/projects/<slug>/<session_id>.jsonl and <session_id>/subagents/agent-<id>.jsonl,
// HOSTS.md 2.5).
//
// Order: lines are applied in parentUuid chain order, not line order. A line whose parent has not
// appeared yet waits (it and its descendants are held in the state, reported as `waitingLines`)
// until the parent arrives; roots (parentUuid null, e.g. compact_boundary) apply at once.
//
// Turns (what "settled" means for Claude — there is no single end record):
// - A turn starts at a typed prompt (evidence) or a task notification (context, no evidence); in a
//   subagent file at the parent agent's task line. Its key is that line's uuid.
// - Context seen while no turn is open (SessionStart hook context before the first prompt, the
//   compaction block after a settled turn) is pending and joins the next turn, before its prompt.
// - The open turn settles at:
//   1. system/stop_hook_summary — unless a Stop hook blocked since the last assistant output (a Stop
//      `hook_blocking_error` attachment or an isMeta hook-feedback user line): then the model runs
//      again and the turn stays open until the next summary (fixtures 20-ret-context, 22-ret-deny).
//      preventedContinuation:true always settles.
//   2. system/turn_duration.
//   3. the next turn-starting line (the previous turn evidently finished).
//   A `[Request interrupted by user…]` harness line ends it as interrupted.
// - Otherwise it stays open (buffered) — e.g. the last turn of a session without Stop hooks, or a
//   turn whose reply is still being written. Claude 2.1.332 writes no failure record in the
//   recorded scenarios, so Claude turns are never 'failed'.
// - Assistant output or a tool result while no turn is open is impossible in a well-formed file and
//   fails with transcript_order (also when a turn settled early by rule 1 and the model continued).
//
// A prompt blocked by a UserPromptSubmit hook leaves no user line, only system/informational: no
// turn, no evidence (21-ret-block). Assistant lines are one per content block; lines with the same
// message.id form one answer message (key message.id); each tool_use is its own tool_call message
// (key tool_use id). Bookkeeping lines are ignored by name (record-kinds.ts).

import {
  checkState,
  copyTurn,
  isObject,
  JsonlTranscriptParser,
  nonEmptyString,
  type LinePosition,
} from '../jsonl-cursor.js';
import type { CursorState, TranscriptMessage, TranscriptTurn } from '../transcript-model.js';
import { CLAUDE_BOOKKEEPING_TYPES, CLAUDE_CHAIN_TYPES } from './record-kinds.js';
import { classifyClaudeLine, type ClaudeAction } from './transcript-records.js';

export const CLAUDE_TRANSCRIPT_STATE_FORMAT = 'claude-transcript/1';

export type ClaudeTranscriptMode = 'main' | 'subagent';

/** A chain line classified on arrival, applied once its parent has been applied. */
export interface ClaudeEntry {
  uuid: string;
  parent: string | null;
  line: number;
  byteOffset: number;
  action: ClaudeAction;
}

interface ClaudeOpenTurn {
  turn: TranscriptTurn;
  /** A Stop hook sent the model back to work since the last assistant output. */
  stopBlocked: boolean;
}

export interface ClaudeTranscriptState extends CursorState {
  format: typeof CLAUDE_TRANSCRIPT_STATE_FORMAT;
  mode: ClaudeTranscriptMode;
  sessionId: string | null;
  agentId: string | null;
  /** Every uuid applied so far: any later line may name one as its parent. */
  seen: string[];
  /** Lines waiting for their parent, in line order. */
  waiting: ClaudeEntry[];
  openTurn: ClaudeOpenTurn | null;
  pendingContext: TranscriptMessage[];
}

export function initialClaudeTranscriptState(mode: ClaudeTranscriptMode = 'main'): ClaudeTranscriptState {
  return {
    format: CLAUDE_TRANSCRIPT_STATE_FORMAT,
    consumedBytes: 0,
    consumedLines: 0,
    mode,
    sessionId: null,
    agentId: null,
    seen: [],
    waiting: [],
    openTurn: null,
    pendingContext: [],
  };
}

/** Subagent transcripts live at <session_id>/subagents/agent-<agentId>.jsonl. */
export function claudeTranscriptMode(path: string): ClaudeTranscriptMode {
  return /[\\/]subagents[\\/]agent-[^\\/]+\.jsonl$/.test(path) ? 'subagent' : 'main';
}

export class ClaudeTranscriptParser extends JsonlTranscriptParser<ClaudeTranscriptState> {
  private readonly mode: ClaudeTranscriptMode;
  private sessionId: string | null;
  private agentId: string | null;
  private readonly seen: Set<string>;
  private readonly waiting = new Map<string, ClaudeEntry[]>();
  private readonly waitingUuids = new Set<string>();
  private open: ClaudeOpenTurn | null;
  private pending: TranscriptMessage[];

  constructor(state: ClaudeTranscriptState = initialClaudeTranscriptState()) {
    checkState(state, CLAUDE_TRANSCRIPT_STATE_FORMAT);
    super(state);
    this.mode = state.mode;
    this.sessionId = state.sessionId;
    this.agentId = state.agentId;
    this.seen = new Set(state.seen);
    for (const entry of state.waiting) this.hold(entry);
    this.open =
      state.openTurn === null ? null : { turn: copyTurn(state.openTurn.turn), stopBlocked: state.openTurn.stopBlocked };
    this.pending = state.pendingContext.map((m) => ({ ...m }));
  }

  protected sessionKey(): string | null {
    if (this.sessionId === null) return null;
    return this.mode === 'subagent' ? `${this.sessionId}:agent-${this.agentId ?? ''}` : this.sessionId;
  }

  protected openTurnsSnapshot(): TranscriptTurn[] {
    return this.open === null ? [] : [copyTurn(this.open.turn)];
  }

  protected pendingContextSnapshot(): TranscriptMessage[] {
    return this.pending.map((m) => ({ ...m }));
  }

  protected override waitingLineCount(): number {
    return this.waitingUuids.size;
  }

  protected snapshot(consumedBytes: number, consumedLines: number): ClaudeTranscriptState {
    const waiting = [...this.waiting.values()].flat().sort((a, b) => a.line - b.line);
    return {
      format: CLAUDE_TRANSCRIPT_STATE_FORMAT,
      consumedBytes,
      consumedLines,
      mode: this.mode,
      sessionId: this.sessionId,
      agentId: this.agentId,
      seen: [...this.seen],
      // Entries are immutable once classified; a structural copy keeps the snapshot independent.
      waiting: structuredClone(waiting),
      openTurn: this.open === null ? null : { turn: copyTurn(this.open.turn), stopBlocked: this.open.stopBlocked },
      pendingContext: this.pendingContextSnapshot(),
    };
  }

  protected handleLine(value: unknown, at: LinePosition): void {
    if (!isObject(value)) this.fail('transcript_invalid_record', at, 'line is not a JSON object');
    const type = value['type'];
    if (typeof type !== 'string') this.fail('transcript_invalid_record', at, 'line has no string type');
    if (CLAUDE_BOOKKEEPING_TYPES.has(type)) {
      this.anchor(value, at);
      return;
    }
    if (!CLAUDE_CHAIN_TYPES.has(type))
      this.fail('transcript_unknown_record', at, `unknown line type ${JSON.stringify(type.slice(0, 64))}`);

    const uuid = value['uuid'];
    const parent = value['parentUuid'];
    if (!nonEmptyString(uuid)) this.fail('transcript_invalid_record', at, `${type} line without uuid`);
    if (parent !== null && !nonEmptyString(parent))
      this.fail('transcript_invalid_record', at, 'parentUuid is neither null nor a uuid');
    if (this.seen.has(uuid) || this.waitingUuids.has(uuid))
      this.fail('transcript_invalid_record', at, 'duplicate uuid');
    this.checkIdentity(value, at);

    const action = classifyClaudeLine(value, type, uuid, {
      line: at.line,
      byteOffset: at.byteOffset,
      subagent: this.mode === 'subagent',
    });
    const entry: ClaudeEntry = { uuid, parent, line: at.line, byteOffset: at.byteOffset, action };
    if (parent === null || this.seen.has(parent)) this.applyChain(entry);
    else this.hold(entry);
  }

  /** A bookkeeping line that sits in the chain (a uuid'd `progress`) adds nothing but may be a parent. */
  private anchor(record: Record<string, unknown>, at: LinePosition): void {
    const uuid = record['uuid'];
    const parent = record['parentUuid'];
    if (!nonEmptyString(uuid) || this.seen.has(uuid) || this.waitingUuids.has(uuid)) return;
    if (parent !== null && !nonEmptyString(parent)) return;
    const entry: ClaudeEntry = { uuid, parent, line: at.line, byteOffset: at.byteOffset, action: { t: 'none' } };
    if (parent === null || this.seen.has(parent)) this.applyChain(entry);
    else this.hold(entry);
  }

  /** Every chain line belongs to the same session (and, in a subagent file, the same agent). */
  private checkIdentity(record: Record<string, unknown>, at: LinePosition): void {
    const sessionId = record['sessionId'];
    if (!nonEmptyString(sessionId)) this.fail('transcript_invalid_record', at, 'line without sessionId');
    if (this.sessionId === null) this.sessionId = sessionId;
    else if (this.sessionId !== sessionId) this.fail('transcript_invalid_record', at, 'line of another session');
    const sidechain = record['isSidechain'];
    if (typeof sidechain !== 'boolean') this.fail('transcript_invalid_record', at, 'isSidechain is not a boolean');
    if (this.mode === 'main') {
      // 2.1.332 writes sidechains to subagents/ files; one here is a format we do not know.
      if (sidechain) this.fail('transcript_invalid_record', at, 'sidechain line in a main transcript');
      return;
    }
    if (!sidechain) this.fail('transcript_invalid_record', at, 'non-sidechain line in a subagent transcript');
    const agentId = record['agentId'];
    if (!nonEmptyString(agentId)) this.fail('transcript_invalid_record', at, 'subagent line without agentId');
    if (this.agentId === null) this.agentId = agentId;
    else if (this.agentId !== agentId) this.fail('transcript_invalid_record', at, 'line of another agent');
  }

  private hold(entry: ClaudeEntry): void {
    const parent = entry.parent as string;
    const list = this.waiting.get(parent);
    if (list === undefined) this.waiting.set(parent, [entry]);
    else list.push(entry);
    this.waitingUuids.add(entry.uuid);
  }

  /** Applies `entry`, then every held descendant depth-first (children in line order). */
  private applyChain(first: ClaudeEntry): void {
    const stack = [first];
    while (stack.length > 0) {
      const entry = stack.pop() as ClaudeEntry;
      this.apply(entry);
      this.seen.add(entry.uuid);
      this.waitingUuids.delete(entry.uuid);
      const children = this.waiting.get(entry.uuid);
      if (children === undefined) continue;
      this.waiting.delete(entry.uuid);
      for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i] as ClaudeEntry);
    }
  }

  private apply(entry: ClaudeEntry): void {
    const action = entry.action;
    const at = { line: entry.line, byteOffset: entry.byteOffset };
    const open = this.open;
    if (open !== null && action.t !== 'start') {
      open.turn.lastLine = Math.max(open.turn.lastLine, entry.line);
    }
    switch (action.t) {
      case 'start': {
        if (open !== null) this.close('settled');
        const messages = [...this.pending, action.message];
        const firstLine = Math.min(...messages.map((m) => m.line));
        this.pending = [];
        this.open = {
          turn: { key: entry.uuid, state: 'open', messages, firstLine, lastLine: entry.line },
          stopBlocked: false,
        };
        return;
      }
      case 'assistant': {
        if (open === null) this.fail('transcript_order', at, 'assistant output outside an open turn');
        open.stopBlocked = false;
        if (action.text !== null)
          this.appendAnswer(open.turn, action.messageId, action.text, action.line, action.timestamp);
        open.turn.messages.push(...action.toolCalls);
        return;
      }
      case 'tool_result':
        if (open === null) this.fail('transcript_order', at, 'tool result outside an open turn');
        open.turn.messages.push(action.message);
        return;
      case 'context':
        if (open !== null && action.stopBlock) open.stopBlocked = true;
        if (action.message === null) return;
        if (open === null) this.pending.push(action.message);
        else open.turn.messages.push(action.message);
        return;
      case 'interrupt':
        if (open === null) {
          this.pending.push(action.message);
          return;
        }
        open.turn.messages.push(action.message);
        this.close('interrupted');
        return;
      case 'stop_summary':
        if (open !== null && (!open.stopBlocked || action.preventedContinuation)) this.close('settled');
        return;
      case 'turn_end':
        if (open !== null) this.close('settled');
        return;
      case 'none':
        return;
    }
  }

  /** Content blocks of one API message arrive as separate lines with the same message.id. */
  private appendAnswer(
    turn: TranscriptTurn,
    messageId: string,
    text: string,
    line: number,
    timestamp: string | null,
  ): void {
    for (let i = turn.messages.length - 1; i >= 0; i -= 1) {
      const message = turn.messages[i] as TranscriptMessage;
      if (message.kind === 'answer' && message.key === messageId) {
        message.text = `${message.text}\n${text}`;
        return;
      }
    }
    turn.messages.push({
      key: messageId,
      role: 'assistant',
      classification: 'context',
      kind: 'answer',
      text,
      line,
      timestamp,
    });
  }

  private close(state: 'settled' | 'interrupted'): void {
    const open = this.open;
    if (open === null) return;
    open.turn.state = state;
    this.open = null;
    this.emitClosed(open.turn);
  }
}
