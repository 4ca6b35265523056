// Stream positions come from the heads table, in the same transaction as the row they number:
// never from clocks, counts or process memory.
import { prepared } from '../database.js';
import { CmError } from '../../errors.js';
import { SEQUENCE_MAX } from '../../limits.js';
import type { Stream } from '../../protocol.js';
import type { Tx } from '../transaction.js';

export function allocateSequence(tx: Tx, stream: Stream): number {
  const row = prepared(tx.db, 'SELECT head FROM heads WHERE stream = ?').get(stream) as { head: number } | undefined;
  if (!row)
    throw new CmError('inconsistent', `The ${stream} head is missing from core.sqlite; run "common-memory doctor".`);
  if (row.head >= SEQUENCE_MAX) {
    throw new CmError(
      'counter_exhausted',
      `The ${stream} sequence is exhausted (${row.head}); nothing was written. Start a new data home.`,
    );
  }
  const next = row.head + 1;
  prepared(tx.db, 'UPDATE heads SET head = ? WHERE stream = ?').run(next, stream);
  return next;
}

export function readHeads(db: Tx['db']): { journal: number; timeline: number } {
  const rows = prepared(db, 'SELECT stream, head FROM heads').all() as { stream: Stream; head: number }[];
  const heads = { journal: 0, timeline: 0 };
  for (const row of rows) heads[row.stream] = row.head;
  return heads;
}

export function readStoreId(db: Tx['db']): string {
  const row = prepared(db, "SELECT value FROM meta WHERE key = 'store_id'").get() as { value: string } | undefined;
  if (!row)
    throw new CmError(
      'store_corrupt',
      'core.sqlite has no store ID; it was not created by common-memory. Move it aside.',
    );
  return row.value;
}
