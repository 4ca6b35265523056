import { z } from 'zod';
// Each host start is an activation with a new host ID, announced in the journal.
import { prepared } from '../database.js';
import { appendJournal } from './journal.js';
import type { Tx } from '../transaction.js';
import { command } from '../command.js';

export interface HostStart {
  hostId: string;
  pid: number;
  processStartedAt: string | null;
  role: 'host' | 'local';
}

export function recordHostStarted(tx: Tx, start: HostStart): number {
  const { sequence } = appendJournal(tx, { kind: 'host.started', payload: start });
  prepared(
    tx.db,
    'INSERT INTO host_activations (host_id, pid, process_started_at, started_journal_sequence, started_at_ms) VALUES (?, ?, ?, ?, ?)',
  ).run(start.hostId, start.pid, start.processStartedAt, sequence, tx.nowMs);
  return sequence;
}

export function recordHostStopped(tx: Tx, hostId: string): number {
  const { sequence } = appendJournal(tx, { kind: 'host.stopped', payload: { hostId } });
  prepared(tx.db, 'UPDATE host_activations SET stopped_journal_sequence = ? WHERE host_id = ?').run(sequence, hostId);
  return sequence;
}

export const hostCommands = {
  hostStarted: command({
    schema: z.object({
      hostId: z.string().uuid(),
      pid: z.number().int().positive(),
      processStartedAt: z.string().nullable(),
      role: z.enum(['host', 'local']),
    }),
    run: (tx, _context, input) => ({ sequence: recordHostStarted(tx, input) }),
  }),
  hostStopped: command({
    schema: z.object({ hostId: z.string().uuid() }),
    run: (tx, _context, input) => ({ sequence: recordHostStopped(tx, input.hostId) }),
  }),
};
