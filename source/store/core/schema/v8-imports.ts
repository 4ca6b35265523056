// v8: imported conversations (seed 002's imports beside live capture). Transcripts a client wrote
// before common-memory was installed are read by `import` through the drain's own parsers; what
// they yield is kept apart from live capture by an origin on the watch and the activation, each
// imported turn remembers the line of its source file it starts at, and a file the parser refused
// is a quarantine row (the file itself is never touched: every byte stays where the client wrote
// it). Identity stays the client's own: an index finds the watches of one host session, so a turn
// captured live (or imported from another file) is never stored twice.
import type { Db } from '../../database.js';

export function migrateToImports(db: Db): void {
  db.exec(`
    ALTER TABLE capture_watches ADD COLUMN origin TEXT NOT NULL DEFAULT 'live' CHECK (origin IN ('live', 'imported'));
    ALTER TABLE capture_activations ADD COLUMN origin TEXT NOT NULL DEFAULT 'live' CHECK (origin IN ('live', 'imported'));
    -- Imported turns only: the 1-based line of the source file the turn starts at.
    ALTER TABLE capture_turns ADD COLUMN source_line INTEGER;
    CREATE INDEX capture_watches_by_session ON capture_watches (client, host_session_id);

    -- A transcript file an import could not read whole: the parser's fixed code and where it
    -- stopped. One row per file; a later import retries it from its cursor.
    CREATE TABLE import_quarantine (
      quarantine_id INTEGER PRIMARY KEY,
      client TEXT NOT NULL,
      source_path TEXT NOT NULL,
      source_bytes INTEGER NOT NULL,
      code TEXT NOT NULL,
      detail TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 1,
      state TEXT NOT NULL CHECK (state IN ('open', 'resolved')),
      created_at_ms INTEGER NOT NULL,
      updated_at_ms INTEGER NOT NULL,
      UNIQUE (client, source_path)
    ) STRICT;
  `);
}
