// The ledger's health as `status`, the Dashboard and memory_status show it: counts, never a title
// or an entry id; `unavailable` with the reason when the file cannot be read (never shown as
// empty); and the last failure a hook met, from ledger-health.json.
import { readFileSync } from 'node:fs';
import { CmError } from '../../errors.js';
import type { CaptureStatus } from '../../protocol.js';
import { databaseError } from '../database.js';
import { ledgerCounts, openLedgerReadOnly } from './ledger.js';

export type LedgerStatus = CaptureStatus['ledger'];

function lastError(healthPath: string): LedgerStatus['lastError'] {
  try {
    const record = JSON.parse(readFileSync(healthPath, 'utf8')) as { at: string; event: string; code: string };
    return { at: record.at, event: record.event, code: record.code };
  } catch {
    return null;
  }
}

export function ledgerStatusAt(path: string, healthPath: string, now = Date.now()): LedgerStatus {
  const base = { roots: 0, activeRoots: 0, entries: 0, lastError: lastError(healthPath) };
  try {
    const db = openLedgerReadOnly(path);
    if (db === null) return { state: 'empty', reason: null, ...base };
    try {
      return { state: 'ready', reason: null, ...base, ...ledgerCounts(db, now) };
    } finally {
      db.close();
    }
  } catch (error) {
    const failure = error instanceof CmError ? error : databaseError(path, error);
    return { state: 'unavailable', reason: failure.message, ...base };
  }
}
