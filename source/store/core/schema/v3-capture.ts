// core.sqlite v3: host capture (seed 002) — inbox envelope identity, host activations with their
// frozen snapshot, transcript watches (hook capture cursor + drain parse cursor), prompt
// candidates, sessions, turns, messages, batches and recovery items.
// node:* and better-sqlite3 only: the hook fast path migrates a fresh store.
import type { Db } from '../../database.js';

export function migrateToCapture(db: Db): void {
  db.exec(`
    -- One transcript file of one client. captured_bytes: transcript bytes already copied into
    -- envelopes by hooks (the next hook copies from here). consumed_bytes + parser_state: how far
    -- the drain has applied them. Shared by every activation of the same host session (resume
    -- appends to the same file).
    CREATE TABLE capture_watches (
      watch_id INTEGER PRIMARY KEY,
      client TEXT NOT NULL CHECK (client IN ('codex', 'claude')),
      transcript_path TEXT NOT NULL,
      host_session_id TEXT NOT NULL,
      captured_bytes INTEGER NOT NULL DEFAULT 0 CHECK (captured_bytes >= 0),
      consumed_bytes INTEGER NOT NULL DEFAULT 0 CHECK (consumed_bytes >= 0),
      parser_state TEXT,
      UNIQUE (client, transcript_path)
    ) STRICT;

    -- One activation = one capture session: client + host process instance + host session id,
    -- and a new ordinal after a real end and a new start. session_key is its public digest.
    CREATE TABLE capture_activations (
      activation_id INTEGER PRIMARY KEY,
      session_key TEXT NOT NULL UNIQUE,
      client TEXT NOT NULL CHECK (client IN ('codex', 'claude')),
      process_instance TEXT NOT NULL,
      host_session_id TEXT NOT NULL,
      ordinal INTEGER NOT NULL CHECK (ordinal >= 1),
      cwd TEXT,
      watch_id INTEGER REFERENCES capture_watches (watch_id),
      state TEXT NOT NULL CHECK (state IN ('active', 'ended')),
      snapshot TEXT,
      started_at_ms INTEGER NOT NULL,
      ended_at_ms INTEGER,
      UNIQUE (client, process_instance, host_session_id, ordinal)
    ) STRICT;
    CREATE INDEX capture_activations_active ON capture_activations (client, process_instance, host_session_id) WHERE state = 'active';

    ALTER TABLE inbox ADD COLUMN activation_id INTEGER REFERENCES capture_activations (activation_id);
    ALTER TABLE inbox ADD COLUMN host_session_id TEXT;
    ALTER TABLE inbox ADD COLUMN process_instance TEXT;
    ALTER TABLE inbox ADD COLUMN watch_id INTEGER REFERENCES capture_watches (watch_id);
    ALTER TABLE inbox ADD COLUMN tail_state TEXT NOT NULL DEFAULT 'none';
    ALTER TABLE inbox ADD COLUMN tail_from INTEGER;
    ALTER TABLE inbox ADD COLUMN tail_to INTEGER;
    ALTER TABLE inbox ADD COLUMN processed_at_ms INTEGER;
    -- v1 envelopes carry no identity and no transcript bytes: kept as they are, marked legacy.
    UPDATE inbox SET state = 'legacy' WHERE activation_id IS NULL AND state = 'pending';
    CREATE INDEX inbox_pending ON inbox (activation_id, id) WHERE state = 'pending';

    -- The transcript bytes an envelope keeps (tail_from..tail_to), in order, in rows of at most
    -- HOOK_TAIL_CHUNK_BYTES: bounded reads for the drain. Deleted when the envelope is processed.
    CREATE TABLE inbox_tails (
      inbox_id INTEGER NOT NULL REFERENCES inbox (id),
      seq INTEGER NOT NULL CHECK (seq >= 0),
      bytes BLOB NOT NULL,
      PRIMARY KEY (inbox_id, seq)
    ) STRICT;

    -- A UserPromptSubmit prompt, per host session / turn reference / digest, with the scope (cwd)
    -- frozen at input time. body is cleared once a transcript user message matched it.
    CREATE TABLE prompt_candidates (
      candidate_id INTEGER PRIMARY KEY,
      activation_id INTEGER NOT NULL REFERENCES capture_activations (activation_id),
      client TEXT NOT NULL,
      host_session_id TEXT NOT NULL,
      turn_ref TEXT NOT NULL,
      digest TEXT NOT NULL,
      body TEXT,
      scope TEXT,
      inbox_id INTEGER NOT NULL REFERENCES inbox (id),
      state TEXT NOT NULL CHECK (state IN ('pending', 'delivered')),
      delivered_message_id INTEGER,
      UNIQUE (client, host_session_id, turn_ref, digest)
    ) STRICT;
    CREATE INDEX prompt_candidates_pending ON prompt_candidates (client, host_session_id, digest) WHERE state = 'pending';

    -- What the drain has made of an activation: body bytes (capacity) and buffered turn count.
    CREATE TABLE capture_sessions (
      activation_id INTEGER PRIMARY KEY REFERENCES capture_activations (activation_id),
      body_bytes INTEGER NOT NULL DEFAULT 0,
      buffered_turns INTEGER NOT NULL DEFAULT 0,
      updated_at_ms INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE capture_batches (
      batch_id INTEGER PRIMARY KEY,
      activation_id INTEGER NOT NULL REFERENCES capture_activations (activation_id),
      state TEXT NOT NULL CHECK (state IN ('ready')),
      sealed_at_ms INTEGER NOT NULL
    ) STRICT;

    -- Turn identity is (watch, turn key): the same turn replayed is a no-op, different content a conflict.
    CREATE TABLE capture_turns (
      turn_id INTEGER PRIMARY KEY,
      activation_id INTEGER NOT NULL REFERENCES capture_activations (activation_id),
      watch_id INTEGER NOT NULL REFERENCES capture_watches (watch_id),
      turn_key TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('settled', 'failed', 'interrupted', 'incomplete')),
      digest TEXT,
      error TEXT,
      batch_id INTEGER UNIQUE REFERENCES capture_batches (batch_id),
      message_count INTEGER NOT NULL DEFAULT 0,
      recorded_at_ms INTEGER NOT NULL,
      UNIQUE (watch_id, turn_key)
    ) STRICT;
    CREATE INDEX capture_turns_by_activation ON capture_turns (activation_id, state);

    -- User bodies live here once (candidate body and envelope tail are cleared when this row is
    -- written); assistant/tool bodies are context cache only.
    CREATE TABLE capture_messages (
      message_id INTEGER PRIMARY KEY,
      turn_id INTEGER NOT NULL REFERENCES capture_turns (turn_id),
      position INTEGER NOT NULL,
      message_key TEXT NOT NULL,
      role TEXT NOT NULL,
      classification TEXT NOT NULL CHECK (classification IN ('evidence', 'context')),
      kind TEXT NOT NULL,
      digest TEXT NOT NULL,
      body TEXT,
      candidate_id INTEGER REFERENCES prompt_candidates (candidate_id),
      line INTEGER NOT NULL,
      timestamp TEXT,
      UNIQUE (turn_id, position)
    ) STRICT;

    -- An isolated activation: one open item per activation, a fixed code, the original inbox row.
    CREATE TABLE recovery_items (
      recovery_id INTEGER PRIMARY KEY,
      activation_id INTEGER NOT NULL REFERENCES capture_activations (activation_id),
      inbox_id INTEGER NOT NULL REFERENCES inbox (id),
      code TEXT NOT NULL,
      detail TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 1,
      state TEXT NOT NULL CHECK (state IN ('open', 'resolved')),
      created_at_ms INTEGER NOT NULL,
      updated_at_ms INTEGER NOT NULL,
      resolved_at_ms INTEGER
    ) STRICT;
    CREATE UNIQUE INDEX recovery_open_per_activation ON recovery_items (activation_id) WHERE state = 'open';
    CREATE INDEX recovery_open ON recovery_items (recovery_id) WHERE state = 'open';
  `);
}
