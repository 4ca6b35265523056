// ingestPiRecord (seed 003 §05a): every complete record a pi child wrote goes to the journal as
// delivered, identified by (generation, stream, wire ordinal), and its projection — timeline row,
// user-echo link, lifecycle evidence, or protocol fault — is applied in the same transaction.
// Replaying a stored identity returns the stored result and changes nothing.
import { prepared } from '../database.js';
import { z } from 'zod';
import { CmError } from '../../errors.js';
import { RECORD_MAX_BYTES } from '../../limits.js';
import { classifyPiRecord, userEchoMatches, type PiRecord } from '../../hosts/pi/pi-record.js';
import {
  findGeneration,
  interruptPendingWork,
  isCapturing,
  markGenerationStopping,
  type GenerationRecord,
} from './agents.js';
import { command } from '../command.js';
import { appendJournal } from './journal.js';
import { findOperation, transitionPrompt } from './operations.js';
import { settlePrompt } from './prompts.js';
import { insertTimeline, newMessageId } from './timeline.js';
import type { Tx } from '../transaction.js';

export const ingestInput = z.object({
  generationId: z.string(),
  stream: z.enum(['stdout', 'stderr']),
  ordinal: z.number().int().positive(),
  frame: z.enum(['record', 'oversized', 'invalid-utf8', 'truncated']),
  /** The record's text (record, truncated when decodable). */
  text: z.string().optional(),
  /** base64 of the bytes of an invalid-utf8 or undecodable truncated line. */
  bytes: z.string().optional(),
  byteLength: z.number().int().nonnegative(),
  /** The limit the framer applied to an oversized line (drills lower it); RECORD_MAX_BYTES when absent. */
  limit: z.number().int().positive().optional(),
  /** Settlement confirmed by this record (pi 0.73.1 has no settle event): applied first. */
  settle: z.object({ operationId: z.string(), outcome: z.string(), detail: z.unknown() }).optional(),
});
export type IngestInput = z.infer<typeof ingestInput>;

export interface IngestResult {
  journalSequence: number;
  eventId: string;
  canonicalMessageId: string | null;
  timelineSequence: number | null;
  wasReplay: boolean;
  projectionFailure: string | null;
  /** The generation must stop (protocol fault or oversized record). */
  stopGeneration: boolean;
}

interface Stored {
  kind: string;
  payload: string;
}

/** What the journal keeps for a frame: the record verbatim when it is JSON, a bounded wrapper otherwise. */
function storedForm(input: IngestInput): Stored {
  if (input.frame === 'oversized')
    return {
      kind: 'pi.oversized',
      payload: JSON.stringify({
        stream: input.stream,
        byteLength: input.byteLength,
        limit: input.limit ?? RECORD_MAX_BYTES,
      }),
    };
  if (input.frame === 'invalid-utf8' || (input.frame === 'truncated' && input.text === undefined)) {
    return bounded(input.frame === 'truncated' ? 'pi.truncated' : 'pi.invalid_utf8', {
      base64: input.bytes ?? '',
      byteLength: input.byteLength,
    });
  }
  const text = input.text ?? '';
  if (input.stream === 'stderr') return bounded('pi.stderr', { text });
  if (input.frame === 'truncated') return bounded('pi.truncated', { text, byteLength: input.byteLength });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return bounded('pi.unparsed', { raw: text, parseError: (error as Error).message });
  }
  const type = (parsed as { type?: unknown } | null)?.type;
  return { kind: typeof type === 'string' && /^[a-z_]{1,40}$/.test(type) ? `pi.${type}` : 'pi.unknown', payload: text };
}

/** A wrapper stays within the record limit: escaping can double a line, so the kept text is cut and the cut is said. */
function bounded(kind: string, value: Record<string, unknown>): Stored {
  let payload = JSON.stringify(value);
  if (Buffer.byteLength(payload) <= RECORD_MAX_BYTES) return { kind, payload };
  const key = 'raw' in value ? 'raw' : 'text' in value ? 'text' : 'base64';
  const original = String(value[key]);
  let keep = Math.floor(RECORD_MAX_BYTES / 4);
  do {
    payload = JSON.stringify({
      ...value,
      [key]: original.slice(0, keep),
      storedPrefixChars: keep,
      originalChars: original.length,
    });
    keep = Math.floor(keep / 2);
  } while (Buffer.byteLength(payload) > RECORD_MAX_BYTES);
  return { kind, payload };
}

