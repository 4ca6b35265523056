// v1: identity, repository bindings, tasks and submissions, chunks, candidates with their FTS,
// evidence and assessments, the (empty) approved projection, authorisation log, conformance cache.
import { crypto } from '../../../ground/lazy-builtin.js';
import type { Db } from '../../database.js';

export function migrateToFoundation(db: Db): void {
  db.exec(`
        CREATE TABLE memory_state_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

        CREATE TABLE repository_bindings (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          root_realpath TEXT NOT NULL,
          root_realpath_digest TEXT NOT NULL,
          common_dir_device TEXT NOT NULL,
          common_dir_inode TEXT NOT NULL,
          memory_root TEXT NOT NULL DEFAULT '.common-memory/memory',
          status TEXT NOT NULL DEFAULT 'active',
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT;

        CREATE TABLE runs (
          run_id TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          runner TEXT NOT NULL,
          request_json TEXT NOT NULL,
          request_digest TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed')),
          summary_json TEXT,
          started_at_ms INTEGER NOT NULL,
          finished_at_ms INTEGER
        ) STRICT;

        CREATE TABLE chunks (
          chunk_ref TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          session_key TEXT NOT NULL,
          turn_range TEXT NOT NULL,
          chunk_digest TEXT NOT NULL,
          source_input_digest TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'drafted', 'extracted', 'stale')),
          created_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE tasks (
          task_id TEXT PRIMARY KEY,
          kind TEXT NOT NULL CHECK (kind IN ('extraction', 'adjudication', 'consolidation')),
          run_id TEXT,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          chunk_ref TEXT REFERENCES chunks (chunk_ref),
          draft_batch_ref TEXT,
          task_json TEXT NOT NULL,
          authorization_plan_digest TEXT,
          lease_holder TEXT,
          lease_epoch INTEGER NOT NULL DEFAULT 0,
          claim_token TEXT,
          lease_expires_at_ms INTEGER,
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'submitted', 'stale')),
          attempts INTEGER NOT NULL DEFAULT 0,
          last_error TEXT,
          superseded_by TEXT,
          created_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX tasks_open ON tasks (status, created_at_ms) WHERE status IN ('pending', 'claimed');

        CREATE TABLE submissions (
          task_id TEXT PRIMARY KEY REFERENCES tasks (task_id),
          response_digest TEXT NOT NULL,
          outcome_json TEXT NOT NULL,
          received_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE submission_conflicts (
          task_id TEXT NOT NULL,
          response_digest TEXT NOT NULL,
          reason TEXT NOT NULL,
          received_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE candidates (
          candidate_id TEXT PRIMARY KEY,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          chunk_ref TEXT NOT NULL REFERENCES chunks (chunk_ref),
          task_id TEXT NOT NULL,
          revision INTEGER NOT NULL DEFAULT 1,
          content_digest TEXT NOT NULL,
          payload_json TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'quarantined', 'promoted', 'discarded', 'superseded')),
          adjudication TEXT NOT NULL DEFAULT 'pending' CHECK (adjudication IN ('pending', 'done', 'failed')),
          decision TEXT CHECK (decision IN ('store', 'skip', 'update', 'merge')),
          superseded_by TEXT,
          findings_json TEXT NOT NULL DEFAULT '[]',
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX candidates_by_status ON candidates (status, adjudication);

        -- rowid = candidates.rowid; kept in the transaction that writes the candidate. Only live
        -- candidates (draft) are in it: the dedup pool.
        CREATE VIRTUAL TABLE candidate_fts USING fts5(searchable_text, content='', contentless_delete=1, tokenize='porter unicode61');

        CREATE TABLE candidate_projection (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          generation INTEGER NOT NULL,
          analyzer_version TEXT NOT NULL,
          recall_algorithm_version TEXT NOT NULL,
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT;

        CREATE TABLE candidate_provenance (
          candidate_id TEXT NOT NULL REFERENCES candidates (candidate_id),
          from_candidate_id TEXT NOT NULL,
          relation TEXT NOT NULL CHECK (relation IN ('update', 'merge', 'skip')),
          task_id TEXT NOT NULL,
          from_revision INTEGER NOT NULL,
          recorded_at_ms INTEGER NOT NULL,
          PRIMARY KEY (candidate_id, from_candidate_id, task_id)
        ) STRICT;

        CREATE TABLE approved_entries (
          entry_id TEXT NOT NULL,
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          revision INTEGER NOT NULL,
          content_digest TEXT NOT NULL,
          frontmatter_json TEXT NOT NULL,
          body_text TEXT NOT NULL,
          status TEXT NOT NULL,
          PRIMARY KEY (entry_id, repository_key, worktree_key)
        ) STRICT;
        CREATE VIRTUAL TABLE approved_fts USING fts5(searchable_text, content='', contentless_delete=1, tokenize='porter unicode61');

        CREATE TABLE approved_projection (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          generation INTEGER NOT NULL,
          source_tree_digest TEXT NOT NULL,
          coverage TEXT NOT NULL DEFAULT 'complete' CHECK (coverage IN ('complete', 'partial')),
          analyzer_version TEXT NOT NULL,
          recall_algorithm_version TEXT NOT NULL,
          PRIMARY KEY (repository_key, worktree_key)
        ) STRICT;

        CREATE TABLE runner_conformance (
          profile TEXT PRIMARY KEY,
          cli_version_fingerprint TEXT NOT NULL,
          test_version TEXT NOT NULL,
          passed_at_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE evidence_refs (
          candidate_id TEXT NOT NULL REFERENCES candidates (candidate_id),
          statement_id TEXT NOT NULL,
          evidence_id TEXT NOT NULL,
          pointer_digest TEXT NOT NULL,
          session_key TEXT NOT NULL,
          turn_key TEXT NOT NULL,
          client TEXT NOT NULL,
          relation TEXT NOT NULL DEFAULT 'cites',
          strength TEXT NOT NULL,
          limitations_json TEXT NOT NULL DEFAULT '[]',
          task_id TEXT NOT NULL,
          PRIMARY KEY (candidate_id, statement_id, evidence_id)
        ) STRICT;

        CREATE TABLE assessments (
          candidate_id TEXT NOT NULL REFERENCES candidates (candidate_id),
          statement_id TEXT NOT NULL,
          citations_digest TEXT NOT NULL,
          provenance_strength TEXT NOT NULL,
          limitations_json TEXT NOT NULL,
          claim_support TEXT NOT NULL CHECK (claim_support IN ('unverified', 'typed-fact', 'human-confirmed')),
          assessed_by TEXT NOT NULL CHECK (assessed_by IN ('deterministic', 'human')),
          statement_text_digest TEXT NOT NULL,
          revision INTEGER NOT NULL,
          PRIMARY KEY (candidate_id, statement_id)
        ) STRICT;

        CREATE TABLE authorization_log (
          plan_digest TEXT NOT NULL,
          task_id TEXT,
          runner_input_digest TEXT,
          input_coverage_digest TEXT,
          provider TEXT,
          model TEXT,
          endpoint TEXT,
          bytes INTEGER,
          decided_at_ms INTEGER NOT NULL,
          via TEXT NOT NULL CHECK (via IN ('interactive', 'digest', 'manifest')),
          manifest_digest TEXT
        ) STRICT;
      `);
  db.prepare("INSERT INTO memory_state_meta (key, value) VALUES ('memory_state_uuid', ?), ('created_at', ?)").run(
    crypto().randomUUID(),
    new Date().toISOString(),
  );
}
