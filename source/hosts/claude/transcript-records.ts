// Classifies one Claude Code 2.1.332 transcript line (HOSTS.md 2.5) into an action for the turn
// builder. Pure and order-free: the parser applies actions later, in parentUuid chain order.
//
// Evidence is only a typed/sent prompt: a `user` line whose content is the prompt (string, or text
// blocks), with a user's promptSource (record-kinds.ts), that is not isMeta, not isCompactSummary, not a
// slash-command record, not an interruption marker and not a task notification. Everything else
// is context (model-visible harness/hook/tool text) or ignored (not model-visible, bookkeeping).

import { isObject, nonEmptyString, type Json, type LinePosition } from '../jsonl-cursor.js';
import { TranscriptParseError, type MessageKind, type TranscriptMessage } from '../transcript-model.js';
import {
  CLAUDE_ASSISTANT_BLOCKS,
  CLAUDE_ATTACHMENT_KINDS,
  CLAUDE_PROMPT_SOURCES,
  CLAUDE_SYSTEM_SUBTYPES,
  CLAUDE_USER_BLOCKS,
} from './record-kinds.js';

const INTERRUPT_PREFIX = '[Request interrupted by user';

export type ClaudeAction =
  /** Starts a turn: a typed prompt (evidence), a task notification or a subagent's task (context). */
  | { t: 'start'; message: TranscriptMessage }
  /** One content-block line of an assistant API message; needs an open turn. */
  | {
      t: 'assistant';
      messageId: string;
      text: string | null;
      toolCalls: TranscriptMessage[];
      line: number;
      timestamp: string | null;
    }
  /** A tool_result user line; needs an open turn. */
  | { t: 'tool_result'; message: TranscriptMessage }
  /** Context for the open turn (or for the next turn when none is open). `stopBlock`: a Stop hook sent the model back to work. */
  | { t: 'context'; message: TranscriptMessage | null; stopBlock: boolean }
  /** `[Request interrupted by user…]`: ends the open turn as interrupted. */
  | { t: 'interrupt'; message: TranscriptMessage }
  /** system/stop_hook_summary. */
  | { t: 'stop_summary'; preventedContinuation: boolean }
  /** system/turn_duration. */
  | { t: 'turn_end' }
  /** A chain node with nothing for memory (informational, compact_boundary). */
  | { t: 'none' };

export interface ClassifyContext extends LinePosition {
  subagent: boolean;
}

function fail(code: TranscriptParseError['code'], at: LinePosition, detail: string): never {
  throw new TranscriptParseError(code, at.line, at.byteOffset, detail);
}

