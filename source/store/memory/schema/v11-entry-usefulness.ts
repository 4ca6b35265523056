// v11: whether approved memory helps (issue 29, item 4), per entry id on this machine — never in
// the Markdown files. entry_usage counts what was given (SessionStart snapshots, from core.sqlite's
// activations) and read (memory_get by a root agent, from ledger.sqlite), folded in by a collector
// that keeps one cursor per source in usage_cursors (a compare-and-swap: a repeated or concurrent
// collection adds nothing twice). entry_reteach holds one row per user turn that said again what an
// approved entry says (the dedup at extraction decided the draft repeats it): the primary key makes
// a re-extraction or a replay after a crash record the same turn once. usage_since (in
// memory_state_meta) is when counting began: "never read in N days" means nothing before it.
import type { Db } from '../../database.js';

export function migrateToEntryUsefulness(db: Db): void {
  db.exec(`
        CREATE TABLE entry_usage (
          entry_id TEXT PRIMARY KEY,
          given INTEGER NOT NULL DEFAULT 0 CHECK (given >= 0),
          read INTEGER NOT NULL DEFAULT 0 CHECK (read >= 0),
          last_given_ms INTEGER,
          last_read_ms INTEGER
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE usage_cursors (
          source TEXT PRIMARY KEY CHECK (source IN ('snapshots', 'ledger')),
          position INTEGER NOT NULL CHECK (position >= 0),
          collected_at_ms INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE entry_reteach (
          entry_id TEXT NOT NULL,
          session_key TEXT NOT NULL,
          turn_key TEXT NOT NULL,
          client TEXT NOT NULL,
          candidate_id TEXT NOT NULL,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          recorded_at_ms INTEGER NOT NULL,
          PRIMARY KEY (entry_id, session_key, turn_key)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX entry_reteach_by_candidate ON entry_reteach (candidate_id);
      `);
  db.prepare("INSERT OR REPLACE INTO memory_state_meta (key, value) VALUES ('usage_since', ?)").run(
    new Date().toISOString(),
  );
}
