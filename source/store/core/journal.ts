// The journal: the append-only, global observation log. Rows are never updated or deleted.
import { prepared } from '../database.js';
import { crypto } from '../../ground/lazy-builtin.js';
import { CmError } from '../../errors.js';
import { RECORD_MAX_BYTES } from '../../limits.js';
import type { JournalRow } from '../../api/history.js';
import { allocateSequence } from './sequences.js';
import type { Tx } from '../transaction.js';

export interface JournalInput {
  kind: string;
  payload: unknown;
  /** Already-encoded JSON kept byte for byte (a raw record as delivered); replaces `payload`. */
  rawPayload?: string;
  agentId?: string | null;
  generationId?: string | null;
  operationId?: string | null;
  wireStream?: 'stdout' | 'stderr' | null;
  wireOrdinal?: number | null;
  canonicalMessageId?: string | null;
}

export interface JournalAppended {
  sequence: number;
  eventId: string;
}

/** Encodes a payload for storage, refusing (never truncating) anything over the record limit. */
export function encodeRecord(payload: unknown, what: string): string {
  const text = JSON.stringify(payload);
  const bytes = Buffer.byteLength(text);
  if (bytes > RECORD_MAX_BYTES) {
    throw new CmError(
      'limit_exceeded',
      `The ${what} is ${bytes} bytes encoded, over the ${RECORD_MAX_BYTES}-byte record limit; nothing was written. Split it into smaller pieces.`,
    );
  }
  return text;
}

export function appendJournal(tx: Tx, input: JournalInput): JournalAppended {
  const payload = input.rawPayload ?? encodeRecord(input.payload, `${input.kind} record`);
  if (input.rawPayload !== undefined && Buffer.byteLength(payload) > RECORD_MAX_BYTES) {
    throw new CmError(
      'limit_exceeded',
      `The ${input.kind} record is over the ${RECORD_MAX_BYTES}-byte record limit; nothing was written.`,
    );
  }
  const sequence = allocateSequence(tx, 'journal');
  const eventId = crypto().randomUUID();
  prepared(
    tx.db,
    `INSERT INTO journal (sequence, event_id, kind, agent_id, generation_id, operation_id, wire_stream, wire_ordinal, payload, canonical_message_id, recorded_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    sequence,
    eventId,
    input.kind,
    input.agentId ?? null,
    input.generationId ?? null,
    input.operationId ?? null,
    input.wireStream ?? null,
    input.wireOrdinal ?? null,
    payload,
    input.canonicalMessageId ?? null,
    tx.nowMs,
  );
  return { sequence, eventId };
}

export interface JournalRecord {
  sequence: number;
  event_id: string;
  kind: string;
  agent_id: string | null;
  generation_id: string | null;
  operation_id: string | null;
  wire_stream: 'stdout' | 'stderr' | null;
  wire_ordinal: number | null;
  payload: string;
  canonical_message_id: string | null;
  recorded_at_ms: number;
}

export function toJournalRow(record: JournalRecord): JournalRow {
  return {
    sequence: record.sequence,
    eventId: record.event_id,
    kind: record.kind,
    agentId: record.agent_id,
    generationId: record.generation_id,
    operationId: record.operation_id,
    wireStream: record.wire_stream,
    wireOrdinal: record.wire_ordinal,
    payload: JSON.parse(record.payload),
    canonicalMessageId: record.canonical_message_id,
    recordedAt: new Date(record.recorded_at_ms).toISOString(),
  };
}
