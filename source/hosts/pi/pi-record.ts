// Classifies one framed pi 0.73.1 stdout record into a routing decision (seed 003 B1.6, §05a step 6).
//
// Pure: the caller says whether an operation is active and which RPC id its prompt carried; the
// store applies the decision inside the ingest transaction. The raw text is kept verbatim next to
// the parsed routing fields, so the journal stores what pi wrote and the timeline is encoded from
// the parsed message (B1.5).
//
// Routing table — record (pi 0.73.1, HOSTS.md 3.3) × is there an active operation?
// Change this table first, then the code. "fault" = protocol fault: keep the raw record, append
// history.projection_failed, stop the generation, then drain journal-only (seed 003 §4).
//
// | record                                                   | active operation               | no active operation           |
// |----------------------------------------------------------|--------------------------------|-------------------------------|
// | not JSON / not an object / no string `type`              | fault invalid-json|invalid-record | same                        |
// | a `type` not listed below                                | fault unknown-type             | same                          |
// | known type with malformed routing fields                 | fault invalid-record           | same                          |
// | response{command:"prompt", id = active prompt id, ok}    | lifecycle accepted             | (no active id: next row)      |
// | response{command:"prompt", id = active prompt id, !ok}   | lifecycle rejected             | (no active id: next row)      |
// | response{command:"prompt"} with any other id / no id     | fault unexpected-prompt-response | same                        |
// | response{success:false} without id (parse, unknown cmd)  | fault command-unparsed         | same                          |
// | any other response (get_state, abort, barrier, …)        | journal-only                   | journal-only                  |
// | agent_start, agent_end                                    | lifecycle                      | journal-only (unowned)        |
// | auto_retry_start, auto_retry_end                          | lifecycle                      | journal-only (unowned)        |
// | compaction_start, compaction_end                          | lifecycle                      | journal-only (unowned)        |
// | turn_start, turn_end, message_start, message_update       | journal-only                   | journal-only                  |
// | message_end role user                                     | user-echo                      | fault unowned-message         |
// | message_end role assistant | toolResult (well-formed)     | canonical                      | fault unowned-message         |
// | message_end assistant | toolResult, malformed             | fault invalid-message          | same                          |
// | message_end any other role (custom, bashExecution, …)     | fault unsupported-role         | same                          |
// | tool_execution_start|update|end, queue_update,            | journal-only                   | journal-only                  |
// |   session_info_changed, thinking_level_changed,           |                                |                               |
// |   extension_error, extension_ui_request                   |                                |                               |
//
// Notes on the choices:
// - turn_end and agent_end carry copies of messages already seen at message_end; copies never add
//   timeline rows (seed 003 §4), so only message_end is canonical.
// - A rejected prompt is evidence about the operation (pi said no, e.g. "Agent is already
//   processing"), not a broken protocol: lifecycle 'rejected'.
// - We encode every command with JSON.stringify, so a parse/unknown-command error means the pipe is
//   corrupt or pi changed: fail closed.
// - Lifecycle events with no active operation are kept journal-only; the conversation they carry
//   (message_end) is what faults, per B1.6, so nothing unowned reaches the timeline.
// - extension_ui_request cannot occur under --no-extensions; if it does it is kept, and a dialog
//   request exposes its id so the runtime can cancel it (prompt-encoding.ts) instead of hanging pi.

/** Every stdout `type` pi 0.73.1 writes in RPC mode. */
export const PI_EVENT_TYPES = [
  'response',
  'agent_start',
  'agent_end',
  'turn_start',
  'turn_end',
  'message_start',
  'message_update',
  'message_end',
  'tool_execution_start',
  'tool_execution_update',
  'tool_execution_end',
  'queue_update',
  'auto_retry_start',
  'auto_retry_end',
  'compaction_start',
  'compaction_end',
  'session_info_changed',
  'thinking_level_changed',
  'extension_error',
  'extension_ui_request',
] as const;
export type PiEventType = (typeof PI_EVENT_TYPES)[number];

export const PI_STOP_REASONS = ['stop', 'length', 'toolUse', 'error', 'aborted'] as const;
export type PiStopReason = (typeof PI_STOP_REASONS)[number];

/** The three message roles the V1 projection knows. */
export type PiMessageRole = 'user' | 'assistant' | 'toolResult';

export type JsonObject = { readonly [key: string]: unknown };

/** A validated message_end payload: routing fields plus the whole parsed message for encoding. */
export type PiMessage =
  | { readonly role: 'user'; readonly message: JsonObject }
  | {
      readonly role: 'assistant';
      readonly stopReason: PiStopReason;
      readonly errorMessage: string | null;
      readonly message: JsonObject;
    }
  | {
      readonly role: 'toolResult';
      readonly toolCallId: string;
      readonly isError: boolean;
      readonly message: JsonObject;
    };

