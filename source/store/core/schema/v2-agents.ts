// core.sqlite v2: driven agents (seed 003 §05a–07a) — agents, generations (fencing tokens with
// their own wire ordinal heads), prompt lifecycle fields on operations, and the identity of a
// raw pi record: (generation, stream, ordinal).
import type { Db } from '../../database.js';

export function migrateToAgents(db: Db): void {
  db.exec(`
    CREATE TABLE agents (
      agent_id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      model TEXT,
      pi_config_dir TEXT,
      agent_dir TEXT NOT NULL,
      current_generation_id TEXT,
      active_operation_id TEXT,
      created_journal_sequence INTEGER NOT NULL REFERENCES journal (sequence),
      created_at_ms INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE generations (
      generation_id TEXT PRIMARY KEY,
      agent_id TEXT NOT NULL REFERENCES agents (agent_id),
      number INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('starting', 'running', 'stopping', 'stopped', 'interrupted')),
      host_id TEXT NOT NULL,
      pid INTEGER,
      stdout_head INTEGER NOT NULL DEFAULT 0,
      stderr_head INTEGER NOT NULL DEFAULT 0,
      projection_error TEXT,
      exit_detail TEXT,
      started_journal_sequence INTEGER NOT NULL REFERENCES journal (sequence),
      ended_journal_sequence INTEGER REFERENCES journal (sequence),
      UNIQUE (agent_id, number)
    ) STRICT;

    ALTER TABLE operations ADD COLUMN generation_id TEXT;
    ALTER TABLE operations ADD COLUMN pi_request_id TEXT;
    ALTER TABLE operations ADD COLUMN target_operation_id TEXT;
    ALTER TABLE operations ADD COLUMN user_echo_journal_sequence INTEGER;
    ALTER TABLE operations ADD COLUMN last_journal_sequence INTEGER;

    CREATE UNIQUE INDEX journal_wire_identity ON journal (generation_id, wire_stream, wire_ordinal) WHERE wire_ordinal IS NOT NULL;
    CREATE INDEX operations_by_agent ON operations (agent_id, state) WHERE agent_id IS NOT NULL;
  `);
}
