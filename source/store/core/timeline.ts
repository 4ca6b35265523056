// The timeline: one canonical row per logical message. Only two paths create rows — an admitted
// user intent and a trusted runtime ingestion of a non-user message_end (seed 003 §9 rule 7) —
// and both call this inside the transaction that also writes the journal row it points to.
import { prepared } from '../database.js';
import { crypto } from '../../ground/lazy-builtin.js';
import { encodeRecord } from './journal.js';
import { allocateSequence } from './sequences.js';
import { indexUserText } from './session-search.js';
import type { Tx } from '../transaction.js';

export interface TimelineInput {
  messageId: string;
  role: 'user' | 'assistant' | 'toolResult';
  payload: unknown;
  agentId: string;
  generationId: string;
  operationId: string | null;
  sourceJournalSequence: number;
}

export const newMessageId = (): string => crypto().randomUUID();

export function insertTimeline(tx: Tx, input: TimelineInput): number {
  const payload = encodeRecord(input.payload, `${input.role} message`);
  const sequence = allocateSequence(tx, 'timeline');
  prepared(
    tx.db,
    `INSERT INTO timeline (sequence, message_id, agent_id, generation_id, operation_id, role, payload, source_journal_sequence, recorded_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    sequence,
    input.messageId,
    input.agentId,
    input.generationId,
    input.operationId,
    input.role,
    payload,
    input.sourceJournalSequence,
    tx.nowMs,
  );
  // What a person told a driven agent is searchable from the same transaction on.
  if (input.role === 'user') {
    const text = userText(input.payload);
    if (text)
      indexUserText(tx, {
        body: text,
        ref: `t:${sequence}`,
        client: 'pi',
        sessionKey: input.generationId,
        turnKey: input.messageId,
        recordedAtMs: tx.nowMs,
        typedAtMs: tx.nowMs,
      });
  }
  return sequence;
}

/** The text blocks of a canonical user message, one per line. */
function userText(payload: unknown): string {
  const content = (payload as { content?: unknown })?.content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (block): block is { type: 'text'; text: string } => block?.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text)
    .join('\n');
}
