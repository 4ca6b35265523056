// The strict parser of pi's own session files (pi 0.73.1, session format version 3), for `import
// pi`: the JSON lines pi appends under `<agent dir>/sessions/--<cwd>--/<time>_<session id>.jsonl` —
// a `session` header (format version, session id, working directory), then entries that each carry
// an id, the id of the entry before them and the instant they were written: messages, compaction
// and branch summaries, extension messages and state, labels, names, model and thinking changes.
//
// Turns: pi's file records no run boundaries (no agent_start/agent_end), so a turn is read from the
// messages themselves, as close to the live event stream's interactions (event-parser.ts) as the
// file allows:
// - a user message starts a turn, unless it was queued while the turn ran and the turn still runs
//   (a steer during a tool loop, which pi stamps when it was queued, before the entry just before
//   it was written): it joins. A follow-up delivered after the answer stopped starts its own turn,
//   as it does live;
// - an assistant message that stopped (`stop`, `length`) settles the turn, `aborted` interrupts
//   it, `toolUse` keeps it going, and `error` leaves it waiting, because pi may retry: the next
//   assistant message continues it, the next user message fails it (with the error's text); a
//   file that ends there leaves it open (the next import reads it once it ends);
// - a user message arriving while the turn still runs otherwise (a tool loop cut short) closes it
//   as interrupted, as the run's end would have live.
// A turn's key is the stamp of its first user message (message-parts.ts): the key the live
// capture gives the same turn, so a session captured live is never imported again.
//
// Evidence: a user message is what the user typed (kind `prompt`), except a skill pi expanded
// (`<skill name=…>` blocks), which is context (`command`), as live. The file does not record the
// input the user typed, so a prompt template pi expanded counts as typed here (live capture tells
// them apart by the input's digest). Everything else is context; thinking is ignored. An unknown
// entry type, message role or content block, a header of another format version, or an entry
// without its id, parent or instant fails closed (the file is quarantined with the line).
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
import { piBlockText, piMessageMs, piOtherParts, piTurnKey, stringField, type PiRejectCode } from './message-parts.js';

export const PI_SESSION_STATE_FORMAT = 'common-memory/pi-session/1';

/** The session file format pi 0.73.1 writes (its CURRENT_SESSION_VERSION); pi migrates older ones when it opens them. */
export const PI_SESSION_VERSION = 3;

export interface PiSessionState extends CursorState {
  sessionId: string | null;
  cwd: string | null;
  open: TranscriptTurn | null;
  /** The open turn's last answer was an error: pi may retry it. */
  awaitingRetry: boolean;
  lastStop: string | null;
  lastError: string | null;
  /** The instant the last entry was written (ms), to tell a queued user message from a new prompt. */
  lastEntryMs: number | null;
  lastKeyMs: number | null;
  pendingContext: TranscriptMessage[];
}

export function initialPiSessionState(): PiSessionState {
  return {
    format: PI_SESSION_STATE_FORMAT,
    consumedBytes: 0,
    consumedLines: 0,
    sessionId: null,
    cwd: null,
    open: null,
    awaitingRetry: false,
    lastStop: null,
    lastError: null,
    lastEntryMs: null,
    lastKeyMs: null,
    pendingContext: [],
  };
}

/** Entries that are not part of the conversation: settings, bookmarks, names, extension state. */
const QUIET_ENTRIES = new Set(['model_change', 'thinking_level_change', 'label', 'session_info', 'custom']);

