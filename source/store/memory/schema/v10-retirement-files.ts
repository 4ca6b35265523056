// v10: a promotion plan may remove a file — retiring an approved entry (issue 29). promotion_files
// gains the action 'remove' (its sanitized_content holds the exact bytes being removed, its
// target_blob_hash their blob: promote removes the file only while it still holds them) and the
// state 'removed'. SQLite cannot change a CHECK constraint in place, so the table is made again
// with every row carried over unchanged.
import type { Db } from '../../database.js';

export function migrateToRetirementFiles(db: Db): void {
  db.exec(`
        CREATE TABLE promotion_files_v10 (
          plan_id TEXT NOT NULL REFERENCES promotion_journal (plan_id),
          target_path TEXT NOT NULL,
          entry_id TEXT NOT NULL,
          action TEXT NOT NULL CHECK (action IN ('create', 'update', 'remove')),
          candidate_ids_json TEXT NOT NULL,
          target_blob_hash TEXT,
          sanitized_content BLOB NOT NULL,
          sanitized_digest TEXT NOT NULL,
          findings_json TEXT NOT NULL DEFAULT '[]',
          state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'written', 'skipped', 'drifted', 'removed')),
          PRIMARY KEY (plan_id, target_path)
        ) STRICT;
        INSERT INTO promotion_files_v10
          SELECT plan_id, target_path, entry_id, action, candidate_ids_json, target_blob_hash, sanitized_content,
                 sanitized_digest, findings_json, state
          FROM promotion_files;
        DROP TABLE promotion_files;
        ALTER TABLE promotion_files_v10 RENAME TO promotion_files;
      `);
}