/** Routing fields of a well-formed record of a known type. */
export type PiEvent =
  | {
      readonly type: 'response';
      readonly id: string | null;
      readonly command: string;
      readonly success: boolean;
      readonly error: string | null;
    }
  | { readonly type: 'message_end'; readonly message: PiMessage }
  | { readonly type: 'message_start' | 'message_update'; readonly role: string | null }
  | {
      readonly type: 'auto_retry_start';
      readonly attempt: number;
      readonly maxAttempts: number;
      readonly delayMs: number;
      readonly errorMessage: string;
    }
  | {
      readonly type: 'auto_retry_end';
      readonly success: boolean;
      readonly attempt: number;
      readonly finalError: string | null;
    }
  | { readonly type: 'compaction_start'; readonly reason: string }
  | {
      readonly type: 'compaction_end';
      readonly reason: string;
      readonly willRetry: boolean;
      readonly aborted: boolean;
      readonly errorMessage: string | null;
    }
  | { readonly type: 'extension_ui_request'; readonly id: string; readonly method: string }
  | {
      readonly type:
        | 'agent_start'
        | 'agent_end'
        | 'turn_start'
        | 'turn_end'
        | 'tool_execution_start'
        | 'tool_execution_update'
        | 'tool_execution_end'
        | 'queue_update'
        | 'session_info_changed'
        | 'thinking_level_changed'
        | 'extension_error';
    };

export type LifecycleEvidence =
  | 'accepted'
  | 'rejected'
  | 'agent_start'
  | 'agent_end'
  | 'auto_retry_start'
  | 'auto_retry_end'
  | 'compaction_start'
  | 'compaction_end';

export type ProtocolFault =
  | 'invalid-json'
  | 'invalid-record'
  | 'unknown-type'
  | 'unexpected-prompt-response'
  | 'command-unparsed'
  | 'unowned-message'
  | 'unsupported-role'
  | 'invalid-message';

export type PiRoute =
  | { readonly kind: 'journal-only'; readonly unowned: boolean }
  | { readonly kind: 'lifecycle'; readonly evidence: LifecycleEvidence }
  | { readonly kind: 'user-echo' }
  | { readonly kind: 'canonical'; readonly role: 'assistant' | 'toolResult' }
  | { readonly kind: 'protocol-fault'; readonly fault: ProtocolFault; readonly detail: string };

export interface PiRecord {
  /** Exactly the text the framer delivered. */
  readonly raw: string;
  /** Routing fields; null when the record could not be parsed as a known, well-formed record. */
  readonly event: PiEvent | null;
  readonly route: PiRoute;
}

export interface RoutingContext {
  /** The RPC id of the active operation's prompt command; null when no operation is active. */
  readonly activePromptId: string | null;
}

const knownTypes: ReadonlySet<string> = new Set(PI_EVENT_TYPES);
const stopReasons: ReadonlySet<string> = new Set(PI_STOP_REASONS);

class Malformed extends Error {}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function str(o: JsonObject, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new Malformed(`${key} is not a string`);
  return v;
}
function optStr(o: JsonObject, key: string): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new Malformed(`${key} is not a string`);
  return v;
}
function bool(o: JsonObject, key: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new Malformed(`${key} is not a boolean`);
  return v;
}
function int(o: JsonObject, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new Malformed(`${key} is not a non-negative integer`);
  return v;
}

type MessageCheck =
  | { ok: true; message: PiMessage }
  | { ok: false; fault: 'unsupported-role' | 'invalid-message'; detail: string };

/** Validates what the projection relies on; other fields are carried, never interpreted. */
export function checkMessage(value: unknown): MessageCheck {
  if (!isObject(value)) return { ok: false, fault: 'invalid-message', detail: 'message is not an object' };
  const role = value['role'];
  if (typeof role !== 'string') return { ok: false, fault: 'invalid-message', detail: 'message.role is not a string' };
  try {
    switch (role) {
      case 'user': {
        const content = value['content'];
        if (typeof content !== 'string' && !Array.isArray(content))
          throw new Malformed('content is neither text nor an array');
        return { ok: true, message: { role, message: value } };
      }
      case 'assistant': {
        if (!Array.isArray(value['content'])) throw new Malformed('content is not an array');
        const stopReason = str(value, 'stopReason');
        if (!stopReasons.has(stopReason)) throw new Malformed(`unknown stopReason ${JSON.stringify(stopReason)}`);
        return {
          ok: true,
          message: {
            role,
            stopReason: stopReason as PiStopReason,
            errorMessage: optStr(value, 'errorMessage'),
            message: value,
          },
        };
      }
      case 'toolResult': {
        if (!Array.isArray(value['content'])) throw new Malformed('content is not an array');
        return {
          ok: true,
          message: { role, toolCallId: str(value, 'toolCallId'), isError: bool(value, 'isError'), message: value },
        };
      }
      default:
        return {
          ok: false,
          fault: 'unsupported-role',
          detail: `message_end with role ${JSON.stringify(role).slice(0, 80)}`,
        };
    }
  } catch (error) {
    if (error instanceof Malformed)
      return { ok: false, fault: 'invalid-message', detail: `${role} message: ${error.message}` };
    throw error;
  }
}

type Unprojectable = { readonly unprojectable: 'unsupported-role' | 'invalid-message'; readonly detail: string };

