// v9: each approved entry's anchors (the repository claims in its text) and its last verdict
// against the worktree, beside the entry (memory/anchors.ts, effects/anchor-verify.ts). A table of
// its own, keyed like approved_entries: a sync that replaces an owner's entries leaves these rows
// alone, and content_digest says which entry text the anchors were read from, so an edited entry is
// re-extracted; the partial index finds an owner's stale entries without reading the fresh ones. anchor_verification keeps the verifier's stamp cache per owner, so a run on an
// unchanged tree re-reads nothing.
import type { Db } from '../../database.js';

export function migrateToEntryAnchors(db: Db): void {
  db.exec(`
        CREATE TABLE entry_anchors (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          entry_id TEXT NOT NULL,
          content_digest TEXT NOT NULL,
          anchors_json TEXT NOT NULL,
          verdict TEXT NOT NULL CHECK (verdict IN ('fresh', 'stale', 'unknown')),
          failed_json TEXT NOT NULL DEFAULT '[]',
          verified_at_ms INTEGER NOT NULL,
          PRIMARY KEY (repository_key, worktree_key, entry_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX entry_anchors_stale ON entry_anchors (repository_key, worktree_key) WHERE verdict = 'stale';
        CREATE TABLE anchor_verification (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          cache_json TEXT NOT NULL,
          stale_entries INTEGER NOT NULL CHECK (stale_entries >= 0),
          verified_at_ms INTEGER NOT NULL,
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT, WITHOUT ROWID;
      `);
}
