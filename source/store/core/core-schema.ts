// core.sqlite: journal, timeline, operations, host activations and the hook inbox.
// node:* and better-sqlite3 only (the hook fast path migrates a fresh store).
import { crypto } from '../../ground/lazy-builtin.js';
import type { Schema } from '../migrations.js';
import { migrateToAgents } from './schema/v2-agents.js';
import { migrateToCapture } from './schema/v3-capture.js';
import { migrateToSessionSearch } from './schema/v4-session-search.js';
import { migrateToPiClient } from './schema/v5-pi-client.js';
import { migrateToSnapshotRefresh } from './schema/v6-snapshot-refresh.js';
import { migrateToSealOrder } from './schema/v7-seal-order.js';
import { migrateToImports } from './schema/v8-imports.js';
import { migrateToSessionStart } from './schema/v10-session-start.js';
import { migrateToTypedAt } from './schema/v9-typed-at.js';

export const coreSchema: Schema = {
  name: 'core.sqlite',
  steps: [
    // v1: the foundation — identity, two histories with their heads, operations, host activations, inbox.
    (db) => {
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
        CREATE TABLE heads (
          stream TEXT PRIMARY KEY CHECK (stream IN ('journal', 'timeline')),
          head INTEGER NOT NULL CHECK (head >= 0)
        ) STRICT;
        INSERT INTO heads (stream, head) VALUES ('journal', 0), ('timeline', 0);

        CREATE TABLE journal (
          sequence INTEGER PRIMARY KEY,
          event_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          agent_id TEXT,
          generation_id TEXT,
          operation_id TEXT,
          wire_stream TEXT CHECK (wire_stream IN ('stdout', 'stderr')),
          wire_ordinal INTEGER,
          payload TEXT NOT NULL,
          canonical_message_id TEXT,
          recorded_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX journal_by_agent ON journal (agent_id, sequence) WHERE agent_id IS NOT NULL;
        CREATE INDEX journal_by_message ON journal (canonical_message_id) WHERE canonical_message_id IS NOT NULL;

        CREATE TABLE timeline (
          sequence INTEGER PRIMARY KEY,
          message_id TEXT NOT NULL UNIQUE,
          agent_id TEXT,
          generation_id TEXT,
          operation_id TEXT,
          role TEXT NOT NULL,
          payload TEXT NOT NULL,
          source_journal_sequence INTEGER NOT NULL REFERENCES journal (sequence),
          recorded_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX timeline_by_agent ON timeline (agent_id, sequence) WHERE agent_id IS NOT NULL;

        CREATE TABLE operations (
          operation_id TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          agent_id TEXT,
          input TEXT NOT NULL,
          state TEXT NOT NULL,
          journal_sequence INTEGER NOT NULL REFERENCES journal (sequence),
          user_message_id TEXT,
          outcome TEXT,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE host_activations (
          host_id TEXT PRIMARY KEY,
          pid INTEGER NOT NULL,
          process_started_at TEXT,
          started_journal_sequence INTEGER NOT NULL REFERENCES journal (sequence),
          stopped_journal_sequence INTEGER REFERENCES journal (sequence),
          started_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE inbox (
          id INTEGER PRIMARY KEY,
          client TEXT NOT NULL,
          event TEXT NOT NULL,
          received_at_ms INTEGER NOT NULL,
          payload TEXT NOT NULL,
          state TEXT NOT NULL DEFAULT 'pending'
        ) STRICT;
      `);
      db.prepare("INSERT INTO meta (key, value) VALUES ('store_id', ?), ('created_at', ?)").run(
        crypto().randomUUID(),
        new Date().toISOString(),
      );
    },
    // v2: driven agents — agents, generations, prompt lifecycle, raw pi record identity.
    migrateToAgents,
    // v3: host capture — inbox identity, activations, watches, candidates, sessions, turns, messages, batches, recovery items.
    migrateToCapture,
    // v4: session search — FTS5 over delivered user turns and driven agents' user rows, back-filled once.
    migrateToSessionSearch,
    // v5: pi as a captured client (capture_watches and capture_activations accept client 'pi').
    migrateToPiClient,
    // v6: a refreshed session-start snapshot waits for its delivery (capture_activations.snapshot_pending).
    migrateToSnapshotRefresh,
    // v7: every sealed turn has its own instant (an index on capture_turns.recorded_at_ms; collisions re-stamped).
    migrateToSealOrder,
    // v8: imported conversations — an origin on watches and activations, source lines, quarantined files.
    migrateToImports,
    // v9: session search knows when each text was typed (typed_at_ms; the index rebuilt).
    migrateToTypedAt,
    // v10: sessions are listed by start time through an index on it (capture_activations_by_start).
    migrateToSessionStart,
  ],
};