function parseEvent(type: PiEventType, o: JsonObject): PiEvent | Unprojectable {
  switch (type) {
    case 'response':
      return {
        type,
        id: optStr(o, 'id'),
        command: str(o, 'command'),
        success: bool(o, 'success'),
        error: optStr(o, 'error'),
      };
    case 'message_end': {
      const check = checkMessage(o['message']);
      return check.ok ? { type, message: check.message } : { unprojectable: check.fault, detail: check.detail };
    }
    case 'message_start':
    case 'message_update': {
      const message = o['message'];
      const role = isObject(message) && typeof message['role'] === 'string' ? message['role'] : null;
      return { type, role };
    }
    case 'auto_retry_start':
      return {
        type,
        attempt: int(o, 'attempt'),
        maxAttempts: int(o, 'maxAttempts'),
        delayMs: int(o, 'delayMs'),
        errorMessage: str(o, 'errorMessage'),
      };
    case 'auto_retry_end':
      return { type, success: bool(o, 'success'), attempt: int(o, 'attempt'), finalError: optStr(o, 'finalError') };
    case 'compaction_start':
      return { type, reason: str(o, 'reason') };
    case 'compaction_end':
      return {
        type,
        reason: str(o, 'reason'),
        willRetry: bool(o, 'willRetry'),
        aborted: bool(o, 'aborted'),
        errorMessage: optStr(o, 'errorMessage'),
      };
    case 'extension_ui_request':
      return { type, id: str(o, 'id'), method: str(o, 'method') };
    default:
      return { type };
  }
}

const fault = (raw: string, event: PiEvent | null, f: ProtocolFault, detail: string): PiRecord => ({
  raw,
  event,
  route: { kind: 'protocol-fault', fault: f, detail },
});

function route(event: PiEvent, context: RoutingContext): PiRoute | { fault: ProtocolFault; detail: string } {
  const active = context.activePromptId !== null;
  switch (event.type) {
    case 'response':
      if (event.command === 'prompt') {
        if (active && event.id === context.activePromptId)
          return { kind: 'lifecycle', evidence: event.success ? 'accepted' : 'rejected' };
        return {
          fault: 'unexpected-prompt-response',
          detail: `prompt response for id ${JSON.stringify(event.id)} while the active prompt id is ${JSON.stringify(context.activePromptId)}`,
        };
      }
      if (event.id === null && !event.success)
        return {
          fault: 'command-unparsed',
          detail: `pi could not handle a command (${event.command}): ${event.error ?? 'no error text'}`.slice(0, 300),
        };
      return { kind: 'journal-only', unowned: false };
    case 'agent_start':
    case 'agent_end':
    case 'auto_retry_start':
    case 'auto_retry_end':
    case 'compaction_start':
    case 'compaction_end':
      return active ? { kind: 'lifecycle', evidence: event.type } : { kind: 'journal-only', unowned: true };
    case 'message_end':
      if (!active)
        return { fault: 'unowned-message', detail: `message_end (${event.message.role}) with no active operation` };
      return event.message.role === 'user' ? { kind: 'user-echo' } : { kind: 'canonical', role: event.message.role };
    default:
      return { kind: 'journal-only', unowned: false };
  }
}

/** Classifies one stdout record. Never throws on input; unexplainable input is a protocol fault. */
export function classifyPiRecord(raw: string, context: RoutingContext): PiRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return fault(raw, null, 'invalid-json', error instanceof Error ? error.message : String(error));
  }
  if (!isObject(parsed)) return fault(raw, null, 'invalid-record', 'record is not a JSON object');
  const type = parsed['type'];
  if (typeof type !== 'string') return fault(raw, null, 'invalid-record', 'record has no string type');
  if (!knownTypes.has(type))
    return fault(raw, null, 'unknown-type', `unknown record type ${JSON.stringify(type).slice(0, 80)}`);
  let event: PiEvent;
  try {
    const result = parseEvent(type as PiEventType, parsed);
    // A message_end whose message the V1 policy cannot project.
    if ('unprojectable' in result) return fault(raw, null, result.unprojectable, result.detail);
    event = result;
  } catch (error) {
    if (error instanceof Malformed) return fault(raw, null, 'invalid-record', `${type}: ${error.message}`);
    throw error;
  }
  const decision = route(event, context);
  if ('fault' in decision) return fault(raw, event, decision.fault, decision.detail);
  return { raw, event, route: decision };
}

/**
 * The user-echo check of B1.10 as a pure function: does pi's echo carry exactly the text we sent?
 * pi normalises a string prompt to [{type:"text",text}]; anything else (images, extra blocks,
 * other text) is a mismatch, which the store treats as a projection failure, not a new message.
 */
export function userEchoMatches(sentText: string, echo: PiMessage): boolean {
  if (echo.role !== 'user') return false;
  const content = echo.message['content'];
  if (typeof content === 'string') return content === sentText;
  if (!Array.isArray(content) || content.length !== 1) return false;
  const block: unknown = content[0];
  return isObject(block) && block['type'] === 'text' && block['text'] === sentText;
}