function replayOfRecord(tx: Tx, input: IngestInput, stored: Stored): IngestResult | undefined {
  const existing = prepared(
    tx.db,
    'SELECT sequence, event_id, kind, payload, canonical_message_id FROM journal WHERE generation_id = ? AND wire_stream = ? AND wire_ordinal = ?',
  ).get(input.generationId, input.stream, input.ordinal) as
    | { sequence: number; event_id: string; kind: string; payload: string; canonical_message_id: string | null }
    | undefined;
  if (!existing) return undefined;
  if (existing.kind !== stored.kind || existing.payload !== stored.payload) {
    throw new CmError(
      'operation_conflict',
      `pi record ${input.stream}#${input.ordinal} of generation ${input.generationId} was already stored with other content.`,
    );
  }
  const timeline = existing.canonical_message_id
    ? (prepared(tx.db, 'SELECT sequence, source_journal_sequence AS source FROM timeline WHERE message_id = ?').get(
        existing.canonical_message_id,
      ) as { sequence: number; source: number } | undefined)
    : undefined;
  const created = timeline && timeline.source === existing.sequence;
  return {
    journalSequence: existing.sequence,
    eventId: existing.event_id,
    canonicalMessageId: existing.canonical_message_id,
    timelineSequence: created ? timeline.sequence : null,
    wasReplay: true,
    projectionFailure: null,
    stopGeneration: false,
  };
}

function checkOrdinal(tx: Tx, generation: GenerationRecord, input: IngestInput): void {
  const head = input.stream === 'stdout' ? generation.stdout_head : generation.stderr_head;
  if (input.ordinal !== head + 1) {
    throw new CmError(
      'inconsistent',
      `pi ${input.stream} ordinal ${input.ordinal} of generation ${generation.generation_id} does not follow ${head}; nothing was written.`,
    );
  }
  prepared(tx.db, `UPDATE generations SET ${input.stream}_head = ? WHERE generation_id = ?`).run(
    input.ordinal,
    generation.generation_id,
  );
}

/** Protocol fault: raw row already written; now history.projection_failed, stopping, pending work interrupted. */
function projectionFailed(
  tx: Tx,
  generation: GenerationRecord,
  journalSequence: number,
  reason: string,
  operationId: string | null,
): void {
  appendJournal(tx, {
    kind: 'history.projection_failed',
    agentId: generation.agent_id,
    generationId: generation.generation_id,
    operationId,
    payload: { journalSequence, reason, generationId: generation.generation_id, operationId },
  });
  prepared(tx.db, 'UPDATE generations SET projection_error = ? WHERE generation_id = ?').run(
    `J#${journalSequence}: ${reason}`.slice(0, 500),
    generation.generation_id,
  );
  markGenerationStopping(tx, generation.generation_id, 'projection failed');
  interruptPendingWork(tx, generation.agent_id, generation.generation_id, 'projection failed');
}

