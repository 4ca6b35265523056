// v4: the promotion journal: each plan with its canonical JSON and digest, the memory root it
// writes into, and per target file the exact approved bytes, the blob OID seen at prepare and
// how far promotion got.
import type { Db } from '../../database.js';

export function migrateToPromotionJournal(db: Db): void {
  db.exec(`
        CREATE TABLE promotion_journal (
          plan_id TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          scope TEXT NOT NULL CHECK (scope IN ('project', 'user')),
          anchor TEXT NOT NULL,
          candidate_owner_json TEXT NOT NULL,
          plan_canonical_json TEXT NOT NULL,
          plan_digest TEXT NOT NULL,
          candidate_ids_json TEXT NOT NULL,
          assessment_digest TEXT NOT NULL,
          policy_version TEXT NOT NULL,
          diff TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'generated' CHECK (status IN ('generated', 'approved', 'applying', 'applied', 'voided')),
          void_reason TEXT,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX promotion_journal_open ON promotion_journal (status) WHERE status IN ('approved', 'applying');

        CREATE TABLE promotion_files (
          plan_id TEXT NOT NULL REFERENCES promotion_journal (plan_id),
          target_path TEXT NOT NULL,
          entry_id TEXT NOT NULL,
          action TEXT NOT NULL CHECK (action IN ('create', 'update')),
          candidate_ids_json TEXT NOT NULL,
          target_blob_hash TEXT,
          sanitized_content BLOB NOT NULL,
          sanitized_digest TEXT NOT NULL,
          findings_json TEXT NOT NULL DEFAULT '[]',
          state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'written', 'skipped', 'drifted')),
          PRIMARY KEY (plan_id, target_path)
        ) STRICT;
      `);
}