function clip(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

export function classifyClaudeLine(record: Json, type: string, uuid: string, at: ClassifyContext): ClaudeAction {
  const timestamp = typeof record['timestamp'] === 'string' ? record['timestamp'] : null;
  switch (type) {
    case 'user':
      return classifyUser(record, uuid, timestamp, at);
    case 'assistant':
      return classifyAssistant(record, timestamp, at);
    case 'attachment':
      return classifyAttachment(record, uuid, timestamp, at);
    default:
      return classifySystem(record, at);
  }
}

function classifyUser(record: Json, uuid: string, timestamp: string | null, at: ClassifyContext): ClaudeAction {
  const message = record['message'];
  if (!isObject(message) || message['role'] !== 'user')
    fail('transcript_invalid_record', at, 'user line without a user message');
  const content = message['content'];
  let text: string;
  if (typeof content === 'string') {
    text = content;
  } else if (Array.isArray(content)) {
    const texts: string[] = [];
    let toolResult = false;
    for (const block of content) {
      if (!isObject(block) || typeof block['type'] !== 'string')
        fail('transcript_invalid_record', at, 'user content block without type');
      if (!CLAUDE_USER_BLOCKS.has(block['type']))
        fail('transcript_unknown_record', at, `unknown user content block ${clip(block['type'])}`);
      if (block['type'] === 'text') {
        if (typeof block['text'] !== 'string') fail('transcript_invalid_record', at, 'text block without text');
        texts.push(block['text']);
      } else if (block['type'] === 'tool_result') {
        if (!nonEmptyString(block['tool_use_id']))
          fail('transcript_invalid_record', at, 'tool_result without tool_use_id');
        toolResult = true;
        texts.push(toolResultText(block['content'], at));
      }
    }
    text = texts.join('\n');
    if (toolResult) {
      return {
        t: 'tool_result',
        message: {
          key: uuid,
          role: 'tool',
          classification: 'context',
          kind: 'tool_result',
          text,
          line: at.line,
          timestamp,
        },
      };
    }
  } else {
    fail('transcript_invalid_record', at, 'user content is neither string nor array');
  }

  const context = (kind: MessageKind): TranscriptMessage => ({
    key: uuid,
    role: 'user',
    classification: 'context',
    kind,
    text,
    line: at.line,
    timestamp,
  });
  if (record['isCompactSummary'] === true)
    return { t: 'context', message: context('compaction_summary'), stopBlock: false };
  if (record['isMeta'] === true) {
    // A hook that feeds text back (Stop-block feedback) sends the model back to work.
    const fromHook = record['rowSource'] === 'hook';
    return { t: 'context', message: context(fromHook ? 'hook_feedback' : 'harness'), stopBlock: fromHook };
  }
  if (text.startsWith(INTERRUPT_PREFIX)) return { t: 'interrupt', message: context('harness') };
  if (text.startsWith('<command-name>')) return { t: 'context', message: context('command'), stopBlock: false };
  if (text.startsWith('<local-command-stdout>') || text.startsWith('<local-command-caveat>')) {
    return { t: 'context', message: context('harness'), stopBlock: false };
  }
  const origin = record['origin'];
  const promptSource = record['promptSource'];
  const source = typeof promptSource === 'string' ? CLAUDE_PROMPT_SOURCES[promptSource] : undefined;
  if ((isObject(origin) && origin['kind'] === 'task-notification') || source === 'context') {
    return { t: 'start', message: context('task_notification') };
  }
  if (at.subagent) return { t: 'start', message: context('subagent_prompt') };
  if (typeof promptSource === 'string' && source === undefined) {
    fail('transcript_unknown_record', at, `unknown promptSource ${clip(promptSource)}`);
  }
  if (source === 'evidence') {
    if (!nonEmptyString(record['promptId'])) fail('transcript_invalid_record', at, 'prompt without promptId');
    if (timestamp === null || Number.isNaN(Date.parse(timestamp)))
      fail('transcript_invalid_record', at, 'prompt without a valid timestamp');
    return {
      t: 'start',
      message: { key: uuid, role: 'user', classification: 'evidence', kind: 'prompt', text, line: at.line, timestamp },
    };
  }
  // A user line we cannot place: counting it as a prompt or dropping it would both be guesses.
  fail('transcript_invalid_record', at, 'user line that is neither a prompt nor a known harness line');
}

function toolResultText(content: unknown, at: LinePosition): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) fail('transcript_invalid_record', at, 'tool_result content is neither string nor array');
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block) || typeof block['type'] !== 'string')
      fail('transcript_invalid_record', at, 'tool_result block without type');
    if (block['type'] === 'text' && typeof block['text'] === 'string') parts.push(block['text']);
  }
  return parts.join('\n');
}

