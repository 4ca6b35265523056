// core.sqlite v10: sessions are listed newest first by when they started (`sessions`, the TUI's
// Sessions list, `status`), in (started_at_ms, activation_id) order. Without an index every page
// sorted all of capture_activations; with 50,000 sessions the first page of `sessions` reads in
// a quarter of the time or less with it (test/bench/sessions.ts). node:* and better-sqlite3 only
// (the hook migrates a fresh store).
import type { Db } from '../../database.js';

export function migrateToSessionStart(db: Db): void {
  db.exec('CREATE INDEX capture_activations_by_start ON capture_activations (started_at_ms, activation_id)');
}