export function ingestPiRecord(tx: Tx, input: IngestInput): IngestResult {
  const stored = storedForm(input);
  const replay = replayOfRecord(tx, input, stored);
  if (replay) return replay;

  const generation = findGeneration(tx.db, input.generationId);
  if (!generation) throw new CmError('not_found', `No generation ${input.generationId}.`);
  if (!isCapturing(generation))
    throw new CmError(
      'agent_state',
      `Generation ${generation.number} is ${generation.state}; it no longer captures records.`,
    );
  checkOrdinal(tx, generation, input);
  if (input.settle) settlePrompt(tx, input.settle.operationId, input.settle.outcome, input.settle.detail);

  const agent = prepared(
    tx.db,
    'SELECT active_operation_id AS active, current_generation_id AS current FROM agents WHERE agent_id = ?',
  ).get(generation.agent_id) as { active: string | null; current: string };
  const active =
    agent.active && agent.current === generation.generation_id ? findOperation(tx.db, agent.active) : undefined;
  const result: IngestResult = {
    journalSequence: 0,
    eventId: '',
    canonicalMessageId: null,
    timelineSequence: null,
    wasReplay: false,
    projectionFailure: null,
    stopGeneration: false,
  };
  const base = {
    agentId: generation.agent_id,
    generationId: generation.generation_id,
    operationId: active?.operation_id ?? null,
    wireStream: input.stream,
    wireOrdinal: input.ordinal,
  } as const;

  // stderr and lines that are not records are journal evidence only; a broken stdout line stops the generation.
  if (input.stream === 'stderr' || input.frame !== 'record') {
    const appended = appendJournal(tx, { ...base, kind: stored.kind, payload: undefined, rawPayload: stored.payload });
    Object.assign(result, { journalSequence: appended.sequence, eventId: appended.eventId });
    if (input.stream === 'stdout') {
      markGenerationStopping(tx, generation.generation_id, `${input.frame} stdout line`);
      interruptPendingWork(tx, generation.agent_id, generation.generation_id, `${input.frame} stdout line`);
      result.stopGeneration = true;
    }
    return result;
  }

  const record: PiRecord = classifyPiRecord(input.text ?? '', { activePromptId: active?.pi_request_id ?? null });
  // After a protocol fault the generation drains journal-only: no timeline rows, no evidence.
  const projecting = generation.projection_error === null;
  let fault: string | null =
    record.route.kind === 'protocol-fault' ? `${record.route.fault}: ${record.route.detail}` : null;
  let messageId: string | null = null;
  if (projecting && !fault && record.route.kind === 'user-echo' && active && record.event?.type === 'message_end') {
    const sent = (JSON.parse(findOperation(tx.db, active.operation_id)!.input) as { text: string }).text;
    if (active.user_echo_journal_sequence !== null) fault = 'second user message_end for one prompt';
    else if (!userEchoMatches(sent, record.event.message)) fault = 'user echo does not match the admitted prompt';
    else messageId = active.user_message_id;
  }
  const createsRow = projecting && !fault && record.route.kind === 'canonical';
  if (createsRow) messageId = newMessageId();

  const appended = appendJournal(tx, {
    ...base,
    kind: stored.kind,
    payload: undefined,
    rawPayload: stored.payload,
    canonicalMessageId: messageId,
  });
  Object.assign(result, {
    journalSequence: appended.sequence,
    eventId: appended.eventId,
    canonicalMessageId: messageId,
  });
  if (!projecting) return result;
  if (fault) {
    projectionFailed(tx, generation, appended.sequence, fault, active?.operation_id ?? null);
    return { ...result, canonicalMessageId: null, projectionFailure: fault, stopGeneration: true };
  }
  if (createsRow && record.event?.type === 'message_end' && record.route.kind === 'canonical') {
    result.timelineSequence = insertTimeline(tx, {
      messageId: messageId!,
      role: record.route.role,
      payload: record.event.message.message,
      agentId: generation.agent_id,
      generationId: generation.generation_id,
      operationId: active?.operation_id ?? null,
      sourceJournalSequence: appended.sequence,
    });
  } else if (record.route.kind === 'user-echo' && active) {
    prepared(tx.db, 'UPDATE operations SET user_echo_journal_sequence = ? WHERE operation_id = ?').run(
      appended.sequence,
      active.operation_id,
    );
  } else if (record.route.kind === 'lifecycle' && active) {
    if (record.route.evidence === 'accepted' && active.state === 'attempted')
      transitionPrompt(tx, active.operation_id, 'accepted', appended.sequence);
    if (record.route.evidence === 'rejected' && active.state === 'attempted') {
      transitionPrompt(tx, active.operation_id, 'rejected', appended.sequence, 'rejected');
      prepared(tx.db, 'UPDATE agents SET active_operation_id = NULL WHERE agent_id = ?').run(generation.agent_id);
    }
  }
  return result;
}

export const ingestCommands = {
  ingestPiRecord: command({ schema: ingestInput, run: (tx, _context, input) => ingestPiRecord(tx, input) }),
};