function classifyAssistant(record: Json, timestamp: string | null, at: ClassifyContext): ClaudeAction {
  const message = record['message'];
  if (!isObject(message) || message['role'] !== 'assistant')
    fail('transcript_invalid_record', at, 'assistant line without an assistant message');
  const messageId = message['id'];
  if (!nonEmptyString(messageId)) fail('transcript_invalid_record', at, 'assistant message without id');
  const content = message['content'];
  if (!Array.isArray(content)) fail('transcript_invalid_record', at, 'assistant content is not an array');
  const texts: string[] = [];
  const toolCalls: TranscriptMessage[] = [];
  for (const block of content) {
    if (!isObject(block) || typeof block['type'] !== 'string')
      fail('transcript_invalid_record', at, 'assistant block without type');
    const blockType = block['type'];
    const role = Object.hasOwn(CLAUDE_ASSISTANT_BLOCKS, blockType) ? CLAUDE_ASSISTANT_BLOCKS[blockType] : undefined;
    if (role === 'answer') {
      if (typeof block['text'] !== 'string') fail('transcript_invalid_record', at, 'text block without text');
      texts.push(block['text']);
    } else if (role === 'tool_call') {
      const id = block['id'];
      const name = block['name'];
      if (!nonEmptyString(id) || typeof name !== 'string')
        fail('transcript_invalid_record', at, 'tool_use without id or name');
      toolCalls.push({
        key: id,
        role: 'assistant',
        classification: 'context',
        kind: 'tool_call',
        text: `${name} ${JSON.stringify(block['input'] ?? null)}`,
        line: at.line,
        timestamp,
      });
    } else if (role === undefined) {
      fail('transcript_unknown_record', at, `unknown assistant block ${clip(blockType)}`);
    }
  }
  return {
    t: 'assistant',
    messageId,
    text: texts.length > 0 ? texts.join('\n') : null,
    toolCalls,
    line: at.line,
    timestamp,
  };
}

function classifyAttachment(record: Json, uuid: string, timestamp: string | null, at: ClassifyContext): ClaudeAction {
  const attachment = record['attachment'];
  if (!isObject(attachment) || typeof attachment['type'] !== 'string')
    fail('transcript_invalid_record', at, 'attachment without type');
  const type = attachment['type'];
  // Attachments are context-only: a type this version does not know is kept as what the model saw
  // (record-kinds.ts says why that is safe), never a reason to isolate the session.
  const known = CLAUDE_ATTACHMENT_KINDS.get(type);
  const hookEvent = attachment['hookEvent'];
  const stopBlock = type === 'hook_blocking_error' && (hookEvent === 'Stop' || hookEvent === 'SubagentStop');
  const rendered = record['rendered'];
  // Only what the model sees is context; the rest (prompt_snapshot, raw hook stdout) is ignored.
  if (rendered === undefined || rendered === null || known === 'ignored')
    return { t: 'context', message: null, stopBlock };
  if (!Array.isArray(rendered)) fail('transcript_invalid_record', at, 'rendered is not an array');
  const parts: string[] = [];
  for (const entry of rendered) {
    if (!isObject(entry) || typeof entry['content'] !== 'string')
      fail('transcript_invalid_record', at, 'rendered entry without string content');
    parts.push(entry['content']);
  }
  const kind: MessageKind = known ?? 'unknown_attachment';
  // A queued prompt (typed mid-turn, or a task notification that arrived while the turn ran) went
  // through UserPromptSubmit as its `prompt`; `rendered` wraps it in a reminder. The submitted text
  // is what its prompt candidate holds, so it is the message's text: the candidate is consumed.
  const submitted = known === 'queued_prompt' ? attachment['prompt'] : undefined;
  return {
    t: 'context',
    message: {
      key: uuid,
      role: 'system',
      classification: 'context',
      kind,
      text: typeof submitted === 'string' ? submitted : parts.join('\n'),
      line: at.line,
      timestamp,
    },
    stopBlock,
  };
}

function classifySystem(record: Json, at: ClassifyContext): ClaudeAction {
  const subtype = record['subtype'];
  if (typeof subtype !== 'string') fail('transcript_invalid_record', at, 'system line without subtype');
  // System lines are context-only too: a subtype this version does not know changes no turn.
  const effect = CLAUDE_SYSTEM_SUBTYPES.get(subtype) ?? 'none';
  if (effect === 'stop_summary')
    return { t: 'stop_summary', preventedContinuation: record['preventedContinuation'] === true };
  if (effect === 'turn_end') return { t: 'turn_end' };
  // informational (incl. a prompt blocked by UserPromptSubmit: its text is not evidence) and
  // compact_boundary (the summary follows as an isCompactSummary user line).
  return { t: 'none' };
}
