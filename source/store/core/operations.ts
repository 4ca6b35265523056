// Operations: the durable record of each client intent, keyed by the caller's operation ID.
// Replay is decided by identity and the original input, never by text alone.
import { CmError } from '../../errors.js';
import type { OperationView } from '../../api/history.js';
import { echoed } from '../../echo-text.js';
import { type Db, prepared } from '../database.js';
import type { Tx } from '../transaction.js';

export interface OperationRecord {
  operation_id: string;
  kind: string;
  agent_id: string | null;
  input: string;
  state: string;
  journal_sequence: number;
  user_message_id: string | null;
  outcome: string | null;
  created_at_ms: number;
  updated_at_ms: number;
  generation_id: string | null;
  pi_request_id: string | null;
  target_operation_id: string | null;
  user_echo_journal_sequence: number | null;
  last_journal_sequence: number | null;
}

export function findOperation(db: Db, operationId: string): OperationRecord | undefined {
  return prepared(db, 'SELECT * FROM operations WHERE operation_id = ?').get(operationId) as
    | OperationRecord
    | undefined;
}

/**
 * Looks up an earlier operation with this ID. Returns it when kind, agent and input are the
 * same (a replay); throws a conflict when anything differs; undefined when the ID is new.
 */
export function replayOf(
  tx: Tx,
  operationId: string,
  kind: string,
  agentId: string | null,
  input: string,
): OperationRecord | undefined {
  const existing = findOperation(tx.db, operationId);
  if (!existing) return undefined;
  if (existing.kind !== kind || existing.agent_id !== agentId || existing.input !== input) {
    throw new CmError(
      'operation_conflict',
      `Operation ID ${operationId} was already used for a different ${existing.kind}; nothing was written. Use a new operation ID for new content.`,
    );
  }
  return existing;
}

export interface NewOperation {
  operationId: string;
  kind: string;
  agentId: string | null;
  input: string;
  state: string;
  journalSequence: number;
  userMessageId?: string | null;
  generationId?: string | null;
  piRequestId?: string | null;
  targetOperationId?: string | null;
  outcome?: string | null;
}

export function insertOperation(tx: Tx, op: NewOperation): void {
  prepared(
    tx.db,
    `INSERT INTO operations (operation_id, kind, agent_id, input, state, journal_sequence, user_message_id, outcome, created_at_ms, updated_at_ms,
         generation_id, pi_request_id, target_operation_id, last_journal_sequence)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    op.operationId,
    op.kind,
    op.agentId,
    op.input,
    op.state,
    op.journalSequence,
    op.userMessageId ?? null,
    op.outcome ?? null,
    tx.nowMs,
    tx.nowMs,
    op.generationId ?? null,
    op.piRequestId ?? null,
    op.targetOperationId ?? null,
    op.journalSequence,
  );
}

/**
 * The prompt lifecycle (seed 003 B1.2): the only legal moves. "settled" means ended, not
 * succeeded — the outcome says how; nothing moves back from a terminal state.
 */
export const PROMPT_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  prepared: ['attempted', 'interrupted'],
  attempted: ['accepted', 'rejected', 'settled', 'interrupted'],
  accepted: ['settled', 'interrupted'],
  interrupted: ['abandoned'],
  settled: [],
  rejected: [],
  abandoned: [],
};

export const PROMPT_STATES = Object.keys(PROMPT_TRANSITIONS);
export const isPendingPrompt = (state: string) => state === 'prepared' || state === 'attempted' || state === 'accepted';

/** Moves a prompt operation, refusing any move the table does not allow. */
export function transitionPrompt(
  tx: Tx,
  operationId: string,
  to: string,
  journalSequence: number,
  outcome?: string | null,
): OperationRecord {
  const op = findOperation(tx.db, operationId);
  if (!op) throw new CmError('not_found', `No operation ${operationId} in this store.`);
  if (!(PROMPT_TRANSITIONS[op.state] ?? []).includes(to)) {
    throw new CmError('agent_state', `Operation ${operationId} is ${op.state}; it cannot become ${to}.`);
  }
  prepared(
    tx.db,
    'UPDATE operations SET state = ?, outcome = coalesce(?, outcome), last_journal_sequence = ?, updated_at_ms = ? WHERE operation_id = ?',
  ).run(to, outcome ?? null, journalSequence, tx.nowMs, operationId);
  return { ...op, state: to, outcome: outcome ?? op.outcome };
}

export function toOperationView(record: OperationRecord): OperationView {
  return {
    operationId: record.operation_id,
    kind: record.kind,
    agentId: record.agent_id,
    generationId: record.generation_id,
    state: record.state,
    outcome: record.outcome,
    targetOperationId: record.target_operation_id,
    journalSequence: record.journal_sequence,
    userMessageId: record.user_message_id,
    createdAt: new Date(record.created_at_ms).toISOString(),
    updatedAt: new Date(record.updated_at_ms).toISOString(),
  };
}
