// The capture capacity: the configured bounds on captured bodies, and how much is held now. Read by
// the status view and checked by the writer before a step commits.
import { CAPACITY_ENV, SESSION_BODY_MAX_BYTES, TOTAL_BODY_MAX_BYTES } from '../../limits.js';
import { prepared } from '../database.js';
import type { Tx } from '../transaction.js';

export interface Capacity {
  sessionBytes: number;
  totalBytes: number;
}

export function capacity(env: NodeJS.ProcessEnv = process.env): Capacity {
  const given = env[CAPACITY_ENV];
  const [session, total] = given ? given.split(':').map(Number) : [];
  return {
    sessionBytes: Number.isSafeInteger(session) && session! > 0 ? session! : SESSION_BODY_MAX_BYTES,
    totalBytes: Number.isSafeInteger(total) && total! > 0 ? total! : TOTAL_BODY_MAX_BYTES,
  };
}

/** Run by the writer at every drain step: octet_length reads a text's byte count without its body (a CAST loads it). */
export function totalBodyBytes(tx: Pick<Tx, 'db'>): number {
  const row = prepared(
    tx.db,
    `SELECT (SELECT coalesce(sum(body_bytes), 0) FROM capture_sessions)
            + (SELECT coalesce(sum(length(bytes)), 0) FROM inbox_tails)
            + (SELECT coalesce(sum(octet_length(body)), 0) FROM prompt_candidates WHERE state = 'pending') AS total`,
  ).get() as { total: number };
  return row.total;
}
