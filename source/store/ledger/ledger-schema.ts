// ledger.sqlite: what each root conversation's agent read (candidate metadata, never bodies),
// bound to the client, a digest of the root's session id, and the generation that held when it
// was read. Its own file and its own migrations: resetting it never touches capture or memory.
import type { Schema } from '../migrations.js';

export const ledgerSchema: Schema = {
  name: 'ledger.sqlite',
  steps: [
    (db) => {
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
    },
  ],
};
