// v5: external runners. Each authorisation decision names its runner profile and whether it
// approved or refused; every task sent to an external runner is recorded with its bytes, which
// the per-run and per-day budgets are checked against.
import type { Db } from '../../database.js';

export function migrateToExternalRunners(db: Db): void {
  db.exec(`
        ALTER TABLE authorization_log ADD COLUMN runner_profile TEXT;
        ALTER TABLE authorization_log ADD COLUMN decision TEXT NOT NULL DEFAULT 'approved' CHECK (decision IN ('approved', 'refused'));
        ALTER TABLE authorization_log ADD COLUMN reason TEXT;
        CREATE TABLE runner_sends (
          task_id TEXT NOT NULL,
          plan_digest TEXT NOT NULL,
          runner_profile TEXT NOT NULL,
          run_id TEXT NOT NULL,
          bytes INTEGER NOT NULL,
          sent_at_ms INTEGER NOT NULL,
          utc_day TEXT NOT NULL
        ) STRICT;
        CREATE INDEX runner_sends_by_day ON runner_sends (runner_profile, utc_day);
      `);
}
