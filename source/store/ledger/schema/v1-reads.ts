// v1: the whole ledger. Roots (a root conversation per client, known by a digest of its session
// id), their generations (a clear retires one and opens the next), each turn bound to the
// generation it began in, and the reads: which approved entry, at which content digest, a root's
// agent read in a generation — its title, applies-when and sources, never its body. ledger_meta
// keeps the commit counter the reads are ordered by.
import type { Db } from '../../database.js';

export function migrateToReads(db: Db): void {
  db.exec(`
        CREATE TABLE roots (
          root_id INTEGER PRIMARY KEY,
          client TEXT NOT NULL,
          root_digest TEXT NOT NULL,
          generation INTEGER NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('active', 'inactive')),
          last_seen_ms INTEGER NOT NULL,
          UNIQUE (client, root_digest)
        ) STRICT;
        CREATE TABLE generations (
          root_id INTEGER NOT NULL REFERENCES roots (root_id) ON DELETE CASCADE,
          generation INTEGER NOT NULL,
          opened_at_ms INTEGER NOT NULL,
          retired_at_ms INTEGER,
          PRIMARY KEY (root_id, generation)
        ) STRICT;
        CREATE TABLE turns (
          root_id INTEGER NOT NULL REFERENCES roots (root_id) ON DELETE CASCADE,
          turn_digest TEXT NOT NULL,
          generation INTEGER NOT NULL,
          seen_at_ms INTEGER NOT NULL,
          PRIMARY KEY (root_id, turn_digest)
        ) STRICT;
        CREATE TABLE reads (
          root_id INTEGER NOT NULL REFERENCES roots (root_id) ON DELETE CASCADE,
          generation INTEGER NOT NULL,
          entry_id TEXT NOT NULL,
          content_digest TEXT NOT NULL,
          title TEXT NOT NULL,
          applies_when TEXT,
          sources_json TEXT NOT NULL,
          observed_at_ms INTEGER NOT NULL,
          commit_seq INTEGER NOT NULL,
          PRIMARY KEY (root_id, generation, entry_id, content_digest)
        ) STRICT;
        CREATE INDEX reads_by_commit ON reads (root_id, generation, commit_seq);
        CREATE TABLE ledger_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
        INSERT INTO ledger_meta (key, value) VALUES ('commit_seq', 0);
      `);
}
