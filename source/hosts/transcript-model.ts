// The shared output of the host transcript parsers (Codex rollouts, Claude transcripts):
// sessions -> turns -> messages. Pure data; nothing here touches a database or the network.
//
// Contract of every parser (see jsonl-cursor.ts for the mechanics):
// - `feed(bytes)` takes the bytes of the file that start at `state.consumedBytes`. Only complete
//   LF-terminated lines are consumed; a partial trailing line is left for the next call (the caller
//   re-reads the file from `consumedBytes`).
// - A call is all-or-nothing: when any line fails, the call consumes nothing, returns the state it
//   started from, and `failure` names the first bad line. The parser then stays failed (fail
//   closed): the caller isolates the session and keeps every byte.
// - Resuming from `state` (after JSON round-tripping) over the rest of the file yields exactly the
//   turns a single pass would: concatenating `turns` of all calls equals the single-pass `turns`,
//   and the last call's `openTurns` / `pendingContext` equal the single-pass ones.

/** Who a message is attributed to on the wire. Evidence is decided by `classification`, never by role alone. */
export type Role = 'user' | 'assistant' | 'tool' | 'developer' | 'system';

/** `evidence`: something the user actually sent (a delivered prompt). Everything else is `context`. */
export type Classification = 'evidence' | 'context';

export type MessageKind =
  /** A prompt the user typed or sent (the only evidence kind). */
  | 'prompt'
  /** Assistant text. */
  | 'answer'
  | 'tool_call'
  | 'tool_result'
  /** Hook-injected additional context / hook stdout the model sees. */
  | 'hook_context'
  /** Hook text fed back to the model as a user line (Claude `Stop hook feedback`). */
  | 'hook_feedback'
  /** Harness-written environment description (Codex `<environment_context>`, Claude env/date/model attachments). */
  | 'environment'
  /** Harness instructions (Codex developer skills/permissions message). */
  | 'instructions'
  /** A compaction summary (Codex compaction output / `compacted.message`, Claude `isCompactSummary`). */
  | 'compaction_summary'
  /** Other harness-written lines (interruption markers, local command caveats and output, legacy items). */
  | 'harness'
  /** A slash command recorded as `<command-name>…` (Claude). */
  | 'command'
  /** A background-task completion delivered as a prompt (Claude `<task-notification>`). */
  | 'task_notification'
  /** The task a parent agent gave a subagent (Claude subagent transcripts). */
  | 'subagent_prompt'
  /** A prompt typed while the model worked, delivered inside the running turn (Claude `queued_command`). */
  | 'queued_prompt'
  /** What the model saw of an attachment type this client version does not know (Claude, newer client). */
  | 'unknown_attachment';

export interface TranscriptMessage {
  /**
   * Stable identity within the session, derived from ids in the file (never from text):
   * Codex: response_item `id` (else `<turn_id>#<ordinal>`); Claude: line `uuid`, assistant
   * `message.id` (all content-block lines of one API message), tool_use `id`.
   */
  key: string;
  role: Role;
  classification: Classification;
  kind: MessageKind;
  text: string;
  /** 1-based line number of the (first) line the message comes from. */
  line: number;
  /** The line's ISO timestamp as written, or null when the line has none. */
  timestamp: string | null;
}

/**
 * settled: the turn ended normally. failed: the host recorded an error ending (Codex task_complete
 * with `error`). interrupted: the user interrupted it. open: no terminal record yet (buffered; the
 * caller decides what an open turn at session end means).
 */
export type TurnState = 'settled' | 'failed' | 'interrupted' | 'open';

export interface TranscriptTurn {
  /** Codex: turn_id. Claude: uuid of the line that started the turn. */
  key: string;
  state: TurnState;
  /** In transcript order (Claude: parentUuid chain order). */
  messages: TranscriptMessage[];
  /** Failure text for `failed` turns. */
  error?: string;
  firstLine: number;
  lastLine: number;
}

export type TranscriptErrorCode =
  /** A complete line is not JSON. */
  | 'transcript_invalid_json'
  /** A complete line is not valid UTF-8. */
  | 'transcript_invalid_utf8'
  /** A known record lacks a required field or has a field of the wrong shape. */
  | 'transcript_invalid_record'
  /** An unknown discriminator (record type, payload type, item type, content type, role …). */
  | 'transcript_unknown_record'
  /** A record that is valid alone but impossible where it stands (e.g. output outside any turn). */
  | 'transcript_order'
  /** A line longer than TRANSCRIPT_LINE_MAX_BYTES. */
  | 'transcript_line_too_long'
  /** The file was written by a client version this parser does not accept. */
  | 'transcript_unsupported_version'
  /** The resume state handed to a parser is not one this parser wrote. */
  | 'transcript_invalid_state';

export class TranscriptParseError extends Error {
  readonly code: TranscriptErrorCode;
  /** 1-based line number of the offending line (0 for state errors). */
  readonly line: number;
  /** Byte offset of the start of the offending line in the file. */
  readonly byteOffset: number;
  /** A short, fixed-vocabulary explanation; never contains message text. */
  readonly detail: string;

  constructor(code: TranscriptErrorCode, line: number, byteOffset: number, detail: string) {
    super(`${code} at line ${line} (byte ${byteOffset}): ${detail}`);
    this.name = 'TranscriptParseError';
    this.code = code;
    this.line = line;
    this.byteOffset = byteOffset;
    this.detail = detail;
  }
}

/** Fields every parser state carries; the rest is parser-specific and JSON-serialisable. */
export interface CursorState {
  /** Identifies the parser that wrote the state, so a state is never fed to the wrong parser. */
  format: string;
  /** Bytes of the file consumed (always at a line boundary). */
  consumedBytes: number;
  /** Complete lines consumed. */
  consumedLines: number;
}

export interface ParseProgress<S extends CursorState> {
  /** Codex: thread id (session_meta.payload.id). Claude: sessionId (subagents: `<sessionId>:agent-<agentId>`). */
  sessionKey: string | null;
  /** Turns that reached a terminal state during this call, in closing order. Final: never reported again. */
  turns: TranscriptTurn[];
  /** Snapshot of every turn still open after this call (state 'open'). */
  openTurns: TranscriptTurn[];
  /** Context recorded outside any turn, waiting for the next turn to start (e.g. SessionStart hook context, compaction lines). */
  pendingContext: TranscriptMessage[];
  /** Lines held back because their parent line has not appeared yet (Claude chain order; always 0 for Codex). */
  waitingLines: number;
  /** Absolute byte offset consumed so far (a line boundary). */
  consumedBytes: number;
  consumedLines: number;
  /** Resume from here with `new Parser(state)`; JSON-serialisable. */
  state: S;
  /** Set when this call failed; nothing was consumed and the parser refuses further input. */
  failure: TranscriptParseError | null;
}
