// The ledger's reads as usefulness counts (memory-state v11) take them: every read row committed
// after a cursor of the ledger's commit counter. A read observed again gets a new commit number, so
// it counts again; rows a clear or the expiry removed before a collection are not counted.
import { prepared, type Db } from '../database.js';

export interface LedgerReadEvent {
  entryId: string;
  observedAtMs: number;
  commitSeq: number;
}

/** Reads committed after `afterSeq`, in commit order, at most `limit`. */
export function readLedgerReadsAfter(db: Db, afterSeq: number, limit: number): LedgerReadEvent[] {
  return prepared(
    db,
    `SELECT entry_id AS entryId, observed_at_ms AS observedAtMs, commit_seq AS commitSeq FROM reads
     WHERE commit_seq > ? ORDER BY commit_seq LIMIT ?`,
  ).all(afterSeq, limit) as LedgerReadEvent[];
}

/** The ledger's commit counter now: a cursor above it means the ledger file was reset. */
export function ledgerCommitSeq(db: Db): number {
  return (prepared(db, "SELECT value FROM ledger_meta WHERE key = 'commit_seq'").pluck().get() as number) ?? 0;
}
