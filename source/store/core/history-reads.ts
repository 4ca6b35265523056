// Bounded keyset reads of the two histories and their provenance. Read-only: these run on any
// connection, including read-only ones, and never derive the timeline from the journal.
import { CmError } from '../../errors.js';
import { echoed } from '../../echo-text.js';
import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN, PAGE_MAX_BYTES } from '../../limits.js';
import { isUuid, type Page, type PageRequest, type Stream } from '../../api/common.js';
import type { JournalRow, MessageView, OperationView, TimelineRow } from '../../api/history.js';
import { type Db, prepared } from '../database.js';
import { toJournalRow, type JournalRecord } from './journal.js';
import { ID_PREFIX_HINT, resolveIdPrefix } from '../id-prefix.js';
import { operationDetail } from './operation-detail.js';
import { findOperation, toOperationView } from './operations.js';
import { readHeads, readStoreId } from './sequences.js';

interface TimelineRecord {
  sequence: number;
  message_id: string;
  agent_id: string | null;
  generation_id: string | null;
  operation_id: string | null;
  role: string;
  payload: string;
  source_journal_sequence: number;
  recorded_at_ms: number;
}

export function toTimelineRow(record: TimelineRecord): TimelineRow {
  return {
    sequence: record.sequence,
    messageId: record.message_id,
    agentId: record.agent_id,
    generationId: record.generation_id,
    operationId: record.operation_id,
    role: record.role,
    payload: JSON.parse(record.payload),
    sourceJournalSequence: record.source_journal_sequence,
    recordedAt: new Date(record.recorded_at_ms).toISOString(),
  };
}

/** Checks a page request against this store and stream; throws the documented error for each fault. */
export function validatePageRequest(db: Db, stream: Stream, request: PageRequest): { storeId: string; head: number } {
  const storeId = readStoreId(db);
  if (request.storeId !== undefined && request.storeId !== storeId) {
    throw new CmError(
      'cursor_other_store',
      `The cursor belongs to store ${request.storeId}, but this is store ${storeId}. Use a cursor from this store or start without one.`,
    );
  }
  if (!Number.isSafeInteger(request.after) || request.after < 0) {
    throw new CmError(
      'invalid_cursor',
      `"after" must be a whole number of 0 or more, not ${JSON.stringify(request.after)}.`,
    );
  }
  if (!Number.isSafeInteger(request.limit) || request.limit < PAGE_LIMIT_MIN || request.limit > PAGE_LIMIT_MAX) {
    throw new CmError(
      'invalid_input',
      `"limit" must be a whole number from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}, not ${JSON.stringify(request.limit)}.`,
    );
  }
  if (request.agentId !== undefined && !isUuid(request.agentId)) {
    throw new CmError('invalid_input', `Agent filter ${JSON.stringify(request.agentId)} is not an agent ID (a UUID).`);
  }
  const head = readHeads(db)[stream];
  if (request.after > head) {
    // Stream and store are checked on their own, so the position itself is what is wrong.
    throw new CmError(
      'cursor_beyond_head',
      `The ${stream} has ${head} rows; position ${request.after} is beyond its head. Start from a position from 0 to ${head}.`,
    );
  }
  return { storeId, head };
}

function readPage<Record extends { sequence: number }, Row>(
  db: Db,
  stream: Stream,
  table: 'journal' | 'timeline',
  request: PageRequest,
  toRow: (record: Record) => Row,
): Page<Row> {
  const { storeId, head } = validatePageRequest(db, stream, request);
  const records = (
    request.agentId
      ? prepared(db, `SELECT * FROM ${table} WHERE agent_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`).all(
          request.agentId,
          request.after,
          request.limit,
        )
      : prepared(db, `SELECT * FROM ${table} WHERE sequence > ? ORDER BY sequence LIMIT ?`).all(
          request.after,
          request.limit,
        )
  ) as Record[];
  // The page holds the longest prefix whose encoding (escapes included) fits; never skips a row.
  const rows: Row[] = [];
  let bytes = 2;
  let nextAfter = request.after;
  for (const record of records) {
    const row = toRow(record);
    const size = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (rows.length > 0 && bytes + size > PAGE_MAX_BYTES) break;
    rows.push(row);
    bytes += size;
    nextAfter = record.sequence;
  }
  return { storeId, stream, agentId: request.agentId ?? null, rows, nextAfter, head };
}

export const readJournalPage = (db: Db, request: PageRequest): Page<JournalRow> =>
  readPage<JournalRecord, JournalRow>(db, 'journal', 'journal', request, toJournalRow);

export const readTimelinePage = (db: Db, request: PageRequest): Page<TimelineRow> =>
  readPage<TimelineRecord, TimelineRow>(db, 'timeline', 'timeline', request, toTimelineRow);

export function readMessage(db: Db, typed: string): MessageView {
  const lower = typed.toLowerCase();
  const messageId = isUuid(lower) ? lower : resolveIdPrefix(db, 'timeline', 'message_id', lower, 'message');
  if (!isUuid(messageId)) {
    // Nothing starts with it: not found, as for every other lookup.
    throw new CmError(
      'not_found',
      `${echoed(typed)} is not a message ID in this store: ${ID_PREFIX_HINT.replace('the whole ID', 'the whole UUID')}.`,
    );
  }
  const record = prepared(db, 'SELECT * FROM timeline WHERE message_id = ?').get(messageId) as
    | TimelineRecord
    | undefined;
  if (!record) throw new CmError('not_found', `No timeline message ${messageId} in this store.`);
  const source = prepared(db, 'SELECT * FROM journal WHERE sequence = ?').get(record.source_journal_sequence) as
    | JournalRecord
    | undefined;
  if (!source)
    throw new CmError(
      'inconsistent',
      `Message ${messageId} points at journal ${record.source_journal_sequence}, which is missing; run "common-memory doctor".`,
    );
  const observations = prepared(db, 'SELECT * FROM journal WHERE canonical_message_id = ? ORDER BY sequence').all(
    messageId,
  ) as JournalRecord[];
  const operation = record.operation_id ? findOperation(db, record.operation_id) : undefined;
  return {
    message: toTimelineRow(record),
    source: toJournalRow(source),
    observations: observations.map(toJournalRow),
    operation: operation ? toOperationView(operation) : null,
  };
}

export function readOperation(db: Db, typed: string): OperationView {
  const operationId = resolveIdPrefix(db, 'operations', 'operation_id', typed, 'operation');
  const record = findOperation(db, operationId);
  // Quoted and cut: what was typed may be long or hold terminal escapes.
  if (!record) throw new CmError('not_found', `No operation ${echoed(operationId)} in this store: ${ID_PREFIX_HINT}.`);
  const view = toOperationView(record);
  const detail = operationDetail(db, view.operationId, view.journalSequence);
  return { ...view, detail: detail?.line ?? null, detailText: detail?.text ?? null };
}