/** The block pi puts a skill's instructions in when `/skill:name` expands (not what the user typed). */
const SKILL_BLOCK = /^<skill name="[^"]+" location="[^"]+">\n/;

export class PiSessionParser extends JsonlTranscriptParser<PiSessionState> {
  private sessionId: string | null;
  private cwd: string | null;
  private open: TranscriptTurn | null;
  private awaitingRetry: boolean;
  private lastStop: string | null;
  private lastError: string | null;
  private lastEntryMs: number | null;
  private lastKeyMs: number | null;
  private pending: TranscriptMessage[];

  constructor(state: PiSessionState = initialPiSessionState()) {
    checkState(state, PI_SESSION_STATE_FORMAT);
    super(state);
    this.sessionId = state.sessionId;
    this.cwd = state.cwd;
    this.open = state.open === null ? null : copyTurn(state.open);
    this.awaitingRetry = state.awaitingRetry;
    this.lastStop = state.lastStop;
    this.lastError = state.lastError;
    this.lastEntryMs = state.lastEntryMs;
    this.lastKeyMs = state.lastKeyMs;
    this.pending = state.pendingContext.map((m) => ({ ...m }));
  }

  protected sessionKey(): string | null {
    return this.sessionId;
  }

  protected openTurnsSnapshot(): TranscriptTurn[] {
    return this.open === null ? [] : [copyTurn(this.open)];
  }

  protected pendingContextSnapshot(): TranscriptMessage[] {
    return this.pending.map((m) => ({ ...m }));
  }

  protected snapshot(consumedBytes: number, consumedLines: number): PiSessionState {
    return {
      format: PI_SESSION_STATE_FORMAT,
      consumedBytes,
      consumedLines,
      sessionId: this.sessionId,
      cwd: this.cwd,
      open: this.open === null ? null : copyTurn(this.open),
      awaitingRetry: this.awaitingRetry,
      lastStop: this.lastStop,
      lastError: this.lastError,
      lastEntryMs: this.lastEntryMs,
      lastKeyMs: this.lastKeyMs,
      pendingContext: this.pending.map((m) => ({ ...m })),
    };
  }

  protected handleLine(value: unknown, at: LinePosition): void {
    if (!isObject(value) || typeof value['type'] !== 'string')
      this.fail('transcript_invalid_record', at, 'a line without a type');
    const type = value['type'];
    if (type === 'session') return this.onHeader(value, at);
    if (this.sessionId === null)
      this.fail('transcript_order', at, "an entry before pi's session header (the first line)");
    if (!nonEmptyString(value['id'])) this.fail('transcript_invalid_record', at, 'an entry without an id');
    if (value['parentId'] !== null && !nonEmptyString(value['parentId']))
      this.fail('transcript_invalid_record', at, 'an entry whose parentId is neither an id nor null');
    const written = typeof value['timestamp'] === 'string' ? Date.parse(value['timestamp']) : Number.NaN;
    if (!Number.isFinite(written)) this.fail('transcript_invalid_record', at, 'an entry without its ISO timestamp');
    const entryId = value['id'];
    const before = this.lastEntryMs;
    this.lastEntryMs = written;
    if (QUIET_ENTRIES.has(type)) return;
    const instant = new Date(written).toISOString();
    switch (type) {
      case 'message':
        return this.onMessage(value, entryId, before, instant, at);
      case 'compaction':
        return this.add('system', 'compaction_summary', stringField(value, 'summary', at, this.rejecter), {
          entryId,
          index: 0,
          instant,
          at,
        });
      case 'branch_summary':
        return this.add('system', 'harness', stringField(value, 'summary', at, this.rejecter), {
          entryId,
          index: 0,
          instant,
          at,
        });
      case 'custom_message':
        return this.add('system', 'hook_context', piBlockText(value['content'], at, this.rejecter), {
          entryId,
          index: 0,
          instant,
          at,
        });
      default:
        this.fail(
          'transcript_unknown_record',
          at,
          `unknown pi session entry type ${JSON.stringify(type).slice(0, 80)}`,
        );
    }
  }

  private onHeader(value: Json, at: LinePosition): void {
    if (this.sessionId !== null || at.line !== 1)
      this.fail('transcript_order', at, 'a second session header (pi writes one, on the first line)');
    const version = value['version'];
    if (version !== PI_SESSION_VERSION)
      this.fail(
        'transcript_unsupported_version',
        at,
        `session format version ${JSON.stringify(version ?? null).slice(0, 20)}, not ${PI_SESSION_VERSION} (pi 0.73.1); open the session in pi once to migrate it, or update common-memory`,
      );
    if (!nonEmptyString(value['id'])) this.fail('transcript_invalid_record', at, 'a session header without an id');
    if (typeof value['cwd'] !== 'string') this.fail('transcript_invalid_record', at, 'a session header without a cwd');
    this.sessionId = value['id'];
    this.cwd = value['cwd'].length > 0 ? value['cwd'] : null;
  }

  private onMessage(value: Json, entryId: string, before: number | null, instant: string, at: LinePosition): void {
    const message = value['message'];
    if (!isObject(message) || typeof message['role'] !== 'string')
      this.fail('transcript_invalid_record', at, 'a message entry without a message role');
    const ms = piMessageMs(message);
    const stamped = ms === null ? instant : new Date(ms).toISOString();
    const place = { entryId, instant: stamped, at };
    if (message['role'] === 'user') {
      const text = piBlockText(message['content'], at, this.rejecter);
      const queued = ms !== null && before !== null && ms < before;
      if (this.awaitingRetry) this.close('failed');
      else if (this.open !== null && !queued) this.close('interrupted');
      if (this.open === null) this.start(entryId, piTurnKey(message, this.lastKeyMs), at);
      const expanded = SKILL_BLOCK.test(text);
      this.add('user', expanded ? 'command' : 'prompt', text, { ...place, index: 0 }, !expanded);
      return;
    }
    const { parts, stop, error } = piOtherParts(message, at, this.rejecter);
    if (message['role'] !== 'assistant') {
      for (const part of parts) this.add(part.role, part.kind, part.text, { ...place, index: part.index });
      return;
    }
    // An answer with no turn open: a run no user message started (a retry after the file's last
    // turn closed, an extension's trigger). It is a turn of its own, keyed by its entry.
    if (this.open === null) this.start(entryId, null, at);
    this.awaitingRetry = false;
    for (const part of parts) this.add(part.role, part.kind, part.text, { ...place, index: part.index });
    this.lastStop = stop;
    this.lastError = error;
    if (stop === 'stop' || stop === 'length') this.close('settled');
    else if (stop === 'aborted') this.close('interrupted');
    else if (stop === 'error') this.awaitingRetry = true;
    else if (stop !== 'toolUse')
      this.fail('transcript_unknown_record', at, `unknown stopReason ${JSON.stringify(stop).slice(0, 40)}`);
  }

  private start(entryId: string, keyed: { key: string; ms: number } | null, at: LinePosition): void {
    if (keyed !== null) this.lastKeyMs = keyed.ms;
    this.open = {
      key: keyed?.key ?? `e${entryId}`,
      state: 'open',
      messages: this.pending,
      firstLine: this.pending[0]?.line ?? at.line,
      lastLine: at.line,
    };
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
  }

  private add(
    role: Role,
    kind: MessageKind,
    text: string,
    place: { entryId: string; index: number; instant: string; at: LinePosition },
    evidence = false,
  ): void {
    if (text.length === 0) return;
    const entry: TranscriptMessage = {
      key: `e${place.entryId}.${place.index}`,
      role,
      classification: evidence ? 'evidence' : 'context',
      kind,
      text,
      line: place.at.line,
      timestamp: place.instant,
    };
    if (this.open === null) this.pending.push(entry);
    else {
      this.open.messages.push(entry);
      this.open.lastLine = place.at.line;
    }
  }

  private readonly rejecter = (code: PiRejectCode, at: LinePosition, detail: string): never =>
    this.fail(code, at, detail);
}
