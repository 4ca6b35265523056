// Notes: a client's words for the journal. A note never creates a timeline row.
import { crypto } from '../../ground/lazy-builtin.js';
import { z } from 'zod';
import { CmError } from '../../errors.js';
import type { Receipt } from '../../api/common.js';
import type { NoteInput } from '../../api/history.js';
import { appendJournal } from './journal.js';
import { checkOperationId } from '../../api/request-checks.js';
import { insertOperation, replayOf } from './operations.js';
import { canonicalJson } from '../../ground/canonical-json.js';
import type { Tx } from '../transaction.js';
import { command } from '../command.js';

export function appendNote(tx: Tx, storeId: string, input: NoteInput): Receipt {
  const operationId = input.operationId ?? crypto().randomUUID();
  checkOperationId(operationId);
  if (typeof input.text !== 'string' || input.text.length === 0) {
    throw new CmError('invalid_input', 'A note needs some text.');
  }
  const canonicalInput = canonicalJson({ text: input.text });
  const earlier = replayOf(tx, operationId, 'note', null, canonicalInput);
  if (earlier) return { storeId, operationId, sequence: earlier.journal_sequence, replayed: true };

  const { sequence } = appendJournal(tx, { kind: 'client.note', operationId, payload: { text: input.text } });
  insertOperation(tx, {
    operationId,
    kind: 'note',
    agentId: null,
    input: canonicalInput,
    state: 'recorded',
    journalSequence: sequence,
  });
  return { storeId, operationId, sequence, replayed: false };
}

export const noteCommands = {
  appendNote: command({
    schema: z.object({ text: z.string(), operationId: z.string().optional() }),
    run: (tx, context, input) => appendNote(tx, context.storeId, input),
  }),
};
